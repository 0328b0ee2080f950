// Package target judges goals on two framework variants of one run (the
// render engine's targets, issue 5; tools/engine-ratios) by compare's rank
// test at each variant's own peak level, a target's rows one Holm family.
// A Target is a goal, not a variant to measure (run.Target).
//
// Met rule, per row: met when faster (P99: significantly lower), or same with
// the ratio of medians ≥ 1 (P99: < 1); not shown when same otherwise; missed
// when slower; unknown without a verdict. A target is met when every row is.
package target

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/montanaflynn/stats"
	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/ratio"
	"github.com/tfbench/tfbench/harness/results"
)

// Metric is the per-round value a target tests.
type Metric string

// Metrics: PeakRPS is each round's RPS (requests/s) at the peak level,
// higher is better; P99 each round's p99 latency (ms) at the peak level
// (ratio.Rounds.P99ms), lower is better.
const (
	PeakRPS Metric = "peak RPS"
	P99     Metric = "p99"
)

// Target is a goal on variant Of against variant Over on Tests (names; a page test has a row per size, ratio.Ns).
type Target struct {
	Name     string
	Of, Over model.ID
	Metric   Metric
	Tests    []string
}

var (
	enginePool = model.ID{Framework: "engine", Variant: "pool"}
	nodeHTTP   = model.ID{Framework: "node-http", Variant: "default"}
)

// Six are the TechEmpower tests of suites/engine.yaml.
var Six = []string{"json", "plaintext", "db", "queries", "fortunes", "updates"}

// EngineTargets are issue 5's targets, per core (every server gets the same
// server CPU set), in one bench:engine run. The pool ≥ 1.5× serialized and
// flat V8 value count targets are Go tests in frameworks/engine.
var EngineTargets = []Target{
	{Name: "engine/pool ≥ 1.0× node-http on the six tests", Of: enginePool, Over: nodeHTTP, Metric: PeakRPS, Tests: Six},
	{Name: "engine/pool ≥ 1.0× node-http on every page size", Of: enginePool, Over: nodeHTTP, Metric: PeakRPS, Tests: []string{"page"}},
	{Name: "engine/pool ≥ 1.0× go-stdlib on the six tests", Of: enginePool, Over: model.Reference, Metric: PeakRPS, Tests: Six},
	{Name: "engine/pool p99 at peak below node-http's on the six tests", Of: enginePool, Over: nodeHTTP, Metric: P99, Tests: Six},
}

// Status is a row's standing against its target (package doc, Met rule).
type Status string

// Statuses.
const (
	Met      Status = "met"
	NotShown Status = "not shown"
	Missed   Status = "missed"
	Unknown  Status = "unknown"
)

// Rule is the met rule (package doc) for a verdict already oriented so that
// faster is better for Of, and ratio = median(Of) ÷ median(Over).
func Rule(m Metric, v compare.Verdict, ratio float64) Status {
	switch v {
	case compare.Faster:
		return Met
	case compare.Slower:
		return Missed
	case compare.Same:
		if (m == P99 && ratio < 1) || (m != P99 && ratio >= 1) {
			return Met
		}
		return NotShown
	}
	return Unknown
}

// Row is one test at one N of a target, judged. Medians are of the
// per-round values (requests/s or ms); Ratio is OfMedian ÷ OverMedian, 0
// when a side has none. Outcome's Verdict is oriented: faster is better for Of.
type Row struct {
	Test                 string
	N                    int
	OfMedian, OverMedian float64
	OfRounds, OverRounds int
	Ratio                float64
	compare.Outcome
	Status Status
}

// Result is one target with its rows in suite order; Detectable and Limit
// are its family's (compare.Family).
type Result struct {
	Target
	Rows       []Row
	Detectable bool
	Limit      string
}

// Met reports whether every row of r is met.
func (r Result) Met() bool {
	return len(r.Rows) > 0 && !slices.ContainsFunc(r.Rows, func(x Row) bool { return x.Status != Met })
}

// Count is the number of r's rows with status s.
func (r Result) Count(s Status) int {
	n := 0
	for _, x := range r.Rows {
		if x.Status == s {
			n++
		}
	}
	return n
}

// Judge judges each target on f with o's α and min change (BaseName and
// NewName are set per target to Over and Of). Errors: options out of range.
func Judge(f *results.File, targets []Target, o compare.Options) ([]Result, error) {
	rounds := ratio.RowRounds(f)
	var out []Result
	for _, t := range targets {
		res := Result{Target: t}
		var pairs []compare.Pair
		for _, name := range t.Tests {
			i := slices.IndexFunc(f.Suite.Tests, func(x results.Test) bool { return x.Name == name })
			if i < 0 {
				res.Rows = append(res.Rows, Row{Test: name})
				pairs = append(pairs, compare.Pair{Why: fmt.Sprintf("suite %s has no test %s", f.Suite.Name, name)})
				continue
			}
			for _, n := range ratio.Ns(f.Suite.Tests[i]) {
				row, pair := judgeRow(f, rounds, t, name, n)
				res.Rows = append(res.Rows, row)
				pairs = append(pairs, pair)
			}
		}
		o.BaseName, o.NewName = t.Over.String(), t.Of.String()
		fam, err := compare.Rank(pairs, o)
		if err != nil {
			return nil, err
		}
		res.Detectable, res.Limit = fam.Detectable, fam.Limit
		for i, oc := range fam.Outcomes {
			r := &res.Rows[i]
			r.Outcome = oc
			if t.Metric == P99 { // lower is better: a higher p99 is slower
				switch oc.Verdict {
				case compare.Faster:
					r.Verdict = compare.Slower
				case compare.Slower:
					r.Verdict = compare.Faster
				}
			}
			r.Status = Rule(t.Metric, r.Verdict, r.Ratio)
		}
		out = append(out, res)
	}
	return out, nil
}

// judgeRow gathers one row's per-round values: Of is the rank test's new
// side, Over its base.
func judgeRow(f *results.File, rounds map[ratio.Key]ratio.Rounds, t Target, test string, n int) (Row, compare.Pair) {
	row := Row{Test: test, N: n}
	var pair compare.Pair
	var why []string
	for _, side := range []struct {
		id     model.ID
		values *[]float64
		median *float64
		count  *int
	}{{t.Over, &pair.Base, &row.OverMedian, &row.OverRounds}, {t.Of, &pair.New, &row.OfMedian, &row.OfRounds}} {
		k := ratio.Key{ID: side.id, Test: test, N: n}
		r, ok := rounds[k]
		switch {
		case !ok:
			why = append(why, side.id.String()+": "+compare.MissingReason(f, k))
			continue
		case !r.OK:
			why = append(why, side.id.String()+": no peak: "+r.Reason)
			continue
		}
		v := r.Values()
		if t.Metric == P99 {
			v = r.P99Values()
		}
		*side.values, *side.count = v, len(v)
		*side.median, _ = stats.Median(v) // NumPy's default interpolation, as compare
	}
	pair.Why = strings.Join(why, "; ")
	if row.OfMedian > 0 && row.OverMedian > 0 {
		row.Ratio = row.OfMedian / row.OverMedian
	}
	return row, pair
}

// Write prints each result (a heading, a line per row with both medians,
// ratio, p, verdict and status, the target's standing) and how many targets
// were met; it reports whether all were.
func Write(w io.Writer, rs []Result, o compare.Options) (bool, error) {
	ew := &errWriter{w: w}
	ew.printf("Targets: two-sided Mann-Whitney U over the per-round values at each variant's own peak level, Holm–Bonferroni within each target, α = %g, min change %g%%.\n", o.Alpha, o.MinChange*100)
	ew.printf("met: faster, or same with the ratio ≥ 1.00× (p99: below 1.00×); not shown: same otherwise; missed: slower; unknown: no verdict.\n")
	all := true
	for _, r := range rs {
		unit := "peak RPS in requests/s, higher is better"
		if r.Metric == P99 {
			unit = "p99 at the peak level in ms, lower is better"
		}
		tested := 0
		for _, x := range r.Rows {
			if x.Tested {
				tested++
			}
		}
		ew.printf("\n%s (%s; medians over rounds; Holm over the %d tested rows of %d):\n", r.Name, unit, tested, len(r.Rows))
		if r.Limit != "" {
			ew.printf("  no verdict possible: %s\n", r.Limit)
		}
		tw := tabwriter.NewWriter(ew, 0, 4, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "  test\t%s\t%s\tratio\tchange\tp\tp (Holm)\tverdict\ttarget\t\n", r.Of, r.Over)
		for _, x := range r.Rows {
			ratioText, change, p, ph := "—", "—", "—", "—"
			if x.Ratio > 0 {
				ratioText, change = fmt.Sprintf("%.2f×", x.Ratio), fmt.Sprintf("%+.1f%%", x.Change*100)
			}
			if x.Tested {
				p, ph = PText(x.P), PText(x.PHolm)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t", ratio.Label(x.Test, x.N),
				Value(r.Metric, x.OfMedian, x.OfRounds), Value(r.Metric, x.OverMedian, x.OverRounds),
				ratioText, change, p, ph, x.Verdict, x.Status)
			if x.Status == Unknown && x.Why != "" && x.Why != r.Limit {
				fmt.Fprintf(tw, "  %s", x.Why)
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
		if r.Met() {
			ew.printf("  → met\n")
			continue
		}
		all = false
		var counts []string
		for _, s := range []Status{Met, NotShown, Missed, Unknown} {
			if n := r.Count(s); n > 0 {
				counts = append(counts, fmt.Sprintf("%d %s", n, s))
			}
		}
		ew.printf("  → not met (%s)\n", strings.Join(counts, ", "))
	}
	met := 0
	for _, r := range rs {
		if r.Met() {
			met++
		}
	}
	ew.printf("\n%d of %d targets met.\n", met, len(rs))
	return all, ew.err
}

// Value is a side's median as the tables write it: requests/s as the ratio
// table does, ms with three significant digits; "—" without rounds.
func Value(m Metric, v float64, rounds int) string {
	switch {
	case rounds == 0:
		return "—"
	case m != P99:
		return ratio.RPSText(v)
	case v < 10:
		return fmt.Sprintf("%.2f ms", v)
	case v < 100:
		return fmt.Sprintf("%.1f ms", v)
	}
	return fmt.Sprintf("%.0f ms", v)
}

// PText writes a p-value with two significant digits, as compare does.
func PText(p float64) string { return fmt.Sprintf("%.2g", p) }

// errWriter keeps the first write error; later writes do nothing.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func (e *errWriter) printf(format string, a ...any) { fmt.Fprintf(e, format, a...) }

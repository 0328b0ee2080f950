// Package target judges goals on two framework variants of one run (the
// render engine's targets, frameworks/engine/README.md; tools/engine-ratios) by
// compare's rank test at each variant's own peak level (ProbeP99, LevelP99:
// at each level), a target's rows one Holm family.
// A Target is a goal, not a variant to measure (run.Target).
//
// Met rule, per row (Rule): met when faster (P99, ProbeP99, LevelP99:
// significantly lower), or same with the ratio of medians ≥ 1 (P99,
// ProbeP99: < 1, "below"; LevelP99: ≤ 1, "at or below"); not shown when
// same otherwise; missed when slower; unknown without a verdict.
// With a minimum ratio Min > 1: met when faster and the ratio ≥ Min, missed
// when slower or the ratio < Min, not shown otherwise. A target is met when
// every row is.
package target

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/montanaflynn/stats"
	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/ratio"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/texttab"
)

// Metric is the per-round value a target tests.
type Metric string

// Metrics: PeakRPS is each round's RPS (requests/s) at the peak level,
// higher is better; P99 each round's p99 latency (ms) at the peak level
// (model.Row.P99Values), lower is better; ProbeP99 each round's interference
// probe p99 (ms, ProbeValue) at every closed-loop level, a row per N and
// level, lower is better; LevelP99 each round's p99 (ms,
// model.Sample.HistogramP99, the report's p99-by-level figure) at every
// level both variants passed in one round (judgeLevelRows), lower is better.
const (
	PeakRPS  Metric = "peak RPS"
	P99      Metric = "p99"
	ProbeP99 Metric = "probe p99"
	LevelP99 Metric = "p99 at each level"
)

// LowerBetter reports whether a lower value of m is better (P99, ProbeP99,
// LevelP99).
func LowerBetter(m Metric) bool { return m == P99 || m == ProbeP99 || m == LevelP99 }

// Target is a goal on variant Of against variant Over on Tests (names; a
// page test has a row per size, ratio.Ns, kept to Ns when set, less SkipNs).
// Min is the least ratio of medians a PeakRPS row needs (Rule); 0: 1.
type Target struct {
	Name     string
	Of, Over model.ID
	Metric   Metric
	Tests    []string
	Ns       []int
	SkipNs   []int
	Min      float64
}

// ns are the Ns of test t that target x has rows at.
func (x Target) ns(t results.Test) []int {
	return slices.DeleteFunc(ratio.Ns(t), func(n int) bool {
		return (len(x.Ns) > 0 && !slices.Contains(x.Ns, n)) || slices.Contains(x.SkipNs, n)
	})
}

var (
	enginePool = model.ID{Framework: "engine", Variant: "pool"}
	nodeHTTP   = model.ID{Framework: "node-http", Variant: "default"}
)

// Six are the TechEmpower tests of suites/engine.yaml.
var Six = []string{"json", "plaintext", "db", "queries", "fortunes", "updates"}

// EngineTargets are the render engine's targets, per core (every server gets the same
// server CPU set), in one bench:engine run. The pool ≥ 1.5× serialized and
// flat V8 value count targets are Go tests in frameworks/engine.
var EngineTargets = []Target{
	{Name: "engine/pool ≥ 1.0× node-http on the six tests", Of: enginePool, Over: nodeHTTP, Metric: PeakRPS, Tests: Six},
	{Name: "engine/pool ≥ 1.0× node-http on every page size", Of: enginePool, Over: nodeHTTP, Metric: PeakRPS, Tests: []string{"page"}},
	{Name: "engine/pool ≥ 1.0× go-stdlib on the six tests", Of: enginePool, Over: model.Reference, Metric: PeakRPS, Tests: Six},
	{Name: "engine/pool p99 at peak below node-http's on the six tests", Of: enginePool, Over: nodeHTTP, Metric: P99, Tests: Six},
	// The server-rendered page's: its ratios at 10,000 rows and below, and
	// the interference probe (suite probe: 20ms) at every size and level.
	{Name: "engine/pool ≥ 1.5× node-http at 10,000 rows", Of: enginePool, Over: nodeHTTP, Metric: PeakRPS, Tests: []string{"page"}, Ns: []int{10000}, Min: 1.5},
	{Name: "engine/pool ≥ 1.2× node-http at every other page size", Of: enginePool, Over: nodeHTTP, Metric: PeakRPS, Tests: []string{"page"}, SkipNs: []int{10000}, Min: 1.2},
	{Name: "engine/pool's probe p99 below node-http's at every page size and level", Of: enginePool, Over: nodeHTTP, Metric: ProbeP99, Tests: []string{"page"}},
	// p99 at the same concurrency, not each at its peak: a closed loop's
	// latency grows with its connections, so peaks at other levels mislead.
	{Name: "engine/pool p99 at or below node-http's at every common level of json and fortunes", Of: enginePool, Over: nodeHTTP, Metric: LevelP99, Tests: []string{"json", "fortunes"}},
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
// faster is better for Of, ratio = median(Of) ÷ median(Over), and least a
// higher-is-better target's Min: above 1, a ratio below it is missed
// whatever faster, same or slower say, and only faster is met.
func Rule(m Metric, least float64, v compare.Verdict, ratio float64) Status {
	switch {
	case v != compare.Faster && v != compare.Same && v != compare.Slower:
		return Unknown
	case least > 1 && !LowerBetter(m):
		switch {
		case v == compare.Slower || ratio < least:
			return Missed
		case v == compare.Faster:
			return Met
		}
		return NotShown
	case v == compare.Faster:
		return Met
	case v == compare.Slower:
		return Missed
	case m == LevelP99 && ratio <= 1: // at or below
		return Met
	case (m != LevelP99 && LowerBetter(m) && ratio < 1) || (!LowerBetter(m) && ratio >= 1):
		return Met
	}
	return NotShown
}

// Row is one test at one N (a ProbeP99 or LevelP99 row: and one level,
// Connections × Pipeline) of a target, judged. OfValues and OverValues are
// the per-round values in round order (requests/s or ms), the medians theirs; Ratio is OfMedian ÷
// OverMedian, 0 when a side has none. Outcome's Verdict is oriented: faster
// is better for Of.
type Row struct {
	Test                 string
	N                    int
	Connections          int
	Pipeline             int
	OfValues, OverValues []float64
	OfMedian, OverMedian float64
	OfRounds, OverRounds int
	Ratio                float64
	compare.Outcome
	Status Status
}

// Label names a row: model.Label, and a ProbeP99 or LevelP99 row's level
// ("page N=10 c=16", "json c=64", "plaintext c=256×16").
func (x Row) Label() string {
	if x.Connections > 0 {
		return fmt.Sprintf("%s %s", model.Label(x.Test, x.N), levelName(x.Connections, x.Pipeline))
	}
	return model.Label(x.Test, x.N)
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
	rows := ratio.Rows(f)
	peaks := f.Peaks()
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
			for _, n := range t.ns(f.Suite.Tests[i]) {
				if t.Metric == LevelP99 {
					rows, ps := judgeLevelRows(f, peaks, t, name, n)
					res.Rows = append(res.Rows, rows...)
					pairs = append(pairs, ps...)
					continue
				}
				if t.Metric != ProbeP99 {
					row, pair := judgeRow(f, rows, t, name, n)
					res.Rows = append(res.Rows, row)
					pairs = append(pairs, pair)
					continue
				}
				for _, c := range f.Suite.Tests[i].Concurrency {
					row, pair := judgeProbeRow(f, t, name, n, c)
					res.Rows = append(res.Rows, row)
					pairs = append(pairs, pair)
				}
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
			if LowerBetter(t.Metric) { // a higher p99 is slower
				switch oc.Verdict {
				case compare.Faster:
					r.Verdict = compare.Slower
				case compare.Slower:
					r.Verdict = compare.Faster
				}
			}
			r.Status = Rule(t.Metric, t.Min, r.Verdict, r.Ratio)
		}
		out = append(out, res)
	}
	return out, nil
}

// judgeRow gathers one row's per-round values: Of is the rank test's new
// side, Over its base.
func judgeRow(f *results.File, rows map[model.RowKey]model.Row, t Target, test string, n int) (Row, compare.Pair) {
	row := Row{Test: test, N: n}
	var why []string
	for _, side := range sides(&row, t) {
		k := model.RowKey{ID: side.id, Test: test, N: n}
		r, ok := rows[k]
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
		side.set(v)
	}
	return finish(row, why)
}

// side is one variant of a row being judged: its ID and where its values go.
type side struct {
	id  model.ID
	row *Row
	of  bool
}

// sides are row's two sides under t, Over (the rank test's base) first.
func sides(row *Row, t Target) [2]side {
	return [2]side{{t.Over, row, false}, {t.Of, row, true}}
}

// set records the side's per-round values and their median (NumPy's
// default interpolation, as compare).
func (s side) set(v []float64) {
	m, _ := stats.Median(v)
	if s.of {
		s.row.OfValues, s.row.OfRounds, s.row.OfMedian = v, len(v), m
		return
	}
	s.row.OverValues, s.row.OverRounds, s.row.OverMedian = v, len(v), m
}

// finish sets row's ratio and returns it with its pair (Of the rank test's
// new side, Over its base) and the reasons it has none.
func finish(row Row, why []string) (Row, compare.Pair) {
	if row.OfMedian > 0 && row.OverMedian > 0 {
		row.Ratio = row.OfMedian / row.OverMedian
	}
	return row, compare.Pair{Base: row.OverValues, New: row.OfValues, Why: strings.Join(why, "; ")}
}

// Write prints each result (a heading, a line per row with both medians,
// ratio, p, verdict and status, the target's standing) and how many targets
// were met; it reports whether all were.
func Write(w io.Writer, rs []Result, o compare.Options) (bool, error) {
	ew := &errWriter{w: w}
	ew.printf("Targets: two-sided Mann-Whitney U over the per-round values at each variant's own peak level, Holm–Bonferroni within each target, α = %g, min change %g%%.\n", o.Alpha, o.MinChange*100)
	ew.printf("met: faster, or same with the ratio ≥ 1.00× (p99: below 1.00×; p99 at each level: at or below 1.00×); not shown: same otherwise; missed: slower; unknown: no verdict.\n")
	ew.printf("%s\n", MinRuleText)
	ew.printf("%s\n", ProbeRuleText)
	ew.printf("%s\n", LevelRuleText)
	all := true
	for _, r := range rs {
		unit := Unit(r.Target)
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
		t := texttab.Table{Header: []string{"  test", r.Of.String(), r.Over.String(), "ratio", "change", "p", "p (Holm)", "verdict", "target"}, Align: texttab.AllRight(9)}
		for _, x := range r.Rows {
			ratioText, change, p, ph := "—", "—", "—", "—"
			if x.Ratio > 0 {
				ratioText, change = fmt.Sprintf("%.2f×", x.Ratio), fmt.Sprintf("%+.1f%%", x.Change*100)
			}
			if x.Tested {
				p, ph = PText(x.P), PText(x.PHolm)
			}
			cells := []string{"  " + x.Label(),
				Value(r.Metric, x.OfMedian, x.OfRounds), Value(r.Metric, x.OverMedian, x.OverRounds),
				ratioText, change, p, ph, fmt.Sprint(x.Verdict), fmt.Sprint(x.Status)}
			if x.Status == Unknown && x.Why != "" && x.Why != r.Limit {
				cells = append(cells, "  "+x.Why) // a note after the aligned cells
			}
			t.Row(cells...)
		}
		texttab.Text(ew, t)
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

// MinRuleText, ProbeRuleText and LevelRuleText state the rule for a minimum
// ratio, the probe's lost requests and the p99 at each level (Rule,
// ProbeValue, judgeLevelRows) in Write and the markdown page.
const (
	MinRuleText   = "With a minimum ratio m > 1: met when faster and the ratio ≥ m; missed when slower or the ratio < m; not shown when the ratio ≥ m but the verdict is same."
	ProbeRuleText = "Probe p99: per round, over every probe the window was due (window ÷ interval), a probe not answered in it counted as taking the whole window; a failed probe request makes the round the window's length."
	LevelRuleText = "p99 at each level: per round, the p99 of the round's latency histogram at each level both variants passed the gate at in one round at least (the report's p99-by-level figure), not each at its peak; met when lower, or same with the ratio ≤ 1.00× (at or below); a level a variant failed in a round, or was generator-bound at, is unknown."
)

// Unit says what a target's values are: the metric, its unit, which way is
// better, and the minimum ratio when it has one.
func Unit(t Target) string {
	switch {
	case t.Metric == P99:
		return "p99 at the peak level in ms, lower is better"
	case t.Metric == ProbeP99:
		return "probe p99 at each level in ms, lower is better"
	case t.Metric == LevelP99:
		return "p99 at each common level in ms, lower is better, met at or below 1.00×"
	case t.Min > 1:
		return fmt.Sprintf("peak RPS in requests/s, higher is better, ratio ≥ %.2f× needed", t.Min)
	}
	return "peak RPS in requests/s, higher is better"
}

// Value is a side's median as the tables write it: requests/s as the ratio
// table does, ms with three significant digits; "—" without rounds.
func Value(m Metric, v float64, rounds int) string {
	switch {
	case rounds == 0:
		return "—"
	case !LowerBetter(m):
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

package report

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/tfbench/tfbench/harness/ratio"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/sweep"
)

// Row is one framework variant on one test at one N (the headline N in
// Tables), as every report format shows it: the single markdown report, the
// site's pages and charts, and the CSV.
type Row struct {
	// Run is the label of the run that measured the row (results.Run.Label:
	// the run ID for a plain results.json, the CI job or machine in a merged
	// file).
	Run string
	// Framework, Variant and Runtime name the variant as it ran
	// (results.Framework; Runtime e.g. "node 24.22.3").
	Framework, Variant, Runtime string
	// OK is true when the row has figures: verified pass or warn and a
	// peak (a level whose every round passed the success gate). Otherwise
	// the figures below are zero and Why says why.
	OK  bool
	Why string
	// PeakRPS is the peak: the highest median RPS (requests/s) over the
	// eligible levels (sweep.Peaks); MinRPS and MaxRPS its range over the
	// rounds at that level, Rounds their count.
	PeakRPS, MinRPS, MaxRPS float64
	Rounds                  int
	// PctOfBest is the row's share of the best row of its table in percent
	// (100 = best): of PeakRPS for one run; of RatioToRef for a merged Set
	// (runs on different machines). 0 when it has none.
	PctOfBest float64
	// Best is true for the row PctOfBest is taken against (100%).
	Best bool
	// RatioToRef is PeakRPS over the peak RPS of the reference variant
	// (ratio.Reference, go-stdlib/default) on the same test and N in the
	// same run (1.06 = 6% more requests/s); 0 when that run has no
	// measured reference.
	RatioToRef float64
	// Connections (concurrency) and Pipeline (pipeline depth, 1 = none)
	// are the peak level's.
	Connections, Pipeline int
	// P50ms and P99ms are latency percentiles in ms at the peak level, from
	// the rounds' merged HDR histograms; -1 when none could be read.
	P50ms, P99ms float64
	// CPUms is the server's CPU time per request in ms, the median over the
	// rounds at the peak level; RSSBytes the largest peak resident memory
	// (VmHWM) of the server's process tree over those rounds, in bytes.
	CPUms    float64
	RSSBytes uint64
	// GeneratorSaturated is true when the load generator's CPU was
	// saturated in a round at the peak level (the figure may measure it).
	GeneratorSaturated bool
	// PageBytes is the size of the page verification fetched, in bytes
	// (fortunes; 0 when not recorded).
	PageBytes int
	// Verification is the verdict: "pass", "warn", "fail" or
	// "not verified".
	Verification string
	// Notes spell out the row: verification reasons ("warn: …"), why it
	// was not measured, a saturated generator. Plain text (may hold "<").
	Notes []string
}

// Label names the row's variant: "framework/variant".
func (r Row) Label() string { return r.Framework + "/" + r.Variant }

// TestTable is one suite test at its headline N with one Row per framework
// variant of every run.
type TestTable struct {
	Test results.Test
	// N is the headline N (suite.HeadlineOf: 20 for queries and updates
	// when measured; 0 for the other types).
	N int
	// Slug names the test's page and chart (Slug(Test.Name)).
	Slug string
	// Merged is true when the rows come from several runs (a merged Set):
	// PctOfBest then ranks RatioToRef, and pages show a Run column.
	Merged bool
	// Rows are sorted best first: by PctOfBest's basis, descending; rows
	// without figures last; ties keep run and framework order.
	Rows []Row
}

// Tables returns one TestTable per test of s's suite (the first run's; all
// runs of a Set share the suite hash), in suite order. Errors: a test name
// without letters or digits, a test whose page would be index.md, and two
// tests whose names give the same page name (each error names the tests).
func Tables(s *results.Set) ([]TestTable, error) {
	if len(s.Runs) == 0 {
		return nil, fmt.Errorf("report: no runs")
	}
	// The tests of every run, in order of first appearance: runs of one
	// suite may have measured different subsets (--tests).
	var tests []results.Test
	has := make([]map[string]bool, len(s.Runs))
	for i, r := range s.Runs {
		has[i] = map[string]bool{}
		for _, t := range r.File.Suite.Tests {
			has[i][t.Name] = true
			if !slices.ContainsFunc(tests, func(x results.Test) bool { return x.Name == t.Name }) {
				tests = append(tests, t)
			}
		}
	}
	if err := checkSlugs(tests); err != nil {
		return nil, err
	}
	merged := len(s.Runs) > 1
	peaks := make([][]sweep.Peak, len(s.Runs))
	for i, r := range s.Runs {
		peaks[i] = sweep.Peaks(r.File.Samples)
	}
	out := make([]TestTable, 0, len(tests))
	for _, t := range tests {
		n := suite.HeadlineOf(t.Queries)
		tt := TestTable{Test: t, N: n, Slug: Slug(t.Name), Merged: merged}
		for i, r := range s.Runs {
			if has[i][t.Name] {
				tt.Rows = append(tt.Rows, rowsAt(r.Label, r.File, peaks[i], t.Name, n)...)
			}
		}
		rank(tt.Rows, merged)
		out = append(out, tt)
	}
	return out, nil
}

// rowsAt builds one Row per framework variant of f on test at N, in f's
// framework order, with RatioToRef set; PctOfBest is left to rank.
func rowsAt(run string, f *results.File, peaks []sweep.Peak, test string, n int) []Row {
	out := make([]Row, 0, len(f.Frameworks))
	for _, fw := range f.Frameworks {
		var peak *sweep.Peak
		for i := range peaks {
			p := &peaks[i]
			if p.Framework == fw.Name && p.Variant == fw.Variant && p.Test == test && p.N == n {
				peak = p
			}
		}
		ver, hasV := f.Verification(fw.Name, fw.Variant, test)
		out = append(out, rowOf(run, fw, peak, ver, hasV))
	}
	refFW, refVariant, _ := strings.Cut(ratio.Reference, "/")
	var ref float64
	for _, r := range out {
		if r.OK && r.Framework == refFW && r.Variant == refVariant {
			ref = r.PeakRPS
		}
	}
	if ref > 0 {
		for i := range out {
			if out[i].OK {
				out[i].RatioToRef = out[i].PeakRPS / ref
			}
		}
	}
	return out
}

// rowOf fills a Row from a variant's peak and verdict; its Notes come in
// the order the markdown report prints them: verification reasons first.
func rowOf(run string, fw results.Framework, peak *sweep.Peak, ver results.Verification, hasV bool) Row {
	r := Row{Run: run, Framework: fw.Name, Variant: fw.Variant, Runtime: fw.Runtime, Verification: "not verified", P50ms: -1, P99ms: -1}
	if hasV {
		r.Verification = ver.Status
		r.PageBytes = ver.PageBytes
		for _, why := range ver.Reasons {
			r.Notes = append(r.Notes, ver.Status+": "+why)
		}
	}
	r.OK = peak != nil && peak.OK && hasV && ver.Status != "fail"
	if !r.OK {
		note := true
		switch {
		case fw.Error != "":
			r.Why = "not measured: " + fw.Error
		case !hasV:
			r.Why = "not measured: no verification verdict"
		case ver.Status == results.NotApplicable:
			r.Why = "not applicable"
			if len(ver.Reasons) > 0 {
				r.Why += ": " + ver.Reasons[0]
			}
			r.Notes = nil // the reason is the note
			note = true
		case ver.Status == "fail":
			r.Why = "verification failed"
			if len(ver.Reasons) > 0 {
				r.Why += ": " + ver.Reasons[0]
			}
			note = false // the fail reasons are already notes
		case peak == nil:
			r.Why = "not measured: no samples"
		default:
			r.Why = "no peak: " + peak.Reason
		}
		if note {
			r.Notes = append(r.Notes, r.Why)
		}
		return r
	}
	l := peak.Level
	r.PeakRPS, r.MinRPS, r.MaxRPS, r.Rounds = l.Median, l.Min, l.Max, len(l.Samples)
	r.Connections, r.Pipeline = l.Connections, l.Pipeline
	if p50, p99 := percentiles(l.Samples); p50 >= 0 {
		r.P50ms, r.P99ms = float64(p50)/1000, float64(p99)/1000
	}
	r.CPUms, r.RSSBytes, r.GeneratorSaturated = cost(l.Samples)
	if r.GeneratorSaturated {
		r.Notes = append(r.Notes, fmt.Sprintf("the load generator's CPU was saturated at %d connections: the figure may measure the generator", l.Connections))
	}
	return r
}

// basis is what PctOfBest ranks: peak RPS within one run, the ratio to the
// run's own reference across runs; -1 for a row without it.
func basis(r Row, merged bool) float64 {
	switch {
	case !r.OK:
		return -1
	case merged && r.RatioToRef == 0:
		return -1
	case merged:
		return r.RatioToRef
	default:
		return r.PeakRPS
	}
}

// rank sets PctOfBest and sorts rows best first (stable: ties keep order).
// Measured rows without a basis (merged, no reference) sort before rows
// without figures, by peak RPS.
func rank(rows []Row, merged bool) {
	best := 0.0
	for _, r := range rows {
		best = max(best, basis(r, merged))
	}
	for i := range rows {
		switch b := basis(rows[i], merged); {
		case b > 0 && b == best:
			rows[i].PctOfBest, rows[i].Best = 100, true
		case b > 0:
			rows[i].PctOfBest = 100 * b / best
		}
	}
	class := func(r Row) int {
		switch {
		case basis(r, merged) >= 0:
			return 0
		case r.OK:
			return 1
		}
		return 2
	}
	sort.SliceStable(rows, func(i, j int) bool {
		ci, cj := class(rows[i]), class(rows[j])
		if ci != cj {
			return ci < cj
		}
		if ci == 0 {
			return basis(rows[i], merged) > basis(rows[j], merged)
		}
		return rows[i].PeakRPS > rows[j].PeakRPS
	})
}

// Slug is the page name of a test: its name in lower case with every run
// of characters other than a–z and 0–9 replaced by one "-", trimmed of
// "-" ("Fortunes (SSR)" → "fortunes-ssr"); "" when none is left.
func Slug(name string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(name) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(c)
			dash = false
		} else {
			dash = true
		}
	}
	return b.String()
}

// checkSlugs refuses test names that cannot name a page of their own.
func checkSlugs(tests []results.Test) error {
	seen := map[string]string{}
	for _, t := range tests {
		s := Slug(t.Name)
		switch {
		case s == "":
			return fmt.Errorf("test %q has no letters or digits to name its page; rename it in the suite", t.Name)
		case s == "index":
			return fmt.Errorf("test %q would be page index.md, the site's index; rename it in the suite", t.Name)
		}
		if other, ok := seen[s]; ok {
			return fmt.Errorf("tests %q and %q would both be page %s.md; rename one in the suite", other, t.Name, s)
		}
		seen[s] = t.Name
	}
	return nil
}

package target

import (
	"math"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
)

// TestRule is the met rule, package doc: a ≥ 1.0× target on peak RPS and a
// "below" target on p99, every verdict, at and around a ratio of 1.
func TestRule(t *testing.T) {
	for _, c := range []struct {
		m     Metric
		v     compare.Verdict
		ratio float64
		want  Status
	}{
		{PeakRPS, compare.Faster, 1.2, Met},
		{PeakRPS, compare.Same, 1.01, Met},
		{PeakRPS, compare.Same, 1, Met},
		{PeakRPS, compare.Same, 0.99, NotShown},
		{PeakRPS, compare.Slower, 0.8, Missed},
		{PeakRPS, compare.Unknown, 1.5, Unknown},
		{P99, compare.Faster, 0.7, Met},
		{P99, compare.Same, 0.99, Met},
		{P99, compare.Same, 1, NotShown},
		{P99, compare.Same, 1.02, NotShown},
		{P99, compare.Slower, 1.5, Missed},
		{P99, compare.Unknown, 0.5, Unknown},
	} {
		if got := Rule(c.m, c.v, c.ratio); got != c.want {
			t.Errorf("Rule(%s, %s, %v) = %q, want %q", c.m, c.v, c.ratio, got, c.want)
		}
	}
}

// file is a run of json (and page at 10 and 100 rows when page is set):
// each variant's 5 rounds at c=16, RPS and p99 (ms) per round.
func file(page bool, series map[string][2][]float64) *results.File {
	f := &results.File{Suite: results.Suite{Name: "engine", Rounds: 5, Tests: []results.Test{{Name: "json", Type: "json"}}}}
	if page {
		f.Suite.Tests = append(f.Suite.Tests, results.Test{Name: "page", Type: "page", Queries: []int{10, 100}})
	}
	for v, s := range series {
		fw, variant, _ := strings.Cut(v, "/")
		for _, test := range []struct {
			name string
			n    int
		}{{"json", 0}, {"page", 10}, {"page", 100}} {
			if test.name == "page" && !page {
				continue
			}
			for i, rps := range s[0] {
				sm := model.Sample{RPS: rps, Latency: model.Latency{P99: s[1][i]}, Gate: model.GateResult{Passed: true}}
				sm.Framework, sm.Variant, sm.Test, sm.N, sm.Connections, sm.Round = fw, variant, test.name, test.n, 16, i+1
				f.Samples = append(f.Samples, sm)
			}
		}
	}
	return f
}

// TestJudgeP99Orientation: an engine with higher RPS but a higher p99 is
// faster on RPS and slower (missed) on p99, the same rank test read the
// other way; Change and Ratio keep engine ÷ node-http.
func TestJudgeP99Orientation(t *testing.T) {
	f := file(false, map[string][2][]float64{
		"engine/pool":       {{120, 121, 122, 123, 124}, {3.0, 3.1, 3.2, 3.3, 3.4}},
		"node-http/default": {{100, 101, 102, 103, 104}, {2.0, 2.1, 2.2, 2.3, 2.4}},
	})
	rs, err := Judge(f, []Target{
		{Name: "rps", Of: model.MustID("engine/pool"), Over: model.MustID("node-http/default"), Metric: PeakRPS, Tests: []string{"json"}},
		{Name: "p99", Of: model.MustID("engine/pool"), Over: model.MustID("node-http/default"), Metric: P99, Tests: []string{"json"}},
	}, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	rps, p99 := rs[0].Rows[0], rs[1].Rows[0]
	if rps.Verdict != compare.Faster || rps.Status != Met || rps.OfMedian != 122 || rps.OverMedian != 102 || rps.OfRounds != 5 {
		t.Errorf("rps row %+v; want faster, met, medians 122 and 102", rps)
	}
	if p99.Verdict != compare.Slower || p99.Status != Missed || p99.OfMedian != 3.2 || p99.OverMedian != 2.2 || p99.Ratio != 3.2/2.2 || p99.Change <= 0.4 {
		t.Errorf("p99 row %+v; want slower, missed, medians 3.2 and 2.2, ratio and change engine ÷ node-http", p99)
	}
	if !rs[0].Met() || rs[1].Met() || rs[1].Count(Missed) != 1 {
		t.Errorf("Met() = %v, %v; want true, false", rs[0].Met(), rs[1].Met())
	}
}

// TestJudgeUnknown: a test the suite lacks, a variant the run did not
// measure, and a page test's rows per size, each with its reason.
func TestJudgeUnknown(t *testing.T) {
	f := file(true, map[string][2][]float64{
		"engine/pool":       {{120, 121, 122, 123, 124}, {3, 3, 3, 3, 3}},
		"node-http/default": {{100, 101, 102, 103, 104}, {2, 2, 2, 2, 2}},
	})
	rs, err := Judge(f, []Target{
		{Name: "go-stdlib", Of: model.MustID("engine/pool"), Over: model.MustID("go-stdlib/default"), Metric: PeakRPS, Tests: []string{"json"}},
		{Name: "missing test", Of: model.MustID("engine/pool"), Over: model.MustID("node-http/default"), Metric: PeakRPS, Tests: []string{"fortunes", "page"}},
	}, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if r := rs[0].Rows[0]; r.Status != Unknown || r.Why != "go-stdlib/default: no samples of json" || r.Ratio != 0 || r.OfMedian != 122 {
		t.Errorf("no go-stdlib: %+v; want unknown, %q", r, "go-stdlib/default: no samples of json")
	}
	rows := rs[1].Rows
	if len(rows) != 3 || rows[0].Test != "fortunes" || rows[0].Why != "suite engine has no test fortunes" || rows[0].Status != Unknown {
		t.Fatalf("rows %+v; want fortunes unknown (suite engine has no test fortunes), then page N=10 and N=100", rows)
	}
	for i, n := range []int{10, 100} {
		// Two tested rows, both fully separated: p = 2/252, Holm × 2.
		if r := rows[i+1]; r.Test != "page" || r.N != n || r.Verdict != compare.Faster || r.Status != Met || math.Abs(r.PHolm-4.0/252) > 1e-12 {
			t.Errorf("page N=%d: %+v; want faster, met, p (Holm) 4/252", n, r)
		}
	}
	if rs[1].Met() || rs[1].Count(Met) != 2 || rs[1].Count(Unknown) != 1 {
		t.Errorf("target with a missing test: Met() %v, %d met, %d unknown; want false, 2, 1", rs[1].Met(), rs[1].Count(Met), rs[1].Count(Unknown))
	}
}

// TestJudgeOptions: options out of range are Rank's error.
func TestJudgeOptions(t *testing.T) {
	o := compare.DefaultOptions()
	o.MinChange = 2
	_, err := Judge(file(false, nil), EngineTargets, o)
	if err == nil || err.Error() != "min change 2: want a share 0 ≤ min < 1 (0.05 = 5%)" {
		t.Errorf("min change 2: %v", err)
	}
}

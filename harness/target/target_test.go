package target

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
)

// TestRule is the met rule, package doc: a ≥ 1.0× target on peak RPS, a
// "below" target on p99 and the probe's p99 and an "at or below" one on
// p99 at each level, every verdict, at and around a ratio of 1; a minimum ratio of 1.5 at and around it.
func TestRule(t *testing.T) {
	for _, c := range []struct {
		m     Metric
		min   float64
		v     compare.Verdict
		ratio float64
		want  Status
	}{
		{PeakRPS, 0, compare.Faster, 1.2, Met},
		{PeakRPS, 0, compare.Same, 1.01, Met},
		{PeakRPS, 0, compare.Same, 1, Met},
		{PeakRPS, 0, compare.Same, 0.99, NotShown},
		{PeakRPS, 0, compare.Slower, 0.8, Missed},
		{PeakRPS, 0, compare.Unknown, 1.5, Unknown},
		{PeakRPS, 1, compare.Same, 1, Met}, // Min 1 is the rule without one
		{P99, 0, compare.Faster, 0.7, Met},
		{P99, 0, compare.Same, 0.99, Met},
		{P99, 0, compare.Same, 1, NotShown},
		{P99, 0, compare.Same, 1.02, NotShown},
		{P99, 0, compare.Slower, 1.5, Missed},
		{P99, 0, compare.Unknown, 0.5, Unknown},
		{ProbeP99, 0, compare.Faster, 0.2, Met},
		{ProbeP99, 0, compare.Same, 0.9, Met},
		{ProbeP99, 0, compare.Same, 1, NotShown},
		{ProbeP99, 0, compare.Slower, 3, Missed},
		{ProbeP99, 0, compare.Unknown, 0.5, Unknown},
		{LevelP99, 0, compare.Faster, 0.7, Met},
		{LevelP99, 0, compare.Same, 0.99, Met},
		{LevelP99, 0, compare.Same, 1, Met}, // at or below
		{LevelP99, 0, compare.Same, 1.01, NotShown},
		{LevelP99, 0, compare.Slower, 1.3, Missed},
		{LevelP99, 0, compare.Unknown, 0.5, Unknown},
		{PeakRPS, 1.5, compare.Faster, 1.6, Met},
		{PeakRPS, 1.5, compare.Faster, 1.5, Met},
		{PeakRPS, 1.5, compare.Faster, 1.49, Missed}, // faster, but below the minimum
		{PeakRPS, 1.5, compare.Same, 1.6, NotShown},
		{PeakRPS, 1.5, compare.Same, 1.2, Missed},
		{PeakRPS, 1.5, compare.Slower, 0.7, Missed},
		{PeakRPS, 1.5, compare.Unknown, 1.2, Unknown},
		{PeakRPS, 1.5, compare.Unknown, 1.6, Unknown},
	} {
		if got := Rule(c.m, c.min, c.v, c.ratio); got != c.want {
			t.Errorf("Rule(%s, %v, %s, %v) = %q, want %q", c.m, c.min, c.v, c.ratio, got, c.want)
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

// pageFile is a run of a page test at 10 and 100 rows, 4 and 16
// connections: each variant's 5 rounds per N, its RPS at c=16 (c=4 at a
// tenth of it) and its samples' probes at both levels.
func pageFile(rps map[string]map[int][]float64, probes map[string]map[[2]int][]*model.Probe) *results.File {
	f := &results.File{Suite: results.Suite{Name: "engine", Rounds: 5, Tests: []results.Test{
		{Name: "page", Type: "page", Queries: []int{10, 100}, Concurrency: []int{4, 16}, Probe: 0.02}}}}
	for _, v := range []string{"engine/pool", "node-http/default"} {
		fw, variant, _ := strings.Cut(v, "/")
		for _, n := range []int{10, 100} {
			for _, c := range []int{4, 16} {
				for i := range 5 {
					r := rps[v][n][i]
					if c == 4 {
						r /= 10
					}
					sm := model.Sample{Window: 5, Responses: int64(r * 5), Success: int64(r * 5), RPS: r, Gate: model.GateResult{Passed: true}}
					sm.Framework, sm.Variant, sm.Test, sm.Type, sm.N, sm.Connections, sm.Pipeline, sm.Round = fw, variant, "page", "page", n, c, 1, i+1
					if ps := probes[v][[2]int{n, c}]; ps != nil {
						sm.Probe = ps[i]
					}
					f.Samples = append(f.Samples, sm)
				}
			}
		}
	}
	return f
}

// answered is a probe at 20 ms in a 5 s window that answered n of its 250
// due requests, all with status 200, at a p99 of p99 ms.
func answered(n int64, p99 float64) *model.Probe {
	return &model.Probe{Path: "/plaintext", Interval: 20, Responses: n, Success: n, Latency: model.Latency{P99: p99}}
}

func probes(n int64, p99 ...float64) []*model.Probe {
	var out []*model.Probe
	for _, x := range p99 {
		out = append(out, answered(n, x))
	}
	return out
}

// TestJudgeMin: a page target at one size with a minimum of 1.5 (met at
// 1.55×, faster), one at the other size with 1.2 (missed at 1.12× though
// faster), and one with 1.2 at 1.30× not significant (not shown).
func TestJudgeMin(t *testing.T) {
	f := pageFile(map[string]map[int][]float64{
		"engine/pool":       {10: {112, 113, 111, 112.5, 111.5}, 100: {155, 156, 154, 155.5, 154.5}},
		"node-http/default": {10: {100, 101, 99, 100.5, 99.5}, 100: {100, 101, 99, 100.5, 99.5}},
	}, nil)
	pool, node := model.MustID("engine/pool"), model.MustID("node-http/default")
	rs, err := Judge(f, []Target{
		{Name: "1.5× at 100 rows", Of: pool, Over: node, Metric: PeakRPS, Tests: []string{"page"}, Ns: []int{100}, Min: 1.5},
		{Name: "1.2× at the others", Of: pool, Over: node, Metric: PeakRPS, Tests: []string{"page"}, SkipNs: []int{100}, Min: 1.2},
	}, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(rs[0].Rows) != 1 || len(rs[1].Rows) != 1 {
		t.Fatalf("rows %+v and %+v; want page N=100, then page N=10", rs[0].Rows, rs[1].Rows)
	}
	if r := rs[0].Rows[0]; r.N != 100 || r.Verdict != compare.Faster || r.Ratio != 155.0/100 || r.Status != Met || !rs[0].Met() {
		t.Errorf("1.5×: %+v; want page N=100 faster at 1.55×, met", r)
	}
	if r := rs[1].Rows[0]; r.N != 10 || r.Verdict != compare.Faster || r.Ratio != 1.12 || r.Status != Missed || rs[1].Met() {
		t.Errorf("1.2×: %+v; want page N=10 faster at 1.12×, missed", r)
	}

	f = pageFile(map[string]map[int][]float64{
		"engine/pool":       {10: {90, 140, 95, 150, 130}, 100: {90, 140, 95, 150, 130}},
		"node-http/default": {10: {100, 102, 98, 101, 99}, 100: {100, 102, 98, 101, 99}},
	}, nil)
	rs, err = Judge(f, []Target{{Name: "1.2×", Of: pool, Over: node, Metric: PeakRPS, Tests: []string{"page"}, Ns: []int{10}, Min: 1.2}}, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if r := rs[0].Rows[0]; r.Verdict != compare.Same || r.Ratio != 1.3 || r.Status != NotShown {
		t.Errorf("overlapping rounds: %+v; want same at 1.30×, not shown", r)
	}
}

// TestJudgeProbe: the probe target's rows per size and level in suite
// order: engine lower (met), engine higher (missed), engine lower on what
// it answered but short in three rounds (those count as the 5 s window:
// not shown), node-http short in every round (met).
func TestJudgeProbe(t *testing.T) {
	rps := map[string]map[int][]float64{
		"engine/pool":       {10: {100, 100, 100, 100, 100}, 100: {100, 100, 100, 100, 100}},
		"node-http/default": {10: {100, 100, 100, 100, 100}, 100: {100, 100, 100, 100, 100}},
	}
	short := probes(250, 3, 4, 0, 0, 0)
	for i := 2; i < 5; i++ {
		short[i] = answered(100, 2) // 100 of 250 answered, at a flattering 2 ms
	}
	f := pageFile(rps, map[string]map[[2]int][]*model.Probe{
		"engine/pool": {
			{10, 4}: probes(250, 5, 6, 5.5, 6.5, 5.8), {10, 16}: probes(250, 30, 31, 32, 33, 34),
			{100, 4}: short, {100, 16}: probes(250, 40, 41, 42, 43, 44),
		},
		"node-http/default": {
			{10, 4}: probes(250, 10, 11, 12, 13, 14), {10, 16}: probes(250, 20, 21, 22, 23, 24),
			{100, 4}: probes(250, 10, 11, 12, 13, 14), {100, 16}: probes(241, 90, 95, 91, 92, 93),
		},
	})
	pool, node := model.MustID("engine/pool"), model.MustID("node-http/default")
	rs, err := Judge(f, []Target{{Name: "probe", Of: pool, Over: node, Metric: ProbeP99, Tests: []string{"page"}}}, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		label   string
		of      []float64
		verdict compare.Verdict
		status  Status
	}{
		{"page N=10 c=4", []float64{5, 6, 5.5, 6.5, 5.8}, compare.Faster, Met},
		{"page N=10 c=16", []float64{30, 31, 32, 33, 34}, compare.Slower, Missed},
		{"page N=100 c=4", []float64{3, 4, 5000, 5000, 5000}, compare.Same, NotShown},
		{"page N=100 c=16", []float64{40, 41, 42, 43, 44}, compare.Faster, Met},
	}
	r := rs[0]
	if len(r.Rows) != len(want) || !r.Detectable {
		t.Fatalf("rows %+v (detectable %v); want %d, detectable", r.Rows, r.Detectable, len(want))
	}
	for i, w := range want {
		x := r.Rows[i]
		if x.Label() != w.label || !slices.Equal(x.OfValues, w.of) || x.Verdict != w.verdict || x.Status != w.status {
			t.Errorf("row %d: %s, values %v, %s, %s; want %s, %v, %s, %s", i, x.Label(), x.OfValues, x.Verdict, x.Status, w.label, w.of, w.verdict, w.status)
		}
	}
	if x := r.Rows[3]; !slices.Equal(x.OverValues, []float64{5000, 5000, 5000, 5000, 5000}) || x.OverMedian != 5000 || x.Ratio != 42.0/5000 {
		t.Errorf("node-http short in every round: %v, median %v, ratio %v; want the 5 s window every round", x.OverValues, x.OverMedian, x.Ratio)
	}
	if r.Met() || r.Count(Met) != 2 || r.Count(Missed) != 1 || r.Count(NotShown) != 1 {
		t.Errorf("Met() %v, counts %d met, %d missed, %d not shown; want false, 2, 1, 1", r.Met(), r.Count(Met), r.Count(Missed), r.Count(NotShown))
	}

	// A variant without a level, and one whose sample failed its gate on the
	// load: unknown, with the reason.
	f.Samples = slices.DeleteFunc(f.Samples, func(s model.Sample) bool { return s.Framework == "node-http" && s.N == 10 && s.Connections == 16 })
	for i, s := range f.Samples {
		if s.Framework == "engine" && s.N == 100 && s.Connections == 16 && s.Round == 2 {
			f.Samples[i].Gate = model.GateResult{Reason: "socket errors: read 2"}
		}
	}
	rs, err = Judge(f, []Target{{Name: "probe", Of: pool, Over: node, Metric: ProbeP99, Tests: []string{"page"}}}, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for i, why := range map[int]string{1: "node-http/default: no samples of page N=10 at c=16", 3: "engine/pool: round 2: failed the gate: socket errors: read 2"} {
		if x := rs[0].Rows[i]; x.Status != Unknown || x.Why != why {
			t.Errorf("row %d: %s, %q; want unknown, %q", i, x.Status, x.Why, why)
		}
	}
}

// TestProbeValue: the probe's p99 over every due request (250: 5 s at 20
// ms), lost ones as the whole window; no value, with the reason, when the
// harness failed or the load failed its gate.
func TestProbeValue(t *testing.T) {
	// 248 answered: 246 at 10 ms, 2 at 50 ms. Their own p99 (rank 246) is
	// 10 ms; over the 250 due (rank 248, the 2 lost above it) it is 50 ms.
	h := hdrhistogram.New(1, 8_000_000, 3)
	for i := range 248 {
		v := int64(10_000)
		if i >= 246 {
			v = 50_000
		}
		h.RecordValue(v)
	}
	enc, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	twoLost := answered(248, float64(h.ValueAtQuantile(99))/1000)
	twoLost.Histogram = enc
	noHist := answered(249, 10)
	bad := answered(250, 10)
	bad.Success = 249
	read := answered(249, 10)
	read.Errors = map[string]int64{"read": 1}
	gen := answered(250, 10)
	gen.Errors = map[string]int64{"generator": 1}
	const fault = model.HarnessFault + model.GeneratorSaturatedFault
	for _, c := range []struct {
		name  string
		probe *model.Probe
		gate  string
		want  float64
		why   string
	}{
		{"all answered", answered(250, 12.5), "", 12.5, ""},
		{"two lost", twoLost, "", float64(h.ValueAtQuantile(100)) / 1000, ""},
		{"three lost", answered(247, 10), "", 5000, ""},
		{"14 of 250", answered(14, 3536.9), "", 5000, ""},
		{"none", answered(0, 0), "probe: no response in the window", 5000, ""},
		{"not 200", bad, "probe: 1 of 250 responses not status 200", 5000, ""},
		{"socket error", read, "probe: socket errors: read 1", 5000, ""},
		{"socket error and the load", read, "socket errors: read 2; probe: socket errors: read 1", 5000, ""},
		{"the load failed", answered(250, 12.5), "socket errors: read 2", 0, "failed the gate: socket errors: read 2"},
		{"harness fault", answered(250, 12.5), fault, 0, "failed the gate: " + fault},
		{"probe generator errors", gen, "probe: generator 1", 0, "probe: generator 1 (the harness's fault)"},
		{"one lost, no histogram", noHist, "", 0, "probe: 249 of 250 due answered and no histogram to read the p99 from"},
		{"no probe", nil, "", 0, "no probe"},
	} {
		s := model.Sample{Window: 5, Probe: c.probe, Gate: model.GateResult{Passed: c.gate == "", Reason: c.gate}}
		if got, why := ProbeValue(s); got != c.want || why != c.why {
			t.Errorf("%s: %v, %q; want %v, %q", c.name, got, why, c.want, c.why)
		}
	}
	if p99, all := twoLost.Latency.P99, float64(h.ValueAtQuantile(100))/1000; math.Abs(p99-10) > 0.01 || math.Abs(all-50) > 0.05 {
		t.Errorf("the fixture's answered p99 %v, p99 over due %v; want 10 and 50 ms", p99, all)
	}
}

// hist is a latency histogram (µs, encoded as a sample's) of 100 requests
// whose p99 is p99 ms: 97 at a quarter of it, 2 at it, 1 above.
func hist(t *testing.T, p99 float64) []byte {
	t.Helper()
	h := hdrhistogram.New(1, 60_000_000, 3)
	us := int64(math.Round(p99 * 1000))
	h.RecordValues(us/4, 97)
	h.RecordValues(us, 2)
	h.RecordValue(us * 115 / 100)
	enc, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

// levelSeries is one variant's rounds on json or fortunes at one level:
// each round's p99 (ms), recorded in the sample's histogram (Latency.P99
// left 0, so only the histogram can give it), and the gate reason of a
// failed round by round number (GeneratorSaturated set when the reason is
// model.HarnessFault+model.GeneratorSaturatedFault).
type levelSeries struct {
	v, test string
	conns   int
	p99     []float64
	fail    map[int]string
}

// levelRun is a run of json and fortunes at 16, 64 and 256 connections in
// 5 rounds holding ss.
func levelRun(t *testing.T, ss []levelSeries) *results.File {
	f := &results.File{Suite: results.Suite{Name: "engine", Rounds: 5, Tests: []results.Test{
		{Name: "json", Type: "json", Concurrency: []int{16, 64, 256}}, {Name: "fortunes", Type: "fortunes", Concurrency: []int{16, 64, 256}}}}}
	for _, x := range ss {
		fw, variant, _ := strings.Cut(x.v, "/")
		for i, p99 := range x.p99 {
			sm := model.Sample{RPS: 1000 * float64(x.conns), Histogram: hist(t, p99), Gate: model.GateResult{Passed: true}}
			sm.Framework, sm.Variant, sm.Test, sm.Type, sm.Connections, sm.Pipeline, sm.Round = fw, variant, x.test, model.TestType(x.test), x.conns, 1, i+1
			if why, ok := x.fail[i+1]; ok {
				sm.Gate = model.GateResult{Reason: why}
				sm.GeneratorSaturated = why == model.HarnessFault+model.GeneratorSaturatedFault
			}
			f.Samples = append(f.Samples, sm)
		}
	}
	return f
}

// TestJudgeLevelP99: the engine's target of p99 at each common level. json: engine
// lower at c=16 (met), the same rounds at c=64 (same, ratio 1.00: met, at
// or below), higher at c=256 (missed). fortunes: node-http generator-bound
// at c=16 in round 2 and engine failed at c=64 in round 3 (both unknown,
// with the reason), c=256 measured by engine alone (no row). Every value is
// read from the rounds' histograms (HDR's 8 µs buckets above 8.191 ms), not
// Latency.P99; then a level node-http failed in every round (no row) and a
// variant not measured (one unknown row).
func TestJudgeLevelP99(t *testing.T) {
	sat := model.HarnessFault + model.GeneratorSaturatedFault
	f := levelRun(t, []levelSeries{
		{v: "engine/pool", test: "json", conns: 16, p99: []float64{0.9, 1.0, 0.8, 1.1, 0.95}},
		{v: "engine/pool", test: "json", conns: 64, p99: []float64{1.8, 1.9, 1.7, 2.0, 1.85}},
		{v: "engine/pool", test: "json", conns: 256, p99: []float64{12, 12.5, 11.5, 13, 12.2}},
		{v: "node-http/default", test: "json", conns: 16, p99: []float64{1.3, 1.4, 1.2, 1.5, 1.35}},
		{v: "node-http/default", test: "json", conns: 64, p99: []float64{1.8, 1.9, 1.7, 2.0, 1.85}},
		{v: "node-http/default", test: "json", conns: 256, p99: []float64{9, 9.3, 8.8, 9.6, 9.1}},
		{v: "engine/pool", test: "fortunes", conns: 16, p99: []float64{2.5, 2.6, 2.4, 2.7, 2.55}},
		{v: "engine/pool", test: "fortunes", conns: 64, p99: []float64{9, 9.5, 40, 9.2, 8.8}, fail: map[int]string{3: "socket errors: read 2"}},
		{v: "engine/pool", test: "fortunes", conns: 256, p99: []float64{30, 31, 29, 32, 30.5}},
		{v: "node-http/default", test: "fortunes", conns: 16, p99: []float64{2.0, 2.1, 1.9, 2.2, 2.05}, fail: map[int]string{2: sat}},
		{v: "node-http/default", test: "fortunes", conns: 64, p99: []float64{6, 6.2, 5.8, 6.4, 6.1}},
	})
	pool, node := model.MustID("engine/pool"), model.MustID("node-http/default")
	rs, err := Judge(f, []Target{{Name: "levels", Of: pool, Over: node, Metric: LevelP99, Tests: []string{"json", "fortunes"}}}, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		label   string
		of      []float64
		verdict compare.Verdict
		status  Status
		why     string
	}{
		{"json c=16", []float64{0.9, 1.0, 0.8, 1.1, 0.95}, compare.Faster, Met, ""},
		{"json c=64", []float64{1.8, 1.9, 1.7, 2.0, 1.85}, compare.Same, Met, ""},
		{"json c=256", []float64{12.007, 12.503, 11.503, 13.007, 12.207}, compare.Slower, Missed, ""},
		{"fortunes c=16", []float64{2.501, 2.601, 2.401, 2.701, 2.551}, compare.Unknown, Unknown,
			"node-http/default: generator-bound at c=16 in round 2: the load generator's CPU set was saturated (≥ 90% busy): it measured the generator"},
		{"fortunes c=64", nil, compare.Unknown, Unknown, "engine/pool: failed the gate at c=64 in round 3: socket errors: read 2"},
	}
	r := rs[0]
	if len(r.Rows) != len(want) {
		t.Fatalf("%d rows %+v; want %d (fortunes c=256: engine/pool's alone, no row)", len(r.Rows), r.Rows, len(want))
	}
	for i, w := range want {
		x := r.Rows[i]
		if x.Label() != w.label || !slices.Equal(x.OfValues, w.of) || x.Verdict != w.verdict || x.Status != w.status || (w.status == Unknown && x.Why != w.why) {
			t.Errorf("row %d: %s, values %v, %s, %s, %q; want %s, %v, %s, %s, %q", i, x.Label(), x.OfValues, x.Verdict, x.Status, x.Why, w.label, w.of, w.verdict, w.status, w.why)
		}
	}
	if x := r.Rows[1]; x.Ratio != 1 || x.OfMedian != 1.85 || x.OverMedian != 1.85 {
		t.Errorf("json c=64: ratio %v, medians %v and %v; want 1 (met: at or below), 1.85, 1.85", x.Ratio, x.OfMedian, x.OverMedian)
	}
	if r.Met() || r.Count(Met) != 2 || r.Count(Missed) != 1 || r.Count(Unknown) != 2 || Unit(r.Target) != "p99 at each common level in ms, lower is better, met at or below 1.00×" {
		t.Errorf("Met() %v, counts %d met, %d missed, %d unknown; want false, 2, 1, 2", r.Met(), r.Count(Met), r.Count(Missed), r.Count(Unknown))
	}

	// Engine lower at every common level: met. A level node-http failed in
	// every round is no row: the reference never served it.
	f = levelRun(t, []levelSeries{
		{v: "engine/pool", test: "json", conns: 16, p99: []float64{0.9, 1.0, 0.8, 1.1, 0.95}},
		{v: "engine/pool", test: "json", conns: 64, p99: []float64{1.5, 1.6, 1.4, 1.7, 1.55}},
		{v: "engine/pool", test: "json", conns: 256, p99: []float64{8, 8.1, 7.9, 8.2, 8.05}},
		{v: "node-http/default", test: "json", conns: 16, p99: []float64{1.3, 1.4, 1.2, 1.5, 1.35}},
		{v: "node-http/default", test: "json", conns: 64, p99: []float64{1.8, 1.9, 1.7, 2.0, 1.85}},
		{v: "node-http/default", test: "json", conns: 256, p99: []float64{9, 9.3, 8.8, 9.6, 9.1},
			fail: map[int]string{1: "timeouts 3", 2: "timeouts 3", 3: "timeouts 3", 4: "timeouts 3", 5: "timeouts 3"}},
	})
	rs, err = Judge(f, []Target{{Name: "levels", Of: pool, Over: node, Metric: LevelP99, Tests: []string{"json"}}}, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if r := rs[0]; !r.Met() || len(r.Rows) != 2 || r.Rows[0].Label() != "json c=16" || r.Rows[1].Label() != "json c=64" || r.Rows[1].Verdict != compare.Faster {
		t.Errorf("rows %+v; want json c=16 and c=64, both faster, met", r.Rows)
	}

	// A level engine/pool failed in every round where node-http passed is a
	// row, unknown with the reason: never met.
	f = levelRun(t, []levelSeries{
		{v: "engine/pool", test: "json", conns: 16, p99: []float64{0.9, 1.0, 0.8, 1.1, 0.95}},
		{v: "engine/pool", test: "json", conns: 64, p99: []float64{1.5, 1.6, 1.4, 1.7, 1.55},
			fail: map[int]string{1: "timeouts 3", 2: "timeouts 3", 3: "timeouts 3", 4: "timeouts 3", 5: "timeouts 3"}},
		{v: "node-http/default", test: "json", conns: 16, p99: []float64{1.3, 1.4, 1.2, 1.5, 1.35}},
		{v: "node-http/default", test: "json", conns: 64, p99: []float64{1.8, 1.9, 1.7, 2.0, 1.85}},
	})
	rs, err = Judge(f, []Target{{Name: "levels", Of: pool, Over: node, Metric: LevelP99, Tests: []string{"json"}}}, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if r := rs[0]; r.Met() || len(r.Rows) != 2 || r.Rows[1].Label() != "json c=64" || r.Rows[1].Status != Unknown || r.Rows[1].Why != "engine/pool: failed the gate at c=64 in round 1: timeouts 3" {
		t.Errorf("rows %+v; want json c=64 unknown, %q", r.Rows, "engine/pool: failed the gate at c=64 in round 1: timeouts 3")
	}

	// A variant not measured: one unknown row with the reason.
	rs, err = Judge(f, []Target{{Name: "levels", Of: pool, Over: model.Reference, Metric: LevelP99, Tests: []string{"json"}}}, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if r := rs[0]; len(r.Rows) != 1 || r.Rows[0].Label() != "json" || r.Rows[0].Status != Unknown || r.Rows[0].Why != "go-stdlib/default: no samples of json" {
		t.Errorf("rows %+v; want json unknown, %q", r.Rows, "go-stdlib/default: no samples of json")
	}
}

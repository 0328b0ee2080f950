package run

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
)

func TestPlanSeconds(t *testing.T) {
	s, err := suite.Load(filepath.Join("..", "..", "suites", "smoke.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// 6 tests × (0.2 s warmup + 1 s at c=8 + 1 s at 200 requests/s), page
	// 0.2 s + 1 s at c=8 + 1 s at 50 requests/s, page-hit 0.2 s + 1 s at c=8.
	if got := PlanSeconds(s.Tests, 1, 1); got != 16.6 {
		t.Errorf("smoke, 1 target, 1 round: %v s, want 16.6", got)
	}
	if got := PlanSeconds(s.Tests, 2, 3); got != 99.6 {
		t.Errorf("smoke, 2 targets, 3 rounds: %v s, want 99.6", got)
	}
	// queries at N = 1, 5, 20 × c = 16, 64: 6 windows of 5 s after a 2 s
	// warmup, no rate shot, and no warmup when it is 0.
	queries := suite.Test{Name: "q", Type: model.Queries, Queries: []int{1, 5, 20},
		Settings: suite.Settings{Duration: 5 * time.Second, Warmup: 2 * time.Second, Concurrency: []int{16, 64}}}
	json := suite.Test{Name: "j", Type: model.JSON, Settings: suite.Settings{Duration: 5 * time.Second, Concurrency: []int{16}}}
	if got := PlanSeconds([]suite.Test{queries, json}, 1, 1); got != 37 {
		t.Errorf("queries and json: %v s, want 32 + 5 = 37", got)
	}
	// suites/engine.yaml's header: 194 s per variant and round (the six
	// tests 147 s, the page test 47 s); 4 variants × 6 rounds.
	engine, err := suite.Load(filepath.Join("..", "..", "suites", "engine.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if got := PlanSeconds(engine.Tests, 1, 1); got != 194 {
		t.Errorf("engine, 1 target, 1 round: %v s, want 194", got)
	}
	if got := PlanSeconds(engine.Tests, 4, 6); got != 4656 {
		t.Errorf("engine, 4 targets, 6 rounds: %v s, want 4656", got)
	}
	// suites/tfb-fast.yaml's longest plan: per round six 1 s warmups and 21
	// closed-loop windows of 1.5 s, each after its 0.25 s sample warmup
	// (42.75 s), plus in rounds 1 and 2 six rate shots of 1.5 s (51.75 s).
	// 9 variants × (2 × 51.75 + 3 × 42.75): 2,085.75 s.
	fast, err := suite.Load(filepath.Join("..", "..", "suites", "tfb-fast.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if got := PlanSeconds(fast.Tests, 9, 5); got != 2085.75 {
		t.Errorf("tfb-fast, 9 targets, 5 rounds: %v s, want 2085.75", got)
	}
}

func passed(conns, round int, rps float64) model.Sample {
	s := model.Sample{Key: model.Key{ID: model.ID{Framework: "a", Variant: "default"}, Test: "json", Connections: conns, Round: round}, RPS: rps}
	s.Gate.Passed = true
	return s
}

// TestKeptLevels: after round 1, keep_within 15% keeps the levels that
// passed within 15% of round 1's best; a level that failed the gate goes; with
// nothing passed, or in round 1, or without keep_within, every level stays.
func TestKeptLevels(t *testing.T) {
	json := suite.Test{Name: "json", Type: model.JSON, Settings: suite.Settings{Concurrency: []int{16, 64, 256}, KeepWithin: 0.15}}
	failed := passed(256, 1, 1000)
	failed.Gate.Passed = false
	r1 := []model.Sample{passed(16, 1, 840), passed(64, 1, 1000), failed}
	for _, c := range []struct {
		name  string
		test  suite.Test
		round int
		r1    []model.Sample
		want  []int
	}{
		{"round 1", json, 1, r1, []int{16, 64, 256}},
		{"round 2", json, 2, r1, []int{64}}, // 840 < 0.85 × 1000; 256 failed
		{"at the bound", json, 3, []model.Sample{passed(16, 1, 850), passed(64, 1, 1000), passed(256, 1, 849.9)}, []int{16, 64}},
		{"none passed", json, 2, []model.Sample{failed}, []int{16, 64, 256}},
		{"no round 1 yet", json, 2, nil, []int{16, 64, 256}},
		{"keep_within off", suite.Test{Settings: suite.Settings{Concurrency: []int{16, 64, 256}}}, 2, r1, []int{16, 64, 256}},
	} {
		if got := keptLevels(c.test, 0, c.round, c.r1); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestRoundShotsRateRounds: rate_rounds 2 runs the rate shot in rounds 1
// and 2 only, at the headline N.
func TestRoundShotsRateRounds(t *testing.T) {
	q := suite.Test{Name: "q", Type: model.Queries, Queries: []int{1, 20}, Settings: suite.Settings{Concurrency: []int{64}, Rate: 200, RateConnections: 64, RateRounds: 2}}
	for round, want := range map[int][]planned{
		1: {{1, 64, 0}, {20, 64, 0}, {20, 64, 200}},
		2: {{1, 64, 0}, {20, 64, 0}, {20, 64, 200}},
		3: {{1, 64, 0}, {20, 64, 0}},
	} {
		if got := roundShots(q, round, nil); !slices.Equal(got, want) {
			t.Errorf("round %d: %v, want %v", round, got, want)
		}
	}
}

// TestPlanMeasuring: a measured shot counts its window; one not measured
// yet the median of its earlier windows, else the duration; levels left after
// round 1 count no more.
func TestPlanMeasuring(t *testing.T) {
	json := suite.Test{Name: "json", Type: model.JSON, Settings: suite.Settings{Duration: 5 * time.Second, Warmup: time.Second, Concurrency: []int{16, 64}, KeepWithin: 0.15}}
	id := model.ID{Framework: "a", Variant: "default"}
	p := planState{tests: []suite.Test{json}, targets: []model.ID{id}, rounds: 3}
	if done, total := p.measuring(); done != 0 || total != 33*time.Second {
		t.Errorf("nothing measured: %v of %v, want 0 of 3 × (1 + 2 × 5) = 33 s", done, total)
	}
	a, b := passed(16, 1, 500), passed(64, 1, 1000)
	a.Window, b.Window = 2, 1.5
	p.samples, p.warmed = []model.Sample{a, b}, time.Second
	// Round 1: 1 s warmup + 2 s + 1.5 s done; rounds 2 and 3: warmup + c=64
	// only (16 is 50% below), expected at its 1.5 s.
	if done, total := p.measuring(); done != 4500*time.Millisecond || total != 4500*time.Millisecond+2*2500*time.Millisecond {
		t.Errorf("after round 1: %v of %v, want 4.5 s of 9.5 s", done, total)
	}
	// A second target whose json failed verification adds nothing.
	other := model.ID{Framework: "b", Variant: "default"}
	p.targets, p.skip = append(p.targets, other), func(id model.ID, _ string) bool { return id == other }
	if _, total := p.measuring(); total != 9500*time.Millisecond {
		t.Errorf("with a skipped target: total %v, want 9.5 s", total)
	}
}

// A closed-loop shot's own warmup counts in the plan: done as it ran
// (Sample.Warmup), still to come at its suite length.
func TestPlanMeasuringSampleWarmup(t *testing.T) {
	json := suite.Test{Name: "json", Type: model.JSON, Settings: suite.Settings{Duration: 5 * time.Second, Concurrency: []int{16, 64}, SampleWarmup: 250 * time.Millisecond}}
	id := model.ID{Framework: "a", Variant: "default"}
	p := planState{tests: []suite.Test{json}, targets: []model.ID{id}, rounds: 1}
	if done, total := p.measuring(); done != 0 || total != 10500*time.Millisecond {
		t.Errorf("nothing measured: %v of %v, want 0 of 2 × (0.25 + 5) = 10.5 s", done, total)
	}
	a := passed(16, 1, 500)
	a.Window, a.Warmup = 2, 0.75 // its warmup ran longer: the previous load's requests drained
	p.samples = []model.Sample{a}
	if done, total := p.measuring(); done != 2750*time.Millisecond || total != 8*time.Second {
		t.Errorf("one sample: %v of %v, want 2.75 s of 2.75 + 5.25 = 8 s", done, total)
	}
}

// A sample's own warmup: sample_warmup, longer while the previous load's
// requests in flight drain at its RPS, at most the test's duration; none
// without sample_warmup.
func TestSampleWarmup(t *testing.T) {
	test := suite.Test{Name: "plaintext", Settings: suite.Settings{Duration: 1500 * time.Millisecond, SampleWarmup: 250 * time.Millisecond}}
	for _, c := range []struct {
		prev backlog
		want time.Duration
	}{
		{backlog{}, 250 * time.Millisecond},                               // nothing before it
		{backlog{inFlight: 256, rps: 80000}, 250 * time.Millisecond},      // 3.2 ms to drain
		{backlog{inFlight: 4096, rps: 6000}, 682666666 * time.Nanosecond}, // 256 × 16 at 6,000 RPS
		{backlog{inFlight: 4096, rps: 1000}, 1500 * time.Millisecond},     // 4.1 s: the test's duration
	} {
		if got := sampleWarmup(test, c.prev); got != c.want {
			t.Errorf("after %+v: %v, want %v", c.prev, got, c.want)
		}
	}
	test.SampleWarmup = 0
	if got := sampleWarmup(test, backlog{inFlight: 4096, rps: 6000}); got != 0 {
		t.Errorf("without sample_warmup: %v, want 0", got)
	}
}

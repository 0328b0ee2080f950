package ratio

import (
	"math"
	"slices"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
)

// roundsFixture: go-stdlib json at c=16 (median 50000) and c=64 (45000),
// nextjs json at c=64 only; queries at N=1 and N=20; astro json whose only
// level failed the gate in round 2.
func roundsFixture() *results.File {
	f := &results.File{Suite: results.Suite{Tests: []results.Test{
		{Name: "json", Type: "json"},
		{Name: "queries", Type: "queries", Queries: []int{1, 20}},
	}}}
	add := func(fw, test string, n, c int, rps []float64) {
		for i, r := range rps {
			f.Samples = append(f.Samples, sample(fw, "default", test, n, c, i+1, r, float64(i+1)/100))
		}
	}
	add("go-stdlib", "json", 0, 16, []float64{50000, 52000, 48000, 51000, 49000})
	add("go-stdlib", "json", 0, 64, []float64{45000, 45000, 45000, 45000, 45000})
	add("nextjs", "json", 0, 64, []float64{2000, 2080, 1920, 2040, 1960})
	add("go-stdlib", "queries", 1, 16, []float64{30000, 30000, 30000})
	add("go-stdlib", "queries", 20, 16, []float64{9000, 9100, 9200})
	add("astro", "json", 0, 16, []float64{3000, 3100, 3200})
	f.Samples[len(f.Samples)-2].Gate = model.GateResult{Reason: "socket errors: read 1"}
	// A constant-rate sample is not a peak level's round.
	rate := sample("nextjs", "default", "json", 0, 64, 1, 1000, 0.5)
	rate.Rate = 1000
	f.Samples = append(f.Samples, rate)
	return f
}

var (
	stdJSON    = model.RowKey{ID: model.ID{Framework: "go-stdlib", Variant: "default"}, Test: "json"}
	nextJSON   = model.RowKey{ID: model.ID{Framework: "nextjs", Variant: "default"}, Test: "json"}
	astroJSON  = model.RowKey{ID: model.ID{Framework: "astro", Variant: "default"}, Test: "json"}
	stdQueries = model.RowKey{ID: model.ID{Framework: "go-stdlib", Variant: "default"}, Test: "queries", N: 20}
)

func TestHeadlineRowsPeakLevel(t *testing.T) {
	m := HeadlineRows(roundsFixture())
	r, ok := m[stdJSON]
	if !ok || !r.OK {
		t.Fatalf("go-stdlib json = %+v, %v; want a peak", r, ok)
	}
	if r.Connections != 16 || r.Pipeline != 0 || r.Peak != 50000 || r.MinRPS != 48000 || r.MaxRPS != 52000 {
		t.Errorf("go-stdlib json c=%d pipeline %d peak %v range %v–%v; want c=16, 0, 50000, 48000–52000",
			r.Connections, r.Pipeline, r.Peak, r.MinRPS, r.MaxRPS)
	}
	if got, want := r.Values(), []float64{50000, 52000, 48000, 51000, 49000}; !slices.Equal(got, want) {
		t.Errorf("Values() = %v, want %v", got, want)
	}
	if got, want := r.CPUValues(), []float64{0.01, 0.02, 0.03, 0.04, 0.05}; !slices.Equal(got, want) || r.CPUms() != 0.03 {
		t.Errorf("CPUValues() = %v, CPUms() %v; want %v, 0.03", got, r.CPUms(), want)
	}
	if r.GeneratorSaturated() {
		t.Error("GeneratorSaturated without a saturated round")
	}
	n := m[nextJSON]
	if got, want := n.Values(), []float64{2000, 2080, 1920, 2040, 1960}; !n.OK || n.Connections != 64 || !slices.Equal(got, want) {
		t.Errorf("nextjs json = %+v; want c=64 RPS %v (constant-rate sample left out)", n, want)
	}
	if len(m) != 4 {
		t.Errorf("HeadlineRows has %d keys, want 4 (go-stdlib json+queries N=20, nextjs, astro): %v", len(m), m)
	}
}

func TestHeadlineRowsHeadlineN(t *testing.T) {
	m := HeadlineRows(roundsFixture())
	if _, ok := m[model.RowKey{ID: model.ID{Framework: "go-stdlib", Variant: "default"}, Test: "queries", N: 1}]; ok {
		t.Error("queries N=1 is in the map; only the headline N=20 belongs there")
	}
	r := m[stdQueries]
	if got, want := r.Values(), []float64{9000, 9100, 9200}; !r.OK || r.Peak != 9100 || !slices.Equal(got, want) {
		t.Errorf("queries N=20 = %+v, Values %v; want peak 9100, %v", r, got, want)
	}
}

func TestHeadlineRowsGateFailed(t *testing.T) {
	r, ok := HeadlineRows(roundsFixture())[astroJSON]
	if !ok {
		t.Fatal("astro json missing: a key without a peak must still be listed")
	}
	want := "no level passed the gate in every round (16 connections, round 2: socket errors: read 1)"
	if r.OK || r.Reason != want {
		t.Errorf("astro json OK=%v Reason %q; want false, %q", r.OK, r.Reason, want)
	}
	if v := r.Values(); len(v) != 0 || r.Samples != nil || r.Connections != 0 {
		t.Errorf("no peak but Values %v, Samples %v, c=%d", v, r.Samples, r.Connections)
	}
	if ratios, rounds := r.RoundRatios(HeadlineRows(roundsFixture())[stdJSON]); ratios != nil || rounds != nil {
		t.Errorf("RoundRatios without a peak = %v, %v; want nothing", ratios, rounds)
	}
}

func TestHeadlineRowsGeneratorSaturated(t *testing.T) {
	f := roundsFixture()
	for i := range f.Samples {
		s := &f.Samples[i]
		if s.Framework == "go-stdlib" && s.Test == "json" && s.Connections == 16 && s.Round == 4 {
			s.GeneratorSaturated = true
		}
		if s.Framework == "nextjs" && s.Connections == 64 && s.Round == 1 && s.Rate == 0 {
			s.GeneratorSaturated = true
		}
	}
	m := HeadlineRows(f)
	if !m[stdJSON].GeneratorSaturated() || !m[nextJSON].GeneratorSaturated() {
		t.Error("a saturated round at the peak level not flagged")
	}
	if m[stdQueries].GeneratorSaturated() {
		t.Error("go-stdlib queries flagged without a saturated round")
	}
}

func TestRoundRatios(t *testing.T) {
	f := roundsFixture()
	m := HeadlineRows(f)
	if got := nextJSON.Reference(); got != stdJSON || got.ID != model.Reference {
		t.Fatalf("Reference() = %+v (%s), want %+v", got, got.ID, stdJSON)
	}
	ratios, rounds := m[nextJSON].RoundRatios(m[nextJSON.Reference()])
	checkRatios(t, ratios, rounds, []float64{0.04, 0.04, 0.04, 0.04, 0.04}, []int{1, 2, 3, 4, 5})

	// Drop go-stdlib's round 3 at every level: only rounds 1, 2, 4, 5 pair.
	f.Samples = slices.DeleteFunc(f.Samples, func(s model.Sample) bool {
		return s.Framework == "go-stdlib" && s.Test == "json" && s.Round == 3
	})
	m = HeadlineRows(f)
	if got, want := m[stdJSON].Values(), []float64{50000, 52000, 51000, 49000}; !slices.Equal(got, want) {
		t.Fatalf("go-stdlib without round 3: Values %v, want %v", got, want)
	}
	ratios, rounds = m[nextJSON].RoundRatios(m[stdJSON])
	checkRatios(t, ratios, rounds, []float64{0.04, 0.04, 0.04, 0.04}, []int{1, 2, 4, 5})
}

func checkRatios(t *testing.T, ratios []float64, rounds []int, want []float64, wantRounds []int) {
	t.Helper()
	if !slices.Equal(rounds, wantRounds) || len(ratios) != len(want) {
		t.Fatalf("RoundRatios = %v rounds %v, want %v rounds %v", ratios, rounds, want, wantRounds)
	}
	for i := range want {
		if math.Abs(ratios[i]-want[i]) > 1e-12 {
			t.Errorf("round %d ratio %v, want %v", rounds[i], ratios[i], want[i])
		}
	}
}

// TestRows: Rows keeps a page test's every size and the headline
// N of the others; each round's p99 at the peak level comes along.
func TestRows(t *testing.T) {
	f := roundsFixture()
	f.Suite.Tests = append(f.Suite.Tests, results.Test{Name: "page", Type: "page", Queries: []int{10, 1000}})
	for n, p99 := range map[int][]float64{10: {3, 2, 5, 4, 1}, 1000: {30, 20, 50, 40, 10}} {
		for i, v := range p99 {
			s := sample("go-stdlib", "default", "page", n, 4, i+1, 1000/v, 0.1)
			s.Latency.P99 = v
			f.Samples = append(f.Samples, s)
		}
	}
	if got, want := Ns(f.Suite.Tests[2]), []int{10, 1000}; !slices.Equal(got, want) {
		t.Errorf("Ns(page) = %v, want %v", got, want)
	}
	if got, want := Ns(f.Suite.Tests[1]), []int{20}; !slices.Equal(got, want) {
		t.Errorf("Ns(queries) = %v, want %v", got, want)
	}
	all, peaks := Rows(f), HeadlineRows(f)
	if len(all) != 6 || len(peaks) != 5 {
		t.Errorf("Rows has %d keys, HeadlineRows %d; want 6 (page N=10 and 1000) and 5 (page N=1000 only)", len(all), len(peaks))
	}
	small := all[model.RowKey{ID: model.ID{Framework: "go-stdlib", Variant: "default"}, Test: "page", N: 10}]
	if got, want := small.P99Values(), []float64{3, 2, 5, 4, 1}; !small.OK || !slices.Equal(got, want) {
		t.Errorf("page N=10 P99Values %v, want %v", got, want)
	}
	if _, ok := peaks[model.RowKey{ID: model.ID{Framework: "go-stdlib", Variant: "default"}, Test: "page", N: 10}]; ok {
		t.Error("HeadlineRows has page N=10; only the headline N=1000 belongs there")
	}
}

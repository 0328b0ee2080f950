package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/texttab"
)

// levelsFixture is a json run of three rounds at 16, 64 and 256
// connections: engine/pool is generator-bound at 16 (123,742 median, above
// its 117,810 peak at 64) and fails a round at 256 on a socket error;
// node-http is measured at 16 and 64 only; slow is generator-bound at its
// one level. Round r's p99 at a level is (base + r) ms, histMs(1, base+r).
func levelsFixture(t *testing.T) *results.File {
	f := fixture(t)
	f.Suite.Rounds = 3
	f.Suite.Tests = []results.Test{{Name: "json", Type: "json", Path: "/json", Concurrency: []int{16, 64, 256}, Pipeline: 1, Duration: 1, Gate: 1, MinResponses: 100}}
	f.Frameworks = []results.Framework{
		{Name: "node-http", Variant: "default", Runtime: "node 24.22.3"},
		{Name: "engine", Variant: "pool", Runtime: "go1.26.8"},
		{Name: "slow", Variant: "a|b", Runtime: "go1.26.8"},
	}
	f.Verifications = nil
	for _, fw := range f.Frameworks {
		f.Verifications = append(f.Verifications, results.Verification{ID: fw.ID(), Test: "json", Status: "pass"})
	}
	f.Samples = nil
	add := func(fw, variant string, conns, round int, rps float64, base int, gate string) {
		s := model.Sample{Key: model.Key{ID: model.ID{Framework: fw, Variant: variant}, Test: "json", Type: "json", Connections: conns, Pipeline: 1, Round: round},
			RPS: rps, Responses: int64(rps), Success: int64(rps), Histogram: histMs(t, 1, base+round)}
		switch gate {
		case "":
			s.Gate.Passed = true
		case "saturated":
			s.GeneratorSaturated = true
			s.Gate.Reason = model.HarnessFault + model.GeneratorSaturatedFault
		default:
			s.Gate.Reason = gate
		}
		f.Samples = append(f.Samples, s)
	}
	for r := 1; r <= 3; r++ {
		add("node-http", "default", 16, r, 60000+float64(r), 4, "")
		add("node-http", "default", 64, r, 65000+float64(r), 10, "")
		sat := ""
		if r != 2 {
			sat = "saturated"
		}
		add("engine", "pool", 16, r, []float64{123742, 121000, 125000}[r-1], 2, sat)
		add("engine", "pool", 64, r, []float64{117810, 116000, 119000}[r-1], 6, "")
		gate := ""
		if r == 3 {
			gate = "socket errors: read 1"
		}
		add("engine", "pool", 256, r, 110000, 30, gate)
		add("slow", "a|b", 16, r, 900+float64(r), 50, "saturated")
	}
	return f
}

// The p99-by-level table: a column per level any row measured, each cell
// the median of the rounds' p99 with its min–max; a failed level says so,
// a generator-bound one too, a level not measured is "—".
func TestLevelTable(t *testing.T) {
	ts, err := Tables(single(levelsFixture(t)))
	if err != nil {
		t.Fatal(err)
	}
	header, lines, _ := levelTable(ts[0].Rows, false, msf)
	if want := []string{"Framework", "Variant", "c=16", "c=64", "c=256"}; !slices.Equal(header, want) {
		t.Errorf("header %q, want %q", header, want)
	}
	// Rows in rank order: engine (117,810) ahead of node-http (65,002),
	// slow without a peak last. histMs(1, k)'s p99 is k ms in HDR's
	// highest equivalent value: exact to 8.191 ms, then 8 µs buckets (9.007).
	want := [][]string{
		{"engine", "pool", "generator-bound", "8.00 (7.00–9.01)", "failed"},
		{"node-http", "default", "6.00 (5.00–7.00)", "12.01 (11.01–13.01)", "—"},
		{"slow", "a|b", "generator-bound", "—", "—"},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d: %q", len(lines), len(want), lines)
	}
	for i := range want {
		if !slices.Equal(lines[i], want[i]) {
			t.Errorf("line %d %q, want %q", i, lines[i], want[i])
		}
	}
}

// A generator-bound level above the peak shows beside it as a lower bound,
// in the table cell, the summary and the chart; without a peak it is the
// row's only figure, unranked.
func TestGeneratorBoundCells(t *testing.T) {
	ts, err := Tables(single(levelsFixture(t)))
	if err != nil {
		t.Fatal(err)
	}
	rows := ts[0].Rows
	engine, slow := rows[0], rows[2]
	if !engine.OK || engine.PeakRPS != 117810 || engine.Bound == nil || *engine.Bound != (Bound{Connections: 16, Pipeline: 1, Rounds: 3, RPS: 123742, MinRPS: 121000, MaxRPS: 125000}) {
		t.Fatalf("engine: OK %v peak %v bound %+v", engine.OK, engine.PeakRPS, engine.Bound)
	}
	if got, want := withBound(engine, "117,810", texttab.Thousands), "117,810; ≥ 123,742 at c=16, generator-bound (121,000–125,000)"; got != want {
		t.Errorf("engine's cell %q, want %q", got, want)
	}
	if slow.OK || slow.Rank != 0 || slow.Bound == nil || slow.Bound.RPS != 902 {
		t.Fatalf("slow: OK %v rank %d bound %+v", slow.OK, slow.Rank, slow.Bound)
	}
	if got, want := summaryCell(slow, false, texttab.Thousands), "≥ 902 at c=16, generator-bound (901–903)"; got != want {
		t.Errorf("slow's summary cell %q, want %q", got, want)
	}
	if got, want := boundRange(slow, texttab.Thousands), "901–903"; got != want {
		t.Errorf("slow's range %q, want %q", got, want)
	}
	if got, want := slow.Notes[len(slow.Notes)-1], "at 16 connections the load generator's CPU set was saturated at 902 RPS (901–903 over 3 rounds), and no level passed the gate; every other gate check passed, so the server answered at least that: a lower bound (generator-bound), not a peak, not ranked"; got != want {
		t.Errorf("slow's note %q\nwant %q", got, want)
	}
	if node := rows[1]; node.Bound != nil || withBound(node, "65,002", texttab.Thousands) != "65,002" {
		t.Errorf("node-http has a bound: %+v", node.Bound)
	}
	bars := chartBars(ts[0])
	if len(bars) != 3 {
		t.Fatalf("%d bars, want 3", len(bars))
	}
	if b := bars[0]; b.X != 117810 || b.Value != "117,810; ≥ 123,742 at c=16, generator-bound" || !b.Highlight {
		t.Errorf("engine's bar %+v", b)
	}
	if b := bars[2]; b.X != 902 || b.Lo != 901 || b.Hi != 903 || b.Value != "≥ 902 at c=16, generator-bound" || b.Highlight {
		t.Errorf("slow's bar %+v", b)
	}
}

// The CSV ends every line with the lower bound: median, min–max, level;
// empty cells for a row without one.
func TestBoundCSV(t *testing.T) {
	ts, err := Tables(single(levelsFixture(t)))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := CSV(&b, ts); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 4 || !strings.HasSuffix(lines[0], ",rss_growth,lower_bound_rps,lower_bound_min_rps,lower_bound_max_rps,lower_bound_connections,lower_bound_pipeline") {
		t.Fatalf("CSV:\n%s", b.String())
	}
	for i, want := range []string{",123742,121000,125000,16,1", ",,,,,", ",902,901,903,16,1"} {
		if !strings.HasSuffix(lines[i+1], want) || !strings.HasPrefix(lines[i+1], "json,0,r1,"+ts[0].Rows[i].Framework+",") {
			t.Errorf("line %d %q, want it to end in %q", i+1, lines[i+1], want)
		}
	}
}

// The Peak RPS by N table shows a lower bound per N too: levelsFixture's
// samples as queries at N = 1 and 20, the N = 20 ones at a tenth the RPS.
func TestBoundByN(t *testing.T) {
	f := levelsFixture(t)
	f.Suite.Tests[0] = results.Test{Name: "queries", Type: "queries", Path: "/queries?queries={n}", Queries: []int{1, 20}, Concurrency: []int{16, 64, 256}, Pipeline: 1, Duration: 1, Gate: 1, MinResponses: 100}
	for i := range f.Verifications {
		f.Verifications[i].Test = "queries"
	}
	var ss []model.Sample
	for _, s := range f.Samples {
		s.Test, s.Type, s.N = "queries", "queries", 1
		ss = append(ss, s)
		s.N, s.RPS = 20, s.RPS/10
		ss = append(ss, s)
	}
	f.Samples = ss
	ts, err := Tables(single(f))
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	b := &builder{w: &buf}
	perN(b, ts[0])
	for _, want := range []string{
		"| engine    | pool    | 117,810 (116,000–119,000); ≥ 123,742 at c=16, generator-bound (121,000–125,000) | 11,781 (11,600–11,900); ≥ 12,374 at c=16, generator-bound (12,100–12,500) |",
		"| slow      | a\\|b    |                                        ≥ 902 at c=16, generator-bound (901–903) |                                     ≥ 90 at c=16, generator-bound (90–90) |",
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("by-N table lacks\n%s\n--- table:\n%s", want, buf.String())
		}
	}
}

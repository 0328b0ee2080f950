package compare

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/internal/runfixture"
)

// series is one framework variant's per-round RPS on one test at one level.
type series struct {
	fw, variant, test string
	n                 int
	rps               []float64
	cpu               float64 // ms/request in every round
	saturated         bool    // generator saturated in round 1
	failRound         int     // round whose sample failed the gate (0 = none)
}

var hostA = probe.Host{Hostname: "a", CPUModel: "Intel Xeon", LogicalCPUs: 2, MemoryBytes: 8 << 30, Arch: "x86_64"}

// file builds a results file measured on host h: one suite test per test
// name in ss (json, or queries with Queries [n] when n > 0), rounds = the
// longest series, a framework record per variant with build "b-"+fw.
func file(id string, h probe.Host, ss ...series) *results.File {
	f := &results.File{SchemaVersion: 1, MethodVersion: 2, RunID: id, Host: h,
		Suite: results.Suite{Name: "tfb", Hash: "d26ace33a1b2c3d4e5f6", Rounds: 0}}
	for _, s := range ss {
		if !slices.ContainsFunc(f.Suite.Tests, func(t results.Test) bool { return t.Name == s.test }) {
			t := results.Test{Name: s.test, Type: model.JSON}
			if s.n > 0 {
				t.Type, t.Queries = model.Queries, []int{s.n}
			}
			f.Suite.Tests = append(f.Suite.Tests, t)
		}
		if !slices.ContainsFunc(f.Frameworks, func(x results.Framework) bool { return x.Name == s.fw && x.Variant == s.variant }) {
			f.Frameworks = append(f.Frameworks, results.Framework{Name: s.fw, Variant: s.variant, Build: "b-" + s.fw})
		}
		f.Suite.Rounds = max(f.Suite.Rounds, len(s.rps))
		typ := model.JSON
		if s.n > 0 {
			typ = model.Queries
		}
		for i, r := range s.rps {
			sm := model.Sample{Key: model.Key{ID: model.ID{Framework: s.fw, Variant: s.variant}, Test: s.test, Type: typ, N: s.n,
				Connections: 16, Pipeline: 1, Round: i + 1}, RPS: r, CPUPerRequest: s.cpu,
				Gate: model.GateResult{Passed: i+1 != s.failRound}}
			if !sm.Gate.Passed {
				sm.Gate.Reason = "socket errors: read 1"
			}
			sm.GeneratorSaturated = s.saturated && i == 0
			f.Samples = append(f.Samples, sm)
		}
	}
	return f
}

func one(f *results.File) *results.Set {
	return &results.Set{Runs: []results.Run{{Label: f.RunID, File: f}}}
}

func seq(from float64, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = from + float64(i)
	}
	return v
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestVerdictCases is the plan's table: base rounds 100..104 req/s unless
// said, one row per comparison (so p_holm = p), exact p from C(10,5) = 252.
func TestCompareVerdictCases(t *testing.T) {
	cases := []struct {
		name      string
		base, new []float64
		u, p      float64
		change    float64
		verdict   Verdict
		why       string
	}{
		{"separated slower", nil, []float64{90, 91, 92, 93, 94}, 0, 2.0 / 252, 92.0/102 - 1, Slower,
			"p_holm 0.0079 < α 0.05, change -9.8% beyond ±5%"},
		{"two pairs", nil, []float64{90, 91, 92, 93, 101.5}, 2, 8.0 / 252, 92.0/102 - 1, Slower,
			"p_holm 0.032 < α 0.05, change -9.8% beyond ±5%"},
		{"three pairs", nil, []float64{90, 91, 92, 93, 102.5}, 3, 14.0 / 252, 92.0/102 - 1, Same,
			"not significant: p_holm 0.056 ≥ α 0.05"},
		{"separated faster", nil, []float64{110, 111, 112, 113, 114}, 25, 2.0 / 252, 112.0/102 - 1, Faster,
			"p_holm 0.0079 < α 0.05, change +9.8% beyond ±5%"},
		{"below min change", seq(1000, 5), seq(1010, 5), 25, 2.0 / 252, 1012.0/1002 - 1, Same,
			"significant (p_holm 0.0079 < α 0.05) but change +1.0% within ±5%"},
		{"equal rounds", []float64{7, 7, 7, 7, 7}, []float64{7, 7, 7, 7, 7}, 12.5, 1, 0, Same,
			"all rounds equal on both sides"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := c.base
			if base == nil {
				base = seq(100, 5)
			}
			b := file("b", hostA, series{fw: "nextjs", variant: "default", test: "json", rps: base})
			n := file("n", hostA, series{fw: "nextjs", variant: "default", test: "json", rps: c.new})
			tab, err := Sets(one(b), one(n), DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if len(tab.Rows) != 1 {
				t.Fatalf("%d rows, want 1", len(tab.Rows))
			}
			r := tab.Rows[0]
			if !r.Tested || r.U != c.u || !near(r.P, c.p) || !near(r.PHolm, c.p) || !near(r.Change, c.change) || r.Verdict != c.verdict || r.Why != c.why {
				t.Errorf("tested %v U %v p %v p_holm %v change %v verdict %s why %q;\nwant U %v p %v change %v verdict %s why %q",
					r.Tested, r.U, r.P, r.PHolm, r.Change, r.Verdict, r.Why, c.u, c.p, c.change, c.verdict, c.why)
			}
			if !tab.Detectable || tab.Limit != "" {
				t.Errorf("Detectable %v Limit %q; one row with 5 rounds per side can reach 0.05", tab.Detectable, tab.Limit)
			}
			if got := tab.Regressed(); got != (c.verdict == Slower) {
				t.Errorf("Regressed() = %v", got)
			}
		})
	}
}

func TestCompareTooFewRounds(t *testing.T) {
	b := file("b", hostA, series{fw: "nextjs", variant: "default", test: "json", rps: seq(100, 5)})
	n := file("n", hostA, series{fw: "nextjs", variant: "default", test: "json", rps: []float64{90, 91, 92, 93}})
	tab, err := Sets(one(b), one(n), Options{Alpha: 0.05, MinChange: 0.05, BaseName: "base.json", NewName: "new.json"})
	if err != nil {
		t.Fatal(err)
	}
	r := tab.Rows[0]
	if r.Verdict != Unknown || r.Why != "4 rounds in new.json, need 5" || r.Tested || r.P != 0 {
		t.Errorf("verdict %s why %q tested %v p %v; want unknown \"4 rounds in new.json, need 5\", untested", r.Verdict, r.Why, r.Tested, r.P)
	}
	// The change is still shown: median 91.5 vs 102.
	if !near(r.Change, 91.5/102-1) {
		t.Errorf("change %v, want %v", r.Change, 91.5/102-1)
	}
	if tab.Detectable || tab.Limit != "" {
		t.Errorf("Detectable %v Limit %q with no tested row", tab.Detectable, tab.Limit)
	}
}

// TestFamilyTooLarge: seven fully separated rows with 5 rounds give
// p = 2/252 each; Holm makes every one 7 × 2/252 = 0.0556 ≥ 0.05, so no row
// can be significant: all unknown, and the table says why once.
func TestCompareFamilyTooLarge(t *testing.T) {
	build := func(rounds, rows int) *Table {
		var bs, ns []series
		for i := range rows {
			test := string(rune('a' + i))
			bs = append(bs, series{fw: "nextjs", variant: "default", test: test, rps: seq(100, rounds)})
			ns = append(ns, series{fw: "nextjs", variant: "default", test: test, rps: seq(50, rounds)})
		}
		tab, err := Sets(one(file("b", hostA, bs...)), one(file("n", hostA, ns...)), DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		if len(tab.Rows) != rows {
			t.Fatalf("%d rows, want %d", len(tab.Rows), rows)
		}
		return tab
	}
	const limit = "5 rounds per side cannot reach α = 0.05 over 7 rows; use ≥ 6 rounds"
	tab := build(5, 7)
	if tab.Detectable || tab.Limit != limit {
		t.Errorf("Detectable %v Limit %q, want false %q", tab.Detectable, tab.Limit, limit)
	}
	for _, r := range tab.Rows {
		if r.Verdict != Unknown || r.Why != limit || !near(r.P, 2.0/252) || !near(r.PHolm, 14.0/252) {
			t.Errorf("%s: verdict %s why %q p %v p_holm %v", r.Test, r.Verdict, r.Why, r.P, r.PHolm)
		}
	}
	var md strings.Builder
	if err := Markdown(&md, tab); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(md.String(), "**No verdict possible: "+limit+".**"); got != 1 {
		t.Errorf("markdown states the limit %d times, want once:\n%s", got, md.String())
	}

	// Six rows with 5 rounds: 6 × 2/252 = 0.0476 < 0.05, every row slower.
	tab = build(5, 6)
	if !tab.Detectable || tab.Count(Slower) != 6 || !near(tab.Rows[0].PHolm, 12.0/252) {
		t.Errorf("6 rows, 5 rounds: Detectable %v, %d slower, p_holm %v; want true, 6, 0.0476", tab.Detectable, tab.Count(Slower), tab.Rows[0].PHolm)
	}
	// Seven rows with 6 rounds: 7 × 2/924 = 0.0152.
	tab = build(6, 7)
	if !tab.Detectable || tab.Count(Slower) != 7 || !near(tab.Rows[0].PHolm, 14.0/924) {
		t.Errorf("7 rows, 6 rounds: Detectable %v, %d slower, p_holm %v; want true, 7, 0.0152", tab.Detectable, tab.Count(Slower), tab.Rows[0].PHolm)
	}
}

func TestCompareLimitText(t *testing.T) {
	for _, c := range []struct {
		n1, n2, m int
		want      string
	}{
		{5, 5, 48, "5 rounds per side cannot reach α = 0.05 over 48 rows; use ≥ 7 rounds"},
		{5, 6, 30, "5 rounds in base and 6 in new cannot reach α = 0.05 over 30 rows; use ≥ 7 rounds"},
		{7, 7, 100, "7 rounds per side cannot reach α = 0.05 over 100 rows; use ≥ 8 rounds"},
	} {
		if got := limitText(c.n1, c.n2, c.m, 0.05); got != c.want {
			t.Errorf("limitText(%d, %d, %d) = %q, want %q", c.n1, c.n2, c.m, got, c.want)
		}
	}
}

func TestCompareRefusal(t *testing.T) {
	o := DefaultOptions()
	o.BaseName, o.NewName = "a.json", "b.json"
	b := file("b", hostA, series{fw: "nextjs", variant: "default", test: "json", rps: seq(100, 5)})
	n := file("n", hostA, series{fw: "nextjs", variant: "default", test: "json", rps: seq(100, 5)})
	b.MethodVersion = 1
	_, err := Sets(one(b), one(n), o)
	want := "results do not compare: a.json: method version 1, b.json: method version 2: results measured by different methods never compare"
	if !errors.Is(err, ErrRefused) || err.Error() != want {
		t.Errorf("method versions: %v\nwant %s", err, want)
	}
	b.MethodVersion = 2
	n.Suite.Hash = "0123456789abcdef"
	_, err = Sets(one(b), one(n), o)
	want = "results do not compare: a.json: suite tfb (sha256 d26ace33a1b2), b.json: suite tfb (sha256 0123456789ab): results of different suites never compare"
	if !errors.Is(err, ErrRefused) || err.Error() != want {
		t.Errorf("suite hashes: %v\nwant %s", err, want)
	}
	for _, bad := range []Options{{Alpha: 0}, {Alpha: 1}, {Alpha: 0.05, MinChange: 1}, {Alpha: 0.05, Basis: "cpu"}} {
		if _, err := Sets(one(b), one(b), bad); err == nil || errors.Is(err, ErrRefused) {
			t.Errorf("options %+v: err %v, want an options error", bad, err)
		}
	}
}

// TestRatioBasis: base nextjs/ref = 0.04 every round; new nextjs halved on
// another machine of the same hardware: new ratio 0.02, NormRatio 0.5,
// slower.
func TestCompareRatioBasis(t *testing.T) {
	ref := []float64{50000, 52000, 48000, 51000, 49000}
	x := []float64{2000, 2080, 1920, 2040, 1960}
	half := make([]float64, 5)
	for i := range x {
		half[i] = x[i] / 2
	}
	hostB := hostA
	hostB.Hostname = "b"
	b := file("b", hostA, series{fw: "go-stdlib", variant: "default", test: "json", rps: ref},
		series{fw: "nextjs", variant: "default", test: "json", rps: x})
	n := file("n", hostB, series{fw: "go-stdlib", variant: "default", test: "json", rps: ref},
		series{fw: "nextjs", variant: "default", test: "json", rps: half})
	o := DefaultOptions()
	o.Basis = BasisRatio
	tab, err := Sets(one(b), one(n), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 1 || tab.Rows[0].Framework != "nextjs" {
		t.Fatalf("rows %+v, want nextjs only (the reference is left out)", tab.Rows)
	}
	r := tab.Rows[0]
	if !near(r.NormRatio, 0.5) || !near(r.Ratio, 0.5) || !near(r.Base.RefRatio, 0.04) || !near(r.New.RefRatio, 0.02) {
		t.Errorf("norm ratio %v ratio %v ref ratios %v %v; want 0.5, 0.5, 0.04, 0.02", r.NormRatio, r.Ratio, r.Base.RefRatio, r.New.RefRatio)
	}
	for i, v := range r.New.Values {
		if !near(v, 0.02) || !near(r.Base.Values[i], 0.04) {
			t.Errorf("round %d: ratios %v / %v, want 0.04 / 0.02", r.New.Rounds[i], r.Base.Values[i], v)
		}
	}
	if r.Verdict != Slower || !near(r.Change, -0.5) || !near(r.P, 2.0/252) {
		t.Errorf("verdict %s change %v p %v; want slower -0.5 0.0079", r.Verdict, r.Change, r.P)
	}
	wantNote := `hostnames differ (base run b on "a", new run n on "b"), hardware the same`
	if len(tab.Warnings) != 0 || !slices.Contains(tab.Notes, wantNote) {
		t.Errorf("warnings %q notes %q, want none and %q", tab.Warnings, tab.Notes, wantNote)
	}
	// The same inputs with basis rps: the reference row appears.
	tab, err = Sets(one(b), one(n), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 2 || tab.Rows[0].Framework != "go-stdlib" || tab.Rows[0].Verdict != Same || tab.Rows[0].Why != "not significant: p_holm 1 ≥ α 0.05" {
		t.Errorf("rps rows %+v", tab.Rows)
	}
	if len(tab.Warnings) != 0 {
		t.Errorf("warnings %q, want none", tab.Warnings)
	}
	// A reference without a peak in the new run makes the row unknown.
	n.Samples[0].Gate = model.GateResult{Reason: "status 500: 3"}
	tab, err = Sets(one(b), one(n), o)
	if err != nil {
		t.Fatal(err)
	}
	want := "new: no go-stdlib/default peak on json in run n (no level passed the gate in every round (16 connections, round 1: status 500: 3))"
	if r := tab.Rows[0]; r.Verdict != Unknown || r.Why != want {
		t.Errorf("verdict %s why %q, want unknown %q", r.Verdict, r.Why, want)
	}
}

// TestCompareAcrossHosts: a stored baseline from another machine. The new
// side is 5% slower in every round, which the rank test would call slower
// on one machine; any difference in CPU model, core count, arch or runner
// label makes every row unknown in both bases, a memory total alone warns.
func TestCompareAcrossHosts(t *testing.T) {
	ref := []float64{50000, 52000, 48000, 51000, 49000, 50500, 49500, 50200}
	x := []float64{2000, 2080, 1920, 2040, 1960, 2010, 1990, 2005}
	slow := make([]float64, len(x))
	for i := range x {
		slow[i] = x[i] * 0.95
	}
	sameHW := hostA
	sameHW.Hostname = "b"
	if tab, err := Sets(one(file("b", hostA, series{fw: "go-stdlib", variant: "default", test: "json", rps: ref},
		series{fw: "nextjs", variant: "default", test: "json", rps: x})),
		one(file("n", sameHW, series{fw: "go-stdlib", variant: "default", test: "json", rps: ref},
			series{fw: "nextjs", variant: "default", test: "json", rps: slow})), DefaultOptions()); err != nil {
		t.Fatal(err)
	} else if r := tab.Rows[1]; r.Verdict != Slower {
		t.Fatalf("same hardware: %s %s, want slower (the control)", r.ID, r.Verdict)
	}
	for _, c := range []struct {
		name string
		edit func(*probe.Host)
		diff string
	}{
		{"cpu model", func(h *probe.Host) { h.CPUModel = "AMD EPYC" }, `cpu_model "Intel Xeon" vs "AMD EPYC"`},
		{"core count", func(h *probe.Host) { h.LogicalCPUs = 4 }, `logical_cpus 2 vs 4`},
		{"arch", func(h *probe.Host) { h.Arch = "aarch64" }, `arch "x86_64" vs "aarch64"`},
		{"runner", func(h *probe.Host) { h.Runner = "ubuntu24" }, `runner "" vs "ubuntu24"`},
		{"memory only", func(h *probe.Host) { h.MemoryBytes = 7 << 30 }, ""},
	} {
		other := sameHW
		c.edit(&other)
		b := file("b", hostA, series{fw: "go-stdlib", variant: "default", test: "json", rps: ref},
			series{fw: "nextjs", variant: "default", test: "json", rps: x})
		n := file("n", other, series{fw: "go-stdlib", variant: "default", test: "json", rps: ref},
			series{fw: "nextjs", variant: "default", test: "json", rps: slow})
		for _, basis := range []Basis{BasisRatio, BasisRPS} {
			o := DefaultOptions()
			o.Basis = basis
			tab, err := Sets(one(b), one(n), o)
			if err != nil {
				t.Fatal(err)
			}
			next := tab.Rows[len(tab.Rows)-1]
			if c.diff == "" {
				want := []string{"hosts differ (base run b, new run n): memory_bytes 8589934592 vs 7516192768"}
				if next.Verdict != Slower || !slices.Equal(tab.Warnings, want) {
					t.Errorf("%s, basis %s: %s, warnings %q; want slower, %q", c.name, basis, next.Verdict, tab.Warnings, want)
				}
				continue
			}
			for _, r := range tab.Rows {
				if r.Verdict != Unknown || r.Why != "hosts differ: "+c.diff || r.Tested {
					t.Errorf("%s, basis %s: %s %s %q tested %v; want unknown %q", c.name, basis, r.ID, r.Verdict, r.Why, r.Tested, "hosts differ: "+c.diff)
				}
			}
			want := []string{"hosts differ, rows unknown (base run b, new run n): " + c.diff}
			if !slices.Equal(tab.Warnings, want) {
				t.Errorf("%s, basis %s: warnings %q, want %q", c.name, basis, tab.Warnings, want)
			}
		}
	}
}

// TestMergedSets: two runs per side on different hosts (host B twice as
// fast); each non-reference row's ratio uses its own run's reference, the
// reference rows are keyed by run label in basis rps.
func TestCompareMergedSets(t *testing.T) {
	hostB := hostA
	hostB.CPUModel, hostB.Hostname = "AMD EPYC", "b"
	scale := func(v []float64, k float64) []float64 {
		out := make([]float64, len(v))
		for i := range v {
			out[i] = v[i] * k
		}
		return out
	}
	ref := []float64{50000, 52000, 48000, 51000, 49000}
	mk := func(nextK, astroK float64) *results.Set {
		a := file("ra", hostA, series{fw: "go-stdlib", variant: "default", test: "json", rps: ref},
			series{fw: "nextjs", variant: "default", test: "json", rps: scale(seq(2000, 5), nextK)})
		b := file("rb", hostB, series{fw: "go-stdlib", variant: "default", test: "json", rps: scale(ref, 2)},
			series{fw: "astro", variant: "default", test: "json", rps: scale(seq(4000, 5), astroK)})
		s, err := results.Merge([]results.Run{{Label: "nextjs", File: a}, {Label: "astro", File: b}})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	base, new := mk(1, 1), mk(0.8, 1)
	tab, err := Sets(base, new, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		name, run string
		verdict   Verdict
		refRatio  float64
	}
	var rows []got
	for _, r := range tab.Rows {
		rows = append(rows, got{r.Framework + "/" + r.Variant, r.New.Run, r.Verdict, math.Round(r.New.RefRatio*1e4) / 1e4})
	}
	want := []got{
		{"astro/default", "astro", Same, 0.04},
		{"go-stdlib/default", "astro", Same, 1},
		{"go-stdlib/default", "nextjs", Same, 1},
		{"nextjs/default", "nextjs", Slower, 0.032},
	}
	if !slices.Equal(rows, want) {
		t.Errorf("rows %+v\nwant %+v", rows, want)
	}
	if len(tab.Warnings) != 0 {
		t.Errorf("warnings %q: each run pair is on one host", tab.Warnings)
	}
	var md strings.Builder
	if err := Markdown(&md, tab); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| Run    | Framework ") || !strings.Contains(md.String(), "| astro  | go-stdlib ") {
		t.Errorf("merged markdown has no Run column:\n%s", md.String())
	}
	// Ratio basis: astro's ratio is over run astro's reference (100000 →
	// 0.04), nextjs's over run nextjs's (50000 → 0.032 after -20%).
	o := DefaultOptions()
	o.Basis = BasisRatio
	tab, err = Sets(base, new, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 2 || tab.Rows[0].Framework != "astro" || tab.Rows[1].Framework != "nextjs" {
		t.Fatalf("ratio rows %+v", tab.Rows)
	}
	if a := tab.Rows[0]; !near(a.Base.Values[2], 4002.0/96000) || a.Verdict != Same {
		t.Errorf("astro round 3 ratio %v verdict %s, want %v same", a.Base.Values[2], a.Verdict, 4002.0/96000)
	}
	if nx := tab.Rows[1]; !near(nx.New.Values[0], 1600.0/50000) || nx.Verdict != Slower || !near(nx.NormRatio, 0.8) {
		t.Errorf("nextjs round 1 ratio %v verdict %s norm %v, want 0.032 slower 0.8", nx.New.Values[0], nx.Verdict, nx.NormRatio)
	}
}

// TestMissingSides: a variant that failed to build, one that failed
// verification, one without a peak, one absent from new; a test only in
// base; a saturated generator; equal builds; hostnames that differ.
func TestCompareMissingSides(t *testing.T) {
	hostA2 := hostA
	hostA2.Hostname = "runner-7"
	b := file("b", hostA,
		series{fw: "astro", variant: "default", test: "json", rps: seq(100, 5)},
		series{fw: "nextjs", variant: "default", test: "json", rps: seq(100, 5)},
		series{fw: "qwik", variant: "default", test: "json", rps: seq(100, 5)},
		series{fw: "remix", variant: "default", test: "json", rps: seq(100, 5)},
		series{fw: "solid", variant: "default", test: "json", rps: seq(100, 5)},
		series{fw: "solid", variant: "default", test: "plaintext", rps: seq(100, 5)},
	)
	n := file("n", hostA2,
		series{fw: "astro", variant: "default", test: "json", rps: seq(100, 5), saturated: true},
		series{fw: "qwik", variant: "default", test: "json", rps: seq(100, 5), failRound: 3},
		series{fw: "solid", variant: "default", test: "json", rps: seq(100, 5)},
	)
	n.Frameworks = append(n.Frameworks,
		results.Framework{Name: "nextjs", Variant: "default", Error: "npm ci: exit status 1"},
		results.Framework{Name: "remix", Variant: "default"})
	n.Verifications = []results.Verification{{ID: model.ID{Framework: "remix", Variant: "default"}, Test: "json", Status: "fail", Reasons: []string{"Content-Type is text/html"}}}
	n.Frameworks[0].Build = "other"
	tab, err := Sets(one(b), one(n), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var whys []string
	for _, r := range tab.Rows {
		whys = append(whys, r.Framework+" "+r.Test+": "+string(r.Verdict)+": "+r.Why)
	}
	want := []string{
		"astro json: same: not significant: p_holm 1 ≥ α 0.05",
		"nextjs json: unknown: new: could not build or start: npm ci: exit status 1",
		"qwik json: unknown: new: no peak: no level passed the gate in every round (16 connections, round 3: socket errors: read 1)",
		"remix json: unknown: new: verification failed: Content-Type is text/html",
		"solid json: same: not significant: p_holm 1 ≥ α 0.05",
	}
	if !slices.Equal(whys, want) {
		t.Errorf("rows\n%s\nwant\n%s", strings.Join(whys, "\n"), strings.Join(want, "\n"))
	}
	wantWarn := []string{"astro/default json: load generator saturated in new (those rounds measured the generator, not the server)"}
	if !slices.Equal(tab.Warnings, wantWarn) {
		t.Errorf("warnings %q\nwant %q", tab.Warnings, wantWarn)
	}
	wantNotes := []string{
		"tests only in base (not compared): plaintext",
		`hostnames differ (base run b on "a", new run n on "runner-7"), hardware the same`,
		"same build on both sides (equal build hashes, the same code measured twice): qwik/default, solid/default",
	}
	if !slices.Equal(tab.Notes, wantNotes) {
		t.Errorf("notes\n%q\nwant\n%q", tab.Notes, wantNotes)
	}
	// A variant new did not run at all is a note, not a row.
	n.Frameworks = slices.DeleteFunc(n.Frameworks, func(f results.Framework) bool { return f.Name == "remix" })
	n.Verifications = nil
	tab, err = Sets(one(b), one(n), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 4 || !slices.Contains(tab.Notes, "only in base (not compared): remix/default") {
		t.Errorf("%d rows, notes %q; want 4 rows and remix only in base", len(tab.Rows), tab.Notes)
	}
}

func TestCompareVariants(t *testing.T) {
	f := file("ab", hostA,
		series{fw: "go-stdlib", variant: "default", test: "json", rps: seq(50000, 5), cpu: 0.02},
		series{fw: "go-stdlib", variant: "slow", test: "json", rps: seq(4000, 5), cpu: 0.03},
		series{fw: "go-stdlib", variant: "default", test: "queries", n: 20, rps: seq(9000, 5), cpu: 0.2},
		series{fw: "go-stdlib", variant: "slow", test: "queries", n: 20, rps: seq(3000, 4), cpu: 0.3},
	)
	base, slow := model.ID{Framework: "go-stdlib", Variant: "default"}, model.ID{Framework: "go-stdlib", Variant: "slow"}
	tab, err := Variants(f, base, slow, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 2 {
		t.Fatalf("%d rows, want 2", len(tab.Rows))
	}
	j, q := tab.Rows[0], tab.Rows[1]
	if j.Test != "json" || j.Verdict != Slower || !near(j.P, 2.0/252) || !near(j.PHolm, 2.0/252) || !near(j.Ratio, 4002.0/50002) || !near(j.NormRatio, 4002.0/50002) {
		t.Errorf("json row %+v", j)
	}
	if q.Test != "queries" || q.N != 20 || q.Verdict != Unknown || q.Why != "4 rounds in go-stdlib/slow, need 5" {
		t.Errorf("queries row: test %s N %d verdict %s why %q", q.Test, q.N, q.Verdict, q.Why)
	}
	wantNote := "go-stdlib/default and go-stdlib/slow have the same build (build inputs sha256 b-go-stdlib): they differ only in how they are started"
	if !slices.Equal(tab.Notes, []string{wantNote}) {
		t.Errorf("notes %q", tab.Notes)
	}
	for _, c := range []struct {
		a, b model.ID
		o    Options
		want string
	}{
		{base, base, DefaultOptions(), "go-stdlib/default compared with itself: name two different variants"},
		{base, model.ID{Framework: "go-stdlib", Variant: "fast"}, DefaultOptions(), "run ab measured no go-stdlib/fast"},
		{base, slow, Options{Alpha: 0.05, Basis: BasisRatio}, "basis ratio: two variants of one run compare with basis rps"},
	} {
		if _, err := Variants(f, c.a, c.b, c.o); err == nil || err.Error() != c.want {
			t.Errorf("Variants(%s, %s): %v, want %q", c.a, c.b, err, c.want)
		}
	}
}

// TestCompareLatestWithItself compares the published run 20261202-143809
// (internal/runfixture, not reports/latest.json, which a run replaces; 3
// rounds) with itself: every row is unknown for too few rounds, nothing is
// refused or slower, every variant has the same build.
func TestCompareLatestWithItself(t *testing.T) {
	s, err := results.ReadSet(runfixture.Results(t))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Sets(s, s, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 54 {
		t.Errorf("%d rows, want 54 (9 variants × 6 tests)", len(tab.Rows))
	}
	for _, r := range tab.Rows {
		if r.Verdict != Unknown || r.Why != "3 rounds in base; 3 rounds in new, need 5" || r.Change != 0 || !r.SameBuild {
			t.Errorf("%s/%s %s: verdict %s why %q change %v same build %v", r.Framework, r.Variant, r.Test, r.Verdict, r.Why, r.Change, r.SameBuild)
		}
	}
	if tab.Regressed() || len(tab.Warnings) != 0 {
		t.Errorf("regressed %v warnings %q", tab.Regressed(), tab.Warnings)
	}
}

// TestCompareNothingInCommon: two sides with no row in common say so.
func TestCompareNothingInCommon(t *testing.T) {
	b := file("b", hostA, series{fw: "nextjs", variant: "default", test: "json", rps: seq(100, 5)})
	n := file("n", hostA, series{fw: "astro", variant: "default", test: "json", rps: seq(100, 5)})
	tab, err := Sets(one(b), one(n), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 0 || !slices.Contains(tab.Warnings, "no framework variant and test is in both: nothing compared (in basis rps the reference of a merged file is matched by run label)") {
		t.Errorf("rows %d, warnings %q", len(tab.Rows), tab.Warnings)
	}
}

// TestCompareRank: Rank alone over one family of five pairs: two fully
// separated (p = 2/252 each, Holm × 3 and × 2 → 0.024 both), one step-1
// reason, one side short of MinRounds (neither in the family of 3), one
// overlapping; then a family too large for 5 rounds, and options out of
// range.
func TestCompareRank(t *testing.T) {
	o := DefaultOptions()
	o.BaseName, o.NewName = "node-http/default", "engine/pool"
	f, err := Rank([]Pair{
		{Base: seq(100, 5), New: seq(120, 5)},
		{Base: seq(100, 5), New: seq(80, 5)},
		{Base: seq(100, 5), New: seq(100, 5), Why: "engine/pool: no peak: no level passed the gate in every round"},
		{Base: seq(100, 4), New: seq(100, 5)},
		{Base: seq(100, 5), New: []float64{120, 121, math.Inf(1), 123, 124}},
		{Base: []float64{100, 101, 102, 103, 104}, New: []float64{101, 102, 103, 104, 105}},
	}, o)
	if err != nil {
		t.Fatal(err)
	}
	want := []Outcome{
		{Change: 122.0/102 - 1, Tested: true, U: 25, P: 2.0 / 252, PHolm: 3 * 2.0 / 252, Verdict: Faster, Why: "p_holm 0.024 < α 0.05, change +19.6% beyond ±5%"},
		{Change: 82.0/102 - 1, Tested: true, U: 0, P: 2.0 / 252, PHolm: 3 * 2.0 / 252, Verdict: Slower, Why: "p_holm 0.024 < α 0.05, change -19.6% beyond ±5%"},
		{Verdict: Unknown, Why: "engine/pool: no peak: no level passed the gate in every round"},
		{Change: 102.0/101.5 - 1, Verdict: Unknown, Why: "4 rounds in node-http/default, need 5"},
		{Change: 123.0/102 - 1, Verdict: Unknown, Why: "rank test: new value 3 is +Inf"},
	}
	if !f.Detectable || f.Limit != "" || len(f.Outcomes) != 6 {
		t.Fatalf("family detectable %v, limit %q, %d outcomes; want true, \"\", 6", f.Detectable, f.Limit, len(f.Outcomes))
	}
	for i, w := range want {
		g := f.Outcomes[i]
		if g.Tested != w.Tested || g.Verdict != w.Verdict || g.Why != w.Why || !near(g.Change, w.Change) || !near(g.P, w.P) || !near(g.PHolm, w.PHolm) || g.U != w.U {
			t.Errorf("pair %d: %+v\nwant %+v", i, g, w)
		}
	}
	if g := f.Outcomes[5]; g.Verdict != Same || !g.Tested || g.Why != "not significant: p_holm 0.44 ≥ α 0.05" {
		t.Errorf("overlapping pair: %+v, want same, not significant", g)
	}

	seven := make([]Pair, 7)
	for i := range seven {
		seven[i] = Pair{Base: seq(100, 5), New: seq(200, 5)}
	}
	f, err = Rank(seven, o)
	if err != nil || f.Detectable || f.Limit != "5 rounds per side cannot reach α = 0.05 over 7 rows; use ≥ 6 rounds" || f.Outcomes[0].Verdict != Unknown || f.Outcomes[0].Why != f.Limit {
		t.Errorf("7 pairs of 5 rounds: %+v, %v; want every row unknown with the limit", f, err)
	}

	o.Alpha = 1.5
	if _, err := Rank(seven, o); err == nil || err.Error() != "alpha 1.5: want 0 < α < 1" {
		t.Errorf("alpha 1.5: %v", err)
	}
}

// TestCompareAA: compare's rule with its defaults (α 0.05, min change 5%)
// over 2000 A/A tables of 3 rows, both sides of every row drawn from one
// distribution (RPS 1,000 to 100,000, 3–10% noise, 5 to 8 rounds, rounded
// so that rounds tie): a table shows faster or slower at most α plus 3
// binomial sd of the time, and no row is unknown.
func TestCompareAA(t *testing.T) {
	const trials = 2000
	o := DefaultOptions()
	draw := func(r *rand.Rand, n int, mean, sd float64) []float64 {
		q := math.Pow(10, math.Floor(math.Log10(mean*sd)))
		x := make([]float64, n)
		for i := range x {
			x[i] = math.Round(mean*(1+sd*r.NormFloat64())/q) * q
		}
		return x
	}
	alarms := 0
	for seed := range uint64(trials) {
		r := rand.New(rand.NewPCG(2, seed))
		pairs := make([]Pair, 3)
		for i := range pairs {
			mean, sd := 1000*math.Pow(100, r.Float64()), 0.03+0.07*r.Float64()
			pairs[i] = Pair{Base: draw(r, 5+r.IntN(4), mean, sd), New: draw(r, 5+r.IntN(4), mean, sd)}
		}
		f, err := Rank(pairs, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, out := range f.Outcomes {
			if out.Verdict == Unknown {
				t.Fatalf("seed %d: unknown (%s), want a verdict for %+v", seed, out.Why, pairs)
			}
		}
		for _, out := range f.Outcomes {
			if out.Verdict == Faster || out.Verdict == Slower {
				alarms++
				break
			}
		}
	}
	limit := int(trials*o.Alpha + 3*math.Sqrt(trials*o.Alpha*(1-o.Alpha)))
	t.Logf("%d A/A tables: %d with faster or slower; limit %d", trials, alarms, limit)
	if alarms > limit {
		t.Errorf("%d of %d A/A tables show faster or slower, want ≤ %d (α %g + 3 sd)", alarms, trials, limit, o.Alpha)
	}
}

// TestCompareRankErrorShown: a row whose rank test fails is unknown with
// the test's error as its Why in the markdown, and out of the Holm family.
func TestCompareRankErrorShown(t *testing.T) {
	tab := formatFixture(t)
	tab.Rows[1].New.Values[2] = math.NaN()
	decide(tab)
	r := tab.Rows[1]
	if r.Verdict != Unknown || r.Tested || r.Why != "rank test: new value 3 is NaN" {
		t.Fatalf("row %s: %s, tested %v, why %q; want unknown, untested, rank test: new value 3 is NaN", r.Key(), r.Verdict, r.Tested, r.Why)
	}
	var buf strings.Builder
	if err := Markdown(&buf, tab); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "| unknown | rank test: new value 3 is NaN") || !strings.Contains(buf.String(), "across this table's 1 tested rows") {
		t.Errorf("markdown lacks the unknown row with its error, or counts it as tested:\n%s", buf.String())
	}
}

// TestRegression: the error names the slower rows (test at N as model.Label
// writes it), the first five and "…", and wraps ErrRegression; none slower
// is no error.
func TestRegression(t *testing.T) {
	tb := &Table{}
	if err := tb.Regression(); err != nil {
		t.Errorf("no rows: %v", err)
	}
	for i, v := range []Verdict{Slower, Same, Slower, Slower, Slower, Slower, Slower, Faster} {
		tb.Rows = append(tb.Rows, Row{ID: model.MustID("nextjs/default"), Test: "queries", N: i, Verdict: v})
	}
	err := tb.Regression()
	want := "6 of 8 rows slower than base: nextjs/default queries, nextjs/default queries N=2, nextjs/default queries N=3, nextjs/default queries N=4, nextjs/default queries N=5, …"
	if err == nil || err.Error() != want || !errors.Is(err, ErrRegression) {
		t.Errorf("Regression() = %v\nwant %s (wrapping ErrRegression)", err, want)
	}
}

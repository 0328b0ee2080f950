package rankstat

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestRankstatMinP(t *testing.T) {
	for _, c := range []struct {
		n1, n2 int
		want   float64
	}{{5, 5, 2.0 / 252}, {6, 6, 2.0 / 924}, {7, 7, 2.0 / 3432}, {8, 8, 2.0 / 12870}, {5, 6, 2.0 / 462}, {1, 1, 1}} {
		if got := MinP(c.n1, c.n2); !near(got, c.want) {
			t.Errorf("MinP(%d, %d) = %v, want %v", c.n1, c.n2, got, c.want)
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestRankstatRank: one family's verdicts and reasons, from numbers alone.
func TestRankstatRank(t *testing.T) {
	seq := func(from float64) []float64 { return []float64{from, from + 1, from + 2, from + 3, from + 4} }
	pairs := []Pair{
		{Base: seq(100), New: seq(50)},                                   // slower
		{Base: seq(100), New: seq(200)},                                  // faster
		{Base: seq(100), New: seq(100)},                                  // not significant
		{Base: []float64{1, 1, 1, 1, 1}, New: []float64{1, 1, 1, 1, 1}},  // all equal
		{Base: seq(100), New: seq(100)[:4]},                              // too few rounds
		{Base: seq(100), New: seq(50), Excluded: true},                   // excluded
		{Base: seq(100), New: []float64{100, math.NaN(), 102, 103, 104}}, // the test fails
	}
	f := Rank(pairs, 0.05, 0.05)
	want := []struct {
		v Verdict
		r Reason
	}{{Slower, Beyond}, {Faster, Beyond}, {Same, NotSignificant}, {Same, AllEqual}, {Unknown, TooFewRounds}, {Unknown, Excluded}, {Unknown, TestFailed}}
	if !f.Detectable || f.Tested != 4 || f.N1 != 5 || f.N2 != 5 {
		t.Fatalf("Rank: Detectable %v, Tested %d, N1 %d, N2 %d; want true, 4, 5, 5", f.Detectable, f.Tested, f.N1, f.N2)
	}
	for i, w := range want {
		if o := f.Outcomes[i]; o.Verdict != w.v || o.Reason != w.r {
			t.Errorf("pair %d: %s (reason %d), want %s (reason %d)", i, o.Verdict, o.Reason, w.v, w.r)
		}
	}
	if o := f.Outcomes[6]; o.Tested || o.Err == nil || o.Err.Error() != "rank test: new value 2 is NaN" {
		t.Errorf("pair 6: tested %v, err %v; want untested, rank test: new value 2 is NaN", o.Tested, o.Err)
	}
	if !near(f.Outcomes[0].P, 2.0/252) || !near(f.Outcomes[0].PHolm, 8.0/252) {
		t.Errorf("pair 0: p %v, p_holm %v; want 2/252, 8/252", f.Outcomes[0].P, f.Outcomes[0].PHolm)
	}
	// Ten pairs of 5 rounds: 10 × 2/252 ≥ 0.05, none can be significant.
	many := make([]Pair, 10)
	for i := range many {
		many[i] = Pair{Base: seq(100), New: seq(50)}
	}
	if f := Rank(many, 0.05, 0.05); f.Detectable || f.Outcomes[0].Reason != Undetectable || RoundsNeeded(f.N1, f.N2, f.Tested, 0.05) != 6 {
		t.Errorf("10 pairs: Detectable %v, reason %d, need %d; want false, Undetectable, 6", f.Detectable, f.Outcomes[0].Reason, RoundsNeeded(f.N1, f.N2, f.Tested, 0.05))
	}
}

// TestRankstatMannWhitneyErrors: all-equal sides are p = 1 (docs/comparing.md);
// an empty side or a value that is not finite is an error, never a p.
func TestRankstatMannWhitneyErrors(t *testing.T) {
	ones := []float64{1, 1, 1, 1, 1}
	if u, p, err := MannWhitney(ones, ones); u != 12.5 || p != 1 || err != nil {
		t.Errorf("all equal: u %v, p %v, %v; want 12.5, 1, nil", u, p, err)
	}
	for _, c := range []struct {
		next, base []float64
		want       string
	}{
		{nil, ones, "rank test: 0 new and 5 base values: sample is too small"},
		{ones, []float64{1, 2, math.Inf(1)}, "rank test: base value 3 is +Inf"},
		{[]float64{math.NaN()}, ones, "rank test: new value 1 is NaN"},
	} {
		if _, _, err := MannWhitney(c.next, c.base); err == nil || err.Error() != c.want {
			t.Errorf("MannWhitney(%v, %v): %v, want %s", c.next, c.base, err, c.want)
		}
	}
}

// aaRounds draws n rounds of one side of an A/A comparison: RPS around mean
// with relative noise sd, rounded to the power of ten below mean × sd, so
// that some rounds tie (as recorded RPS with few significant digits do).
func aaRounds(r *rand.Rand, n int, mean, sd float64) []float64 {
	q := math.Pow(10, math.Floor(math.Log10(mean*sd)))
	x := make([]float64, n)
	for i := range x {
		x[i] = math.Round(mean*(1+sd*r.NormFloat64())/q) * q
	}
	return x
}

// aaMargin is the most false alarms in n A/A trials at level alpha that a
// calibrated test gives with probability > 0.998: n·α plus 3 binomial sd.
func aaMargin(n int, alpha float64) int {
	return int(float64(n)*alpha + 3*math.Sqrt(float64(n)*alpha*(1-alpha)))
}

// TestRankstatAA: both sides drawn from one distribution (RPS 1,000 to
// 100,000, 3–10% noise, 5 to 8 rounds a side, partial ties) over 2000
// seeds: faster or slower comes up at most α plus a binomial margin of
// the time, per pair (min change 0) and per Holm family of 4 pairs.
func TestRankstatAA(t *testing.T) {
	const trials, alpha = 2000, 0.05
	pair := func(r *rand.Rand) Pair {
		mean, sd := 1000*math.Pow(100, r.Float64()), 0.03+0.07*r.Float64()
		return Pair{Base: aaRounds(r, 5+r.IntN(4), mean, sd), New: aaRounds(r, 5+r.IntN(4), mean, sd)}
	}
	alarms, familyAlarms, ties := 0, 0, 0
	for seed := range uint64(trials) {
		r := rand.New(rand.NewPCG(1, seed))
		p := pair(r)
		if hasTies(append(append([]float64{}, p.Base...), p.New...)) {
			ties++
		}
		o := Rank([]Pair{p}, alpha, 0).Outcomes[0]
		if o.Err != nil || !o.Tested {
			t.Fatalf("seed %d: %+v: not tested (%v)", seed, p, o.Err)
		}
		if o.Verdict == Faster || o.Verdict == Slower {
			alarms++
		}
		f := Rank([]Pair{pair(r), pair(r), pair(r), pair(r)}, alpha, 0)
		for _, o := range f.Outcomes {
			if o.Verdict == Faster || o.Verdict == Slower {
				familyAlarms++
				break
			}
		}
	}
	limit := aaMargin(trials, alpha)
	t.Logf("%d trials (%d with ties): %d pair alarms, %d family alarms; limit %d", trials, ties, alarms, familyAlarms, limit)
	if ties < trials/2 {
		t.Errorf("%d of %d trials have ties, want at least half (the fixture lost its ties)", ties, trials)
	}
	if alarms > limit || familyAlarms > limit {
		t.Errorf("false alarms: %d of %d pairs, %d of %d families; want each ≤ %d (α %g + 3 sd)", alarms, trials, familyAlarms, trials, limit, alpha)
	}
}

func hasTies(x []float64) bool {
	seen := map[float64]bool{}
	for _, v := range x {
		if seen[v] {
			return true
		}
		seen[v] = true
	}
	return false
}

package rankstat

import (
	"math"
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
		{Base: seq(100), New: seq(50)},                                  // slower
		{Base: seq(100), New: seq(200)},                                 // faster
		{Base: seq(100), New: seq(100)},                                 // not significant
		{Base: []float64{1, 1, 1, 1, 1}, New: []float64{1, 1, 1, 1, 1}}, // all equal
		{Base: seq(100), New: seq(100)[:4]},                             // too few rounds
		{Base: seq(100), New: seq(50), Excluded: true},                  // excluded
	}
	f := Rank(pairs, 0.05, 0.05)
	want := []struct {
		v Verdict
		r Reason
	}{{Slower, Beyond}, {Faster, Beyond}, {Same, NotSignificant}, {Same, AllEqual}, {Unknown, TooFewRounds}, {Unknown, Excluded}}
	if !f.Detectable || f.Tested != 4 || f.N1 != 5 || f.N2 != 5 {
		t.Fatalf("Rank: Detectable %v, Tested %d, N1 %d, N2 %d; want true, 4, 5, 5", f.Detectable, f.Tested, f.N1, f.N2)
	}
	for i, w := range want {
		if o := f.Outcomes[i]; o.Verdict != w.v || o.Reason != w.r {
			t.Errorf("pair %d: %s (reason %d), want %s (reason %d)", i, o.Verdict, o.Reason, w.v, w.r)
		}
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

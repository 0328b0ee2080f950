package rankstat

import (
	"slices"
	"testing"
)

func TestRankstatHolm(t *testing.T) {
	for _, c := range []struct {
		p, want []float64
	}{
		// Only the first stays below 0.05, though 0.02 and 0.04 are.
		{[]float64{0.01, 0.02, 0.04, 0.30}, []float64{0.04, 0.06, 0.08, 0.30}},
		// Order kept; Bonferroni (× 3) would keep only 0.01 below 0.05.
		{[]float64{0.04, 0.01, 0.02}, []float64{0.04, 0.03, 0.04}},
		// Monotone: 3 × 0.01 = 0.03 carries over 2 × 0.012 = 0.024.
		{[]float64{0.012, 0.01, 0.5}, []float64{0.03, 0.03, 0.5}},
		// Capped at 1.
		{[]float64{0.5, 0.6}, []float64{1, 1}},
		{[]float64{0.3}, []float64{0.3}},
		{nil, []float64{}},
	} {
		got := Holm(c.p)
		if len(got) != len(c.want) {
			t.Errorf("Holm(%v) = %v, want %v", c.p, got, c.want)
			continue
		}
		for i := range got {
			if !near(got[i], c.want[i]) {
				t.Errorf("Holm(%v) = %v, want %v", c.p, got, c.want)
				break
			}
		}
	}
	p := []float64{0.04, 0.01, 0.02}
	Holm(p)
	if !slices.Equal(p, []float64{0.04, 0.01, 0.02}) {
		t.Errorf("Holm changed its input to %v", p)
	}
}

package changes

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// noisy is n nights at level 1 (× (1+step) from night at on) with
// log-normal noise of sd sigma, seeded.
func noisy(seed uint64, n, at int, step, sigma float64) []float64 {
	r := rand.New(rand.NewPCG(seed, 0))
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Exp(sigma * r.NormFloat64())
		if i >= at {
			v[i] *= 1 + step
		}
	}
	return v
}

// TestDetectStep: a 20% drop at night 30 of 60 at σ 3.5% is one change at
// night 30, 14 nights each side, its size near −20% inside its interval.
func TestDetectStep(t *testing.T) {
	got := Detect(noisy(1, 60, 30, -0.2, 0.035), Options{})
	if len(got) != 1 {
		t.Fatalf("Detect = %+v, want one change", got)
	}
	c := got[0]
	if c.Index != 30 || c.Before != 14 || c.After != 14 {
		t.Errorf("change at %d with %d/%d nights, want 30 with 14/14", c.Index, c.Before, c.After)
	}
	if math.Abs(c.Size+0.2) > 0.04 || c.Lo > c.Size || c.Hi < c.Size || c.Hi > -0.1 {
		t.Errorf("size %.4f [%.4f, %.4f], want −0.2 ± 0.04 inside its interval, the interval below −10%%", c.Size, c.Lo, c.Hi)
	}
	// 14 against 14 fully apart: the smallest p of the exact test.
	if want := 2 / 40116600.0; math.Abs(c.P-want) > 1e-9 {
		t.Errorf("p = %g, want %g", c.P, want)
	}
	// The same series gives the same change, interval included.
	if again := Detect(noisy(1, 60, 30, -0.2, 0.035), Options{}); !reflect.DeepEqual(again, got) {
		t.Errorf("a second Detect = %+v, want %+v", again, got)
	}
}

// TestDetectSkips: values that are not positive and finite are left out,
// Index still counts them; the nights used do not.
func TestDetectSkips(t *testing.T) {
	v := noisy(2, 40, 20, 0.3, 0.03)
	v[3], v[25], v[26] = 0, math.NaN(), math.Inf(1)
	got := Detect(v, Options{})
	if len(got) != 1 || got[0].Index != 20 || got[0].Before != 14 || got[0].After != 14 || got[0].Size < 0.25 {
		t.Errorf("Detect = %+v, want one change at 20 of about +30%% with 14/14 nights", got)
	}
}

// TestDetectNone: too few nights for two segments, a flat series, and a
// change smaller than MinChange give nothing.
func TestDetectNone(t *testing.T) {
	for name, v := range map[string][]float64{
		"7 nights":   {1, 1, 1, 1, 2, 2, 2},
		"flat":       noisy(3, 80, 0, 0, 0.07),
		"1% step":    noisy(4, 80, 40, -0.01, 0.002),
		"empty":      nil,
		"all zeroes": make([]float64, 20),
	} {
		if got := Detect(v, Options{}); len(got) != 0 {
			t.Errorf("%s: Detect = %+v, want none", name, got)
		}
	}
	// The 1% step is found when MinChange allows it.
	if got := Detect(noisy(4, 80, 40, -0.01, 0.002), Options{MinChange: 0.005}); len(got) != 1 || got[0].Index != 40 {
		t.Errorf("1%% step with MinChange 0.5%%: %+v, want one change at 40", got)
	}
}

// TestDetectTwo: a drop then a recovery, each confirmed between the other
// and the series' ends.
func TestDetectTwo(t *testing.T) {
	v := noisy(5, 90, 30, -0.15, 0.03)
	for i := 60; i < 90; i++ {
		v[i] /= 0.85
	}
	got := Detect(v, Options{})
	if len(got) != 2 || got[0].Index != 30 || got[1].Index != 60 || got[0].Size > -0.1 || got[1].Size < 0.1 {
		t.Errorf("Detect = %+v, want −15%% at 30 and +18%% at 60", got)
	}
}

// BenchmarkDetect: a year of nights with two steps, σ 7%.
func BenchmarkDetect(b *testing.B) {
	v := noisy(6, 365, 120, -0.2, 0.07)
	for i := 250; i < 365; i++ {
		v[i] *= 1.3
	}
	for b.Loop() {
		Detect(v, Options{})
	}
}

func TestMinAfter(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want int
	}{
		{Options{}, 6},
		{Options{Alpha: 0.001}, 4},
		{Options{Alpha: 0.001, MinSegment: 7}, 7},
	} {
		if got := MinAfter(c.o); got != c.want {
			t.Errorf("MinAfter(%+v) = %d, want %d", c.o, got, c.want)
		}
	}
}

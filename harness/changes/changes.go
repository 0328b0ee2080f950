// Package changes finds change points in a series of nightly figures:
// ED-PELT candidates (pgregory.net/changepoint) on the log of the
// values, each confirmed by a Mann–Whitney rank test between the nights
// either side. Pure statistics, like benchstat's benchmath: no I/O.
package changes

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/aclements/go-moremath/stats"
	"pgregory.net/changepoint"

	"github.com/tfbench/tfbench/harness/rankstat"
)

// Defaults of Options, chosen before the calibration (docs/ci.md "Change
// points") and not tuned to it.
const (
	// DefaultMinSegment is ED-PELT's shortest segment, in nights: 4 keeps
	// a single odd night (or two) from being a level of its own, and a
	// change is seen 4 nights after it at the earliest.
	DefaultMinSegment = 4
	// DefaultWindow is the most nights each side of a candidate the rank
	// test uses: two weeks, so an old level long past does not weigh on a
	// recent change, and enough for p far below Alpha.
	DefaultWindow = 14
	// DefaultAlpha is the rank test's level per candidate. First 0.001
	// (Hunter's default); but the candidate's night is the best split
	// ED-PELT found, not a night fixed in advance, so small p come more
	// often than α says: A/A gave 0.033 false alarms per 100 nights per
	// row at σ 3.5% (1,000 series), over the 0.02 target. 0.0001, the
	// next power of ten, gives 0.006 (docs/ci.md "Change points").
	DefaultAlpha = 0.0001
	// DefaultMinChange is the smallest |Size| kept: 2%, below which a
	// level shift is not worth a bisect even when it is real.
	DefaultMinChange = 0.02
)

// Bootstrap settings of a Change's interval: BootstrapResamples percentile
// bootstrap resamples seeded with BootstrapSeed for every change, so the
// same history always gives the same interval.
const (
	BootstrapResamples = 2000
	BootstrapSeed      = 37
)

// Options are Detect's settings; a zero field takes its default.
type Options struct {
	MinSegment int     // nights (DefaultMinSegment)
	Window     int     // nights each side at most (DefaultWindow)
	Alpha      float64 // two-sided p below which a candidate is kept (DefaultAlpha)
	MinChange  float64 // smallest |Size| kept, a share (DefaultMinChange)
}

func (o Options) withDefaults() Options {
	if o.MinSegment <= 0 {
		o.MinSegment = DefaultMinSegment
	}
	if o.Window <= 0 {
		o.Window = DefaultWindow
	}
	if o.Alpha <= 0 {
		o.Alpha = DefaultAlpha
	}
	if o.MinChange <= 0 {
		o.MinChange = DefaultMinChange
	}
	return o
}

// MinAfter is the fewest nights after a change with which Detect can
// confirm it: MinSegment, or more until the rank test of that many
// against Window nights can reach p < Alpha (rankstat.MinP): 6 with the
// defaults (5 against 14 give p ≥ 0.00017).
func MinAfter(o Options) int {
	o = o.withDefaults()
	n := o.MinSegment
	for rankstat.MinP(o.Window, n) >= o.Alpha && n < o.Window {
		n++
	}
	return n
}

// Change is one confirmed change point. Index is the first night of the
// new level (into Detect's values); Before and After the nights the test
// used each side; Size = median(after) ÷ median(before) − 1 (−0.1: 10%
// lower), Lo and Hi its 95% bootstrap interval; P the rank test's
// two-sided p.
type Change struct {
	Index         int
	Before, After int
	Size, Lo, Hi  float64
	P             float64
}

// Detect returns the change points of values in index order: ED-PELT's
// candidates on log(values), confirmed forward (the strongest passing one
// first) then checked backward between their final neighbours. Values
// that are not positive and finite have no log: they are skipped (Index
// still counts into values, Before and After count only the values used).
func Detect(values []float64, o Options) []Change {
	o = o.withDefaults()
	var at []int // at[i]: index into values of the i-th value used
	var x, logs []float64
	for i, v := range values {
		if v > 0 && !math.IsInf(v, 0) {
			at = append(at, i)
			x = append(x, v)
			logs = append(logs, math.Log(v))
		}
	}
	cands := changepoint.NonParametric(logs, o.MinSegment)
	var cps []int // confirmed, in order
	// Forward: the candidate with the smallest p among those that pass,
	// its windows bounded by the changes confirmed so far, joins them;
	// until none passes. A candidate never confirmed is no boundary: its
	// two segments are one.
	for {
		best, bestP := -1, 0.0
		for i, c := range cands {
			if t := testAt(x, cps, c, o); t.kept && (best < 0 || t.p < bestP) {
				best, bestP = i, t.p
			}
		}
		if best < 0 {
			break
		}
		c := cands[best]
		cands = slices.Delete(cands, best, best+1)
		pos, _ := slices.BinarySearch(cps, c)
		cps = slices.Insert(cps, pos, c)
	}
	// Backward: each confirmed change tested again between its final
	// neighbours; the weakest that fails goes, until all pass.
	var tests []test
	for {
		tests = tests[:0]
		worst, worstP := -1, 0.0
		for i, c := range cps {
			others := slices.Delete(slices.Clone(cps), i, i+1)
			t := testAt(x, others, c, o)
			tests = append(tests, t)
			if !t.kept && (worst < 0 || t.p > worstP) {
				worst, worstP = i, t.p
			}
		}
		if worst < 0 {
			break
		}
		cps = slices.Delete(cps, worst, worst+1)
	}
	out := make([]Change, len(cps))
	for i, c := range cps {
		t := tests[i]
		lo, hi := interval(x[t.from:c], x[c:t.to])
		out[i] = Change{Index: at[c], Before: c - t.from, After: t.to - c, Size: t.size, Lo: lo, Hi: hi, P: t.p}
	}
	return out
}

// testAt confirms candidate c against the nights since the nearest change
// of cps before it and until the nearest after it, Window nights at most
// each side.
func testAt(x []float64, cps []int, c int, o Options) test {
	from, to := max(0, c-o.Window), min(len(x), c+o.Window)
	for _, d := range cps {
		if d < c {
			from = max(from, d)
		} else if d > c {
			to = min(to, d)
		}
	}
	return confirm(x, from, c, to, o)
}

// test is one candidate's confirmation: the values x[from:c] before it and
// x[c:to] after, their change of medians and rank test.
type test struct {
	from, to int
	size, p  float64
	kept     bool
}

func confirm(x []float64, from, c, to int, o Options) test {
	t := test{from: from, to: to, p: 1}
	before, after := x[from:c], x[c:to]
	t.size = rankstat.Change(before, after)
	if _, p, err := rankstat.MannWhitney(after, before); err == nil {
		t.p = p
	}
	t.kept = t.p < o.Alpha && math.Abs(t.size) >= o.MinChange
	return t
}

// interval is the 95% percentile bootstrap interval of median(after) ÷
// median(before) − 1: each side resampled with replacement on its own,
// percentiles as go-moremath's Sample.Quantile (R's type 8).
func interval(before, after []float64) (lo, hi float64) {
	r := rand.New(rand.NewPCG(BootstrapSeed, BootstrapSeed))
	sizes := make([]float64, BootstrapResamples)
	b, a := make([]float64, len(before)), make([]float64, len(after))
	for i := range sizes {
		sizes[i] = median(resample(r, a, after))/median(resample(r, b, before)) - 1
	}
	slices.Sort(sizes)
	s := stats.Sample{Xs: sizes, Sorted: true}
	return s.Quantile(0.025), s.Quantile(0.975)
}

func resample(r *rand.Rand, dst, src []float64) []float64 {
	for i := range dst {
		dst[i] = src[r.IntN(len(src))]
	}
	return dst
}

// median of x, sorted in place (a resample's scratch buffer).
func median(x []float64) float64 {
	slices.Sort(x)
	n := len(x)
	if n%2 == 1 {
		return x[n/2]
	}
	return (x[n/2-1] + x[n/2]) / 2
}

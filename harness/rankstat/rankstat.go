// Package rankstat is the statistics of tfbench's verdict rule (package
// compare), with no wording: medians and change of two sides' per-round
// samples, the two-sided Mann-Whitney U test, Holm–Bonferroni across a
// family, and each pair's verdict with a Reason; compare words them, like
// x/perf's benchmath under benchstat.
package rankstat

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/aclements/go-moremath/stats"
	mstats "github.com/montanaflynn/stats"
)

// Verdict is a pair's outcome: New against Base, higher values faster.
type Verdict string

// Verdicts.
const (
	Faster  Verdict = "faster"
	Slower  Verdict = "slower"
	Same    Verdict = "same"
	Unknown Verdict = "unknown"
)

// Alpha and MinChange are the rule's defaults, compare's and the report
// ranks': significance level 0.05 for Holm-adjusted p, and a change of at
// least 5% (a share) before a significant pair is faster or slower.
const (
	Alpha     = 0.05
	MinChange = 0.05
)

// MinRounds is the fewest values a side needs for a verdict: with 5 rounds
// per side the smallest two-sided p is 2/C(10, 5) = 0.0079.
const MinRounds = 5

// Reason is why an Outcome has its verdict.
type Reason int

// Reasons, in the order the rule tries them.
const (
	// Excluded: the pair was excluded before the statistics (Pair.Excluded);
	// unknown.
	Excluded Reason = iota
	// TooFewRounds: a side has fewer than MinRounds values; unknown.
	TooFewRounds
	// TestFailed: MannWhitney returned an error (Outcome.Err); unknown,
	// not in the family.
	TestFailed
	// Undetectable: no pair of the family can reach α after Holm; unknown.
	Undetectable
	// AllEqual: every value on both sides is equal; same.
	AllEqual
	// NotSignificant: PHolm ≥ α; same.
	NotSignificant
	// Beyond: PHolm < α and the change is at least the minimum; faster or
	// slower.
	Beyond
	// Within: PHolm < α but the change is smaller than the minimum; same.
	Within
)

// Pair is one member of a Holm family: the two sides' per-round values in
// one unit. Excluded pairs are unknown and not in the family.
type Pair struct {
	Base, New []float64
	Excluded  bool
}

// Outcome is one Pair under the rule: Change as Change computes it; only
// when Tested are U and P (MannWhitney) and PHolm (Holm over the family's
// tested pairs) set; Err is the rank test's error when Reason is TestFailed.
type Outcome struct {
	Change      float64
	Tested      bool
	U, P, PHolm float64
	Verdict     Verdict
	Reason      Reason
	Err         error
}

// Family is the rule over one family: Outcomes in the pairs' order, the
// number of Tested pairs, N1 and N2 the rounds of the tested pair with the
// smallest MinP, and Detectable when Tested × that p < α.
type Family struct {
	Outcomes   []Outcome
	Tested     int
	N1, N2     int
	Detectable bool
}

// Rank applies the rule to pairs, one Holm–Bonferroni family, at level
// alpha with the smallest counted change minChange (a share). Higher
// values are faster.
func Rank(pairs []Pair, alpha, minChange float64) Family {
	f := Family{Outcomes: make([]Outcome, len(pairs))}
	var tested []int
	for i, pr := range pairs {
		r := &f.Outcomes[i]
		r.Verdict = Unknown
		r.Change = Change(pr.Base, pr.New)
		if pr.Excluded {
			r.Reason = Excluded
			continue
		}
		if len(pr.Base) < MinRounds || len(pr.New) < MinRounds {
			r.Reason = TooFewRounds
			continue
		}
		u, p, err := MannWhitney(pr.New, pr.Base)
		if err != nil {
			r.Reason, r.Err = TestFailed, err
			continue
		}
		r.Tested, r.U, r.P = true, u, p
		tested = append(tested, i)
	}
	ps := make([]float64, len(tested))
	for j, i := range tested {
		ps[j] = f.Outcomes[i].P
	}
	holm := Holm(ps)
	// The smallest p any tested pair can reach: the pair with most rounds.
	pmin := 1.0
	for _, i := range tested {
		b, n := len(pairs[i].Base), len(pairs[i].New)
		if p := MinP(b, n); p < pmin || f.N1 == 0 {
			pmin, f.N1, f.N2 = p, b, n
		}
	}
	f.Tested = len(tested)
	f.Detectable = f.Tested > 0 && float64(f.Tested)*pmin < alpha
	for j, i := range tested {
		r := &f.Outcomes[i]
		r.PHolm = holm[j]
		switch {
		case !f.Detectable:
			r.Verdict, r.Reason = Unknown, Undetectable
		case r.P == 1 && r.Change == 0 && allEqual(pairs[i].Base, pairs[i].New):
			r.Verdict, r.Reason = Same, AllEqual
		case r.PHolm >= alpha:
			r.Verdict, r.Reason = Same, NotSignificant
		case r.Change <= -minChange:
			r.Verdict, r.Reason = Slower, Beyond
		case r.Change >= minChange:
			r.Verdict, r.Reason = Faster, Beyond
		default:
			r.Verdict, r.Reason = Same, Within
		}
	}
	return f
}

// Median is the median of x; 0 when x is empty.
func Median(x []float64) float64 {
	m, _ := mstats.Median(x)
	return m
}

// Change is Median(next) ÷ Median(base) − 1 (−0.098 = 9.8% lower); 0 when
// a side is empty or base's median is not positive.
func Change(base, next []float64) float64 {
	if len(base) == 0 || len(next) == 0 {
		return 0
	}
	mb, mn := Median(base), Median(next)
	if mb > 0 {
		return mn/mb - 1
	}
	return 0
}

// MannWhitney is the two-sided Mann-Whitney U test of next against base
// (exact for small samples): U counts (next, base) pairs with next > base,
// ties ½; p = 1 when all values are equal (docs/comparing.md). An empty
// sample or a value that is not finite is an error, never a p.
func MannWhitney(next, base []float64) (u, p float64, err error) {
	for _, s := range []struct {
		name string
		x    []float64
	}{{"new", next}, {"base", base}} {
		for i, v := range s.x {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, 0, fmt.Errorf("rank test: %s value %d is %v", s.name, i+1, v)
			}
		}
	}
	res, err := stats.MannWhitneyUTest(next, base, stats.LocationDiffers)
	switch {
	case errors.Is(err, stats.ErrSamplesEqual):
		return float64(len(next)*len(base)) / 2, 1, nil
	case err != nil:
		return 0, 0, fmt.Errorf("rank test: %d new and %d base values: %w", len(next), len(base), err)
	}
	return res.U, res.P, nil
}

func allEqual(a, b []float64) bool {
	for _, x := range append(slices.Clone(a), b...) {
		if x != a[0] {
			return false
		}
	}
	return true
}

// MinP is the smallest two-sided Mann-Whitney p two samples of n1 and n2
// values can give (fully separated, no ties): 2/C(n1+n2, n1), capped at 1;
// MinP(5, 5) = 2/252 = 0.0079.
func MinP(n1, n2 int) float64 {
	c := 1.0
	for i := 1; i <= n1; i++ {
		c = c * float64(n2+i) / float64(i)
	}
	return math.Min(1, 2/c)
}

// RoundsNeeded is the fewest rounds per side, at least max(n1, n2) and at
// most 1000, with which m tested pairs can reach alpha after Holm.
func RoundsNeeded(n1, n2, m int, alpha float64) int {
	need := max(n1, n2)
	for float64(m)*MinP(need, need) >= alpha && need < 1000 {
		need++
	}
	return need
}

package report

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/tfbench/tfbench/harness/rankstat"
	"github.com/tfbench/tfbench/internal/words"
)

// Ranking says how a table's ranks were decided. With RankTest, compare's
// rule (rankstat.Rank: Mann-Whitney U, Holm over every pair of ranked
// rows, rankstat.Alpha, rankstat.MinChange) decides which row is ahead of
// which; without, its rounds cannot reach α and a row is ahead of another
// only when its min–max range over rounds lies wholly above the other's.
type Ranking struct {
	RankTest bool
	// Rows is the number of ranked rows, Pairs the pairs compared; Rounds
	// the fewest rounds of a ranked row and MinP the smallest p the rank
	// test can give for a pair of that many rounds (rankstat.MinP).
	Rows, Pairs, Rounds int
	MinP                float64
}

// ratios sets r's ratio to ref: of the peaks (RatioToRef, model.Row.RatioTo)
// and per round in the rounds both have (model.Row.RoundRatios), with their
// min–max.
func ratios(r *Row, ref Row) {
	r.RatioToRef, _ = r.row.RatioTo(ref.row)
	r.roundRatios, _ = r.row.RoundRatios(ref.row)
	if len(r.roundRatios) > 0 {
		r.RatioLo, r.RatioHi = slices.Min(r.roundRatios), slices.Max(r.roundRatios)
	}
}

// basis is the figure a table ranks, with its per-round values: peak RPS
// within one run, the ratio to the run's own reference across runs (a
// merged Set); ok is false for a row without it.
func basis(r Row, merged bool) (median float64, rounds []float64, ok bool) {
	switch {
	case !r.OK:
		return 0, nil, false
	case merged:
		if r.RatioToRef == 0 || len(r.roundRatios) == 0 {
			return 0, nil, false
		}
		return r.RatioToRef, r.roundRatios, true
	}
	return r.PeakRPS, r.row.Values(), true
}

// rank sets every row's Rank and Tied, sorts rows by rank (then basis,
// descending; stable) with unranked measured rows after them by peak RPS
// and rows without figures last, and returns how it ranked. A row's rank
// is 1 + the number of rows ahead of it, so rows no rule tells apart
// share a rank ("=1").
func rank(rows []Row, merged bool) Ranking {
	type ranked struct {
		i      int
		median float64
		rounds []float64
	}
	var rs []ranked
	for i, r := range rows {
		rows[i].Rank, rows[i].Tied = 0, false
		if m, v, ok := basis(r, merged); ok {
			rs = append(rs, ranked{i, m, v})
		}
	}
	sort.SliceStable(rs, func(a, b int) bool { return rs[a].median > rs[b].median })
	g := Ranking{Rows: len(rs)}
	for k, x := range rs {
		if k == 0 || len(x.rounds) < g.Rounds {
			g.Rounds = len(x.rounds)
		}
	}
	// ahead[a][b]: rs[a] is ahead of rs[b] (a before b in median order).
	ahead := make([][]bool, len(rs))
	for a := range ahead {
		ahead[a] = make([]bool, len(rs))
	}
	var pairs []rankstat.Pair
	var at [][2]int
	for a := range rs {
		for b := a + 1; b < len(rs); b++ {
			pairs = append(pairs, rankstat.Pair{Base: rs[b].rounds, New: rs[a].rounds})
			at = append(at, [2]int{a, b})
		}
	}
	g.Pairs = len(pairs)
	g.MinP = rankstat.MinP(g.Rounds, g.Rounds)
	if len(pairs) > 0 && g.Rounds >= rankstat.MinRounds {
		if f := rankstat.Rank(pairs, rankstat.Alpha, rankstat.MinChange); f.Detectable {
			g.RankTest = true
			for k, o := range f.Outcomes {
				ahead[at[k][0]][at[k][1]] = o.Verdict == rankstat.Faster
			}
		}
	}
	if !g.RankTest {
		for _, p := range at {
			a, b := rs[p[0]].rounds, rs[p[1]].rounds
			ahead[p[0]][p[1]] = len(a) > 1 && len(b) > 1 && slices.Min(a) > slices.Max(b)
		}
	}
	count := map[int]int{}
	for b := range rs {
		n := 1
		for a := range b {
			if ahead[a][b] {
				n++
			}
		}
		rows[rs[b].i].Rank = n
		count[n]++
	}
	for _, x := range rs {
		rows[x.i].Tied = count[rows[x.i].Rank] > 1
	}
	med := map[int]float64{}
	for _, x := range rs {
		med[x.i] = x.median
	}
	// Sort indices, then permute: the comparisons read the rows' own
	// fields, which a swap-based sort would move under them.
	idx := make([]int, len(rows))
	for i := range idx {
		idx[i] = i
	}
	class := func(i int) int {
		switch {
		case rows[i].Rank > 0:
			return 0
		case rows[i].OK:
			return 1
		}
		return 2
	}
	sort.SliceStable(idx, func(a, b int) bool {
		i, j := idx[a], idx[b]
		ci, cj := class(i), class(j)
		switch {
		case ci != cj:
			return ci < cj
		case ci == 0 && rows[i].Rank != rows[j].Rank:
			return rows[i].Rank < rows[j].Rank
		case ci == 0:
			return med[i] > med[j]
		}
		return rows[i].PeakRPS > rows[j].PeakRPS
	})
	sorted := make([]Row, len(rows))
	for k, i := range idx {
		sorted[k] = rows[i]
	}
	copy(rows, sorted)
	return g
}

// rankCell writes a row's rank: "1", "=2" when another row shares it, "—"
// when it has none.
func rankCell(r Row) string {
	switch {
	case r.Rank == 0:
		return "—"
	case r.Tied:
		return fmt.Sprintf("=%d", r.Rank)
	}
	return fmt.Sprint(r.Rank)
}

// rankingText says in one sentence how a table was ranked (Ranking), for
// the legend beside it.
func rankingText(g Ranking) string {
	const tie = `"=2" is a rank two or more rows share`
	if g.RankTest {
		return fmt.Sprintf("**Rank** is 1 + the rows ahead by compare's rank test (Mann-Whitney U over the rounds, Holm–Bonferroni over the %s, α = %g, a change of at least %g%%); %s.",
			words.Plural(g.Pairs, "pair"), rankstat.Alpha, 100*rankstat.MinChange, tie)
	}
	why := ""
	switch {
	case g.Rows < 2:
		why = ""
	case g.Rounds < 2:
		why = fmt.Sprintf(" With %s no range can be told apart, so every row shares rank 1.", words.Plural(g.Rounds, "round"))
	default:
		why = fmt.Sprintf(" Ranges decide because compare's rank test cannot reach α = %g here: with %s its smallest p is %s",
			rankstat.Alpha, words.Plural(g.Rounds, "round"), pText(g.MinP))
		if g.Rounds >= rankstat.MinRounds {
			why += fmt.Sprintf(", × %d pairs by Holm–Bonferroni", g.Pairs)
		}
		why += "."
	}
	return fmt.Sprintf("**Rank** is 1 + the rows whose every round was faster than this row's fastest (min–max ranges apart); %s.%s", tie, why)
}

// pText writes a p-value to two significant digits: 0.1, 0.0079.
func pText(p float64) string {
	if p <= 0 {
		return "0"
	}
	d := max(1, 1-int(math.Floor(math.Log10(p))))
	return fmt.Sprintf("%.*f", d, p)
}

// Spread is a run's noise: the median over its ranked rows (every test, at
// the headline N) of (max − min) / median RPS over the rounds at the peak
// level, as a share; Rows counts them. OK is false with no row of two or
// more rounds.
type Spread struct {
	Median float64
	Rows   int
	OK     bool
}

// SpreadWarning is the median spread above which a report warns at its
// top that the machine's rounds disagree: the median over rows of (max −
// min) ÷ median of the rounds' RPS (docs/method.md, Ranks, ties and ranges).
const SpreadWarning = 0.20

// spreadOf is the Spread of the rows of run (every test of ts at its
// headline N; "" for every run).
func spreadOf(ts []TestTable, run string) Spread {
	var xs []float64
	for _, t := range ts {
		for _, r := range t.Rows {
			if r.OK && r.Rounds > 1 && r.PeakRPS > 0 && (run == "" || r.Run == run) {
				xs = append(xs, (r.MaxRPS-r.MinRPS)/r.PeakRPS)
			}
		}
	}
	if len(xs) == 0 {
		return Spread{}
	}
	return Spread{Median: rankstat.Median(xs), Rows: len(xs), OK: true}
}

// spreadText is the warning a report opens with when s is above
// SpreadWarning ("" otherwise); who names the run in a merged Set.
func spreadText(s Spread, who string) string {
	if !s.OK || s.Median <= SpreadWarning {
		return ""
	}
	return fmt.Sprintf("**Noisy rounds%s:** the rounds of a peak spread by a median %.0f%% of it ((max − min) / median over %s), above the %.0f%% this report warns at: differences smaller than the ranges are not evidence, and ranks tie more often. A quieter machine (docs/platforms.md) or more rounds (`--rounds`) narrows them.",
		who, 100*s.Median, words.Plural(s.Rows, "row"), 100*SpreadWarning)
}

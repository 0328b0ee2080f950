package report

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/montanaflynn/stats"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/texttab"
	"github.com/tfbench/tfbench/internal/words"
)

// The states of a measured level in the p99-by-level table.
const (
	LevelPassed         = "passed"          // every round passed the gate
	LevelFailed         = "failed"          // a round failed the gate
	LevelGeneratorBound = "generator-bound" // failed only on a saturated generator (model.Level.GeneratorBound)
)

// LevelP99 is one measured level of a row: its concurrency and pipeline
// depth, State (LevelPassed, LevelFailed, LevelGeneratorBound), and for a
// passed level the median over rounds of each round's p99 in ms with its
// min–max (OK false when no round's histogram could be read).
type LevelP99 struct {
	Connections, Pipeline int
	State                 string
	Rounds                int
	P99, Min, Max         float64
	OK                    bool
}

// Bound is a row's lower bound (model.Peak.LowerBound): a generator-bound
// level's median RPS over its Rounds and their min–max, at Connections ×
// Pipeline. The server served at least that; it is never the peak.
type Bound struct {
	Connections, Pipeline, Rounds int
	RPS, MinRPS, MaxRPS           float64
}

// levelsOf are peak's levels in order with their p99 per round
// (model.Sample.HistogramP99: each round's HDR histogram, merged over its
// event loops, in ms).
func levelsOf(peak *model.Peak) []LevelP99 {
	var out []LevelP99
	for _, l := range peak.Levels {
		lp := LevelP99{Connections: l.Connections, Pipeline: l.Pipeline, State: LevelPassed, Rounds: len(l.Samples)}
		var p99s []float64
		for _, s := range l.Samples {
			if !s.Gate.Passed {
				lp.State = LevelFailed
			}
			if p99, ok := s.HistogramP99(); ok {
				p99s = append(p99s, p99)
			}
		}
		if l.GeneratorBound {
			lp.State = LevelGeneratorBound
		}
		if lp.State == LevelPassed && len(p99s) > 0 {
			lp.P99, _ = stats.Median(p99s)
			lp.Min, _ = stats.Min(p99s)
			lp.Max, _ = stats.Max(p99s)
			lp.OK = true
		}
		out = append(out, lp)
	}
	return out
}

// boundOf is peak's lower bound as a Bound, nil without one.
func boundOf(peak *model.Peak) *Bound {
	l := peak.LowerBound
	if l == nil {
		return nil
	}
	return &Bound{Connections: l.Connections, Pipeline: l.Pipeline, Rounds: len(l.Samples), RPS: l.Median, MinRPS: l.Min, MaxRPS: l.Max}
}

// boundNote says what a row's lower bound is, for its notes.
func boundNote(b Bound, peak bool) string {
	at := words.Plural(b.Connections, "connection")
	if b.Pipeline > 1 {
		at += fmt.Sprintf(" × depth %d", b.Pipeline)
	}
	what := "above the peak"
	if !peak {
		what = "and no level passed the gate"
	}
	return fmt.Sprintf("at %s the load generator's CPU set was saturated at %s RPS (%s–%s over %s), %s; every other gate check passed, so the server answered at least that: a lower bound (generator-bound), not a peak, not ranked",
		at, texttab.Thousands(b.RPS), texttab.Thousands(b.MinRPS), texttab.Thousands(b.MaxRPS), words.Plural(b.Rounds, "round"), what)
}

// boundText writes a lower bound with its min–max over rounds, always both
// ends: "≥ 123,742 at c=16, generator-bound (121,000–125,000)".
func boundText(b Bound, format func(float64) string) string {
	return boundLabel(b, format) + " (" + format(b.MinRPS) + "–" + format(b.MaxRPS) + ")"
}

// boundLabel writes a lower bound without its range, as a chart labels a
// bar whose whisker draws it: "≥ 123,742 at c=16, generator-bound".
func boundLabel(b Bound, format func(float64) string) string {
	return "≥ " + format(b.RPS) + " at " + levelName(b.Connections, b.Pipeline) + ", generator-bound"
}

// boundRange is the Range (min–max) cell of a row without figures: its
// lower bound's min–max, "—" without one.
func boundRange(r Row, format func(float64) string) string {
	if r.Bound == nil {
		return "—"
	}
	return format(r.Bound.MinRPS) + "–" + format(r.Bound.MaxRPS)
}

// withBound writes a row's peak cell text (peak, format) with its lower
// bound beside it when it has one: "117,810; ≥ 123,742 at c=16,
// generator-bound (121,000–125,000)"; a row without figures shows the
// bound alone or "—".
func withBound(r Row, peak string, format func(float64) string) string {
	switch {
	case r.Bound == nil && r.OK:
		return peak
	case r.Bound == nil:
		return "—"
	case r.OK:
		return peak + "; " + boundText(*r.Bound, format)
	}
	return boundText(*r.Bound, format)
}

// levelName writes a level: "c=16", "c=16×16" with pipeline depth 16.
func levelName(conns, pipeline int) string {
	if pipeline > 1 {
		return "c=" + strconv.Itoa(conns) + "×" + strconv.Itoa(pipeline)
	}
	return "c=" + strconv.Itoa(conns)
}

// levelLegend heads a p99-by-level table (docs/method.md, p99 at every level).
const levelLegend = "p99 ms at each level, so variants compare at the same concurrency (the median over rounds of each round's p99, with the min–max; " +
	"\"failed\": a round failed the gate; \"generator-bound\": the load generator's CPU set was saturated, so the latency is partly the generator's; \"—\": not measured):"

// levelTable is the p99-by-level table of rows: a line per row (with a Run
// column when merged), a column per level any row measured, in order; nil
// when no row measured a level.
func levelTable(rows []Row, merged bool, format func(float64) string) (header []string, lines [][]string, align []texttab.Align) {
	type key struct{ c, p int }
	seen := map[key]bool{}
	var levels []key
	for _, r := range rows {
		for _, l := range r.Levels {
			k := key{l.Connections, l.Pipeline}
			if !seen[k] {
				seen[k] = true
				levels = append(levels, k)
			}
		}
	}
	if len(levels) == 0 {
		return nil, nil, nil
	}
	sort.Slice(levels, func(i, j int) bool {
		if levels[i].c != levels[j].c {
			return levels[i].c < levels[j].c
		}
		return levels[i].p < levels[j].p
	})
	if merged {
		header, align = append(header, "Run"), append(align, texttab.Left)
	}
	header = append(header, "Framework", "Variant")
	align = append(align, texttab.Left, texttab.Left)
	for _, k := range levels {
		header = append(header, levelName(k.c, k.p))
		align = append(align, texttab.Right)
	}
	for _, r := range rows {
		var line []string
		if merged {
			line = append(line, r.Run)
		}
		line = append(line, r.Framework, r.Variant)
		for _, k := range levels {
			cell := "—"
			for _, l := range r.Levels {
				if l.Connections != k.c || l.Pipeline != k.p {
					continue
				}
				switch {
				case l.State != LevelPassed:
					cell = l.State
				case l.OK:
					cell = format(l.P99) + " (" + format(l.Min) + "–" + format(l.Max) + ")"
				}
			}
			line = append(line, cell)
		}
		lines = append(lines, line)
	}
	return header, lines, align
}

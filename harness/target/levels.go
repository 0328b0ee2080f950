package target

import (
	"fmt"
	"slices"

	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
)

// levelName writes a level as the report does: "c=16", "c=256×16".
func levelName(conns, pipeline int) string {
	if pipeline > 1 {
		return fmt.Sprintf("c=%d×%d", conns, pipeline)
	}
	return fmt.Sprintf("c=%d", conns)
}

// judgeLevelRows gathers a LevelP99 target's rows of test at n: one per
// level (connections × pipeline depth) that Of measured and Over passed the
// gate at in one round at least (a level the reference never served is not
// Of's to meet), in level order, each side's values its rounds' p99 there
// (model.Sample.HistogramP99). A level failed in a round, or generator-bound
// (model.Level.GeneratorBound), makes that side unknown with the reason, so
// Of failing where Over passed is never met. A variant without samples, or
// no common level, is one unknown row.
func judgeLevelRows(f *results.File, peaks *model.Peaks, t Target, test string, n int) ([]Row, []compare.Pair) {
	over, okOver := peaks.At(t.Over, test, n)
	of, okOf := peaks.At(t.Of, test, n)
	if !okOver || !okOf {
		var why []string
		for _, side := range []struct {
			id model.ID
			ok bool
		}{{t.Over, okOver}, {t.Of, okOf}} {
			if !side.ok {
				why = append(why, side.id.String()+": "+compare.MissingReason(f, model.RowKey{ID: side.id, Test: test, N: n}))
			}
		}
		row, pair := finish(Row{Test: test, N: n}, why)
		return []Row{row}, []compare.Pair{pair}
	}
	var rows []Row
	var pairs []compare.Pair
	for _, lo := range over.Levels {
		i := slices.IndexFunc(of.Levels, func(l model.Level) bool { return l.Connections == lo.Connections && l.Pipeline == lo.Pipeline })
		if i < 0 || !passedOnce(lo) {
			continue
		}
		row := Row{Test: test, N: n, Connections: lo.Connections, Pipeline: lo.Pipeline}
		var why []string
		levels := [2]model.Level{lo, of.Levels[i]}
		for j, side := range sides(&row, t) {
			v, w := levelValues(levels[j])
			if w != "" {
				why = append(why, side.id.String()+": "+w)
				continue
			}
			side.set(v)
		}
		row, pair := finish(row, why)
		rows, pairs = append(rows, row), append(pairs, pair)
	}
	if len(rows) == 0 {
		row, pair := finish(Row{Test: test, N: n}, []string{fmt.Sprintf("no level that %s measured and %s passed the gate at in one round", t.Of, t.Over)})
		return []Row{row}, []compare.Pair{pair}
	}
	return rows, pairs
}

// passedOnce reports whether l passed the gate in one round at least.
func passedOnce(l model.Level) bool {
	return slices.ContainsFunc(l.Samples, func(s model.Sample) bool { return s.Gate.Passed })
}

// levelValues are l's per-round p99 in ms in round order
// (model.Sample.HistogramP99), or why it has none: generator-bound, a round
// failed the gate, a round without a histogram.
func levelValues(l model.Level) ([]float64, string) {
	at := levelName(l.Connections, l.Pipeline)
	var v []float64
	for _, s := range l.Samples { // in round order (model.Peaks)
		switch {
		case l.GeneratorBound && s.GeneratorBound():
			return nil, fmt.Sprintf("generator-bound at %s in round %d: %s", at, s.Round, model.GeneratorSaturatedFault)
		case !s.Gate.Passed:
			return nil, fmt.Sprintf("failed the gate at %s in round %d: %s", at, s.Round, s.Gate.Reason)
		}
		p99, ok := s.HistogramP99()
		if !ok {
			return nil, fmt.Sprintf("no latency histogram at %s in round %d", at, s.Round)
		}
		v = append(v, p99)
	}
	return v, ""
}

package target

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/sweep"
)

// judgeProbeRow gathers a ProbeP99 row's per-round values: each side's
// closed-loop samples of test at n and c connections, by round, through
// ProbeValue; a sample without a value makes the row unknown.
func judgeProbeRow(f *results.File, t Target, test string, n, c int) (Row, compare.Pair) {
	row := Row{Test: test, N: n, Connections: c}
	var why []string
	for _, side := range sides(&row, t) {
		byRound := map[int]model.Sample{}
		seen := false
		for _, s := range f.Samples {
			if s.ID != side.id || s.Test != test || s.N != n || s.Rate > 0 {
				continue
			}
			seen = true
			if s.Connections == c {
				byRound[s.Round] = s // two runtimes of a variant: the later wins, as ratio's
			}
		}
		if len(byRound) == 0 {
			w := compare.MissingReason(f, model.RowKey{ID: side.id, Test: test, N: n})
			if seen {
				w = fmt.Sprintf("no samples of %s at c=%d", model.Label(test, n), c)
			}
			why = append(why, side.id.String()+": "+w)
			continue
		}
		var v []float64
		for _, round := range slices.Sorted(maps.Keys(byRound)) {
			x, w := ProbeValue(byRound[round])
			if w != "" {
				why = append(why, fmt.Sprintf("%s: round %d: %s", side.id, round, w))
				v = nil
				break
			}
			v = append(v, x)
		}
		if v == nil {
			continue
		}
		side.set(v)
	}
	return finish(row, why)
}

// ProbeValue is a sample's probe p99 in ms over every probe the window was
// due (window ÷ interval, rounded down, as the report's note), one not
// answered in it taken as the whole window, which no answered one can
// exceed: the p99 of the answered alone would flatter a server that answered
// few (frameworks/engine/README.md#targets). So: the recorded p99 when all
// were answered; the histogram's value at the due p99's rank when 1 or 2 of
// 250 were lost; the window's length when more were, or a probe request
// failed. No value, with the reason, on a harness fault, or a gate failed
// on the load while the probe lost nothing (a failing server works less).
func ProbeValue(s model.Sample) (float64, string) {
	p := s.Probe
	switch {
	case p == nil || p.Interval <= 0:
		return 0, "no probe"
	case strings.HasPrefix(s.Gate.Reason, model.HarnessFault):
		return 0, "failed the gate: " + s.Gate.Reason
	case p.Errors[sweep.GeneratorClass] > 0:
		return 0, fmt.Sprintf("probe: %s %d (the harness's fault)", sweep.GeneratorClass, p.Errors[sweep.GeneratorClass])
	}
	window := s.Window * 1000
	due := int64(math.Floor(window / p.Interval))
	// The rank of the p99 among due values, as HdrHistogram's ValueAtQuantile
	// (Latency.P99) takes it: the nearest rank, at least 1.
	rank := max(1, int64(0.99*float64(due)+0.5))
	failed := p.Success < p.Responses
	for _, n := range p.Errors {
		failed = failed || n > 0
	}
	switch {
	case failed || rank > p.Success:
		return window, ""
	case !s.Gate.Passed:
		return 0, "failed the gate: " + s.Gate.Reason
	case p.Success >= due:
		return p.Latency.P99, ""
	}
	h, err := hdrhistogram.Decode(p.Histogram)
	if err != nil || h.TotalCount() < rank {
		return 0, fmt.Sprintf("probe: %d of %d due answered and no histogram to read the p99 from", p.Success, due)
	}
	return float64(h.ValueAtQuantile(100*float64(rank)/float64(h.TotalCount()))) / 1000, ""
}

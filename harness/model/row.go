package model

import (
	"fmt"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/montanaflynn/stats"
)

// RowKey names a row of results: a framework variant on a suite test at one
// N (rows per request or per page, 0 for tests without one). The one key of a
// row; ratio, report, compare, history and target key rows by it.
type RowKey struct {
	ID
	Test string
	N    int
}

// Reference is the key of the reference variant (Reference) on k's test and N.
func (k RowKey) Reference() RowKey { return RowKey{ID: Reference, Test: k.Test, N: k.N} }

// Label is k's test at its N as every table writes it (Label).
func (k RowKey) Label() string { return Label(k.Test, k.N) }

// Label names a test at one N, as every table and message writes it:
// "json", "queries N=20", "page N=1000".
func Label(test string, n int) string {
	if n > 0 {
		return fmt.Sprintf("%s N=%d", test, n)
	}
	return test
}

// Row is one variant's row of one run: a test at one N at its peak level
// (Peak). Its figures are methods, each defined here once, and every table
// (report, compare, history, target, the ratio table) takes them from it;
// docs/method.md "The figures of a row" lists them.
type Row struct {
	RowKey
	// OK is false when the row has no peak (no level passed the gate in
	// every round); Reason then says why (Peak.Reason) and the figures are
	// zero.
	OK     bool
	Reason string
	// Connections (the concurrency level) and Pipeline (pipeline depth,
	// 1 = none) are the peak level's; Samples are its rounds, round order.
	Connections, Pipeline int
	Samples               []Sample
	// Peak is the peak RPS: the median over rounds of the peak level's RPS
	// (requests/s); MinRPS and MaxRPS are its range over those rounds.
	Peak, MinRPS, MaxRPS float64
}

// RowOf is the row of peak p: its key without the runtime (two runtimes of
// one variant share a row, Peaks.At) and its peak level's figures.
func RowOf(p Peak) Row {
	r := Row{RowKey: RowKey{ID: p.ID, Test: p.Test, N: p.N}, OK: p.OK, Reason: p.Reason}
	if !p.OK {
		return r
	}
	l := p.Level
	r.Connections, r.Pipeline, r.Samples = l.Connections, l.Pipeline, l.Samples
	r.Peak, r.MinRPS, r.MaxRPS = l.Median, l.Min, l.Max
	return r
}

// Row is the row of k in p's run; false when no series has k.
func (p *Peaks) Row(k RowKey) (Row, bool) {
	peak, ok := p.At(k.ID, k.Test, k.N)
	if !ok {
		return Row{}, false
	}
	return RowOf(peak), true
}

// Rounds are the row's round numbers (1-based), ascending.
func (r Row) Rounds() []int { return perRound(r, func(s Sample) int { return s.Round }) }

// Values are the row's per-round RPS (requests/s), by round.
func (r Row) Values() []float64 { return perRound(r, func(s Sample) float64 { return s.RPS }) }

// P99Values are the row's per-round p99 latency in ms (Sample.Latency), by round.
func (r Row) P99Values() []float64 {
	return perRound(r, func(s Sample) float64 { return s.Latency.P99 })
}

// CPUValues are the row's per-round server CPU time per request in ms, by round.
func (r Row) CPUValues() []float64 {
	return perRound(r, func(s Sample) float64 { return s.CPUPerRequest })
}

func perRound[T any](r Row, f func(Sample) T) []T {
	out := make([]T, 0, len(r.Samples))
	for _, s := range r.Samples {
		out = append(out, f(s))
	}
	return out
}

// CPUms is the server's CPU time per request at the peak level, in ms: the
// median over rounds (NumPy's interpolation); 0 without rounds.
func (r Row) CPUms() float64 { return median(r.CPUValues()) }

// MedianP99 is the median over rounds of each round's p99 latency, ms:
// the history's p99, stored per night. The report's is P99 (merged).
func (r Row) MedianP99() float64 { return median(r.P99Values()) }

// Percentiles are p50 and p99 latency in ms of the rounds' merged HDR
// histograms at the peak level: the report's p50 and p99. ok is false when
// no histogram could be read.
func (r Row) Percentiles() (p50, p99 float64, ok bool) {
	h := MergeHistograms(r.Samples, func(s Sample) []byte { return s.Histogram })
	if h == nil {
		return 0, 0, false
	}
	return float64(h.ValueAtQuantile(50)) / 1000, float64(h.ValueAtQuantile(99)) / 1000, true
}

// RSS is the largest peak resident memory (VmHWM) of the server's process
// tree over the rounds at the peak level, in bytes.
func (r Row) RSS() uint64 {
	var rss uint64
	for _, s := range r.Samples {
		rss = max(rss, s.ServerRSS)
	}
	return rss
}

// GeneratorSaturated is true when the load generator's CPU set was
// saturated in a round at the peak level (that round measured it).
func (r Row) GeneratorSaturated() bool {
	for _, s := range r.Samples {
		if s.GeneratorSaturated {
			return true
		}
	}
	return false
}

// RatioTo is the ratio to ref: r's peak RPS ÷ ref's (1.06 = 6% more), the
// report's and compare's ratio to the reference. ok is false when either
// has no peak or ref's is 0.
func (r Row) RatioTo(ref Row) (float64, bool) {
	if !r.OK || !ref.OK || ref.Peak == 0 {
		return 0, false
	}
	return r.Peak / ref.Peak, true
}

// RoundRatios are r's RPS ÷ ref's in each round both have (ref's RPS not
// 0), each at its own peak level, rounds ascending: rounds are interleaved,
// so a round's ratio cancels what the machine did in it. Empty when r or
// ref has no peak.
func (r Row) RoundRatios(ref Row) (ratios []float64, rounds []int) {
	if !r.OK || !ref.OK {
		return nil, nil
	}
	d := map[int]float64{}
	for _, s := range ref.Samples {
		d[s.Round] = s.RPS
	}
	for _, s := range r.Samples {
		if v, ok := d[s.Round]; ok && v != 0 {
			ratios = append(ratios, s.RPS/v)
			rounds = append(rounds, s.Round)
		}
	}
	return ratios, rounds
}

// MedianRatio is the median of RoundRatios: the history's ratio, stored per
// night. It differs from RatioTo (a ratio of medians); ok is false without
// a round both have.
func (r Row) MedianRatio(ref Row) (float64, bool) {
	rs, _ := r.RoundRatios(ref)
	if len(rs) == 0 {
		return 0, false
	}
	return median(rs), true
}

// MergeHistograms decodes and merges one encoded µs histogram of each
// sample (pick chooses which); nil when none held a value.
func MergeHistograms(ss []Sample, pick func(Sample) []byte) *hdrhistogram.Histogram {
	var merged *hdrhistogram.Histogram
	for _, s := range ss {
		h, err := hdrhistogram.Decode(pick(s))
		if err != nil {
			continue
		}
		if merged == nil {
			merged = h
		} else {
			merged.Merge(h)
		}
	}
	if merged == nil || merged.TotalCount() == 0 {
		return nil
	}
	return merged
}

// median is NumPy's default median (montanaflynn/stats); 0 for none.
func median(v []float64) float64 {
	m, _ := stats.Median(v)
	return m
}

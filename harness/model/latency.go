package model

import "github.com/HdrHistogram/hdrhistogram-go"

// LatencyOf reads p50, p90, p99, p99.9 and max from a µs histogram, in ms
// (a sample's Latency, TTFB, a probe's, a stream part's arrival).
func LatencyOf(h *hdrhistogram.Histogram) Latency {
	q := func(p float64) float64 { return float64(h.ValueAtQuantile(p)) / 1000 }
	return Latency{P50: q(50), P90: q(90), P99: q(99), P999: q(99.9), Max: float64(h.Max()) / 1000}
}

// HistogramP99 is s's p99 latency in ms read from its HDR histogram (µs):
// one round's p99 at its level, as the report's p99-by-level table and the
// p99-at-each-level target take it; false when no histogram can be read.
func (s Sample) HistogramP99() (float64, bool) {
	h, err := hdrhistogram.Decode(s.Histogram)
	if err != nil || h.TotalCount() == 0 {
		return 0, false
	}
	return float64(h.ValueAtQuantile(99)) / 1000, true
}

package model

import "github.com/HdrHistogram/hdrhistogram-go"

// LatencyOf reads p50, p90, p99, p99.9 and max from a µs histogram, in ms
// (a sample's Latency, TTFB, a probe's, a stream part's arrival).
func LatencyOf(h *hdrhistogram.Histogram) Latency {
	q := func(p float64) float64 { return float64(h.ValueAtQuantile(p)) / 1000 }
	return Latency{P50: q(50), P90: q(90), P99: q(99), P999: q(99.9), Max: float64(h.Max()) / 1000}
}

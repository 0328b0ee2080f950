package model

import (
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// TestHistogramP99: a round's p99 from its histogram (µs to ms, HDR's
// highest equivalent value), false without a readable one.
func TestHistogramP99(t *testing.T) {
	h := hdrhistogram.New(1, 60_000_000, 3)
	h.RecordValues(1_000, 98)
	h.RecordValues(9_000, 2) // 8 µs buckets above 8.191 ms: 9.007
	enc, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	empty, err := hdrhistogram.New(1, 60_000_000, 3).Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		hist []byte
		want float64
		ok   bool
	}{{"recorded", enc, 9.007, true}, {"none", nil, 0, false}, {"empty", empty, 0, false}, {"not a histogram", []byte("x"), 0, false}} {
		if got, ok := (Sample{Histogram: c.hist}).HistogramP99(); got != c.want || ok != c.ok {
			t.Errorf("%s: %v, %v; want %v, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

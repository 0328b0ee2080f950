package model

import (
	"slices"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// roundSample is a passing round of id on json at 64 connections: rps
// requests/s, cpu ms per request and a p99 of p99 ms.
func roundSample(id ID, round int, rps, cpu, p99 float64) Sample {
	s := Sample{Key: Key{ID: id, Test: "json", Type: JSON, Connections: 64, Pipeline: 1, Round: round},
		RPS: rps, CPUPerRequest: cpu, Latency: Latency{P99: p99}}
	s.Gate.Passed = true
	return s
}

func TestLabel(t *testing.T) {
	for k, want := range map[RowKey]string{
		{Test: "json"}:              "json",
		{Test: "queries", N: 20}:    "queries N=20",
		{Test: "page", N: 10000}:    "page N=10000",
		{ID: Reference, Test: "db"}: "db",
	} {
		if got := k.Label(); got != want {
			t.Errorf("%+v.Label() = %q, want %q", k, got, want)
		}
	}
	if got := (RowKey{ID: MustID("nextjs/default"), Test: "queries", N: 20}).Reference(); got != (RowKey{ID: Reference, Test: "queries", N: 20}) {
		t.Errorf("Reference() = %+v", got)
	}
}

// TestRowFigures: each figure of a row on three rounds, and the two
// ratios to the reference (of peaks; the median of per-round ratios),
// which differ when the rounds move apart.
func TestRowFigures(t *testing.T) {
	next, std := MustID("nextjs/default"), Reference
	ss := []Sample{
		roundSample(next, 1, 1000, 0.3, 20), roundSample(next, 2, 1200, 0.1, 40), roundSample(next, 3, 1100, 0.2, 10),
		roundSample(std, 1, 10000, 0.01, 2), roundSample(std, 2, 20000, 0.02, 1), roundSample(std, 3, 11000, 0.03, 3),
	}
	ss[2].GeneratorSaturated = true
	ss[1].ServerRSS, ss[2].ServerRSS = 300<<20, 200<<20
	peaks := PeaksOf(ss)
	row, ok := peaks.Row(RowKey{ID: next, Test: "json"})
	ref, refOK := peaks.Row(RowKey{ID: std, Test: "json"})
	if !ok || !refOK || !row.OK {
		t.Fatalf("rows %+v %v, %v", row, ok, refOK)
	}
	if row.Peak != 1100 || row.MinRPS != 1000 || row.MaxRPS != 1200 || row.Connections != 64 || row.Pipeline != 1 {
		t.Errorf("peak %v (%v–%v) at %d×%d, want 1100 (1000–1200) at 64×1", row.Peak, row.MinRPS, row.MaxRPS, row.Connections, row.Pipeline)
	}
	if got := row.Rounds(); !slices.Equal(got, []int{1, 2, 3}) {
		t.Errorf("Rounds() = %v", got)
	}
	if got := row.Values(); !slices.Equal(got, []float64{1000, 1200, 1100}) {
		t.Errorf("Values() = %v", got)
	}
	if row.CPUms() != 0.2 || row.MedianP99() != 20 || !row.GeneratorSaturated() || ref.GeneratorSaturated() {
		t.Errorf("CPUms %v, MedianP99 %v, saturated %v/%v; want 0.2, 20, true/false", row.CPUms(), row.MedianP99(), row.GeneratorSaturated(), ref.GeneratorSaturated())
	}
	if row.RSS() != 300<<20 || ref.RSS() != 0 {
		t.Errorf("RSS %d, reference %d; want the largest round's 300 MiB, 0", row.RSS(), ref.RSS())
	}
	if x, ok := row.RatioTo(ref); !ok || x != 0.1 {
		t.Errorf("RatioTo = %v %v, want 1100 ÷ 11000 = 0.1", x, ok)
	}
	rs, rounds := row.RoundRatios(ref)
	if !slices.Equal(rounds, []int{1, 2, 3}) || !slices.Equal(rs, []float64{0.1, 0.06, 0.1}) {
		t.Errorf("RoundRatios = %v rounds %v, want [0.1 0.06 0.1] [1 2 3]", rs, rounds)
	}
	if m, ok := row.MedianRatio(ref); !ok || m != 0.1 {
		t.Errorf("MedianRatio = %v %v, want 0.1", m, ok)
	}
	// Without the reference's round 2, only rounds 1 and 3 pair.
	ref.Samples = slices.Delete(slices.Clone(ref.Samples), 1, 2)
	if m, ok := row.MedianRatio(ref); !ok || m != 0.1 {
		t.Errorf("MedianRatio without round 2 = %v %v, want 0.1", m, ok)
	}
	if _, ok := row.RatioTo(Row{}); ok {
		t.Error("RatioTo a row without a peak")
	}
	if rs, _ := (Row{}).RoundRatios(ref); rs != nil {
		t.Errorf("RoundRatios without a peak = %v", rs)
	}
}

// TestRowPercentiles: the report's p50 and p99 come from the rounds'
// histograms merged, not from the rounds' p99s.
func TestRowPercentiles(t *testing.T) {
	enc := func(us ...int64) []byte {
		h := hdrhistogram.New(1, 60_000_000, 3)
		for _, v := range us {
			h.RecordValue(v)
		}
		b, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	id := MustID("nextjs/default")
	a, b := roundSample(id, 1, 100, 0, 0), roundSample(id, 2, 100, 0, 0)
	a.Histogram = enc(1000, 1000, 1000, 1000)
	b.Histogram = enc(9000, 9000, 9000, 9000)
	row := RowOf(PeaksOf([]Sample{a, b}).List[0])
	p50, p99, ok := row.Percentiles()
	if !ok || p50 != 1 || p99 != 9.007 {
		t.Errorf("Percentiles() = %v, %v, %v; want 1 ms, 9.007 ms (9000 µs read back as its bucket's highest equivalent value)", p50, p99, ok)
	}
	if _, _, ok := (Row{}).Percentiles(); ok {
		t.Error("Percentiles of a row without samples")
	}
}

package load

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Bucket is one slice of a window cut by Options.Series: the responses
// completed in it and their latency histogram, µs (as Result.Latency).
type Bucket struct {
	Responses int64
	Latency   *hdrhistogram.Histogram
}

// RPS is the bucket's throughput in requests/s for buckets of width w.
func (b Bucket) RPS(w time.Duration) float64 {
	if w <= 0 {
		return 0
	}
	return float64(b.Responses) / w.Seconds()
}

// series is one event loop's buckets (Options.Series): a dense histogram per
// bucket, made when its first response arrives; only the loop's goroutine
// writes it.
type series struct {
	width     time.Duration
	maxMicros int64
	hists     []*hdrhistogram.Histogram
}

// record files a response completed at since after the window opened, with
// latency us, into its bucket.
func (s *series) record(since time.Duration, us int64) {
	i := max(0, int(since/s.width))
	for len(s.hists) <= i {
		s.hists = append(s.hists, nil)
	}
	if s.hists[i] == nil {
		s.hists[i] = hdrhistogram.New(1, s.maxMicros, 3)
	}
	s.hists[i].RecordValue(us)
}

// mergeSeries merges the loops' buckets into n buckets (a window of n
// widths, the last perhaps partial): bucket i holds responses completed in
// [i·width, (i+1)·width) after the window opened.
func mergeSeries(ss []*series, n int, maxMicros int64) []Bucket {
	out := make([]Bucket, n)
	for i := range out {
		out[i].Latency = hdrhistogram.New(1, maxMicros, 3)
	}
	for _, s := range ss {
		for i, h := range s.hists {
			if h == nil {
				continue
			}
			j := min(i, n-1) // a response at the window's very end
			out[j].Latency.Merge(h)
		}
	}
	for i := range out {
		out[i].Responses = out[i].Latency.TotalCount()
	}
	return out
}

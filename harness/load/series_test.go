package load

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"
)

// With Series the window is cut into buckets by completion time: a server that
// answers after 30 ms during its first second (from its first request) and at
// once after, loaded 3 s on 2 connections, gives 3 one-second buckets whose
// counts add up to the window's; every response of bucket 0 took at least
// 30 ms, and bucket 2's median is under 30 ms (no throughput level assumed).
func TestRunSeriesBuckets(t *testing.T) {
	var once sync.Once
	var first time.Time
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() { first = time.Now() })
		if time.Since(first) < time.Second {
			time.Sleep(30 * time.Millisecond)
		}
		w.Write([]byte("ok"))
	})
	o := Options{Addr: s.addr(), Path: "/", Connections: 2, Duration: 3 * time.Second, Timeout: 2 * time.Second, Series: time.Second}
	r, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Series) != 3 {
		t.Fatalf("%d buckets, want 3", len(r.Series))
	}
	var sum int64
	for _, b := range r.Series {
		sum += b.Responses
		if b.Responses != b.Latency.TotalCount() {
			t.Errorf("bucket counts %d responses and %d latencies", b.Responses, b.Latency.TotalCount())
		}
	}
	if sum != r.Responses || sum == 0 {
		t.Errorf("buckets sum to %d responses, the window counted %d", sum, r.Responses)
	}
	if m := r.Series[0].Latency.Min(); m < 30000 {
		t.Errorf("bucket 0: fastest %d µs, want at least 30000 (the slow second)", m)
	}
	if m := r.Series[2].Latency.ValueAtQuantile(50); m >= 30000 {
		t.Errorf("bucket 2: median %d µs, want under 30000 (the fast seconds)", m)
	}
	if got := r.Series[0].RPS(time.Second); got != float64(r.Series[0].Responses) {
		t.Errorf("RPS of a 1 s bucket %v, want its responses %d", got, r.Series[0].Responses)
	}
	noSeries, err := Run(context.Background(), Options{Addr: s.addr(), Path: "/", Connections: 1, Duration: 100 * time.Millisecond, Timeout: time.Second})
	if err != nil || noSeries.Series != nil {
		t.Errorf("without Series: %v buckets (%v)", noSeries.Series, err)
	}
}

// Series is closed loop and engine raw only.
func TestSeriesRefused(t *testing.T) {
	o := Options{Addr: "127.0.0.1:1", Path: "/", Connections: 1, Duration: time.Second, Timeout: time.Second, Series: time.Second, Rate: 10}
	if _, err := Run(context.Background(), o); err == nil || err.Error() != "load: options: Series is 1s with Rate 10 requests/s, want >= 0 and closed loop only" {
		t.Errorf("rate: %v", err)
	}
	o.Rate = 0
	if _, err := (Hey{}).Run(context.Background(), o); err == nil || err.Error() != "load: options: Series is 1s, want 0: per-second buckets need engine raw (engine hey)" {
		t.Errorf("hey: %v", err)
	}
}

package load

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// slowServer answers every request after delay and counts the requests it
// served.
func slowServer(t *testing.T, delay time.Duration, served *atomic.Int64) *server {
	return newServer(t, func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(delay)
		served.Add(1)
		w.Write([]byte("ok"))
	})
}

// With Warmup the window opens on running load: a response sent in the warmup
// and completed in the window counts, its latency from its send. One connection
// to a server that answers after 400 ms, a 200 ms warmup and a 500 ms window
// [200, 700]: the first response (sent at 0, done at 400 or later, 300 ms to
// spare on a busy machine) counts, the second (done at 800 or later) cannot.
// Without a warmup a 300 ms window counts nothing of a 400 ms server.
func TestRunWarmupCountsInFlight(t *testing.T) {
	var served atomic.Int64
	s := slowServer(t, 400*time.Millisecond, &served)
	o := Options{Addr: s.addr(), Path: "/", Connections: 1, Duration: 500 * time.Millisecond, Timeout: 2 * time.Second,
		Warmup: 200 * time.Millisecond}
	r, took := countRun(t, o)
	if r.Responses != 1 || r.Window != o.Duration {
		t.Fatalf("%d responses in a %s window, want 1 in %s", r.Responses, r.Window, o.Duration)
	}
	if p := time.Duration(r.Latency.Max()) * time.Microsecond; p < 400*time.Millisecond {
		t.Errorf("latency %s, want at least 400ms: from the request's send in the warmup", p)
	}
	if took < o.Warmup+o.Duration {
		t.Errorf("Run took %s, want at least the warmup and the window (%s)", took, o.Warmup+o.Duration)
	}

	o.Warmup, o.Duration = 0, 300*time.Millisecond
	if r, _ := countRun(t, o); r.Responses != 0 {
		t.Errorf("without a warmup: %d responses, want 0 (the first completes after the window)", r.Responses)
	}
}

// A response completed in the warmup is not counted, nor checked: on a 400 ms
// server a 600 ms warmup holds the first response (200 ms to spare) and the
// 150 ms window [600, 750] ends before the second can be done (800 or later).
func TestRunWarmupNotCounted(t *testing.T) {
	var served atomic.Int64
	s := slowServer(t, 400*time.Millisecond, &served)
	var checked atomic.Int64
	o := Options{Addr: s.addr(), Path: "/", Connections: 1, Duration: 150 * time.Millisecond, Timeout: 2 * time.Second,
		Warmup: 600 * time.Millisecond,
		Check:  func(int, []byte, []byte) error { checked.Add(1); return nil }}
	r, _ := countRun(t, o)
	if r.Responses != 0 || checked.Load() != 0 {
		t.Errorf("%d responses counted, %d checked; want 0 and 0 (the one served was the warmup's)", r.Responses, checked.Load())
	}
	if served.Load() < 1 {
		t.Errorf("server served %d, want the warmup's response", served.Load())
	}
}

// OnWindow runs once as the window opens, after Warmup, and Run returns after it.
func TestRunOnWindow(t *testing.T) {
	s := okServer(t)
	var calls atomic.Int64
	var at atomic.Int64 // ns since began
	began := time.Now()
	o := Options{Addr: s.addr(), Path: "/", Connections: 2, Duration: 200 * time.Millisecond, Timeout: time.Second,
		Warmup: 300 * time.Millisecond,
		OnWindow: func() {
			time.Sleep(50 * time.Millisecond) // Run must wait for it
			at.Store(int64(time.Since(began)))
			calls.Add(1)
		}}
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 1 || time.Duration(at.Load()) < o.Warmup {
		t.Errorf("OnWindow called %d times, at %s; want once, after the %s warmup", calls.Load(), time.Duration(at.Load()), o.Warmup)
	}
}

// On a fast server the warmup's responses are served but not counted (300 ms
// of warmup: some complete even on a busy machine).
func TestRunWarmupServedNotCounted(t *testing.T) {
	var served atomic.Int64
	s := slowServer(t, 0, &served)
	o := Options{Addr: s.addr(), Path: "/", Connections: 2, Duration: 200 * time.Millisecond, Timeout: time.Second,
		Warmup: 300 * time.Millisecond}
	r, _ := countRun(t, o)
	if r.Responses == 0 || served.Load() <= r.Responses {
		t.Errorf("%d counted of %d served; want some, fewer than served (the warmup's are not counted)", r.Responses, served.Load())
	}
}

package load

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// okServer answers every request "ok".
func okServer(t *testing.T) *server {
	return newServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
}

// countRun runs engine raw with o and checks what any run's Result must hold
// whatever its window: no error, one latency and TTFB per counted response, and
// RPS over the Window it reports. It returns the Result and how long Run took.
func countRun(t *testing.T, o Options) (*Result, time.Duration) {
	t.Helper()
	start := time.Now()
	r, err := Run(context.Background(), o)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if r.Latency.TotalCount() != r.Responses || r.TTFB.TotalCount() != r.Responses {
		t.Errorf("%d latencies, %d TTFBs; want one each per counted response (%d)", r.Latency.TotalCount(), r.TTFB.TotalCount(), r.Responses)
	}
	if r.Window <= 0 || r.RPS() != float64(r.Responses)/r.Window.Seconds() {
		t.Errorf("RPS %v over Window %s, want %d responses / Window", r.RPS(), r.Window, r.Responses)
	}
	if len(r.Errors) != 0 {
		t.Errorf("errors %v %v, want none", r.Errors, r.Examples)
	}
	return r, took
}

// A window that reaches Responses after MinDuration ends then: at least
// MinDuration, far short of Duration, and RPS is over that window.
func TestRunResponsesEndsWindow(t *testing.T) {
	s := okServer(t)
	o := Options{Addr: s.addr(), Path: "/", Connections: 4, Duration: 30 * time.Second, Timeout: time.Second,
		Responses: 50, MinDuration: 200 * time.Millisecond}
	r, took := countRun(t, o)
	if r.Window < o.MinDuration || r.Window >= o.Duration || took >= o.Duration {
		t.Errorf("Window %s, Run took %s; want at least %s and under %s", r.Window, took, o.MinDuration, o.Duration)
	}
	if r.Responses < o.Responses || r.Success != r.Responses {
		t.Errorf("%d responses, %d status 200; want at least %d, all", r.Responses, r.Success, o.Responses)
	}
}

// A count that is not reached leaves the window at Duration, exactly.
func TestRunResponsesNotReached(t *testing.T) {
	s := okServer(t)
	o := Options{Addr: s.addr(), Path: "/", Connections: 2, Duration: 300 * time.Millisecond, Timeout: time.Second,
		Responses: 1 << 40, MinDuration: 100 * time.Millisecond}
	r, _ := countRun(t, o)
	if r.Window != o.Duration || r.Responses == 0 {
		t.Errorf("Window %s, %d responses; want %s, > 0", r.Window, r.Responses, o.Duration)
	}
}

// A count reached before MinDuration has passed leaves the window at least
// MinDuration long, and the loops run on until then.
func TestRunResponsesMinDuration(t *testing.T) {
	s := okServer(t)
	o := Options{Addr: s.addr(), Path: "/", Connections: 2, Duration: 20 * time.Second, Timeout: time.Second,
		Responses: 1, MinDuration: 400 * time.Millisecond}
	r, took := countRun(t, o)
	if r.Window < o.MinDuration || r.Window >= o.Duration || took >= o.Duration {
		t.Errorf("Window %s, Run took %s; want at least %s and under %s", r.Window, took, o.MinDuration, o.Duration)
	}
	if r.Responses < 2 {
		t.Errorf("%d responses, want more than the one that reached the count: the loops run to MinDuration", r.Responses)
	}
}

// A connection whose server never answers leaves its loop blocked in a wait
// until its Timeout; once another connection reaches the count and MinDuration
// passes, the wake-up ends that wait, and its request, cut by the window's end,
// is no error. The probe stops with the window.
func TestRunResponsesWakesBlockedLoop(t *testing.T) {
	release := make(chan struct{})
	var first atomic.Value // RemoteAddr of the one connection served
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/probe" {
			io.WriteString(w, "ok")
			return
		}
		first.CompareAndSwap(nil, r.RemoteAddr)
		if first.Load() != r.RemoteAddr {
			select { // stalled: answered at the test's end, or never
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		io.WriteString(w, "ok")
	})
	t.Cleanup(func() { close(release) }) // before s.Close: cleanups run last first
	o := Options{Addr: s.addr(), Path: "/", Connections: 2, Duration: 20 * time.Second, Timeout: 10 * time.Second,
		Responses: 20, MinDuration: 100 * time.Millisecond, Probe: &Probe{Path: "/probe", Interval: 10 * time.Millisecond}}
	r, took := countRun(t, o)
	if took > 5*time.Second || r.Window < o.MinDuration || r.Window > 5*time.Second {
		t.Errorf("Run took %s, Window %s; want both well under the stalled connection's Timeout %s", took, r.Window, o.Timeout)
	}
	if r.Responses < o.Responses {
		t.Errorf("%d responses, want at least %d", r.Responses, o.Responses)
	}
	if q := r.Probe; q == nil || q.Window != r.Window || q.Responses == 0 || len(q.Errors) != 0 {
		t.Errorf("probe %+v; want the load's Window %s, responses, no errors", q, r.Window)
	}
}

// A caller's cancel before the count-based end still ends the run with the
// context's error and a window up to the cancel.
func TestRunResponsesCancel(t *testing.T) {
	s := okServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	o := Options{Addr: s.addr(), Path: "/", Connections: 2, Duration: 20 * time.Second, Timeout: time.Second,
		Responses: 1, MinDuration: 10 * time.Second}
	start := time.Now()
	r, err := Run(ctx, o)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Fatalf("Run: %v after %s; want the context's deadline after ~200ms", err, time.Since(start))
	}
	if r.Window <= 0 || r.Window >= o.MinDuration || r.Responses == 0 {
		t.Errorf("Window %s, %d responses; want up to the cancel (~200ms), > 0", r.Window, r.Responses)
	}
}

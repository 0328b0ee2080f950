package load

import (
	"context"
	"errors"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/suite"
)

// singleThreaded is a server whose every handler takes one global lock, as
// a single-threaded server answers one request at a time, in arrival order
// (a channel's waiting senders go in FIFO; sync.Mutex would let the pages
// barge ahead of the probe). Its page handler
// (/ssr) takes hold to render; blocking, it holds the mutex meanwhile (the
// only thread is busy), else it waits outside it (an asynchronous render:
// the thread serves others). /plaintext answers "Hello, World!" and notes
// the GOMAXPROCS and Accept it ran with.
type singleThreaded struct {
	*server
	page      string
	plaintext atomic.Int64 // /plaintext requests
	procs     atomic.Int64 // GOMAXPROCS seen by the last of them
	accept    atomic.Value // the Accept header of the last of them
}

func newSingleThreaded(t *testing.T, hold time.Duration, blocking bool) *singleThreaded {
	s := &singleThreaded{page: "<table>" + strings.Repeat("<tr><td>1</td><td>2</td></tr>", 100) + "</table>"}
	sem := make(chan struct{}, 1)
	lock, unlock := func() { sem <- struct{}{} }, func() { <-sem }
	s.server = newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/plaintext" {
			lock()
			defer unlock()
			s.plaintext.Add(1)
			s.procs.Store(int64(runtime.GOMAXPROCS(0)))
			s.accept.Store(r.Header.Get("Accept"))
			io.WriteString(w, "Hello, World!")
			return
		}
		if !blocking {
			time.Sleep(hold)
		}
		lock()
		defer unlock()
		if blocking {
			time.Sleep(hold)
		}
		io.WriteString(w, s.page)
	})
	return s
}

// oneProc runs the rest of the test with GOMAXPROCS 1, as the generator
// pinned to one CPU runs, and restores it after.
func oneProc(t *testing.T) {
	old := runtime.GOMAXPROCS(1)
	t.Cleanup(func() { runtime.GOMAXPROCS(old) })
}

// probeRun runs o with a probe of /plaintext every 20 ms against s and
// checks what holds for every probe: it got plaintext's Accept, ran with
// one more P than the generator (restored after), is counted apart from
// the load (the load's bytes are all pages; the probe's all plaintext),
// and sent at most one request per interval of the window (at least a few:
// behind a blocking server it falls behind schedule), answered 200.
func probeRun(t *testing.T, s *singleThreaded, o Options) *Result {
	t.Helper()
	o.Addr, o.Path, o.Timeout = s.addr(), "/ssr?rows=100", 2*time.Second
	o.Probe = &Probe{Path: "/plaintext", Interval: 20 * time.Millisecond}
	procs := runtime.GOMAXPROCS(0)
	r := run(t, o)
	if got := runtime.GOMAXPROCS(0); got != procs {
		t.Errorf("GOMAXPROCS %d after the run, want %d again", got, procs)
	}
	if got := s.procs.Load(); got != int64(procs+1) {
		t.Errorf("GOMAXPROCS %d during the probe, want %d", got, procs+1)
	}
	if got, _ := s.accept.Load().(string); got != suite.Plaintext.Accept() {
		t.Errorf("probe Accept %q, want plaintext's %q", got, suite.Plaintext.Accept())
	}
	q := r.Probe
	if q == nil {
		t.Fatal("Result.Probe is nil")
	}
	t.Logf("load: %d responses, latency p50 %d µs; probe: %d responses, p50 %d, p99 %d, max %d µs",
		r.Responses, r.Latency.ValueAtQuantile(50), q.Responses, q.Latency.ValueAtQuantile(50), q.Latency.ValueAtQuantile(99), q.Latency.Max())
	if r.Responses == 0 || r.Success != r.Responses || r.BodyBytes != r.Responses*int64(len(s.page)) {
		t.Errorf("load: %d responses, %d status 200, %d body bytes; want > 0, all, %d each (no probe response among them)",
			r.Responses, r.Success, r.BodyBytes, len(s.page))
	}
	max := int64(o.Duration / o.Probe.Interval)
	if q.Responses < 5 || q.Responses > max || q.Success != q.Responses || len(q.Errors) != 0 || q.BodyBytes != 13*q.Responses {
		t.Errorf("probe: %d responses, %d status 200, errors %v, %d body bytes; want 5..%d, all 200, none, 13 each",
			q.Responses, q.Success, q.Errors, q.BodyBytes, max)
	}
	if n := s.plaintext.Load(); n < q.Responses || n > q.Responses+1 {
		t.Errorf("server saw %d probe requests for %d probe responses; want as many (one more if in flight at the end)", n, q.Responses)
	}
	if q.Window != r.Window || q.Latency.TotalCount() != q.Responses || q.TTFB.TotalCount() != q.Responses || q.Uncorrected.TotalCount() != q.Responses {
		t.Errorf("probe: window %s (load's %s), %d/%d/%d latency/TTFB/uncorrected values for %d responses",
			q.Window, r.Window, q.Latency.TotalCount(), q.TTFB.TotalCount(), q.Uncorrected.TotalCount(), q.Responses)
	}
	if q.ProbeSpec == nil || *q.ProbeSpec != *o.Probe || r.ProbeSpec != nil || q.Probe != nil {
		t.Errorf("probe's ProbeSpec %v, load's %v, probe's Probe %v; want %v, nil, nil", q.ProbeSpec, r.ProbeSpec, q.Probe, *o.Probe)
	}
	return r
}

// Issue 14, item 5: a server whose page handler blocks its only thread for
// 30 ms shows a probe max >= 25 ms under a closed-loop page load (c=2);
// the same server rendering without blocking does not. The generator runs
// with GOMAXPROCS 1. (Blocking, each probe waits behind one page or two,
// ~45 ms, more than its 20 ms interval: it falls behind schedule and its
// corrected latency grows through the window, as wrk2's does.)
func TestRunProbe(t *testing.T) {
	oneProc(t)
	probeMax(t, 30*time.Millisecond, Options{Connections: 2, Duration: time.Second})
}

// probeMax runs the probe against a single-threaded server whose page holds
// it for hold, blocking and not: blocking, the probe max must reach 25 ms;
// not blocking, it must stay under. A busy machine (other tests, the
// shared CI host) can stall any process past 25 ms, so the non-blocking
// case gets up to three tries and passes when one stays under; a block
// only ever makes the max larger, so that case gets one.
func probeMax(t *testing.T, hold time.Duration, o Options) {
	t.Helper()
	s := newSingleThreaded(t, hold, true)
	if max := probeRun(t, s, o).Probe.Latency.Max(); max < 25_000 {
		t.Errorf("blocking page: probe max %d µs, want >= 25000", max)
	}
	var maxes []int64
	for range 3 {
		s := newSingleThreaded(t, hold, false)
		max := probeRun(t, s, o).Probe.Latency.Max()
		if maxes = append(maxes, max); max < 25_000 {
			return
		}
	}
	t.Errorf("non-blocking page: probe max %v µs in three tries, want one < 25000", maxes)
}

// The probe runs beside constant-rate mode too: pages at 5 requests/s, each
// blocking the server for 50 ms, cost a probe that lands in one a wait of
// >= 25 ms (every 50 ms hold takes two probes, the first within 20 ms of its
// start); without blocking the probe max stays under 25 ms.
func TestRunProbeRate(t *testing.T) {
	oneProc(t)
	probeMax(t, 50*time.Millisecond, Options{Connections: 1, Rate: 5, Duration: time.Second})
}

// A probe against a server that refuses it counts its errors in its own
// Result, not the load's; a cancelled run stops the probe too, and the
// probe's window is the part that ran.
func TestRunProbeErrorsAndCancel(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.Error(w, "no such page", 404)
			return
		}
		io.WriteString(w, "ok")
	})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	o := Options{Addr: s.addr(), Path: "/", Connections: 1, Duration: 10 * time.Second, Timeout: time.Second,
		Probe: &Probe{Path: "/missing", Interval: 10 * time.Millisecond}}
	start := time.Now()
	r, err := Run(ctx, o)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
		t.Fatalf("Run: %v after %s; want the context's deadline after ~300ms", err, time.Since(start))
	}
	q := r.Probe
	if q == nil || q.Window != r.Window || r.Window >= time.Second {
		t.Fatalf("probe %v, window %s; want the load's window %s (< 1s)", q, q.Window, r.Window)
	}
	want := `status 404 for GET /missing: "no such page"`
	if q.Responses == 0 || q.Success != 0 || q.Errors[Status] != q.Responses || q.Examples[Status] != want || q.StatusCounts[404] != q.Responses {
		t.Errorf("probe: %d responses, %d successes, errors %v, examples %v; want > 0, 0, all status, %q", q.Responses, q.Success, q.Errors, q.Examples, want)
	}
	if len(r.Errors) != 0 || r.Success != r.Responses {
		t.Errorf("load: errors %v, %d of %d status 200; want none, all", r.Errors, r.Success, r.Responses)
	}
}

// Engine hey runs no probe.
func TestHeyRefusesProbe(t *testing.T) {
	_, err := Hey{}.Run(context.Background(), Options{Addr: "127.0.0.1:1", Path: "/", Connections: 1, Duration: time.Second, Timeout: time.Second,
		Probe: &Probe{Path: "/plaintext", Interval: 20 * time.Millisecond}})
	if want := "load: options: Probe is set, want nil: hey runs no interference probe (engine hey)"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

// Overlapping runs with a probe raise GOMAXPROCS once, and the last to end
// restores it.
func TestRaiseProcs(t *testing.T) {
	oneProc(t)
	a := raiseProcs()
	b := raiseProcs()
	if got := runtime.GOMAXPROCS(0); got != 2 {
		t.Errorf("GOMAXPROCS %d with two probes, want 2", got)
	}
	a()
	if got := runtime.GOMAXPROCS(0); got != 2 {
		t.Errorf("GOMAXPROCS %d with one probe left, want 2", got)
	}
	b()
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("GOMAXPROCS %d after the probes, want 1 again", got)
	}
}

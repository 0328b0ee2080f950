package load

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
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
// and sent at most one request per interval of the window (at least a few),
// answered 200.
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
	if got, _ := s.accept.Load().(string); got != model.Plaintext.Accept() {
		t.Errorf("probe Accept %q, want plaintext's %q", got, model.Plaintext.Accept())
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
	// The server saw every counted probe, and no more than the schedule's
	// (the probe pipelines: behind a blocked server, the requests unanswered
	// at the window's end reach it too, as many as it has read by now).
	if n := s.plaintext.Load(); n < q.Responses || n > max {
		t.Errorf("server saw %d probe requests for %d probe responses; want %d..%d (one per interval of the window)", n, q.Responses, q.Responses, max)
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

// The interference probe sees a blocked event loop: a server whose page
// handler blocks its only thread for 30 ms shows a probe max >= 25 ms under a
// closed-loop page load (c=2); the same server rendering without blocking
// shows a probe p50 under it. The generator runs with GOMAXPROCS 1.
// (Blocking, each probe waits behind one page or two, ~45 ms, more than its
// 20 ms interval: it falls behind schedule and its corrected latency grows
// through the window, as wrk2's does.)
func TestRunProbe(t *testing.T) {
	if raceEnabled {
		t.Skip("times the generator at full speed, which the race detector takes away")
	}
	oneProc(t)
	probeMax(t, 30*time.Millisecond, Options{Connections: 2, Duration: time.Second})
}

// probeMax runs the probe against a single-threaded server whose page holds
// it for hold, blocking and not: blocking, the probe max must reach 25 ms
// (a lower bound: a busy machine only adds to it); not blocking, most probes
// must not wait a hold: their p50 stays under 25 ms. A busy machine stalls
// any process now and then (the max of 50 probes under stress-ng passed
// 25 ms), so that case gets up to three tries and passes when one holds.
func probeMax(t *testing.T, hold time.Duration, o Options) {
	t.Helper()
	s := newSingleThreaded(t, hold, true)
	if max := probeRun(t, s, o).Probe.Latency.Max(); max < 25_000 {
		t.Errorf("blocking page: probe max %d µs, want >= 25000", max)
	}
	var p50s []int64
	for range 3 {
		s := newSingleThreaded(t, hold, false)
		p50 := probeRun(t, s, o).Probe.Latency.ValueAtQuantile(50)
		if p50s = append(p50s, p50); p50 < 25_000 {
			return
		}
	}
	t.Errorf("non-blocking page: probe p50 %v µs in three tries, want one < 25000", p50s)
}

// The probe runs beside constant-rate mode too: pages at 5 requests/s, each
// blocking the server for 50 ms, cost a probe that lands in one a wait of
// >= 25 ms (every 50 ms hold takes two probes, the first within 20 ms of its
// start); without blocking the probe p50 stays under 25 ms.
func TestRunProbeRate(t *testing.T) {
	if raceEnabled {
		t.Skip("times the generator at full speed, which the race detector takes away")
	}
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

// laggingServer answers every request on a connection 50 ms after it
// arrived, in order (HTTP/1.1 pipelining), and notes when each /plaintext
// request arrived. A reader per connection parses requests as they come; a
// writer answers each at its arrival plus 50 ms.
func laggingServer(t *testing.T, lag time.Duration) (addr string, arrivals func() []time.Time) {
	t.Helper()
	var (
		mu  sync.Mutex
		got []time.Time
	)
	addr = acceptEach(t, func(c net.Conn, wg *sync.WaitGroup) {
		due := make(chan time.Time, 1024)
		wg.Go(func() {
			defer close(due)
			br := bufio.NewReader(c)
			for {
				req, err := http.ReadRequest(br)
				if err != nil {
					return
				}
				now := time.Now()
				if req.URL.Path == "/plaintext" {
					mu.Lock()
					got = append(got, now)
					mu.Unlock()
				}
				due <- now.Add(lag)
			}
		})
		defer c.Close()
		for d := range due {
			time.Sleep(time.Until(d))
			if _, err := io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nHello, World!"); err != nil {
				return
			}
		}
	})
	return addr, func() []time.Time {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(got)
	}
}

// Probes are pipelined: against a server that answers each request 50 ms
// after it arrived, in order, probes still go out every 20 ms (about 50 in
// one second, the median gap between arrivals ~20 ms) and each one's
// latency from its intended send time is the server's 50 ms, not a backlog
// growing through the window. One probe at a time would send ~20, and its
// latency from the schedule would climb to ~600 ms by the window's end.
func TestRunProbePipelined(t *testing.T) {
	addr, arrivals := laggingServer(t, 50*time.Millisecond)
	o := Options{Addr: addr, Path: "/page", Connections: 1, Duration: time.Second, Timeout: 2 * time.Second,
		Probe: &Probe{Path: "/plaintext", Interval: 20 * time.Millisecond}}
	q := run(t, o).Probe
	at := arrivals()
	var gaps []time.Duration
	for i := 1; i < len(at); i++ {
		gaps = append(gaps, at[i].Sub(at[i-1]))
	}
	slices.Sort(gaps)
	p50, max := q.Latency.ValueAtQuantile(50), q.Latency.Max()
	t.Logf("probe: %d sent, %d responses, median gap %s, latency p50 %d µs, max %d µs", len(at), q.Responses, gaps[len(gaps)/2], p50, max)
	if len(at) < 40 || q.Responses < 35 || len(q.Errors) != 0 {
		t.Errorf("probe: %d requests arrived, %d responses, errors %v; want >= 40, >= 35, none", len(at), q.Responses, q.Errors)
	}
	if g := gaps[len(gaps)/2]; g < 15*time.Millisecond || g > 30*time.Millisecond {
		t.Errorf("median gap between probe arrivals %s, want ~20ms", g)
	}
	if p50 < 50_000 || p50 > 150_000 {
		t.Errorf("probe latency p50 %d µs, want the server's 50 ms (50000..150000), no backlog", p50)
	}
}

package load

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
)

// server is an httptest server on 127.0.0.1 that counts the connections it
// accepts. Tests close it themselves before reading server-side counters
// (Close waits for running handlers); t.Cleanup closes it too.
type server struct {
	*httptest.Server
	conns atomic.Int64
}

func newServer(t *testing.T, h http.HandlerFunc) *server {
	t.Helper()
	s := &server{Server: httptest.NewUnstartedServer(h)}
	s.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.conns.Add(1)
		}
	}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

func (s *server) addr() string { return s.Listener.Addr().String() }

// run runs engine raw against addr and fails the test on an options error.
func run(t *testing.T, o Options) *Result {
	t.Helper()
	r, err := Run(context.Background(), o)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if r.Window != o.Duration {
		t.Errorf("Window %s, want %s", r.Window, o.Duration)
	}
	if r.Latency.TotalCount() != r.Responses {
		t.Errorf("latency histogram holds %d values, want one per counted response (%d)", r.Latency.TotalCount(), r.Responses)
	}
	if r.TTFB == nil || r.TTFB.TotalCount() != r.Responses {
		t.Errorf("TTFB histogram %v, want one value per counted response (%d)", r.TTFB, r.Responses)
	} else if r.TTFB.Max() > r.Latency.Max() || r.TTFB.Min() > r.Latency.Min() {
		t.Errorf("TTFB min/max %d/%d µs above latency's %d/%d µs: a first byte cannot come after the last", r.TTFB.Min(), r.TTFB.Max(), r.Latency.Min(), r.Latency.Max())
	}
	return r
}

// every10th500 answers "ok" (2 bytes), but every 10th request it serves (by
// a global counter) gets 500 "boom\n" (5 bytes).
func every10th500(n *atomic.Int64) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1)%10 == 0 {
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		io.WriteString(w, "ok")
	}
}

// With one connection the server serves the requests in the order they were
// sent and the counted responses are a prefix of them, so exactly one in ten
// counted responses is a 500 (integer division), and at most the one request
// in flight at the window's end was served but not counted.
func TestRunStatusShareOneConnection(t *testing.T) {
	var served atomic.Int64
	s := newServer(t, every10th500(&served))
	r := run(t, Options{Addr: s.addr(), Path: "/status", Connections: 1, Duration: 500 * time.Millisecond, Timeout: 2 * time.Second})
	s.Close()
	n, m := r.Responses, served.Load()
	if n < 100 {
		t.Fatalf("%d responses in 500 ms over loopback, want >= 100", n)
	}
	if m-n < 0 || m-n > 1 {
		t.Errorf("server served %d requests, client counted %d; want at most 1 dropped in flight", m, n)
	}
	fails := n / 10
	if r.Success != n-fails || r.Errors[Status] != fails || r.SocketErrors() != 0 {
		t.Errorf("Success %d, status errors %d, socket errors %d of %d responses; want %d, %d, 0",
			r.Success, r.Errors[Status], r.SocketErrors(), n, n-fails, fails)
	}
	if want := map[int]int64{200: n - fails, 500: fails}; !maps.Equal(r.StatusCounts, want) {
		t.Errorf("StatusCounts %v, want %v", r.StatusCounts, want)
	}
	// http.Error's body "boom\n", white space trimmed.
	if want := map[Class]string{Status: `status 500 for GET /status: "boom"`}; !maps.Equal(r.Examples, want) {
		t.Errorf("Examples %v, want %v", r.Examples, want)
	}
	if want := 2*(n-fails) + 5*fails; r.BodyBytes != want {
		t.Errorf("BodyBytes %d, want %d", r.BodyBytes, want)
	}
	if r.Connects != 0 {
		t.Errorf("%d connects inside the window, want 0 (keep-alive)", r.Connects)
	}
}

// With several connections the global counter interleaves them. Of the m
// requests served, floor(m/10) got a 500; the client counted all but the d =
// m-n in flight at the window's end (at most one per connection), so it saw
// between floor(m/10)-d and floor(m/10) of them.
func TestRunStatusShareConnections(t *testing.T) {
	const conns = 4
	var served atomic.Int64
	s := newServer(t, every10th500(&served))
	r := run(t, Options{Addr: s.addr(), Path: "/status", Connections: conns, Duration: 500 * time.Millisecond, Timeout: 2 * time.Second})
	s.Close()
	n, m := r.Responses, served.Load()
	d := m - n
	if n < 100 || d < 0 || d > conns {
		t.Fatalf("server served %d, client counted %d; want >= 100 counted and at most %d dropped", m, n, conns)
	}
	fails := r.Errors[Status]
	if fails < m/10-d || fails > m/10 || r.Success+fails != n || r.StatusCounts[500] != fails {
		t.Errorf("%d status errors, %d successes of %d counted (%d served); want %d..%d errors, the rest successes",
			fails, r.Success, n, m, m/10-d, m/10)
	}
	if r.SocketErrors() != 0 || s.conns.Load() != conns {
		t.Errorf("socket errors %d, connections %d; want 0, %d", r.SocketErrors(), s.conns.Load(), conns)
	}
}

// A 20 ms handler bounds every latency from below, whatever the machine:
// no request is faster than the handler, and two closed loops fit at most
// 100 responses in the 1 s window.
func TestRunLatency(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(20 * time.Millisecond)
		io.WriteString(w, "ok")
	})
	r := run(t, Options{Addr: s.addr(), Path: "/slow", Connections: 2, Duration: time.Second, Timeout: 2 * time.Second})
	if r.Responses < 1 || r.Responses > 100 || r.Success != r.Responses {
		t.Fatalf("%d responses (%d successes), want 1..100, all 200", r.Responses, r.Success)
	}
	if r.Latency.TotalCount() != r.Responses || r.Latency.Min() < 20000 {
		t.Errorf("%d latencies, min %d µs; want %d, >= 20000 (the handler sleeps 20 ms)", r.Latency.TotalCount(), r.Latency.Min(), r.Responses)
	}
	if r.Latency.HighestTrackableValue() != 2_000_000 || r.Latency.SignificantFigures() != 3 {
		t.Errorf("histogram range ..%d µs, %d digits; want ..2000000 (Timeout), 3", r.Latency.HighestTrackableValue(), r.Latency.SignificantFigures())
	}
	if got, want := r.RPS(), float64(r.Responses); got != want {
		t.Errorf("RPS %v, want %v (responses per 1 s window)", got, want)
	}
}

// A body written as 40 flushed 10-byte chunks arrives chunked; each response
// is counted once, with its whole decoded body.
func TestRunChunked(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		f := w.(http.Flusher)
		for range 40 {
			io.WriteString(w, "0123456789")
			f.Flush()
		}
	})
	resp, err := http.Get(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(resp.TransferEncoding) != 1 || resp.TransferEncoding[0] != "chunked" {
		t.Fatalf("test server's Transfer-Encoding %v, want [chunked]", resp.TransferEncoding)
	}
	r := run(t, Options{Addr: s.addr(), Path: "/chunked", Connections: 2, Duration: 500 * time.Millisecond, Timeout: 2 * time.Second})
	if r.Responses == 0 || r.BodyBytes != 400*r.Responses || r.Success != r.Responses || len(r.Errors) != 0 {
		t.Errorf("%d responses, %d successes, %d body bytes, errors %v; want > 0, all 200, 400 bytes each, none",
			r.Responses, r.Success, r.BodyBytes, r.Errors)
	}
}

// Content-Length bodies are read whole, and the server sees tfbench's fixed
// header set.
func TestRunContentLength(t *testing.T) {
	body := strings.Repeat("x", 1234)
	accept := model.Fortunes.Accept()
	var bad atomic.Value
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		got := fmt.Sprintf("%s %s %s|%s|%s|%s|%s|%v", r.Method, r.RequestURI, r.Proto, r.Host,
			r.Header.Get("Accept"), r.Header.Get("Connection"), r.UserAgent(), r.Header.Values("Accept-Encoding"))
		if want := "GET /fortunes HTTP/1.1|bench.example|" + accept + "|keep-alive|tfbench/1|[]"; got != want {
			bad.Store(got)
		}
		w.Header().Set("Content-Length", "1234")
		io.WriteString(w, body)
	})
	r := run(t, Options{Addr: s.addr(), Host: "bench.example", Path: "/fortunes", Accept: accept,
		Connections: 2, Duration: 500 * time.Millisecond, Timeout: 2 * time.Second})
	if got := bad.Load(); got != nil {
		t.Errorf("server saw request %q", got)
	}
	if r.Responses == 0 || r.BodyBytes != 1234*r.Responses || r.Success != r.Responses || len(r.Errors) != 0 {
		t.Errorf("%d responses, %d successes, %d body bytes, errors %v; want > 0, all 200, 1234 bytes each, none",
			r.Responses, r.Success, r.BodyBytes, r.Errors)
	}
}

// net/http's server reads pipelined requests one at a time and answers them
// in order; the pipelining tests below rely on it.
func TestNetHTTPServesPipelinedInOrder(t *testing.T) {
	var inside, most atomic.Int64
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if n := inside.Add(1); n > most.Load() {
			most.Store(n)
		}
		defer inside.Add(-1)
		var i int
		fmt.Sscanf(r.URL.Path, "/seq/%d", &i)
		time.Sleep(time.Duration(5-i) * time.Millisecond) // later requests are quicker
		w.WriteHeader(200 + i)
	})
	c, err := net.Dial("tcp", s.addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var reqs bytes.Buffer
	for i := 1; i <= 4; i++ {
		fmt.Fprintf(&reqs, "GET /seq/%d HTTP/1.1\r\nHost: x\r\n\r\n", i)
	}
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Write(reqs.Bytes()); err != nil {
		t.Fatal(err)
	}
	p := newParser(c, readBufSize)
	for i := 1; i <= 4; i++ {
		resp, err := p.next()
		if err != nil || resp.status != 200+i {
			t.Fatalf("response %d: status %d, %v; want %d", i, resp.status, err, 200+i)
		}
	}
	if most.Load() != 1 {
		t.Errorf("%d handlers ran at once on one pipelined connection, want 1", most.Load())
	}
}

// Depth 4 on one connection against a 5 ms handler: the server answers the
// batch one request after another, so the 4th response of a batch comes >= 20
// ms after the batch's write, and one connection yields at most one
// response per 5 ms.
func TestRunPipelineSlow(t *testing.T) {
	var served atomic.Int64
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		time.Sleep(5 * time.Millisecond)
		io.WriteString(w, "ok")
	})
	r := run(t, Options{Addr: s.addr(), Path: "/p", Connections: 1, Pipeline: 4, Duration: 500 * time.Millisecond, Timeout: 2 * time.Second})
	s.Close()
	n, m := r.Responses, served.Load()
	if n < 20 || n > 100 || m-n < 0 || m-n > 4 || r.Success != n || len(r.Errors) != 0 {
		t.Fatalf("%d responses (%d served, %d successes), errors %v; want 20..100, at most 4 dropped, all 200, none",
			n, m, r.Success, r.Errors)
	}
	if min, max := r.Latency.Min(), r.Latency.Max(); min < 5000 || max < 20000 {
		t.Errorf("latency min %d µs, max %d µs; want >= 5000 and >= 20000 (4th of a batch)", min, max)
	}
	if s.conns.Load() != 1 {
		t.Errorf("%d connections, want 1", s.conns.Load())
	}
}

// Depth 4 over two connections against a fast handler.
func TestRunPipelineFast(t *testing.T) {
	var served atomic.Int64
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		io.WriteString(w, "Hello, World!")
	})
	r := run(t, Options{Addr: s.addr(), Path: "/plaintext", Accept: model.Plaintext.Accept(),
		Connections: 2, Pipeline: 4, Duration: 300 * time.Millisecond, Timeout: 2 * time.Second})
	s.Close()
	n, m := r.Responses, served.Load()
	if n < 100 || m-n < 0 || m-n > 8 || r.Success != n || r.BodyBytes != 13*n || len(r.Errors) != 0 {
		t.Errorf("%d responses (%d served, %d successes, %d body bytes), errors %v; want >= 100, at most 8 dropped, all 200 with 13 bytes, none",
			n, m, r.Success, r.BodyBytes, r.Errors)
	}
}

// A server that closes every connection after its response: every counted
// response is followed by a reconnect, and nothing is an error.
func TestRunConnectionClose(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		io.WriteString(w, "bye")
	})
	const conns = 2
	r := run(t, Options{Addr: s.addr(), Path: "/close", Connections: conns, Duration: 300 * time.Millisecond, Timeout: 2 * time.Second})
	s.Close()
	n := r.Responses
	if n < 20 || r.Success != n || len(r.Errors) != 0 {
		t.Fatalf("%d responses, %d successes, errors %v %v; want >= 20, all 200, none", n, r.Success, r.Errors, r.Examples)
	}
	// Each connection's last counted response may be followed by a reconnect
	// after the window.
	if r.Connects < n-conns || r.Connects > n {
		t.Errorf("%d reconnects for %d responses, want %d..%d", r.Connects, n, n-conns, n)
	}
	// The server also saw the connections opened before the window, and
	// perhaps dials cut short by its end.
	if got, lo := s.conns.Load(), conns+r.Connects; got < lo || got > lo+conns {
		t.Errorf("server accepted %d connections, want %d..%d", got, lo, lo+conns)
	}
}

// A closed port gives connect errors only, retried every 10 ms.
func TestRunConnectRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	r := run(t, Options{Addr: addr, Path: "/", Connections: 1, Duration: 300 * time.Millisecond, Timeout: time.Second})
	// At most one try per 10 ms backoff in 300 ms, plus the first.
	if got := r.Errors[Connect]; got < 5 || got > 31 || len(r.Errors) != 1 || r.SocketErrors() != got {
		t.Errorf("errors %v, want 5..31 connect errors only", r.Errors)
	}
	if want := "connect " + addr + ": connection refused"; r.Examples[Connect] != want {
		t.Errorf("example %q, want %q", r.Examples[Connect], want)
	}
	if r.Responses != 0 || r.Connects != 0 || r.RPS() != 0 {
		t.Errorf("%d responses, %d connects, RPS %v; want 0, 0, 0", r.Responses, r.Connects, r.RPS())
	}
}

// A handler that never answers gives one timeout per Timeout (100 ms), each
// followed by a reconnect.
func TestRunTimeout(t *testing.T) {
	release := make(chan struct{})
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	r := run(t, Options{Addr: s.addr(), Path: "/hang", Connections: 1, Duration: 600 * time.Millisecond, Timeout: 100 * time.Millisecond})
	// Five timeouts end by 500 ms (plus overheads); a sixth would end with
	// the window, where errors are not counted.
	if got := r.Errors[Timeout]; got < 3 || got > 5 || len(r.Errors) != 1 {
		t.Errorf("errors %v, want 3..5 timeouts only", r.Errors)
	}
	if want := "read " + s.addr() + ": no complete response within 100ms"; r.Examples[Timeout] != want {
		t.Errorf("example %q, want %q", r.Examples[Timeout], want)
	}
	if got := r.Errors[Timeout]; r.Responses != 0 || r.Connects < got-1 || r.Connects > got {
		t.Errorf("%d responses, %d reconnects; want 0 and a reconnect after each timeout (%d)", r.Responses, r.Connects, got)
	}
}

// A handler slower than the window: its responses would be answered after
// the window ends, so nothing counts, nothing is an error, and Run returns at
// the window's end without waiting for them.
func TestRunWindowDropsInFlight(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(2 * time.Second):
		case <-r.Context().Done():
		}
	})
	start := time.Now()
	r := run(t, Options{Addr: s.addr(), Path: "/slow", Connections: 2, Duration: 300 * time.Millisecond, Timeout: 5 * time.Second})
	if took := time.Since(start); took >= 2*time.Second {
		t.Errorf("Run took %s, want it to stop at the window's end, not wait for the 2 s responses", took)
	}
	if r.Responses != 0 || len(r.Errors) != 0 || len(r.StatusCounts) != 0 || r.RPS() != 0 {
		t.Errorf("%d responses, errors %v, statuses %v, RPS %v; want nothing counted", r.Responses, r.Errors, r.StatusCounts, r.RPS())
	}
}

// rawServer accepts connections on 127.0.0.1, reads one request from each
// and answers with reply, then closes it. It stops with the test.
func rawServer(t *testing.T, reply string) string {
	t.Helper()
	return acceptEach(t, func(c net.Conn, _ *sync.WaitGroup) {
		defer c.Close()
		c.SetDeadline(time.Now().Add(5 * time.Second))
		var got []byte
		buf := make([]byte, 4096)
		for !bytes.Contains(got, []byte("\r\n\r\n")) {
			n, err := c.Read(buf)
			if err != nil {
				return
			}
			got = append(got, buf[:n]...)
		}
		io.WriteString(c, reply)
	})
}

// acceptEach listens on 127.0.0.1 and runs serve on a goroutine of its own
// for each connection, with the wait group that the test's cleanup waits
// for after closing the listener (serve may add goroutines to it).
func acceptEach(t *testing.T, serve func(net.Conn, *sync.WaitGroup)) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { l.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { serve(c, &wg) })
		}
	})
	return l.Addr().String()
}

// Broken responses are read errors, named by what broke; the connection is
// reopened after each.
func TestRunReadErrors(t *testing.T) {
	cases := []struct{ reply, cause string }{
		{"garbage\r\n", `malformed status line "garbage"`},
		{"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial", "server closed the connection inside a response"},
		{"", "server closed the connection"},
	}
	for _, c := range cases {
		addr := rawServer(t, c.reply)
		r := run(t, Options{Addr: addr, Path: "/", Connections: 1, Duration: 200 * time.Millisecond, Timeout: time.Second})
		// Each error is followed by a reconnect; the last one's may fall after
		// the window.
		if got := r.Errors[Read]; got == 0 || len(r.Errors) != 1 || r.Responses != 0 || r.Connects < got-1 || r.Connects > got {
			t.Errorf("reply %q: errors %v, %d responses, %d reconnects; want read errors only, each followed by a reconnect",
				c.reply, r.Errors, r.Responses, r.Connects)
		}
		if want := "read " + addr + ": " + c.cause; r.Examples[Read] != want {
			t.Errorf("reply %q: example %q, want %q", c.reply, r.Examples[Read], want)
		}
	}
}

// Cancelling ctx stops the run early with ctx's error and the part of the
// window that ran.
func TestRunCancel(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	r, err := Run(ctx, Options{Addr: s.addr(), Path: "/", Connections: 2, Duration: 10 * time.Second, Timeout: time.Second})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Run: error %v, want the context's deadline", err)
	}
	// The window ran about 200 ms of its 10 s, less the time to connect.
	if r.Window <= 0 || r.Window > time.Second || r.Responses == 0 || len(r.Errors) != 0 {
		t.Errorf("Window %s, %d responses, errors %v %v; want about 200 ms, > 0, none", r.Window, r.Responses, r.Errors, r.Examples)
	}
}

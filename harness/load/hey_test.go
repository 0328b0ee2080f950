package load

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rakyll/hey/requester"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
)

// heyServer starts an httptest server on 127.0.0.1 serving h: over TLS with
// HTTP/2 enabled (self-signed certificate) if tls, else plain HTTP/1.1. It
// counts the TCP connections it accepts in *conns if conns is not nil. The
// test's cleanup closes it.
func heyServer(t *testing.T, tls bool, conns *atomic.Int64, h http.HandlerFunc) *httptest.Server {
	if raceEnabled {
		// rakyll/hey v0.1.5's requester races with itself: its workers set
		// the one shared client's CheckRedirect, and its httptrace hooks
		// write timings from the transport's goroutines. Not ours to fix.
		t.Skip("hey's requester has data races of its own (rakyll/hey v0.1.5)")
	}
	t.Helper()
	s := httptest.NewUnstartedServer(h)
	if conns != nil {
		s.Config.ConnState = func(_ net.Conn, st http.ConnState) {
			if st == http.StateNew {
				conns.Add(1)
			}
		}
	}
	if tls {
		s.EnableHTTP2 = true
		s.StartTLS()
	} else {
		s.Start()
	}
	t.Cleanup(s.Close)
	return s
}

// heyRun runs engine hey, fails the test on an error, and checks what holds
// for every uncancelled run: the full window and one latency per response.
func heyRun(t *testing.T, o Options) *Result {
	t.Helper()
	if raceEnabled {
		t.Skip("hey's requester has data races of its own (rakyll/hey v0.1.5)")
	}
	r, err := Hey{}.Run(context.Background(), o)
	if err != nil {
		t.Fatalf("Hey.Run: %v", err)
	}
	if r.Window != o.Duration {
		t.Errorf("Window %s, want %s", r.Window, o.Duration)
	}
	if r.Latency.TotalCount() != r.Responses {
		t.Errorf("latency histogram holds %d values, want one per response (%d)", r.Latency.TotalCount(), r.Responses)
	}
	return r
}

// heyUntilResult calls run with windows of 1, 2, 4 and 8 s, each a fresh
// run, until one gets a result (a response or an error) and returns it: a
// busy machine may give a window none. It fails the test if none did.
func heyUntilResult(t *testing.T, run func(window time.Duration) *Result) *Result {
	t.Helper()
	for window := time.Second; window <= 8*time.Second; window *= 2 {
		r := run(window)
		var errs int64
		for _, n := range r.Errors {
			errs += n
		}
		if r.Responses > 0 || errs > 0 {
			return r
		}
		t.Logf("no response and no error in %s: again with a longer window", r.Window)
	}
	t.Fatal("no response and no error in windows of 1 s to 8 s")
	return nil
}

// heyHeaders describes how request r differs from tfbench's fixed header
// set over HTTP/major with Host host and Accept accept; "" if it does not.
func heyHeaders(r *http.Request, major int, host, accept string) string {
	want := []string{"Accept", "User-Agent"}
	if major == 1 {
		want = append(want, "Connection")
	}
	slices.Sort(want)
	got := slices.Sorted(maps.Keys(r.Header))
	switch {
	case r.ProtoMajor != major:
		return fmt.Sprintf("protocol %s, want HTTP/%d", r.Proto, major)
	case !slices.Equal(got, want):
		return fmt.Sprintf("header keys %q, want %q", got, want)
	case r.Host != host:
		return fmt.Sprintf("Host %q, want %q", r.Host, host)
	case r.Header.Get("Accept") != accept:
		return fmt.Sprintf("Accept %q, want %q", r.Header.Get("Accept"), accept)
	case r.Header.Get("User-Agent") != suite.UserAgent:
		return fmt.Sprintf("User-Agent %q, want %q", r.Header.Get("User-Agent"), suite.UserAgent)
	case major == 1 && r.Header.Get("Connection") != "keep-alive":
		return fmt.Sprintf("Connection %q, want keep-alive", r.Header.Get("Connection"))
	case r.Method != http.MethodGet || r.URL.RequestURI() != "/plaintext?x=1":
		return fmt.Sprintf("request %s %s, want GET /plaintext?x=1", r.Method, r.URL.RequestURI())
	}
	return ""
}

func TestHeyProtocolsAndHeaders(t *testing.T) {
	const body = "Hello, World!"
	accept := model.Plaintext.Accept()
	for _, tc := range []struct {
		name   string
		scheme string
		http2  bool
		major  int
	}{
		{"https HTTP/2", "https", true, 2},
		{"https HTTP/1.1", "https", false, 1},
		{"http HTTP/1.1", "http", false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var served, conns atomic.Int64
			var wrong []string
			r := heyUntilResult(t, func(window time.Duration) *Result {
				// A fresh server and counts for each run.
				served.Store(0)
				conns.Store(0)
				wrong = nil
				var mu sync.Mutex
				var addr string
				s := heyServer(t, tc.scheme == "https", &conns, func(w http.ResponseWriter, r *http.Request) {
					served.Add(1)
					if d := heyHeaders(r, tc.major, addr, accept); d != "" {
						mu.Lock()
						wrong = append(wrong, d)
						mu.Unlock()
					}
					w.Header().Set("Content-Type", "text/plain")
					w.Write([]byte(body))
				})
				addr = s.Listener.Addr().String()
				r := heyRun(t, Options{
					Addr: addr, Path: "/plaintext?x=1", Accept: accept, Connections: 4,
					Duration: window, Timeout: 2 * time.Second,
					Scheme: tc.scheme, HTTP2: tc.http2,
				})
				s.Close() // waits for running handlers: served and wrong are final
				return r
			})
			if len(wrong) > 0 {
				t.Errorf("%d of %d requests off the fixed header set; first: %s", len(wrong), served.Load(), wrong[0])
			}
			if r.Responses == 0 {
				t.Fatalf("no responses in %s; errors %v", r.Window, r.Examples)
			}
			if r.Success != r.Responses || !maps.Equal(r.StatusCounts, map[int]int64{200: r.Responses}) {
				t.Errorf("Success %d, StatusCounts %v; want all %d responses 200", r.Success, r.StatusCounts, r.Responses)
			}
			if len(r.Errors) != 0 || len(r.Examples) != 0 {
				t.Errorf("Errors %v, Examples %v; want none", r.Errors, r.Examples)
			}
			// Requests in flight at the window's end (at most one per
			// connection) were served but are not counted.
			if d := served.Load() - r.Responses; d < 0 || d > 4 {
				t.Errorf("server served %d requests, Result has %d responses; want 0..4 more served", served.Load(), r.Responses)
			}
			if want := r.Responses * int64(len(body)); r.BodyBytes != want {
				t.Errorf("BodyBytes %d, want %d (%d responses of %d bytes)", r.BodyBytes, want, r.Responses, len(body))
			}
			// Go's transport may dial more connections than workers (a
			// request that waits for a connection dials one, and keeps it
			// even when another frees up first).
			if want := max(0, conns.Load()-4); r.Connects != want {
				t.Errorf("Connects %d, want %d (the server accepted %d connections for 4 workers)", r.Connects, want, conns.Load())
			}
		})
	}
}

func TestHeyStatusErrors(t *testing.T) {
	var n atomic.Int64
	s := heyServer(t, true, nil, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1)%10 == 0 {
			http.Error(w, "every 10th fails", http.StatusInternalServerError)
			return
		}
		w.Write([]byte("ok"))
	})
	r := heyRun(t, Options{
		Addr: s.Listener.Addr().String(), Path: "/db", Connections: 4,
		Duration: 400 * time.Millisecond, Timeout: time.Second, Scheme: "https", HTTP2: true,
	})
	s.Close()
	fails := r.StatusCounts[500]
	if fails == 0 || r.Errors[Status] != fails {
		t.Fatalf("StatusCounts %v, Errors %v; want some 500s, all of class status", r.StatusCounts, r.Errors)
	}
	if r.StatusCounts[200] != r.Success || r.Success+fails != r.Responses || len(r.StatusCounts) != 2 {
		t.Errorf("StatusCounts %v, Success %d, Responses %d; want 200s and 500s adding up", r.StatusCounts, r.Success, r.Responses)
	}
	// The server failed every 10th of its requests; at most one request per
	// connection was in flight at the window's end and dropped.
	if all := n.Load() / 10; fails > all || fails < all-4 {
		t.Errorf("%d responses with status 500; the server sent %d (up to 4 may be dropped)", fails, all)
	}
	if got, want := r.Examples[Status], "status 500 for GET /db"; got != want {
		t.Errorf("Examples[Status] %q, want %q", got, want)
	}
	if r.SocketErrors() != 0 {
		t.Errorf("socket errors %v", r.Errors)
	}
}

// TestHeyInFlightDropped: a request still unanswered when the window ends is
// cancelled and counted neither as a response nor as an error, as in raw.
func TestHeyInFlightDropped(t *testing.T) {
	var n atomic.Int64
	cancelled := make(chan bool, 1)
	s := heyServer(t, false, nil, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			select {
			case <-r.Context().Done():
				cancelled <- true
			case <-time.After(5 * time.Second):
				cancelled <- false
			}
			return
		}
		w.Write([]byte("ok"))
	})
	r := heyRun(t, Options{
		Addr: s.Listener.Addr().String(), Path: "/json", Connections: 2,
		Duration: 300 * time.Millisecond, Timeout: 10 * time.Second,
	})
	if !<-cancelled {
		t.Error("the request in flight at the window's end was not cancelled")
	}
	s.Close()
	if len(r.Errors) != 0 {
		t.Errorf("Errors %v (%v), want none: the cancelled request is dropped", r.Errors, r.Examples)
	}
	if d := n.Load() - r.Responses; d < 1 || d > 2 {
		t.Errorf("server got %d requests, Result has %d responses; want 1 (stalled) or 2 dropped", n.Load(), r.Responses)
	}
	if r.Responses == 0 || r.Success != r.Responses {
		t.Errorf("Responses %d, Success %d; want the other connection's responses, all 200", r.Responses, r.Success)
	}
}

func TestHeyTimeoutClass(t *testing.T) {
	s := heyServer(t, false, nil, func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(120 * time.Millisecond)
		w.Write([]byte("late"))
	})
	r := heyUntilResult(t, func(window time.Duration) *Result {
		return heyRun(t, Options{
			Addr: s.Listener.Addr().String(), Path: "/slow", Connections: 1,
			Duration: window, Timeout: 50 * time.Millisecond,
		})
	})
	if r.Errors[Timeout] < 1 || r.Responses != 0 || len(r.StatusCounts) != 0 {
		t.Errorf("Errors %v, Responses %d, StatusCounts %v; want only timeouts", r.Errors, r.Responses, r.StatusCounts)
	}
	if ex := r.Examples[Timeout]; !strings.HasPrefix(ex, "status 200 for GET /slow after ") || !strings.HasSuffix(ex, " ms, over the 50ms timeout") {
		t.Errorf("Examples[Timeout] %q", ex)
	}
}

func TestHeyConnectErrors(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now: connection refused
	r := heyUntilResult(t, func(window time.Duration) *Result {
		return heyRun(t, Options{
			Addr: addr, Path: "/json", Connections: 1,
			Duration: window, Timeout: time.Second, Scheme: "https",
		})
	})
	if r.Errors[Connect] == 0 || r.Responses != 0 || len(r.Errors) != 1 {
		t.Errorf("Errors %v, Responses %d; want connect errors only", r.Errors, r.Responses)
	}
	if ex, want := r.Examples[Connect], `Get "https://`+addr+`/json": dial tcp `+addr+`: connect: connection refused`; ex != want {
		t.Errorf("Examples[Connect] %q, want %q", ex, want)
	}
}

// TestHeyRequestCap: a run that reaches hey's request cap ends early, with
// every request counted and Window the time it took.
func TestHeyRequestCap(t *testing.T) {
	defer func(n int) { heyRequestCap = n }(heyRequestCap)
	heyRequestCap = 42 // rounded down to 40 for 4 connections
	var n atomic.Int64
	s := heyServer(t, true, nil, func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Write([]byte("ok"))
	})
	o := Options{
		Addr: s.Listener.Addr().String(), Path: "/", Connections: 4,
		Duration: 20 * time.Second, Timeout: time.Second, Scheme: "https", HTTP2: true,
	}
	r, err := Hey{}.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if r.Responses != 40 || r.Success != 40 || n.Load() != 40 || r.Latency.TotalCount() != 40 {
		t.Errorf("Responses %d, Success %d, served %d, latencies %d; want 40 each", r.Responses, r.Success, n.Load(), r.Latency.TotalCount())
	}
	if r.Window <= 0 || r.Window >= o.Duration {
		t.Errorf("Window %s, want hey's own duration, under %s", r.Window, o.Duration)
	}
}

func TestHeyCancel(t *testing.T) {
	// Cancel at the server's 10th request: its sender (one of two closed
	// loops) has recorded a response before it.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var n atomic.Int64
	s := heyServer(t, true, nil, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 10 {
			cancel()
		}
		w.Write([]byte("ok"))
	})
	o := Options{
		Addr: s.Listener.Addr().String(), Path: "/", Connections: 2,
		Duration: 20 * time.Second, Timeout: time.Second, Scheme: "https", HTTP2: true,
	}
	r, err := Hey{}.Run(ctx, o)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if r.Window <= 0 || r.Window >= o.Duration {
		t.Errorf("Window %s, want the part that ran, under %s", r.Window, o.Duration)
	}
	if r.Responses == 0 || r.Latency.TotalCount() != r.Responses || len(r.Errors) != 0 {
		t.Errorf("Responses %d, latencies %d, Errors %v; want responses and no errors", r.Responses, r.Latency.TotalCount(), r.Errors)
	}
}

func TestHeyResultMapping(t *testing.T) {
	cfg, err := Options{Addr: "127.0.0.1:1", Path: "/q", Connections: 1, Duration: time.Second, Timeout: 100 * time.Millisecond}.validate()
	if err != nil {
		t.Fatal(err)
	}
	reset := `Get "http://127.0.0.1:1/q": read tcp 127.0.0.1:5->127.0.0.1:1: read: connection reset by peer`
	r := heyResult(cfg, &requester.Report{
		StatusCodes: []int{200, 200, 500, 200, 301, 503},
		Lats:        []float64{0.001, 0.0025, 0.0005, 0.2, 0.0000004, 0.0999996},
		SizeTotal:   600,
		ErrorDist: map[string]int{
			`Get "http://127.0.0.1:1/q": context canceled`:                                       3,
			`Get "http://127.0.0.1:1/q": dial tcp 127.0.0.1:1: operation was canceled`:           1,
			`Get "http://127.0.0.1:1/q": dial tcp 127.0.0.1:1: connect: connection refused`:      2,
			`Get "http://127.0.0.1:1/q": EOF`:                                                    1,
			reset:                                                                                4,
			`Get "http://127.0.0.1:1/q": write tcp 127.0.0.1:5->127.0.0.1:1: write: broken pipe`: 1,
		},
	})
	if r.Responses != 5 || r.Success != 2 || r.BodyBytes != 500 {
		t.Errorf("Responses %d, Success %d, BodyBytes %d; want 5, 2, 500", r.Responses, r.Success, r.BodyBytes)
	}
	if want := map[int]int64{200: 2, 500: 1, 301: 1, 503: 1}; !maps.Equal(r.StatusCounts, want) {
		t.Errorf("StatusCounts %v, want %v", r.StatusCounts, want)
	}
	if want := map[Class]int64{Status: 3, Timeout: 1, Connect: 2, Read: 5, Write: 1}; !maps.Equal(r.Errors, want) {
		t.Errorf("Errors %v, want %v", r.Errors, want)
	}
	if want := map[Class]string{
		Status:  "status 500 for GET /q",
		Timeout: "status 200 for GET /q after 200.0 ms, over the 100ms timeout",
		Connect: `Get "http://127.0.0.1:1/q": dial tcp 127.0.0.1:1: connect: connection refused`,
		Read:    reset,
		Write:   `Get "http://127.0.0.1:1/q": write tcp 127.0.0.1:5->127.0.0.1:1: write: broken pipe`,
	}; !maps.Equal(r.Examples, want) {
		t.Errorf("Examples %v, want %v", r.Examples, want)
	}
	// 0.4 µs clamps to 1 µs; 99,999.6 µs rounds to the 100 ms maximum.
	h := r.Latency
	if h.TotalCount() != 5 || h.Min() != 1 || h.ValueAtQuantile(50) != 1000 || !h.ValuesAreEquivalent(h.Max(), 100000) {
		t.Errorf("latency count %d min %d p50 %d max %d; want 5, 1, 1000, 100000", h.TotalCount(), h.Min(), h.ValueAtQuantile(50), h.Max())
	}
}

func TestHeyClass(t *testing.T) {
	for msg, want := range map[string]Class{
		`Get "https://127.0.0.1:1/": dial tcp 127.0.0.1:1: connect: connection refused`:                          Connect,
		`Get "https://127.0.0.1:1/": dial tcp 127.0.0.1:1: i/o timeout`:                                          Connect,
		`Get "https://127.0.0.1:1/": net/http: TLS handshake timeout`:                                            Connect,
		`Get "https://127.0.0.1:1/": remote error: tls: handshake failure`:                                       Connect,
		`Get "https://127.0.0.1:1/": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`: Timeout,
		`Get "https://127.0.0.1:1/": net/http: timeout awaiting response headers`:                                Timeout,
		`Get "http://127.0.0.1:1/": write tcp 127.0.0.1:5->127.0.0.1:1: write: broken pipe`:                      Write,
		`Get "http://127.0.0.1:1/": EOF`:                                                                         Read,
		`Get "http://127.0.0.1:1/": read tcp 127.0.0.1:5->127.0.0.1:1: read: connection reset by peer`:           Read,
		`Get "https://127.0.0.1:1/": http2: server sent GOAWAY and closed the connection`:                        Read,
		// The generator's own errnos, before the dial and write rules that
		// would blame the server.
		`Get "http://127.0.0.1:1/": dial tcp 127.0.0.1:1: socket: too many open files`:                    Generator,
		`Get "http://127.0.0.1:1/": dial tcp 127.0.0.1:1: socket: too many open files in system`:          Generator,
		`Get "http://127.0.0.1:1/": dial tcp 127.0.0.1:1: connect: cannot assign requested address`:       Generator,
		`Get "http://127.0.0.1:1/": write tcp 127.0.0.1:5->127.0.0.1:1: write: no buffer space available`: Generator,
		`Get "http://127.0.0.1:1/": dial tcp 127.0.0.1:1: socket: cannot allocate memory`:                 Generator,
	} {
		if got := heyClass(msg); got != want {
			t.Errorf("heyClass(%q) = %s, want %s", msg, got, want)
		}
	}
}

func TestHeyOptionErrors(t *testing.T) {
	ok := Options{Addr: "127.0.0.1:1", Path: "/", Connections: 1, Duration: time.Second, Timeout: time.Second}
	for _, tc := range []struct {
		edit func(*Options)
		want string
	}{
		{func(o *Options) { o.Pipeline = 16 }, "load: options: Pipeline is 16, want 1: hey does not pipeline (engine hey)"},
		{func(o *Options) { o.Rate = 1000 }, "load: options: Rate is 1000 requests/s, want 0: hey has no constant-rate mode (engine hey)"},
		{func(o *Options) { o.Check = func(int, []byte, []byte) error { return nil } }, "load: options: Check is set, want nil: hey discards response bodies and cannot check them (engine hey)"},
		{func(o *Options) { o.Responses, o.MinDuration = 50, 200*time.Millisecond }, "load: options: Responses is 50, want 0: a window that ends on a response count needs engine raw (engine hey)"},
		{func(o *Options) { o.Warmup = time.Second }, "load: options: Warmup is 1s, want 0: a window that opens on running load needs engine raw (engine hey)"},
		{func(o *Options) { o.OnWindow = func() {} }, "load: options: OnWindow is set, want nil: hey does not say when its window opens (engine hey)"},
		{func(o *Options) { o.Scheme = "ftp" }, `load: options: Scheme is "ftp", want http or https`},
		{func(o *Options) { o.HTTP2 = true }, `load: options: HTTP2 is set with Scheme "http", want https (HTTP/2 is negotiated over TLS; no h2c)`},
	} {
		o := ok
		tc.edit(&o)
		if _, err := (Hey{}).Run(context.Background(), o); err == nil || err.Error() != tc.want {
			t.Errorf("Hey.Run: error %v, want %s", err, tc.want)
		}
	}
	o := ok
	o.Scheme, o.HTTP2 = "https", true
	want := `load: options: Scheme "https", HTTP2 true: engine raw speaks HTTP/1.1 over plain TCP only (use engine hey)`
	if _, err := (Raw{}).Run(context.Background(), o); err == nil || err.Error() != want {
		t.Errorf("Raw.Run with https: error %v, want %s", err, want)
	}
}

func TestHeyEngineForScheme(t *testing.T) {
	for _, tc := range []struct{ name, scheme, want string }{
		{"", "", "raw"}, {"", "http", "raw"}, {"", "https", "hey"},
		{"raw", "http", "raw"}, {"hey", "http", "hey"}, {"hey", "https", "hey"},
	} {
		e, err := EngineForScheme(tc.name, tc.scheme)
		if err != nil || e.Name() != tc.want {
			t.Errorf("EngineForScheme(%q, %q) = %v, %v; want engine %s", tc.name, tc.scheme, e, err, tc.want)
		}
	}
	for _, tc := range []struct{ name, scheme, want string }{
		{"raw", "https", "load: engine raw cannot load https:// targets (plain TCP only); use engine hey"},
		{"wrk", "https", `load: unknown engine "wrk" (known: raw, hey)`},
		{"wrk", "http", `load: unknown engine "wrk" (known: raw, hey)`},
		{"", "ftp", `load: unknown URL scheme "ftp" (known: http, https)`},
	} {
		if _, err := EngineForScheme(tc.name, tc.scheme); err == nil || err.Error() != tc.want {
			t.Errorf("EngineForScheme(%q, %q): error %v, want %s", tc.name, tc.scheme, err, tc.want)
		}
	}
	if e, err := EngineFor("hey"); err != nil || e.Name() != "hey" {
		t.Errorf("EngineFor(hey) = %v, %v", e, err)
	}
}

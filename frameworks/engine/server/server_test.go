package server

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tfbench/tfbench/frameworks/engine/internal/logbuf"
)

// fakeRenderer renders route i as "route PATH #N" (N counting from 1), or
// returns errs[path] when set; it records the last request per route.
type fakeRenderer struct {
	routes []Route
	counts []atomic.Uint64

	mu   sync.Mutex
	errs map[string]error
	last map[string]seen
}

// seen is what a render saw of its request, copied out of the connection's
// buffers while the render ran.
type seen struct {
	method, path, rawQuery, accept, trace string
}

func newFake(routes ...Route) *fakeRenderer {
	return &fakeRenderer{routes: routes, counts: make([]atomic.Uint64, len(routes)), errs: map[string]error{}, last: map[string]seen{}}
}

func (f *fakeRenderer) Routes() []Route { return f.routes }

func (f *fakeRenderer) Render(_ context.Context, i int, req *Request) (*Response, error) {
	n := f.counts[i].Add(1)
	p := f.routes[i].Path
	f.mu.Lock()
	defer f.mu.Unlock()
	f.last[p] = seen{strings.Clone(req.Method), strings.Clone(req.Path), strings.Clone(req.RawQuery), strings.Clone(req.Header.Get("accept")), strings.Clone(req.Header.Get("X-Trace"))}
	if err := f.errs[p]; err != nil {
		return nil, err
	}
	return &Response{Status: 200 + i, ContentType: "text/x-" + p[1:], Body: fmt.Sprintf("route %s #%d\n", p, n)}, nil
}

func (f *fakeRenderer) Renders() []uint64 {
	out := make([]uint64, len(f.counts))
	for i := range f.counts {
		out[i] = f.counts[i].Load()
	}
	return out
}

// errBusy stands in for runtime.ErrBusy.
var errBusy = errors.New("runtime: no free isolate within the queue timeout")

// fixed is the fake clock's start (the 503 log limit): Tuesday 4 March
// 2025, 05:06:07 at UTC+1.
var fixed = time.Date(2025, 3, 4, 5, 6, 7, 0, time.FixedZone("CET", 3600))

// testServer serves a Server over f on a loopback port with a settable
// clock and a captured log.
type testServer struct {
	url    string
	s      *Server
	logs   *logbuf.Buffer
	now    atomic.Pointer[time.Time]
	client *http.Client
}

func start(t *testing.T, f Renderer) *testServer {
	t.Helper()
	ts := &testServer{logs: &logbuf.Buffer{}, client: &http.Client{Transport: &http.Transport{}}}
	ts.now.Store(&fixed)
	s, err := New(Config{Renderer: f, Busy: errBusy, Log: log.New(ts.logs, "", 0), now: func() time.Time { return *ts.now.Load() }})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- s.Serve(ln) }()
	ts.s, ts.url = s, "http://"+ln.Addr().String()
	t.Cleanup(func() {
		ts.client.CloseIdleConnections()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		if err := <-served; err != nil {
			t.Errorf("Serve after Shutdown: %v", err)
		}
	})
	return ts
}

// response is the part of an HTTP response the tests compare.
type response struct {
	status                      int
	server, contentType, length string
	body                        string
}

// get GETs path with two request headers. Every response must carry a Date
// that is an HTTP date within 3 s of now (fasthttp renders it once a
// second).
func (ts *testServer) get(t *testing.T, path string) response {
	t.Helper()
	req, err := http.NewRequest("GET", ts.url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-Trace", "a, b")
	res, err := ts.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if d, err := http.ParseTime(res.Header.Get("Date")); err != nil || d.Sub(time.Now()).Abs() > 3*time.Second {
		t.Errorf("GET %s: Date %q (%v), want an HTTP date within 3 s of now", path, res.Header.Get("Date"), err)
	}
	return response{res.StatusCode, res.Header.Get("Server"), res.Header.Get("Content-Type"), res.Header.Get("Content-Length"), string(body)}
}

func TestRouteRendersWithHeaders(t *testing.T) {
	f := newFake(Route{Path: "/json", File: "app/routes/json.ts"}, Route{Path: "/queries", File: "app/routes/queries.ts"})
	ts := start(t, f)
	got := ts.get(t, "/queries?queries=20&x=a%20b&x=c")
	want := response{201, "engine", "text/x-queries", "18", "route /queries #1\n"}
	if got != want {
		t.Errorf("GET /queries = %+v, want %+v", got, want)
	}
	if req, want := f.last["/queries"], (seen{"GET", "/queries", "queries=20&x=a%20b&x=c", "application/json", "a, b"}); req != want {
		t.Errorf("request = %+v, want %+v", req, want)
	}
	if got := ts.get(t, "/json"); got.status != 200 || got.body != "route /json #1\n" {
		t.Errorf("GET /json = %d %q, want 200 %q", got.status, got.body, "route /json #1\n")
	}
}

func TestNotFound(t *testing.T) {
	f := newFake(Route{Path: "/json", File: "app/routes/json.ts"})
	ts := start(t, f)
	for _, p := range []string{"/nope", "/json/", "/JSON", "/"} {
		got := ts.get(t, p)
		want := response{404, "engine", "text/plain; charset=utf-8", "19", "404 page not found\n"}
		if got != want {
			t.Errorf("GET %s = %+v, want %+v", p, got, want)
		}
	}
	if n := f.Renders()[0]; n != 0 {
		t.Errorf("renders of /json = %d, want 0", n)
	}
}

func TestRenderErrorIs500AndLogged(t *testing.T) {
	f := newFake(Route{Path: "/fortunes", File: "app/routes/fortunes.tsx"})
	f.errs["/fortunes"] = errors.New("Error: boom at app/routes/fortunes.tsx:12:5")
	ts := start(t, f)
	got := ts.get(t, "/fortunes")
	want := response{500, "engine", "text/plain; charset=utf-8", "26", "500 internal server error\n"}
	if got != want {
		t.Errorf("GET /fortunes = %+v, want %+v", got, want)
	}
	if l, want := ts.logs.String(), "engine: 500 GET /fortunes: Error: boom at app/routes/fortunes.tsx:12:5\n"; l != want {
		t.Errorf("log = %q, want %q", l, want)
	}
}

func TestBusyIs503AndLoggedOncePerSecond(t *testing.T) {
	f := newFake(Route{Path: "/db", File: "app/routes/db.ts"})
	f.errs["/db"] = fmt.Errorf("route /db: %w", errBusy)
	ts := start(t, f)
	for range 3 {
		got := ts.get(t, "/db")
		want := response{503, "engine", "text/plain; charset=utf-8", "41", "503 service unavailable: no free isolate\n"}
		if got != want {
			t.Fatalf("GET /db = %+v, want %+v", got, want)
		}
	}
	later := fixed.Add(time.Second)
	ts.now.Store(&later)
	ts.get(t, "/db")
	want := "engine: 503 GET /db: route /db: runtime: no free isolate within the queue timeout\n" +
		"engine: 503 GET /db: route /db: runtime: no free isolate within the queue timeout (2 more 503s not logged since the last line)\n"
	if l := ts.logs.String(); l != want {
		t.Errorf("log = %q, want %q", l, want)
	}
}

func TestISRServesCachedOutput(t *testing.T) {
	f := newFake(Route{Path: "/json", File: "app/routes/json.ts"}, Route{Path: "/page", File: "app/routes/page.tsx", Revalidate: time.Hour})
	ts := start(t, f)
	for i := range 3 {
		if got := ts.get(t, "/page?a=1"); got.status != 201 || got.contentType != "text/x-page" || got.body != "route /page #1\n" {
			t.Errorf("GET /page?a=1 #%d = %d %q %q, want 201 text/x-page %q", i, got.status, got.contentType, got.body, "route /page #1\n")
		}
	}
	if got := ts.get(t, "/page?a=2"); got.body != "route /page #2\n" {
		t.Errorf("GET /page?a=2 = %q, want %q (another query is another page)", got.body, "route /page #2\n")
	}
	for i := range 3 { // revalidate 0: every request renders
		want := fmt.Sprintf("route /json #%d\n", i+1)
		if got := ts.get(t, "/json"); got.body != want {
			t.Errorf("GET /json #%d = %q, want %q", i, got.body, want)
		}
	}
	if got, want := f.Renders(), []uint64{3, 2}; !reflect.DeepEqual(got, want) {
		t.Errorf("renders = %v, want %v", got, want)
	}
}

func TestRendersEndpoint(t *testing.T) {
	f := newFake(Route{Path: "/json"}, Route{Path: "/fortunes"}, Route{Path: "/"})
	ts := start(t, f)
	for range 3 {
		ts.get(t, "/json")
	}
	ts.get(t, "/fortunes")
	got := ts.get(t, RendersPath)
	want := response{200, "engine", "application/json", "31", `{"/":0,"/fortunes":1,"/json":3}`}
	if got != want {
		t.Errorf("GET %s = %+v, want %+v", RendersPath, got, want)
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := New(Config{}); err == nil || err.Error() != "server: Config.Renderer is nil" {
		t.Errorf("New without renderer: %v", err)
	}
	f := newFake(Route{Path: "/x", File: "app/routes/x.ts"}, Route{Path: "/x", File: "app/routes/x.tsx"})
	if _, err := New(Config{Renderer: f}); err == nil || err.Error() != "server: routes app/routes/x.ts and app/routes/x.tsx both have path /x" {
		t.Errorf("New with duplicate paths: %v", err)
	}
}

// TestPipelined sends three requests in one write (the plaintext test's
// pipelining) and reads three responses in order; a HEAD has no body.
func TestPipelined(t *testing.T) {
	f := newFake(Route{Path: "/plaintext", File: "app/routes/plaintext.ts"})
	ts := start(t, f)
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	req := "GET /plaintext HTTP/1.1\r\nHost: x\r\n\r\n"
	if _, err := io.WriteString(conn, req+"HEAD /plaintext HTTP/1.1\r\nHost: x\r\n\r\n"+req); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	for i, want := range []string{"route /plaintext #1\n", "", "route /plaintext #3\n"} {
		method := "GET"
		if i == 1 {
			method = "HEAD"
		}
		res, err := http.ReadResponse(br, &http.Request{Method: method})
		if err != nil {
			t.Fatalf("response %d: %v", i+1, err)
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil || res.StatusCode != 200 || string(body) != want || res.Header.Get("Content-Length") != "20" {
			t.Errorf("response %d (%s) = %d, Content-Length %s, %q, %v; want 200, 20, %q", i+1, method, res.StatusCode, res.Header.Get("Content-Length"), body, err, want)
		}
	}
}

// timeoutErr stands in for runtime.TimeoutError.
type timeoutErr struct{}

func (timeoutErr) Error() string {
	return "runtime: render of /spin terminated after the 10s render timeout"
}
func (timeoutErr) Timeout() bool { return true }

func TestRenderTimeoutIs500NamingTheRoute(t *testing.T) {
	f := newFake(Route{Path: "/spin", File: "app/routes/spin.tsx"})
	f.errs["/spin"] = timeoutErr{}
	ts := start(t, f)
	got := ts.get(t, "/spin")
	want := response{500, "engine", "text/plain; charset=utf-8", "51", "500 internal server error: render timeout on /spin\n"}
	if got != want {
		t.Errorf("GET /spin = %+v, want %+v", got, want)
	}
	if l, want := ts.logs.String(), "engine: 500 GET /spin: runtime: render of /spin terminated after the 10s render timeout\n"; l != want {
		t.Errorf("log = %q, want %q", l, want)
	}
}

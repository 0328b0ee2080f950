// Package server is the render engine's Go master: an HTTP/1.1 server
// (github.com/valyala/fasthttp) that owns the network and hands each
// request, as structured values, to a Renderer (the V8 isolate pool of
// package runtime in production, a fake in tests).
//
// Every response carries "Server: engine" and a Date header (fasthttp
// renders it once a second; TFB rules: Server and Date on every response).
// A request whose URL path is exactly a route's path renders that route;
// routes with a revalidate period are served through the ISR cache
// (package isr), all others render on every request (the six TFB routes).
// GET RendersPath answers the render counts the harness compares with its
// request counts (framework.yaml `render_counts`).
package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"time"
	"unsafe"

	"github.com/tfbench/tfbench/frameworks/engine/isr"
	"github.com/valyala/fasthttp"
)

// RendersPath answers a JSON object of route path to the number of renders
// started since the server began, e.g. {"/fortunes":7,"/json":120}
// (framework.yaml `render_counts`: the harness requires renders = requests).
const RendersPath = "/__tfbench/renders"

// Request is what a render sees of an HTTP request. Its fields are those
// of runtime.Request, so *Request converts to *runtime.Request without a
// copy. Its strings may share the connection's buffers: they are valid
// until Render returns.
type Request struct {
	Method   string // e.g. "GET"
	Path     string // URL path, decoded, e.g. "/queries"
	RawQuery string // the query after "?", not decoded, e.g. "queries=20"
	// Header looks up a request header by name, case-insensitively, ""
	// when absent (http.Header satisfies it).
	Header interface{ Get(name string) string }
	// Write is set for a streamed route's render: each chunk the route
	// writes goes out as one HTTP chunk, flushed before Write returns.
	Write func(chunk []byte) error
}

// Response is a rendered response; its fields are those of
// runtime.Response.
type Response struct {
	Status      int    // HTTP status, e.g. 200
	ContentType string // Content-Type header value, e.g. "application/json"
	Body        string // the response body
}

// Route is one route of the app; its index in Renderer.Routes is the route
// argument of Renderer.Render. Its fields are those of runtime.Route.
type Route struct {
	Path       string        // exact URL path, e.g. "/fortunes"
	File       string        // source file, e.g. "app/routes/fortunes.tsx"
	Revalidate time.Duration // ISR period; 0 renders on every request
	Stream     bool          // streamed: 200 text/html, chunked, each written chunk flushed
}

// Renderer renders routes: the runtime's isolate pool behind a thin
// adapter (cmd/engine), a fake in tests. It must be safe for concurrent use.
type Renderer interface {
	// Routes is the app's routes; the server reads it once, in New.
	Routes() []Route
	// Render renders route (an index into Routes) for req. Errors: one
	// matching Config.Busy (answered 503) or any other (answered 500, its
	// message logged; the runtime's render errors end in "at FILE:LINE").
	Render(ctx context.Context, route int, req *Request) (*Response, error)
	// Renders is the number of renders started per route index.
	Renders() []uint64
}

// Config configures New.
type Config struct {
	// Renderer renders the routes; required.
	Renderer Renderer
	// Busy is the error (matched with errors.Is) by which Render says that
	// no isolate was free in time (runtime.ErrBusy): answered 503 and
	// logged at most once a second. Nil: every error is a 500.
	Busy error
	// Log receives one line per failed request ("engine: 500 GET /path:
	// MESSAGE"); nil means log.Default().
	Log *log.Logger
	// ISRMaxBytes bounds the ISR cache in bytes; 0 means
	// isr.DefaultMaxBytes. Unused when no route has a revalidate period.
	ISRMaxBytes uint64
	// StreamTimeout bounds the writing of a streamed route's response: a
	// client that stops reading fails the render's next write past it (the
	// render's isolate is freed) instead of holding the isolate; 0 means
	// DefaultStreamTimeout.
	StreamTimeout time.Duration

	// now is the clock of the 503 log limit; nil means time.Now (tests
	// set it).
	now func() time.Time
}

// DefaultStreamTimeout is Config.StreamTimeout when 0: 10 s, the
// runtime's default render timeout (the watchdog cannot stop a render
// blocked in a write; the write deadline does).
const DefaultStreamTimeout = 10 * time.Second

// Server is the engine's HTTP master: Serve answers on a listener, Handle
// answers one fasthttp request (benchmarks call it without a network).
type Server struct {
	r      Renderer
	busy   error
	wt     time.Duration // Config.StreamTimeout
	log    *log.Logger
	now    func() time.Time
	routes []Route
	index  map[string]int // URL path -> route index
	isr    *isr.Cache     // nil when no route revalidates
	hs     *fasthttp.Server

	// ctx is what renders wait on: cancelled by Shutdown and Close.
	ctx      context.Context
	cancel   context.CancelFunc
	stopOnce sync.Once

	busyMu    sync.Mutex
	busyLast  int64 // Unix second of the last 503 log line
	busyCount int64 // 503s not logged since that line
}

// Timeouts of a connection: a request must arrive whole within
// readTimeout of its first byte, and an idle keep-alive connection is
// closed after idleTimeout (net/http's ReadHeaderTimeout and IdleTimeout
// when the master was net/http, README.md, What each step bought).
const (
	readTimeout = 10 * time.Second
	idleTimeout = 2 * time.Minute
)

// New returns a Server for cfg.Renderer's routes. Errors: no Renderer; two
// routes with the same path; the ISR cache failing to start.
func New(cfg Config) (*Server, error) {
	if cfg.Renderer == nil {
		return nil, errors.New("server: Config.Renderer is nil")
	}
	s := &Server{
		r:      cfg.Renderer,
		busy:   cfg.Busy,
		log:    cfg.Log,
		now:    cfg.now,
		routes: cfg.Renderer.Routes(),
		wt:     cfg.StreamTimeout,
	}
	if s.wt <= 0 {
		s.wt = DefaultStreamTimeout
	}
	if s.log == nil {
		s.log = log.Default()
	}
	if s.now == nil {
		s.now = time.Now
	}
	s.index = make(map[string]int, len(s.routes))
	needISR := false
	for i, rt := range s.routes {
		if j, dup := s.index[rt.Path]; dup {
			return nil, fmt.Errorf("server: routes %s and %s both have path %s", s.routes[j].File, rt.File, rt.Path)
		}
		s.index[rt.Path] = i
		needISR = needISR || rt.Revalidate > 0
	}
	if needISR {
		c, err := isr.New(isr.Config{MaxBytes: cfg.ISRMaxBytes, Log: s.log})
		if err != nil {
			return nil, err
		}
		s.isr = c
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.hs = &fasthttp.Server{
		Handler:     s.Handle,
		Name:        "engine",
		ReadTimeout: readTimeout,
		IdleTimeout: idleTimeout,
		Logger:      s.log,
		// A malformed request is answered 400 by fasthttp and logged.
		NoDefaultContentType: true,
	}
	return s, nil
}

// Serve answers HTTP/1.1 (keep-alive, pipelining) on ln until Shutdown or
// Close; it returns nil after Shutdown.
func (s *Server) Serve(ln net.Listener) error {
	return s.hs.Serve(ln)
}

// Shutdown stops accepting, waits for in-flight requests until ctx ends,
// then stops the ISR cache. Renders still waiting for an isolate end with
// the context's error.
func (s *Server) Shutdown(ctx context.Context) error {
	err := s.hs.ShutdownWithContext(ctx)
	s.Close()
	return err
}

// Close cancels waiting renders and stops the ISR cache's goroutines. It
// does not close the listener (Shutdown does) nor the Renderer. Safe to
// call more than once.
func (s *Server) Close() {
	s.stopOnce.Do(func() {
		s.cancel()
		if s.isr != nil {
			s.isr.Close()
		}
	})
}

// fastHeader is a request's headers as Request.Header sees them.
type fastHeader struct{ h *fasthttp.RequestHeader }

// Get returns the header's value ("" when absent); name is matched
// case-insensitively.
func (f fastHeader) Get(name string) string { return bstr(f.h.Peek(name)) }

// bstr views b as a string without copying: b must not change while the
// string is used (the request's buffers, until the handler returns).
func bstr(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// method returns the request method as a string, without allocating for
// the common ones.
func method(m []byte) string {
	switch string(m) {
	case http.MethodGet:
		return http.MethodGet
	case http.MethodHead:
		return http.MethodHead
	case http.MethodPost:
		return http.MethodPost
	}
	return string(m)
}

// Handle answers one request: a route's render, the render counts at
// RendersPath, or 404.
func (s *Server) Handle(ctx *fasthttp.RequestCtx) {
	path := ctx.Path()
	i, ok := s.index[string(path)]
	if !ok {
		if string(path) == RendersPath {
			s.serveRenders(ctx)
			return
		}
		writeText(ctx, http.StatusNotFound, "404 page not found\n")
		return
	}
	req := &Request{
		Method:   method(ctx.Method()),
		Path:     bstr(path),
		RawQuery: bstr(ctx.URI().QueryString()),
		Header:   fastHeader{&ctx.Request.Header},
	}
	if s.routes[i].Stream {
		s.stream(ctx, i, req)
		return
	}
	var resp *Response
	var err error
	if rv := s.routes[i].Revalidate; rv > 0 && s.isr != nil {
		resp, err = s.cached(i, snapshot(ctx, req), rv)
	} else {
		resp, err = s.r.Render(s.ctx, i, req)
	}
	if err != nil {
		s.fail(ctx, req, err)
		return
	}
	ctx.SetStatusCode(resp.Status)
	ctx.Response.Header.SetContentType(resp.ContentType)
	// The body is not copied: the response string is immutable and outlives
	// the write.
	ctx.Response.SetBodyRaw(unsafe.Slice(unsafe.StringData(resp.Body), len(resp.Body)))
}

// stream answers a streamed route: 200, text/html; charset=utf-8 and a
// chunked body whose writer renders the route after the header is out.
// The status is sent before the render starts, so a failed render (busy
// pool included) is logged and the connection closed before the last
// chunk: the client sees a truncated response, never a complete wrong one.
// The whole response must be written within Config.StreamTimeout.
func (s *Server) stream(ctx *fasthttp.RequestCtx, i int, req *Request) {
	// fasthttp clears a deadline the handler set once the response is out.
	if err := ctx.SetWriteDeadline(time.Now().Add(s.wt)); err != nil {
		s.log.Printf("engine: %s %s: set the streamed response's write deadline: %v", req.Method, req.Path, err)
	}
	ctx.SetStatusCode(http.StatusOK)
	ctx.Response.Header.SetContentType("text/html; charset=utf-8")
	ctx.Response.SetBodyStream(&streamBody{s: s, route: i, req: snapshot(ctx, req)}, -1)
}

// streamBody is a streamed route's response body: fasthttp calls WriteTo
// with a writer whose every Write is one HTTP chunk, flushed to the
// connection (fasthttp.BodyWriterTo), so each chunk the route writes
// leaves the server before its render goes on.
type streamBody struct {
	s     *Server
	route int
	req   *Request
}

// SupportsBodyWriteTo reports true: WriteTo is the only way to read the body.
func (b *streamBody) SupportsBodyWriteTo() bool { return true }

// Read is never called by fasthttp (SupportsBodyWriteTo); it fails.
func (b *streamBody) Read([]byte) (int, error) {
	return 0, errors.New("server: a streamed body is written with WriteTo")
}

// WriteTo renders the route with each written chunk sent to w, then
// writes the frame's body (the page after its last part). A failed render
// or write returns the error, and fasthttp closes the connection.
func (b *streamBody) WriteTo(w io.Writer) (int64, error) {
	var n int64
	b.req.Write = func(chunk []byte) error {
		if len(chunk) == 0 {
			return nil // an empty chunk would end the body
		}
		m, err := w.Write(chunk)
		n += int64(m)
		return err
	}
	resp, err := b.s.r.Render(b.s.ctx, b.route, b.req)
	if err == nil && (resp.Status != http.StatusOK || resp.ContentType != "text/html; charset=utf-8") {
		err = fmt.Errorf("streamed render returned %d %q, want 200 \"text/html; charset=utf-8\"", resp.Status, resp.ContentType)
	}
	if err != nil {
		b.s.log.Printf("engine: 500 %s %s (streamed, %d bytes sent): %v", b.req.Method, b.req.Path, n, err)
		return n, err
	}
	err = b.req.Write(unsafe.Slice(unsafe.StringData(resp.Body), len(resp.Body)))
	return n, err
}

// snapshot copies req out of the connection's buffers: an ISR render may
// run in the background after the handler returned.
func snapshot(ctx *fasthttp.RequestCtx, req *Request) *Request {
	h := http.Header{}
	for k, v := range ctx.Request.Header.All() {
		h.Add(string(k), string(v))
	}
	return &Request{Method: req.Method, Path: string(ctx.Path()), RawQuery: string(ctx.URI().QueryString()), Header: h}
}

// cached serves route i through the ISR cache under the request's key; a
// miss or a background refresh renders req.
func (s *Server) cached(i int, req *Request, revalidate time.Duration) (*Response, error) {
	p, err := s.isr.Get(s.ctx, isr.Key(req.Path, req.RawQuery), revalidate, func(ctx context.Context) (isr.Page, error) {
		resp, err := s.r.Render(ctx, i, req)
		if err != nil {
			return isr.Page{}, err
		}
		return isr.Page{Status: resp.Status, ContentType: resp.ContentType, Body: resp.Body}, nil
	})
	if err != nil {
		return nil, err
	}
	return &Response{Status: p.Status, ContentType: p.ContentType, Body: p.Body}, nil
}

// fail answers a failed render: 503 when err is Busy (logged at most once
// a second, with the number of 503s not logged since the last line), 500
// otherwise (logged every time as "engine: 500 GET /path: MESSAGE"); a
// render the runtime stopped at its render timeout (an error with a
// Timeout() bool method reporting true) names the route in the body too.
func (s *Server) fail(ctx *fasthttp.RequestCtx, req *Request, err error) {
	if s.busy != nil && errors.Is(err, s.busy) {
		s.logBusy(req, err)
		writeText(ctx, http.StatusServiceUnavailable, "503 service unavailable: no free isolate\n")
		return
	}
	s.log.Printf("engine: 500 %s %s: %v", req.Method, req.Path, err)
	var te interface{ Timeout() bool }
	if errors.As(err, &te) && te.Timeout() {
		writeText(ctx, http.StatusInternalServerError, "500 internal server error: render timeout on "+req.Path+"\n")
		return
	}
	writeText(ctx, http.StatusInternalServerError, "500 internal server error\n")
}

// logBusy logs a 503 unless one was logged in the same second; a logged
// line counts the 503s left unlogged since the previous one.
func (s *Server) logBusy(req *Request, err error) {
	sec := s.now().Unix()
	s.busyMu.Lock()
	if sec == s.busyLast {
		s.busyCount++
		s.busyMu.Unlock()
		return
	}
	skipped := s.busyCount
	s.busyLast, s.busyCount = sec, 0
	s.busyMu.Unlock()
	if skipped > 0 {
		s.log.Printf("engine: 503 %s %s: %v (%d more 503s not logged since the last line)", req.Method, req.Path, err, skipped)
		return
	}
	s.log.Printf("engine: 503 %s %s: %v", req.Method, req.Path, err)
}

// serveRenders answers the render counts as a JSON object of route path to
// renders, keys sorted.
func (s *Server) serveRenders(ctx *fasthttp.RequestCtx) {
	counts := s.r.Renders()
	m := make(map[string]uint64, len(s.routes))
	for i, rt := range s.routes {
		if i < len(counts) {
			m[rt.Path] = counts[i]
		} else {
			m[rt.Path] = 0
		}
	}
	body, err := json.Marshal(m)
	if err != nil { // a map of string to uint64 always encodes
		panic(err)
	}
	ctx.SetStatusCode(http.StatusOK)
	ctx.Response.Header.SetContentType("application/json")
	ctx.Response.SetBody(body)
}

// writeText answers status with a plain-text body.
func writeText(ctx *fasthttp.RequestCtx, status int, body string) {
	ctx.SetStatusCode(status)
	ctx.Response.Header.SetContentType("text/plain; charset=utf-8")
	ctx.Response.SetBodyString(body)
}

// Package server is the render engine's Go master (issue 5, item 1): a
// net/http handler that owns the network and hands each request, as
// structured values, to a Renderer (the V8 isolate pool of package runtime
// in production, a fake in tests).
//
// Every response carries "Server: engine" and a Date header that a ticker
// renders once a second (TFB rules: Server and Date on every response). A
// request whose URL path is exactly a route's path renders that route;
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
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tfbench/tfbench/frameworks/engine/isr"
)

// RendersPath answers a JSON object of route path to the number of renders
// started since the server began, e.g. {"/fortunes":7,"/json":120}
// (framework.yaml `render_counts`; issue 5: renders = requests).
const RendersPath = "/__tfbench/renders"

// Request is what a render sees of an HTTP request. Its fields are those
// of runtime.Request, so *Request converts to *runtime.Request without a
// copy.
type Request struct {
	Method string      // e.g. "GET"
	Path   string      // URL path, e.g. "/queries"
	Query  url.Values  // the parsed raw query, never re-encoded
	Header http.Header // the request's headers as net/http parsed them
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

	// now is the clock for the Date header and the 503 log limit; nil
	// means time.Now (tests set it).
	now func() time.Time
}

// Server is the engine's http.Handler. Close stops its goroutines.
type Server struct {
	r      Renderer
	busy   error
	log    *log.Logger
	now    func() time.Time
	routes []Route
	index  map[string]int // URL path -> route index
	isr    *isr.Cache     // nil when no route revalidates

	date     atomic.Pointer[[]string] // the Date header value, once a second
	stop     chan struct{}
	stopOnce sync.Once
	done     chan struct{}

	busyMu    sync.Mutex
	busyLast  int64 // Unix second of the last 503 log line
	busyCount int64 // 503s not logged since that line
}

// serverHeader is the Server header of every response.
var serverHeader = []string{"engine"}

// New returns a Server for cfg.Renderer's routes and starts its Date
// ticker. Errors: no Renderer; two routes with the same path; the ISR
// cache failing to start.
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
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
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
	s.setDate(s.now())
	go s.tickDate()
	return s, nil
}

// Close stops the Date ticker and the ISR cache's goroutines. It does not
// close the Renderer. Safe to call more than once.
func (s *Server) Close() {
	s.stopOnce.Do(func() {
		close(s.stop)
		<-s.done
		if s.isr != nil {
			s.isr.Close()
		}
	})
}

// setDate renders t as the Date header value: RFC 1123 in GMT, as net/http
// writes it (http.TimeFormat).
func (s *Server) setDate(t time.Time) {
	v := []string{t.UTC().Format(http.TimeFormat)}
	s.date.Store(&v)
}

// tickDate refreshes the Date header once a second until Close.
func (s *Server) tickDate() {
	defer close(s.done)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			s.setDate(s.now())
		case <-s.stop:
			return
		}
	}
}

// ServeHTTP answers one request: a route's render, the render counts at
// RendersPath, or 404.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h["Server"] = serverHeader
	h["Date"] = *s.date.Load()
	path := r.URL.Path
	i, ok := s.index[path]
	if !ok {
		if path == RendersPath {
			s.serveRenders(w)
			return
		}
		writeText(w, http.StatusNotFound, "404 page not found\n")
		return
	}
	req := &Request{Method: r.Method, Path: path, Query: r.URL.Query(), Header: r.Header}
	var resp *Response
	var err error
	if rv := s.routes[i].Revalidate; rv > 0 && s.isr != nil {
		resp, err = s.cached(r.Context(), i, req, isr.Key(path, r.URL.RawQuery), rv)
	} else {
		resp, err = s.r.Render(r.Context(), i, req)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	h["Content-Type"] = []string{resp.ContentType}
	h["Content-Length"] = []string{strconv.Itoa(len(resp.Body))}
	w.WriteHeader(resp.Status)
	io.WriteString(w, resp.Body)
}

// cached serves route i through the ISR cache under key; a miss or a
// background refresh renders req.
func (s *Server) cached(ctx context.Context, i int, req *Request, key string, revalidate time.Duration) (*Response, error) {
	p, err := s.isr.Get(ctx, key, revalidate, func(ctx context.Context) (isr.Page, error) {
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
// otherwise (logged every time as "engine: 500 GET /path: MESSAGE"). A
// request whose client has gone is neither answered nor logged.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil && errors.Is(err, r.Context().Err()) {
		return
	}
	if s.busy != nil && errors.Is(err, s.busy) {
		s.logBusy(r, err)
		writeText(w, http.StatusServiceUnavailable, "503 service unavailable: no free isolate\n")
		return
	}
	s.log.Printf("engine: 500 %s %s: %v", r.Method, r.URL.Path, err)
	writeText(w, http.StatusInternalServerError, "500 internal server error\n")
}

// logBusy logs a 503 unless one was logged in the same second; a logged
// line counts the 503s left unlogged since the previous one.
func (s *Server) logBusy(r *http.Request, err error) {
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
		s.log.Printf("engine: 503 %s %s: %v (%d more 503s not logged since the last line)", r.Method, r.URL.Path, err, skipped)
		return
	}
	s.log.Printf("engine: 503 %s %s: %v", r.Method, r.URL.Path, err)
}

// serveRenders answers the render counts as a JSON object of route path to
// renders, keys sorted.
func (s *Server) serveRenders(w http.ResponseWriter) {
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
	h := w.Header()
	h["Content-Type"] = []string{"application/json"}
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

// writeText answers status with a plain-text body.
func writeText(w http.ResponseWriter, status int, body string) {
	h := w.Header()
	h["Content-Type"] = []string{"text/plain; charset=utf-8"}
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	io.WriteString(w, body)
}

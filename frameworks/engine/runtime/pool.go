package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	goruntime "runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-sourcemap/sourcemap"
	v8 "github.com/tommie/v8go"
)

// Mode selects how many isolates render at once (docs/design.md, The render
// engine).
type Mode string

const (
	// ModePool runs one isolate per CPU in the process's affinity mask (or
	// Config.Isolates); a request borrows a free isolate (when all are
	// busy, in the order of Config.Admission) and calls it from its own
	// goroutine. The default.
	ModePool Mode = "pool"
	// ModeSerialized runs exactly one isolate, so one render at a time: the
	// conservative floor the pool is compared with.
	ModeSerialized Mode = "serialized"
)

// DefaultQueueTimeout is the longest a render waits for a free isolate
// before ErrBusy when Config.QueueTimeout is 0: 2 s.
const DefaultQueueTimeout = 2 * time.Second

// Config configures New.
type Config struct {
	// Script is the bundle from bundle.Build: one classic script that
	// defines globalThis.__engine (engine-contract.md). It runs once per
	// isolate under the name "bundle.js".
	Script string
	// SourceMap is the bundle's external source map (JSON, version 3); it
	// maps stack positions in bundle.js back to app files. Empty: errors
	// keep bundle.js positions.
	SourceMap []byte
	// DatabasePath is the SQLite dataset (docs/design.md, The dataset). It must
	// exist; each isolate opens its own read-write connection and never
	// creates the file. Empty: no connection, and the SQL host functions
	// return an error string.
	DatabasePath string
	// Mode is ModePool (default when empty) or ModeSerialized.
	Mode Mode
	// Isolates is the pool size; 0 means the number of CPUs in the
	// process's affinity mask (runtime.NumCPU). ModeSerialized forces 1.
	Isolates int
	// QueueTimeout is the longest Render waits for a free isolate before it
	// returns ErrBusy (the server answers 503); 0 means DefaultQueueTimeout.
	QueueTimeout time.Duration
	// RenderTimeout bounds every render: past it the render's JavaScript is
	// terminated, Render returns a *TimeoutError and the isolate serves the
	// next render; 0 means DefaultRenderTimeout.
	RenderTimeout time.Duration
	// Admission is the order in which waiting renders get an isolate:
	// AdmissionCost (default when empty) or AdmissionArrival.
	Admission Admission
	// Log receives ErrBusy notices (at most one a second) and console output
	// of the app ("engine: console.log /fortunes: TEXT"); nil discards them.
	Log *log.Logger
}

// DefaultRenderTimeout is the render timeout when Config.RenderTimeout is
// 0: 10 s, longer than the harness's 8 s request
// timeout, so only a render stuck for good meets it.
const DefaultRenderTimeout = 10 * time.Second

// TimeoutError is a render the watchdog terminated: its JavaScript ran
// longer than Config.RenderTimeout. The isolate stays in the pool.
type TimeoutError struct {
	Route string        // route path, e.g. "/spin"
	Limit time.Duration // Config.RenderTimeout
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("runtime: render of %s terminated after the %v render timeout", e.Route, e.Limit)
}

// Timeout reports true: the server tells a timed-out render by this method
// (as net.Error's), without importing the runtime.
func (e *TimeoutError) Timeout() bool { return true }

// Request is what a render sees of an HTTP request, through the __host
// functions method(), path(), query(name) and header(name). Its strings may
// share the master's connection buffers: valid until Render returns.
type Request struct {
	Method   string // e.g. "GET"
	Path     string // URL path, e.g. "/queries"
	RawQuery string // the query after "?", not decoded; query(name) decodes the first value of name
	// Header looks up a request header by name, case-insensitively, ""
	// when absent (http.Header satisfies it); nil means no headers.
	Header interface{ Get(name string) string }
	// Write, when set, receives each chunk a streamed route writes
	// (__host.write) while it renders, as bytes of the body in order; it
	// must send (flush) the chunk before it returns, and an error stops the
	// render. Nil: the chunks are kept and put before the frame's body, so
	// Response.Body is the whole page.
	Write func(chunk []byte) error
}

// Response is a parsed render frame "<status>\n<content-type>\n<body>".
type Response struct {
	Status      int    // HTTP status, e.g. 200
	ContentType string // e.g. "application/json"
	Body        string // the rest of the frame, may contain "\n"
}

// Route is one entry of __engine.meta(); its index in Pool.Routes is the
// route argument of Render.
type Route struct {
	Path       string        // "/" + file name without extension, "/" for index
	File       string        // source file, e.g. "app/routes/json.ts"
	Revalidate time.Duration // ISR period; 0 = render on every request
	Stream     bool          // the route writes its page in parts (export const stream = true)
}

// ErrBusy is returned by Render when no isolate was free within
// Config.QueueTimeout; the server answers 503 (which must not happen at
// the suite's load levels).
var ErrBusy = errors.New("runtime: no free isolate within the queue timeout")

// ErrClosed is returned by Render after Close.
var ErrClosed = errors.New("runtime: pool closed")

// Pool is a set of V8 isolates, each with one long-lived context that ran
// the bundle, and one SQLite connection. Free isolates are handed out by
// the admission (under AdmissionCost, the cheapest expected render first);
// Render borrows one and calls into it from the caller's goroutine (v8go
// takes a V8 Locker per call, so no OS-thread-locked workers). Safe for
// concurrent use.
type Pool struct {
	cfg     Config
	slots   []*slot
	adm     *admission[*slot]
	routes  []Route
	renders []atomic.Uint64
	costs   []costEstimate // per route index: its expected render time
	smap    *sourcemap.Consumer
	log     *log.Logger

	closed    atomic.Bool
	closeOnce sync.Once
	lastBusy  atomic.Int64 // unix ns of the last ErrBusy log line

	epoch  time.Time     // the pool clock's zero (monotonic)
	stopWD chan struct{} // closed by Close: stops the watchdog
	wdDone chan struct{} // closed when the watchdog has returned
}

// V8Flags are the V8 flags the pool sets before the process's first
// isolate. --single-threaded keeps V8 from starting helper threads for
// concurrent GC marking and background compilation: the pool already puts
// one isolate on every CPU of the server's set, so those threads only
// competed with the renders (measured on json, server on one CPU: median
// 46,414 vs 41,240 requests/s over 8 alternating 3 s windows, ×1.13).
// Flags set after V8 started have no effect, so a process that created an
// isolate before New keeps V8's defaults.
var V8Flags = []string{"--single-threaded"}

var v8FlagsOnce sync.Once

// New starts the isolates: for each one it opens the SQLite connection,
// creates the isolate and its context with the __host functions, runs
// Config.Script and reads __engine.meta() and __engine.render. Errors name
// the isolate index and the step (sqlite open, script run, meta, ...); a
// script exception is a *RenderError with the mapped source position.
func New(cfg Config) (*Pool, error) {
	switch cfg.Mode {
	case "":
		cfg.Mode = ModePool
	case ModePool, ModeSerialized:
	default:
		return nil, fmt.Errorf("runtime: mode %q, want %q or %q", cfg.Mode, ModePool, ModeSerialized)
	}
	n := cfg.Isolates
	if cfg.Mode == ModeSerialized {
		n = 1
	} else if n <= 0 {
		n = goruntime.NumCPU() // Linux: the CPUs in the affinity mask at start
	}
	adm, err := parseAdmission(cfg.Admission)
	if err != nil {
		return nil, err
	}
	cfg.Admission = adm
	if cfg.QueueTimeout <= 0 {
		cfg.QueueTimeout = DefaultQueueTimeout
	}
	if cfg.RenderTimeout <= 0 {
		cfg.RenderTimeout = DefaultRenderTimeout
	}
	v8FlagsOnce.Do(func() { v8.SetFlags(V8Flags...) })
	p := &Pool{cfg: cfg, log: cfg.Log, epoch: time.Now(), stopWD: make(chan struct{}), wdDone: make(chan struct{})}
	if p.log == nil {
		p.log = log.New(io.Discard, "", 0)
	}
	if len(cfg.SourceMap) > 0 {
		sm, err := sourcemap.Parse("bundle.js.map", cfg.SourceMap)
		if err != nil {
			return nil, fmt.Errorf("runtime: parse source map: %w", err)
		}
		p.smap = sm
	}
	for i := range n {
		s, routes, err := newSlot(p, i)
		if err != nil {
			p.closeSlots()
			return nil, err
		}
		p.slots = append(p.slots, s)
		if i == 0 {
			p.routes = routes
			p.renders = make([]atomic.Uint64, len(routes))
			p.costs = make([]costEstimate, len(routes))
		}
	}
	p.adm = newAdmission(cfg.Admission, len(p.routes)+1, slices.Clone(p.slots)) // class len(routes): take
	go p.watchdog()
	return p, nil
}

// clock is the time since the pool's epoch, never 0 (a render's start of 0
// would read as idle).
func (p *Pool) clock() time.Duration { return time.Since(p.epoch) + 1 }

// watchdog terminates renders running past Config.RenderTimeout. It looks
// every tenth of the timeout (10 ms to 1 s), so a render is stopped within
// 1.1 times the timeout.
func (p *Pool) watchdog() {
	defer close(p.wdDone)
	every := min(max(p.cfg.RenderTimeout/10, 10*time.Millisecond), time.Second)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-p.stopWD:
			return
		case <-t.C:
			deadline := p.clock() - p.cfg.RenderTimeout
			for _, s := range p.slots {
				s.expire(deadline)
			}
		}
	}
}

// timeoutError is the error of a render of route the watchdog terminated.
func (p *Pool) timeoutError(route int) error {
	return &TimeoutError{Route: p.routes[route].Path, Limit: p.cfg.RenderTimeout}
}

// Routes returns the route table read from __engine.meta() at New; index
// i is the route argument of Render. The slice is shared: do not modify.
func (p *Pool) Routes() []Route { return p.routes }

// Renders returns, per route index, the number of renders started (an
// isolate was borrowed and __engine.render called), including renders that
// ended in an error. Requests answered ErrBusy are not counted.
func (p *Pool) Renders() []uint64 {
	out := make([]uint64, len(p.renders))
	for i := range p.renders {
		out[i] = p.renders[i].Load()
	}
	return out
}

// Isolates returns the number of isolates: 1 in ModeSerialized.
func (p *Pool) Isolates() int { return len(p.slots) }

// Render runs route (an index into Routes) for req on a free isolate and
// parses the frame. It waits at most Config.QueueTimeout for an isolate
// (then ErrBusy) and returns ctx.Err() if ctx ends first, ErrClosed after
// Close. A JS exception (thrown or a rejected Promise) is a *RenderError
// whose File and Line come from the source map; a malformed frame or a
// Promise that does not settle after the microtask checkpoint is a plain
// error naming the route.
func (p *Pool) Render(ctx context.Context, route int, req *Request) (*Response, error) {
	if route < 0 || route >= len(p.routes) {
		return nil, fmt.Errorf("runtime: route index %d, have %d routes", route, len(p.routes))
	}
	s, err := p.borrow(ctx, route)
	if err != nil {
		return nil, err
	}
	defer p.release(s)
	p.renders[route].Add(1)
	resp, took, err := s.render(route, req)
	p.costs[route].observe(took)
	return resp, err
}

// ExpectedRender returns route's expected render time (the moving average
// admission orders by), 0 before its first render.
func (p *Pool) ExpectedRender(route int) time.Duration { return p.costs[route].expected() }

// Retained returns the number of v8go values still tracked across all
// isolates: the values of each app context (RetainedValueCount; host
// functions make none, see hostFunc). It is constant between renders when
// nothing leaks (it must stay flat over 100,000 requests). It borrows every
// isolate in turn (v8go's count is not safe during a render), so it waits
// for in-flight renders; meant for tests and diagnostics.
func (p *Pool) Retained() int {
	held := make([]*slot, 0, len(p.slots))
	total := 0
	for range p.slots {
		s := p.take()
		held = append(held, s)
		total += s.retained()
	}
	for _, s := range held {
		p.release(s)
	}
	return total
}

// Close waits for in-flight renders, then closes every context, isolate
// and SQLite connection. Later Renders return ErrClosed. It returns the
// first connection close error.
func (p *Pool) Close() error {
	var err error
	p.closeOnce.Do(func() {
		p.closed.Store(true)
		for range p.slots {
			p.take()
		}
		close(p.stopWD)
		<-p.wdDone
		err = p.closeSlots()
	})
	return err
}

func (p *Pool) closeSlots() error {
	var first error
	for _, s := range p.slots {
		if err := s.close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// borrow takes a free isolate for a render of route, waiting at most
// QueueTimeout in the admission's order (by the route's expected cost now).
func (p *Pool) borrow(ctx context.Context, route int) (*slot, error) {
	if p.closed.Load() {
		return nil, ErrClosed
	}
	s, ok := p.adm.tryAcquire()
	var err error
	if !ok {
		t := time.NewTimer(p.cfg.QueueTimeout)
		s, err = p.adm.acquire(ctx, route, p.costs[route].expected(), t.C)
		t.Stop()
	}
	if err == ErrBusy {
		now := time.Now().UnixNano()
		if last := p.lastBusy.Load(); now-last >= int64(time.Second) && p.lastBusy.CompareAndSwap(last, now) {
			p.log.Printf("engine: 503: no free isolate of %d within %v", len(p.slots), p.cfg.QueueTimeout)
		}
	}
	if err != nil {
		return nil, err
	}
	if p.closed.Load() {
		p.release(s)
		return nil, ErrClosed
	}
	return s, nil
}

// take waits for an isolate without a limit (Close, Retained, UsedHeap),
// queued as a render of least cost (minCost) in a class of its own.
func (p *Pool) take() *slot {
	s, _ := p.adm.acquire(context.Background(), len(p.routes), 0, nil)
	return s
}

func (p *Pool) release(s *slot) { p.adm.release(s) }

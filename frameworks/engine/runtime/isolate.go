package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"
	"unsafe"

	v8 "github.com/tommie/v8go"
)

// scriptName is the origin of the bundle in V8 stack traces; RenderError
// maps "bundle.js:L:C" positions through the source map.
const scriptName = "bundle.js"

// hostErrPrefix starts a host function's error result (engine-contract.md:
// host functions return "\u0000ERR:" + message instead of throwing).
const hostErrPrefix = "\x00ERR:"

// slot is one isolate with its long-lived context and SQLite connection.
// All fields are used only by the goroutine that borrowed the slot.
type slot struct {
	p        *Pool
	index    int
	iso      *v8.Isolate
	ctx      *v8.Context
	global   *v8.Object   // kept for the context's life
	engine   *v8.Object   // globalThis.__engine
	renderFn *v8.Function // __engine.render
	args     []*v8.Value  // route index values, one per route, made once
	db       *db
	req      *Request
	route    int // the route of the render under way, -1 outside a render
	// wmu guards started and timedOut between the render and the pool's
	// watchdog, which terminates a render running past Config.RenderTimeout.
	wmu      sync.Mutex
	started  time.Duration // since the pool's epoch; 0 when no render runs
	timedOut bool          // the watchdog terminated the render under way
	// written holds the chunks __host.write received during a render whose
	// Request has no Write, to put before the frame's body.
	written []byte
	// sizes is the frame length in bytes of each route's last render: the
	// next one's buffer is sized from it, so that V8 writes it in one call.
	sizes []int
}

func newSlot(p *Pool, index int) (_ *slot, routes []Route, err error) {
	s := &slot{p: p, index: index, route: -1}
	defer func() {
		if err != nil {
			s.close()
		}
	}()
	if p.cfg.DatabasePath != "" {
		if s.db, err = openDB(p.cfg.DatabasePath); err != nil {
			return nil, nil, fmt.Errorf("runtime: isolate %d: %w", index, err)
		}
	}
	s.iso = v8.NewIsolate()
	host := v8.NewObjectTemplate(s.iso)
	// set installs __host.name; the first failure is kept in err.
	set := func(name string, fn func(*v8.HostCall)) {
		if e := host.Set(name, v8.NewHostFunctionTemplate(s.iso, fn)); e != nil && err == nil {
			err = fmt.Errorf("runtime: isolate %d: __host.%s: %w", index, name, e)
		}
	}
	for _, f := range []struct {
		name string
		fn   func(c *v8.HostCall) (string, error)
	}{
		{"method", s.hostMethod}, {"path", s.hostPath}, {"query", s.hostQuery}, {"header", s.hostHeader}, {"log", s.hostLog},
		{"all", sqlFunc(s, (*db).all)}, {"get", sqlFunc(s, (*db).get)}, {"batch", sqlFunc(s, (*db).batch)},
		{"write", s.hostWrite},
	} {
		set(f.name, hostFunc(f.name, f.fn, returnString))
	}
	for _, f := range []struct {
		name string
		fn   func(c *v8.HostCall) (int, error)
	}{{"run", sqlFunc(s, (*db).run)}, {"tx", sqlFunc(s, (*db).tx)}} {
		set(f.name, hostFunc(f.name, f.fn, returnNumber))
	}
	if err != nil {
		return nil, nil, err
	}
	global := v8.NewObjectTemplate(s.iso)
	if err := global.Set("__host", host); err != nil {
		return nil, nil, fmt.Errorf("runtime: isolate %d: global __host: %w", index, err)
	}
	s.ctx = v8.NewContext(s.iso, global)

	if v, err := s.ctx.RunScript(consoleJS, "engine:console.js"); err != nil {
		return nil, nil, fmt.Errorf("runtime: isolate %d: console: %w", index, err)
	} else {
		v.Release()
	}
	v, err := s.ctx.RunScript(p.cfg.Script, scriptName)
	if err != nil {
		return nil, nil, fmt.Errorf("runtime: isolate %d: run %s: %w", index, scriptName, p.jsError(-1, err))
	}
	v.Release()
	s.global = s.ctx.Global()
	ev, err := s.global.Get("__engine")
	if err != nil {
		return nil, nil, fmt.Errorf("runtime: isolate %d: read __engine: %w", index, err)
	}
	if s.engine, err = ev.AsObject(); err != nil {
		ev.Release()
		return nil, nil, fmt.Errorf("runtime: isolate %d: globalThis.__engine is not an object (did the bundle run?)", index)
	}
	rv, err := s.engine.Get("render")
	if err != nil {
		return nil, nil, fmt.Errorf("runtime: isolate %d: read __engine.render: %w", index, err)
	}
	if s.renderFn, err = rv.AsFunction(); err != nil {
		rv.Release()
		return nil, nil, fmt.Errorf("runtime: isolate %d: __engine.render is not a function", index)
	}
	mv, err := s.engine.MethodCall("meta")
	if err != nil {
		return nil, nil, fmt.Errorf("runtime: isolate %d: __engine.meta(): %w", index, p.jsError(-1, err))
	}
	meta := mv.String()
	mv.Release()
	if routes, err = parseMeta(meta); err != nil {
		return nil, nil, fmt.Errorf("runtime: isolate %d: __engine.meta(): %w", index, err)
	}
	for i := range routes {
		a, err := v8.NewValue(s.iso, int32(i))
		if err != nil {
			return nil, nil, fmt.Errorf("runtime: isolate %d: route index value %d: %w", index, i, err)
		}
		s.args = append(s.args, a)
	}
	s.sizes = make([]int, len(routes))
	return s, routes, nil
}

// parseMeta decodes __engine.meta(): [{"path","file","revalidate","stream"}]
// with revalidate in seconds.
func parseMeta(meta string) ([]Route, error) {
	var raw []struct {
		Path       string  `json:"path"`
		File       string  `json:"file"`
		Revalidate float64 `json:"revalidate"`
		Stream     bool    `json:"stream"`
	}
	if err := json.Unmarshal([]byte(meta), &raw); err != nil {
		return nil, fmt.Errorf("want a JSON array of {path, file, revalidate}: %w", err)
	}
	routes := make([]Route, len(raw))
	for i, r := range raw {
		if !strings.HasPrefix(r.Path, "/") || r.Revalidate < 0 {
			return nil, fmt.Errorf("route %d (%s): path %q must start with \"/\", revalidate %v must be >= 0", i, r.File, r.Path, r.Revalidate)
		}
		routes[i] = Route{Path: r.Path, File: r.File, Revalidate: time.Duration(r.Revalidate * float64(time.Second)), Stream: r.Stream}
	}
	return routes, nil
}

// promiseText is String() of a Promise. __engine.render returns a frame
// string or a Promise (entry.ts), and a frame starts with its status
// digits, so this text alone tells the two apart.
const promiseText = "[object Promise]"

// render calls __engine.render(route) with req as the current request and
// parses the frame. A Promise result is settled by a microtask checkpoint
// (Promise.Then is not used: its callbacks are never freed by v8go).
//
// Every v8go call made here (not from inside a host function) takes and
// drops a top-level V8 Locker, which costs more than the call itself, so
// the common path makes two: Call and AppendBytes (Release takes none,
// and host functions run under Call's). The frame's type is told from its
// text instead of IsString/IsPromise (two more Lockers). took is the
// render's wall time (its cost estimate's sample):
// from the watchdog's start reading to the frame parsed, one clock read more.
func (s *slot) render(route int, req *Request) (_ *Response, took time.Duration, _ error) {
	s.req, s.route = req, route
	begin := s.watchStart()
	s.written = s.written[:0]
	defer func() {
		s.req, s.route = nil, -1
	}()
	resp, err := s.run(route)
	return resp, s.p.clock() - begin, err
}

// run is render's JavaScript part: the call, then the Promise's settling.
func (s *slot) run(route int) (*Response, error) {
	val, err := s.renderFn.Call(s.engine, s.args[route])
	if err != nil {
		if s.watchEnd() {
			return nil, s.p.timeoutError(route)
		}
		return nil, s.p.jsError(route, err)
	}
	if s.watchEnd() {
		val.Release()
		return nil, s.p.timeoutError(route)
	}
	defer val.Release()
	if f, oneByte := s.frameText(route, val); f != promiseText {
		return s.frame(route, f, oneByte)
	}
	prom, err := val.AsPromise() // the same tracked value as val
	if err != nil {
		return nil, fmt.Errorf("runtime: render of %s returned %s, want a frame string", s.p.routes[route].Path, promiseText)
	}
	if prom.State() == v8.Pending {
		s.watchStart()
		s.ctx.PerformMicrotaskCheckpoint()
		if s.watchEnd() {
			return nil, s.p.timeoutError(route)
		}
	}
	switch prom.State() {
	case v8.Fulfilled:
		r := prom.Result()
		defer r.Release()
		if !r.IsString() {
			return nil, fmt.Errorf("runtime: render of %s returned a Promise of %s, want a frame string \"<status>\\n<content-type>\\n<body>\"", s.p.routes[route].Path, r.String())
		}
		f, oneByte := s.frameText(route, r)
		return s.frame(route, f, oneByte)
	case v8.Rejected:
		r := prom.Result()
		defer r.Release()
		return nil, s.p.rejection(route, r)
	default:
		return nil, fmt.Errorf("runtime: render of %s: Promise still pending after the microtask checkpoint (no event loop: await only host calls and promises)", s.p.routes[route].Path)
	}
}

// watchStart marks the start of JavaScript running for a render, for the
// pool's watchdog, and returns the pool clock it read (render's start).
func (s *slot) watchStart() time.Duration {
	s.wmu.Lock()
	s.started, s.timedOut = s.p.clock(), false
	started := s.started
	s.wmu.Unlock()
	return started
}

// watchEnd marks the end of JavaScript running for a render and reports
// whether the watchdog terminated it. It reads no clock.
func (s *slot) watchEnd() (timedOut bool) {
	s.wmu.Lock()
	s.started = 0
	timedOut = s.timedOut
	s.wmu.Unlock()
	return timedOut
}

// expire terminates the render under way if it started before deadline
// (pool clock). The lock makes the termination land in the render it was
// meant for: the render ends (watchEnd) only after it.
func (s *slot) expire(deadline time.Duration) {
	s.wmu.Lock()
	if s.started != 0 && s.started <= deadline && !s.timedOut {
		s.timedOut = true
		s.iso.TerminateExecution()
	}
	s.wmu.Unlock()
}

// frameText is String(v) as V8 writes it into a new Go buffer (v8go's
// AppendBytes, patched in: third_party/v8go/PATCH.md): one byte per
// character when oneByte, else UTF-8. The buffer has the capacity of the
// route's last frame plus 1/32 (pages vary with their rows), and is copied
// to its size when that left over half of it unused. It is never reused:
// the Response's Body points into it.
func (s *slot) frameText(route int, v *v8.Value) (f string, oneByte bool) {
	n := s.sizes[route]
	b, oneByte := v.AppendBytes(make([]byte, 0, n+n/32))
	s.sizes[route] = len(b)
	if len(b) < cap(b)/2 {
		b = append([]byte(nil), b...)
	}
	return unsafe.String(unsafe.SliceData(b), len(b)), oneByte
}

// frame parses the frame text f that route rendered (oneByte: one byte
// per character, see parseFrame); chunks the route wrote without a
// Request.Write go before its body.
func (s *slot) frame(route int, f string, oneByte bool) (*Response, error) {
	resp, err := parseFrame(f, oneByte)
	if err != nil {
		return nil, fmt.Errorf("runtime: render of %s: %w", s.p.routes[route].Path, err)
	}
	if len(s.written) > 0 {
		resp.Body = string(s.written) + resp.Body
		s.written = s.written[:0]
	}
	return resp, nil
}

// hostWrite is __host.write(chunk, bytes): one chunk of a streamed page,
// bytes "1" when chunk is a byte string (as a "~" frame's body). It goes
// to the request's Write (sent before the render goes on) or, without
// one, is kept for the frame's body. Outside a render it is an error.
func (s *slot) hostWrite(c *v8.HostCall) (string, error) {
	if s.req == nil {
		return "", errors.New("no render under way")
	}
	chunk, oneByte := argText(c, 0)
	switch bytes := arg(c, 1) == "1"; {
	case bytes && !oneByte:
		chunk = fromLatin1(chunk)
	case !bytes && oneByte:
		chunk = latin1ToUTF8(chunk)
	}
	if s.req.Write == nil {
		s.written = append(s.written, chunk...)
		return "", nil
	}
	if err := s.req.Write(unsafe.Slice(unsafe.StringData(chunk), len(chunk))); err != nil {
		return "", fmt.Errorf("write: %w", err)
	}
	return "", nil
}

// hostFunc makes the Go side of a host function (v8go's HostCall, added
// in third_party/v8go: arguments as text, no Value per argument or result):
// errors and panics become "\u0000ERR:" results (a Go panic must not
// unwind through V8's frames), and it never throws.
func hostFunc[T any](name string, fn func(c *v8.HostCall) (T, error), result func(*v8.HostCall, T)) func(c *v8.HostCall) {
	return func(c *v8.HostCall) {
		defer func() {
			if r := recover(); r != nil {
				returnString(c, fmt.Sprintf("%s__host.%s: panic: %v", hostErrPrefix, name, r))
			}
		}()
		out, err := fn(c)
		if err != nil {
			returnString(c, hostErrPrefix+"__host."+name+": "+err.Error())
			return
		}
		result(c, out)
	}
}

// returnString sets a host function's string result; one V8 cannot hold
// becomes an error result.
func returnString(c *v8.HostCall, s string) {
	if !c.ReturnUTF8(unsafe.Slice(unsafe.StringData(s), len(s))) {
		c.ReturnUTF8([]byte(hostErrPrefix + "result string too long for V8"))
	}
}

func returnNumber(c *v8.HostCall, n int) { c.ReturnNumber(float64(n)) }

// arg returns argument i as UTF-8 text, "" when absent, undefined or null.
// It points into the call's buffer: valid until the host function returns.
func arg(c *v8.HostCall, i int) string {
	text, oneByte := argText(c, i)
	if oneByte {
		return latin1ToUTF8(text)
	}
	return text
}

// argText is argument i's text as V8 wrote it: one byte per character
// when oneByte, else UTF-8 (v8go's HostCall.Arg), in the call's buffer.
func argText(c *v8.HostCall, i int) (text string, oneByte bool) {
	b, oneByte, _ := c.Arg(i)
	return unsafe.String(unsafe.SliceData(b), len(b)), oneByte
}

// consoleJS defines globalThis.console before the bundle runs: log, info,
// debug, warn and error format their arguments (strings as they are, errors
// with their stack, mapped to the app's files, other values as JSON where
// they have one) and pass one line to __host.log(level, text).
const consoleJS = `(() => {
  const host = __host;
  const show = (v) => {
    if (typeof v === "string") return v;
    if (v instanceof Error) return v.stack || String(v);
    if (typeof v === "object" && v !== null) {
      try { const j = JSON.stringify(v); if (j !== undefined) return j; } catch (e) {}
    }
    return String(v);
  };
  const out = (level) => (...args) => { host.log(level, args.map(show).join(" ")); };
  globalThis.console = { log: out("log"), info: out("info"), debug: out("debug"), warn: out("warn"), error: out("error") };
})();`

// hostLog writes console output to the pool's log: "engine: console.LEVEL
// ROUTE: TEXT", ROUTE being the route's path, or "(start)" while the bundle
// runs.
func (s *slot) hostLog(c *v8.HostCall) (string, error) {
	where := "(start)"
	if s.route >= 0 && s.route < len(s.p.routes) {
		where = s.p.routes[s.route].Path
	}
	text := arg(c, 1)
	if strings.Contains(text, scriptName) {
		text = s.p.mapStack(text, nil)
	}
	s.p.log.Printf("engine: console.%s %s: %s", arg(c, 0), where, text)
	return "", nil
}

func (s *slot) hostMethod(*v8.HostCall) (string, error) {
	if s.req == nil {
		return "", nil
	}
	return s.req.Method, nil
}

func (s *slot) hostPath(*v8.HostCall) (string, error) {
	if s.req == nil {
		return "", nil
	}
	return s.req.Path, nil
}

func (s *slot) hostQuery(c *v8.HostCall) (string, error) {
	if s.req == nil {
		return "", nil
	}
	return queryValue(s.req.RawQuery, arg(c, 0)), nil
}

func (s *slot) hostHeader(c *v8.HostCall) (string, error) {
	if s.req == nil || s.req.Header == nil {
		return "", nil
	}
	return s.req.Header.Get(arg(c, 0)), nil
}

// queryValue returns the first value of name in the raw query, decoded as
// url.ParseQuery decodes it ("&"-separated key=value pairs, "+" a space,
// pairs that do not decode skipped); "" when absent.
func queryValue(raw, name string) string {
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if strings.Contains(pair, ";") {
			continue // url.ParseQuery rejects such pairs
		}
		k, v, _ := strings.Cut(pair, "=")
		if k != name {
			if !strings.ContainsAny(k, "%+") {
				continue
			}
			if uk, err := url.QueryUnescape(k); err != nil || uk != name {
				continue
			}
		}
		if !strings.ContainsAny(v, "%+") {
			return v
		}
		if uv, err := url.QueryUnescape(v); err == nil {
			return uv
		}
	}
	return ""
}

var errNoDB = errors.New("no database (Config.DatabasePath is empty)")

// sqlFunc makes the host function of a db method taking (sql,
// paramsJSON): all, get, run, batch and tx; errNoDB without a connection.
func sqlFunc[T any](s *slot, f func(d *db, sql, params string) (T, error)) func(c *v8.HostCall) (T, error) {
	return func(c *v8.HostCall) (T, error) {
		if s.db == nil {
			var zero T
			return zero, errNoDB
		}
		return f(s.db, arg(c, 0), arg(c, 1))
	}
}

func (s *slot) retained() int {
	if s.ctx == nil {
		return 0
	}
	return s.ctx.RetainedValueCount()
}

// close frees the context (and every value tracked in it), the isolate
// and the SQLite connection.
func (s *slot) close() error {
	for _, a := range s.args {
		a.Release()
	}
	s.args = nil
	if s.ctx != nil {
		s.ctx.Close()
		s.ctx = nil
	}
	if s.iso != nil {
		s.iso.Dispose()
		s.iso = nil
	}
	if s.db != nil {
		err := s.db.close()
		s.db = nil
		if err != nil {
			return fmt.Errorf("runtime: isolate %d: %w", s.index, err)
		}
	}
	return nil
}

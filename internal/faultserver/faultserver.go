// Package faultserver is a misbehaving HTTP server for tests with every fault
// tfbench must survive and explain (Mode): crashes, hangs, bad bytes and
// lengths, resets, drips, huge or racy bodies, 500s, SQLITE_BUSY, escaping or
// stubborn processes; and servers that cheat under load (cheat.go). It
// serves GET /json and /plaintext by the TFB rules, /db, /fortunes and
// /ssr?rows=N (the page) from the dataset at Config.Database, and /pids;
// Start runs it in process, Handler is the bare handler. As a process
// (Command) it is any test binary whose TestMain calls Main when EnvServer
// is "1", so nothing is built; Linux and darwin.
package faultserver

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Mode names one fault. Every mode first answers Config.After requests
// correctly; the fault starts with request After+1.
type Mode string

// The modes. Raw modes (hang, garbage, length-long, length-short, reset,
// drip, crash) take the connection over (http.Hijacker) and write bytes no
// HTTP library would.
const (
	// ModeOK answers every request correctly.
	ModeOK Mode = "ok"
	// ModeNeverReady answers 503 "not ready\n" (text/plain), so a readiness
	// wait never ends.
	ModeNeverReady Mode = "never-ready"
	// ModeCrash calls Config.Crash and closes the connection without a
	// byte; Main exits with status 2.
	ModeCrash Mode = "crash"
	// ModeHang reads the request and never answers; the connection is held
	// until the client closes it.
	ModeHang Mode = "hang"
	// ModeGarbage writes Garbage ("\x00\xffgarbage\r\n", 11 bytes) and
	// closes the connection.
	ModeGarbage Mode = "garbage"
	// ModeLengthLong sends the headers with Content-Length: 100, then the
	// 27-byte json body (13 for plaintext), then holds the connection open
	// without another byte until the client closes it.
	ModeLengthLong Mode = "length-long"
	// ModeLengthShort sends Content-Length: 10, then the whole body (27
	// bytes for json), so 17 bytes arrive where the next response should
	// start; it keeps answering the connection's requests that way.
	ModeLengthShort Mode = "length-short"
	// ModeReset closes the connection with SO_LINGER 0: the client gets a
	// TCP RST (ECONNRESET), not an answer.
	ModeReset Mode = "reset"
	// ModeDrip writes the correct response one byte every DripInterval
	// (100 ms), so a /json answer (156 bytes) takes 15.5 s; it keeps
	// answering the connection's requests that way.
	ModeDrip Mode = "drip"
	// ModeHuge answers 200 with a valid JSON body of Config.HugeBytes bytes
	// (default 50 MiB), {"message":"Hello, World!","pad":"xxx…"}; plaintext
	// gets Hello, World! and 'x' padding.
	ModeHuge Mode = "huge"
	// ModeRacy answers "Hello, World?" when another request is in its
	// handler at the same time, each taking RacyDelay (2 ms) so that
	// connections overlap; alone, every answer is right.
	ModeRacy Mode = "racy"
	// ModeEvery10th500 answers every 10th request (After+10, After+20, …,
	// counted over all connections) with 500 and Every10thBody.
	ModeEvery10th500 Mode = "every10th-500"
	// ModeBusy answers every 10th request (as ModeEvery10th500) with 500
	// and BusyBody, and writes a line holding BusyBody to Config.Log (the
	// server log), as an SQLite server does when its database is locked.
	ModeBusy Mode = "busy"
	// ModeEscape answers correctly; Main first spawns a child in a new
	// session (setsid) and a double-forked daemon, both `sleep 300`, which
	// leave the server's process group and session. /pids lists them.
	ModeEscape Mode = "escape"
	// ModeStubborn answers correctly; Main ignores SIGTERM, so only
	// SIGKILL ends it, and prints StubbornLine on stdout for each SIGTERM
	// once it has ignored it.
	ModeStubborn Mode = "stubborn"
)

// StubbornLine is the stdout line of a stubborn server that received
// SIGTERM and goes on serving: a test waits for it, not for a sleep.
const StubbornLine = "faultserver: stubborn: SIGTERM ignored"

// modes lists every Mode, in the order of the error message of ParseMode.
var modes = []Mode{ModeOK, ModeNeverReady, ModeCrash, ModeHang, ModeGarbage, ModeLengthLong,
	ModeLengthShort, ModeReset, ModeDrip, ModeHuge, ModeRacy, ModeEvery10th500, ModeBusy,
	ModeEscape, ModeStubborn, ModeCheatJSON, ModeCheatFortunes, ModeCheatDB, ModeCheatPage,
	ModeExtraResponse}

// Fixed bytes and times of the modes.
const (
	// Garbage is what ModeGarbage writes before it closes.
	Garbage = "\x00\xffgarbage\r\n"
	// BusyBody is ModeBusy's 500 body (text/plain), SQLite's error text
	// for SQLITE_BUSY as modernc.org/sqlite renders it.
	BusyBody = "database is locked (5) (SQLITE_BUSY)"
	// Every10thBody is ModeEvery10th500's 500 body (text/plain).
	Every10thBody = "internal error (every 10th request)"
	// NotReadyBody is ModeNeverReady's 503 body (text/plain).
	NotReadyBody = "not ready\n"
	// ServerName is the Server header of every answer.
	ServerName = "faultserver"
	// JSONBody is the correct /json body (TFB rules, json test), 27 bytes.
	JSONBody = `{"message":"Hello, World!"}`
	// PlaintextBody is the correct /plaintext body, 13 bytes.
	PlaintextBody = "Hello, World!"
	// DefaultHugeBytes is ModeHuge's body size when Config.HugeBytes is 0:
	// 50 MiB.
	DefaultHugeBytes = 50 << 20
	// DripInterval is the pause between two bytes of ModeDrip.
	DripInterval = 100 * time.Millisecond
	// RacyDelay is how long ModeRacy keeps each request in its handler.
	RacyDelay = 2 * time.Millisecond
	// LongLength and ShortLength are the Content-Length values of
	// ModeLengthLong and ModeLengthShort.
	LongLength, ShortLength = 100, 10
)

// Environment variables read by ConfigFromEnv and Main.
const (
	// EnvServer is the variable a TestMain checks before it runs Main
	// (value "1"); see the package doc.
	EnvServer = "TFBENCH_FAULT_SERVER"
	// EnvMode holds the Mode; empty means ModeOK.
	EnvMode = "FAULT_MODE"
	// EnvAfter holds Config.After, a whole number ≥ 0; empty means 0.
	EnvAfter = "FAULT_AFTER"
	// EnvHugeBytes holds Config.HugeBytes in bytes, ≥ 64; empty means
	// DefaultHugeBytes.
	EnvHugeBytes = "FAULT_HUGE_BYTES"
	// EnvDatabase holds Config.Database: DATABASE_PATH, as tfbench gives
	// every server.
	EnvDatabase = "DATABASE_PATH"
)

// Config selects the fault.
type Config struct {
	// Mode is the fault; "" is ModeOK.
	Mode Mode
	// After is the number of requests (to /json, /plaintext, /db,
	// /fortunes or /ssr, over all connections) answered correctly before
	// the fault starts; ≥ 0. The faults of the modes before the cheat modes
	// apply to /json and /plaintext only: the database paths are answered
	// correctly in every mode but their own cheat.
	After int64
	// HugeBytes is ModeHuge's body size in bytes; 0 means DefaultHugeBytes.
	// Bodies shorter than their envelope (36 bytes for json) are cut.
	HugeBytes int64
	// Crash is called once, by ModeCrash's first faulty request; that and
	// every later connection is closed without a byte. Start and Main set it
	// (close all, exit 2); nil in Handler only closes connections.
	Crash func()
	// Log receives ModeBusy's log lines (the server log); nil means
	// os.Stderr.
	Log io.Writer
	// Database is the SQLite dataset (World, Fortune) behind /db,
	// /fortunes and /ssr, read on every request; "" answers them 500.
	Database string
}

// ParseMode returns the Mode named s ("" is ModeOK). An unknown name is an
// error naming it and listing the modes.
func ParseMode(s string) (Mode, error) {
	if s == "" {
		return ModeOK, nil
	}
	if slices.Contains(modes, Mode(s)) {
		return Mode(s), nil
	}
	names := make([]string, len(modes))
	for i, m := range modes {
		names[i] = string(m)
	}
	return "", fmt.Errorf("unknown mode %q (have %s)", s, strings.Join(names, ", "))
}

// ConfigFromEnv reads EnvMode, EnvAfter, EnvHugeBytes and EnvDatabase,
// leaving Crash and Log nil; errors name the variable and its value.
func ConfigFromEnv() (Config, error) {
	var c Config
	var err error
	if c.Mode, err = ParseMode(os.Getenv(EnvMode)); err != nil {
		return Config{}, fmt.Errorf("%s: %w", EnvMode, err)
	}
	if s := os.Getenv(EnvAfter); s != "" {
		if c.After, err = strconv.ParseInt(s, 10, 64); err != nil || c.After < 0 {
			return Config{}, fmt.Errorf("%s %q: not a whole number ≥ 0", EnvAfter, s)
		}
	}
	if s := os.Getenv(EnvHugeBytes); s != "" {
		if c.HugeBytes, err = strconv.ParseInt(s, 10, 64); err != nil || c.HugeBytes < 64 {
			return Config{}, fmt.Errorf("%s %q: not a byte count ≥ 64", EnvHugeBytes, s)
		}
	}
	c.Database = os.Getenv(EnvDatabase)
	return c, nil
}

// Command returns an unstarted command running the calling test binary
// (whose TestMain must call Main, package doc) as the fault server with c
// on 127.0.0.1:port (0: kernel-chosen); Main prints the address first.
func Command(c Config, port int) (*exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(append(os.Environ(), c.Environ()...), "PORT="+strconv.Itoa(port))
	return cmd, nil
}

// Environ returns the environment entries (EnvServer=1, the mode, After,
// HugeBytes and Database if set) that make a test binary run Main with c;
// PORT is the caller's, and Crash and Log are not carried.
func (c Config) Environ() []string {
	mode := c.Mode
	if mode == "" {
		mode = ModeOK
	}
	env := []string{EnvServer + "=1", EnvMode + "=" + string(mode), EnvAfter + "=" + strconv.FormatInt(c.After, 10)}
	if c.HugeBytes != 0 {
		env = append(env, EnvHugeBytes+"="+strconv.FormatInt(c.HugeBytes, 10))
	}
	if c.Database != "" {
		env = append(env, EnvDatabase+"="+c.Database)
	}
	return env
}

// handler is the state behind Handler: the request count, the requests in
// a handler (racy), the hijacked connections and the handlers still running
// (for Server.Close).
type handler struct {
	c        Config
	served   atomic.Int64 // requests to the test paths so far
	inFlight atomic.Int64 // ModeRacy's requests in the handler now
	crash    sync.Once
	pids     []int         // Main's children, for /pids
	done     chan struct{} // closed by shutdown: drips and holds end

	mu     sync.Mutex
	idle   *sync.Cond // signalled when active drops to 0
	active int        // handlers running
	closed bool
	raw    map[net.Conn]struct{} // hijacked connections still open
	logMu  sync.Mutex

	data database // /db, /fortunes and /ssr's database (cheat.go)
}

// Handler returns the fault server's http.Handler for c, an unknown Mode
// answering like ModeOK. Hijacked connections stay open until the client
// closes them (Start's Server.Close closes them).
func Handler(c Config) http.Handler {
	return newHandler(c)
}

func newHandler(c Config) *handler {
	if c.Mode == "" {
		c.Mode = ModeOK
	}
	if c.HugeBytes <= 0 {
		c.HugeBytes = DefaultHugeBytes
	}
	if c.Log == nil {
		c.Log = os.Stderr
	}
	h := &handler{c: c, done: make(chan struct{}), raw: map[net.Conn]struct{}{}}
	h.idle = sync.NewCond(&h.mu)
	return h
}

// correct returns the correct body and Content-Type of a test path.
func correct(path string) (body, ctype string, ok bool) {
	switch path {
	case "/json":
		return JSONBody, "application/json", true
	case "/plaintext":
		return PlaintextBody, "text/plain", true
	}
	return "", "", false
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.enter() {
		hijackClose(w)
		return
	}
	defer h.leave()
	w.Header().Set("Server", ServerName)
	if r.URL.Path == "/pids" {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"self":%d,"children":[%s]}`+"\n", os.Getpid(), joinInts(h.pids))
		return
	}
	if !testPath(r.URL.Path) {
		http.NotFound(w, r)
		return
	}
	k := h.served.Add(1) - h.c.After // the request's number within the fault
	pos := connPosition(r)
	body, ctype, simple := correct(r.URL.Path)
	if !simple || h.c.Mode.cheats() { // the database paths, the cheat modes
		h.serveCheat(w, r, k, pos)
		return
	}
	if k <= 0 {
		answer(w, 200, ctype, body)
		return
	}
	switch h.c.Mode {
	case ModeNeverReady:
		answer(w, http.StatusServiceUnavailable, "text/plain", NotReadyBody)
	case ModeEvery10th500:
		if k%10 == 0 {
			answer(w, http.StatusInternalServerError, "text/plain", Every10thBody)
			return
		}
		answer(w, 200, ctype, body)
	case ModeBusy:
		if k%10 == 0 {
			h.logMu.Lock()
			fmt.Fprintf(h.c.Log, "faultserver: %s %s: %s\n", r.Method, r.URL.RequestURI(), BusyBody)
			h.logMu.Unlock()
			answer(w, http.StatusInternalServerError, "text/plain", BusyBody)
			return
		}
		answer(w, 200, ctype, body)
	case ModeRacy:
		n := h.inFlight.Add(1)
		time.Sleep(RacyDelay)
		if n > 1 || h.inFlight.Load() > 1 {
			body = strings.Replace(body, "World!", "World?", 1)
		}
		h.inFlight.Add(-1)
		answer(w, 200, ctype, body)
	case ModeHuge:
		h.huge(w, r.URL.Path, ctype)
	case ModeCrash, ModeHang, ModeGarbage, ModeLengthLong, ModeLengthShort, ModeReset, ModeDrip:
		h.serveRaw(w, r.URL.Path)
	default: // ok, escape, stubborn
		answer(w, 200, ctype, body)
	}
}

// answer writes one complete response with an explicit Content-Length
// (net/http adds Date).
func answer(w http.ResponseWriter, status int, ctype, body string) {
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// pad is ModeHuge's padding, written in pieces of this size.
var pad = []byte(strings.Repeat("x", 64<<10))

// huge writes ModeHuge's body of h.c.HugeBytes bytes; it stops at the first
// write error (the client left).
func (h *handler) huge(w http.ResponseWriter, path, ctype string) {
	head, tail := `{"message":"Hello, World!","pad":"`, `"}`
	if path == "/plaintext" {
		head, tail = PlaintextBody, ""
	}
	size := h.c.HugeBytes
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Length", strconv.FormatInt(size, 10))
	w.WriteHeader(200)
	envelope := head + tail
	if int64(len(envelope)) >= size {
		io.WriteString(w, envelope[:size])
		return
	}
	if _, err := io.WriteString(w, head); err != nil {
		return
	}
	for left := size - int64(len(envelope)); left > 0; {
		n := min(left, int64(len(pad)))
		if _, err := w.Write(pad[:n]); err != nil {
			return
		}
		left -= n
	}
	io.WriteString(w, tail)
}

// enter counts a running handler; false once shutdown began.
func (h *handler) enter() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.active++
	return true
}

func (h *handler) leave() {
	h.mu.Lock()
	h.active--
	if h.active == 0 {
		h.idle.Broadcast()
	}
	h.mu.Unlock()
}

// closeRaw closes every hijacked connection.
func (h *handler) closeRaw() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.raw {
		c.Close()
	}
}

// shutdown refuses new handlers, ends drips and holds and closes the
// hijacked connections; wait then waits for the running handlers.
func (h *handler) shutdown() {
	h.mu.Lock()
	if !h.closed {
		h.closed = true
		close(h.done)
	}
	h.mu.Unlock()
	h.closeRaw()
}

func (h *handler) wait() {
	h.mu.Lock()
	for h.active > 0 {
		h.idle.Wait()
	}
	h.mu.Unlock()
}

// track records a hijacked connection; false (and the connection closed)
// once shutdown began.
func (h *handler) track(c net.Conn) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		c.Close()
		return false
	}
	h.raw[c] = struct{}{}
	return true
}

func (h *handler) untrack(c net.Conn) {
	h.mu.Lock()
	delete(h.raw, c)
	h.mu.Unlock()
	c.Close()
}

// hijackClose closes the request's connection without a byte.
func hijackClose(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if c, _, err := hj.Hijack(); err == nil {
			c.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

// errNoHijack is returned when the ResponseWriter cannot be hijacked
// (HTTP/2); raw modes need HTTP/1.x.
var errNoHijack = errors.New("faultserver: raw modes need an HTTP/1.x connection (http.Hijacker)")

package faultserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/tfbench/tfbench/internal/testenv"
)

// start runs an in-process server for the test; Close at cleanup.
func start(t *testing.T, c Config) *Server {
	t.Helper()
	s, err := Start(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// dial connects to addr; every read and write fails after 1 s.
func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(time.Second))
	t.Cleanup(func() { c.Close() })
	return c
}

// send writes a GET request for path.
func send(t *testing.T, c net.Conn, path string) {
	t.Helper()
	if _, err := io.WriteString(c, "GET "+path+" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
}

// readFor reads from c until an error or until d has passed (then the
// error is os.ErrDeadlineExceeded).
func readFor(c net.Conn, d time.Duration) ([]byte, error) {
	c.SetReadDeadline(time.Now().Add(d))
	var out []byte
	buf := make([]byte, 4096)
	for {
		n, err := c.Read(buf)
		out = append(out, buf[:n]...)
		if err != nil {
			return out, err
		}
	}
}

// readN reads exactly n bytes from r.
func readN(t *testing.T, r io.Reader, n int) []byte {
	t.Helper()
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		t.Fatalf("reading %d bytes: %v (got %q)", n, err, b)
	}
	return b
}

var dateLine = regexp.MustCompile(`\r\nDate: ([^\r]*)\r\n`)

// scrubDate checks that every Date header in raw is RFC 7231 and within
// 10 s of now, and replaces its value with "DATE".
func scrubDate(t *testing.T, raw []byte) string {
	t.Helper()
	return dateLine.ReplaceAllStringFunc(string(raw), func(m string) string {
		checkDate(t, dateLine.FindStringSubmatch(m)[1])
		return "\r\nDate: DATE\r\n"
	})
}

func checkDate(t *testing.T, v string) {
	t.Helper()
	d, err := time.Parse(http.TimeFormat, v)
	if err != nil {
		t.Errorf("Date %q: %v", v, err)
	} else if diff := time.Since(d); diff > 10*time.Second || diff < -10*time.Second {
		t.Errorf("Date %q is %v from now", v, diff)
	}
}

// dateGrowth is how much longer a real Date value (29 bytes, "Mon, 02 Jan
// 2006 15:04:05 GMT") is than "DATE".
const dateGrowth = len("Mon, 02 Jan 2006 15:04:05 GMT") - len("DATE")

// head is rawHead with the Date value "DATE".
func head(ctype string, length int) string {
	return "HTTP/1.1 200 OK\r\nServer: faultserver\r\nDate: DATE\r\nContent-Type: " + ctype +
		"\r\nContent-Length: " + strconv.Itoa(length) + "\r\n\r\n"
}

// response reads one response from br and its whole body.
func response(t *testing.T, br *bufio.Reader, path string) (*http.Response, string) {
	t.Helper()
	resp, err := http.ReadResponse(br, &http.Request{Method: "GET"})
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: body: %v", path, err)
	}
	return resp, string(b)
}

// wantAnswer checks status, the exact header set (Server, Date,
// Content-Type, Content-Length) and body of a response.
func wantAnswer(t *testing.T, resp *http.Response, body string, status int, ctype, wantBody string) {
	t.Helper()
	var keys []string
	for k := range resp.Header {
		keys = append(keys, k)
	}
	if len(keys) != 4 || resp.Header.Get("Server") != "faultserver" || resp.Header.Get("Content-Type") != ctype ||
		resp.Header.Get("Content-Length") != strconv.Itoa(len(wantBody)) || resp.Header.Get("Date") == "" {
		t.Errorf("headers %v, want exactly Server faultserver, Date, Content-Type %s, Content-Length %d", resp.Header, ctype, len(wantBody))
	}
	checkDate(t, resp.Header.Get("Date"))
	if resp.StatusCode != status || body != wantBody {
		t.Errorf("status %d body %q, want %d %q", resp.StatusCode, body, status, wantBody)
	}
}

// ok mode: both test paths answer by the TFB rules on one keep-alive
// connection; /pids lists no children in-process; other paths are 404 and
// do not count (the database paths: cheat_test.go).
func TestOK(t *testing.T) {
	t.Parallel()
	s := start(t, Config{})
	c := dial(t, s.Addr())
	br := bufio.NewReader(c)
	for _, p := range []struct{ path, ctype, body string }{
		{"/json", "application/json", `{"message":"Hello, World!"}`},
		{"/plaintext", "text/plain", "Hello, World!"},
		{"/json", "application/json", `{"message":"Hello, World!"}`},
	} {
		send(t, c, p.path)
		resp, body := response(t, br, p.path)
		wantAnswer(t, resp, body, 200, p.ctype, p.body)
	}
	send(t, c, "/pids")
	if _, body := response(t, br, "/pids"); body != fmt.Sprintf(`{"self":%d,"children":[]}`+"\n", os.Getpid()) {
		t.Errorf("/pids %q", body)
	}
	send(t, c, "/queries")
	if resp, _ := response(t, br, "/queries"); resp.StatusCode != 404 {
		t.Errorf("/queries status %d, want 404", resp.StatusCode)
	}
	if n := s.Served(); n != 3 {
		t.Errorf("Served %d, want 3 (/json, /plaintext, /json)", n)
	}
}

// never-ready: After=1 answers once, then 503 "not ready\n".
func TestNeverReady(t *testing.T) {
	t.Parallel()
	s := start(t, Config{Mode: ModeNeverReady, After: 1})
	c := dial(t, s.Addr())
	br := bufio.NewReader(c)
	send(t, c, "/json")
	resp, body := response(t, br, "/json")
	wantAnswer(t, resp, body, 200, "application/json", JSONBody)
	for range 2 {
		send(t, c, "/json")
		resp, body = response(t, br, "/json")
		wantAnswer(t, resp, body, 503, "text/plain", "not ready\n")
	}
}

// garbage: After=1 answers once; the next request gets exactly the 11
// garbage bytes, then EOF.
func TestGarbage(t *testing.T) {
	t.Parallel()
	s := start(t, Config{Mode: ModeGarbage, After: 1})
	c := dial(t, s.Addr())
	br := bufio.NewReader(c)
	send(t, c, "/json")
	resp, body := response(t, br, "/json")
	wantAnswer(t, resp, body, 200, "application/json", JSONBody)
	send(t, c, "/json")
	rest, err := io.ReadAll(br)
	if err != nil || string(rest) != "\x00\xffgarbage\r\n" {
		t.Errorf("after the garbage request: %q, %v; want %q then EOF", rest, err, "\x00\xffgarbage\r\n")
	}
}

// reset: the request is answered by a TCP RST, no byte.
func TestReset(t *testing.T) {
	t.Parallel()
	s := start(t, Config{Mode: ModeReset})
	c := dial(t, s.Addr())
	send(t, c, "/json")
	b, err := readFor(c, time.Second)
	if len(b) != 0 || !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("read %q, %v; want nothing, connection reset by peer", b, err)
	}
}

// hang: no byte, the connection stays open (the read times out); Close
// ends the held connection (EOF) and returns.
func TestHang(t *testing.T) {
	t.Parallel()
	s := start(t, Config{Mode: ModeHang})
	c := dial(t, s.Addr())
	send(t, c, "/json")
	b, err := readFor(c, 200*time.Millisecond)
	if len(b) != 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("read %q, %v; want nothing, the deadline", b, err)
	}
	if n := s.Served(); n != 1 {
		t.Errorf("Served %d, want 1", n)
	}
	s.Close()
	b, err = readFor(c, time.Second)
	if len(b) != 0 || err != io.EOF {
		t.Errorf("after Close: read %q, %v; want nothing, EOF", b, err)
	}
}

// length-long: headers with Content-Length 100, the 27-byte body, then the
// connection is held without another byte.
func TestLengthLong(t *testing.T) {
	t.Parallel()
	s := start(t, Config{Mode: ModeLengthLong})
	c := dial(t, s.Addr())
	send(t, c, "/json")
	b, err := readFor(c, 200*time.Millisecond)
	if want := head("application/json", 100) + `{"message":"Hello, World!"}`; scrubDate(t, b) != want || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("read %q, %v; want %q, then the deadline (held open)", b, err, want)
	}
}

// length-short: Content-Length 10 before the whole body, for every request
// of the connection; a client reading it takes 10 body bytes and finds the
// rest where the next status line should be.
func TestLengthShort(t *testing.T) {
	t.Parallel()
	s := start(t, Config{Mode: ModeLengthShort})
	c := dial(t, s.Addr())
	first := head("application/json", 10) + JSONBody
	second := head("text/plain", 10) + PlaintextBody
	send(t, c, "/json")
	b1 := readN(t, c, len(first)+dateGrowth)
	send(t, c, "/plaintext")
	b2 := readN(t, c, len(second)+dateGrowth)
	if got := scrubDate(t, b1) + scrubDate(t, b2); got != first+second {
		t.Errorf("stream %q, want %q", got, first+second)
	}
	if b, err := readFor(c, 100*time.Millisecond); len(b) != 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("then %q, %v; want nothing more, connection open", b, err)
	}
	if n := s.Served(); n != 2 {
		t.Errorf("Served %d, want 2", n)
	}

	br := bufio.NewReader(bytes.NewReader(append(b1, b2...)))
	resp, body := response(t, br, "/json")
	if resp.StatusCode != 200 || body != `{"message"` {
		t.Errorf("as HTTP: status %d body %q, want 200 %q", resp.StatusCode, body, `{"message"`)
	}
	if _, err := http.ReadResponse(br, nil); err == nil || !strings.Contains(err.Error(), "malformed HTTP") {
		t.Errorf("next response: %v, want malformed HTTP …", err)
	}
}

// drip: one byte per 100 ms; within 350 ms at most 4 bytes (at 0, 100,
// 200, 300 ms), the start of the correct response.
func TestDrip(t *testing.T) {
	t.Parallel()
	s := start(t, Config{Mode: ModeDrip})
	c := dial(t, s.Addr())
	send(t, c, "/plaintext")
	b, err := readFor(c, 350*time.Millisecond)
	if len(b) < 1 || len(b) > 4 || !strings.HasPrefix("HTTP/1.1 200 OK\r\n", string(b)) || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("in 350 ms: %q, %v; want 1 to 4 bytes of %q, connection open", b, err, "HTTP/1.1 200 OK")
	}
}

// huge: 200 with Content-Length HugeBytes and a body of exactly that size,
// valid JSON for /json; the default is 50 MiB (only the headers are read);
// a size below the envelope cuts it.
func TestHuge(t *testing.T) {
	t.Parallel()
	const size = 1<<20 + 3
	s := start(t, Config{Mode: ModeHuge, HugeBytes: size})
	c := dial(t, s.Addr())
	br := bufio.NewReader(c)
	send(t, c, "/json")
	resp, body := response(t, br, "/json")
	var v struct{ Message, Pad string }
	if err := json.Unmarshal([]byte(body), &v); err != nil || resp.StatusCode != 200 || resp.ContentLength != size || len(body) != size ||
		v.Message != "Hello, World!" || v.Pad != strings.Repeat("x", size-36) {
		t.Errorf("/json: status %d, Content-Length %d, %d bytes, json error %v, message %q; want 200, %d, %d, valid, Hello, World! and 'x' padding",
			resp.StatusCode, resp.ContentLength, len(body), err, v.Message, size, size)
	}
	send(t, c, "/plaintext")
	resp, body = response(t, br, "/plaintext")
	if resp.Header.Get("Content-Type") != "text/plain" || body != "Hello, World!"+strings.Repeat("x", size-13) {
		t.Errorf("/plaintext: %s, %d bytes starting %.20q; want text/plain, Hello, World! and 'x' padding to %d", resp.Header.Get("Content-Type"), len(body), body, size)
	}

	def := start(t, Config{Mode: ModeHuge})
	c = dial(t, def.Addr())
	send(t, c, "/json")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.ContentLength != 52428800 {
		t.Errorf("default: %v, Content-Length %d; want 52428800", err, resp.ContentLength)
	}
	c.Close() // the server stops writing at its first failed write; Close waits for it

	tiny := start(t, Config{Mode: ModeHuge, HugeBytes: 10})
	c = dial(t, tiny.Addr())
	send(t, c, "/json")
	if resp, body := response(t, bufio.NewReader(c), "/json"); body != `{"message"` || resp.ContentLength != 10 {
		t.Errorf("HugeBytes 10: Content-Length %d body %q; want 10 %q", resp.ContentLength, body, `{"message"`)
	}
}

// racy: alone every answer is right; with requests on 4 connections at
// once some answer is {"message":"Hello, World?"} and no other body occurs.
func TestRacy(t *testing.T) {
	t.Parallel()
	s := start(t, Config{Mode: ModeRacy})
	c := dial(t, s.Addr())
	br := bufio.NewReader(c)
	for range 5 {
		send(t, c, "/json")
		resp, body := response(t, br, "/json")
		wantAnswer(t, resp, body, 200, "application/json", JSONBody)
	}
	wrong := 0
	for try := 0; try < 20 && wrong == 0; try++ {
		conns := make([]net.Conn, 4)
		for i := range conns {
			conns[i] = dial(t, s.Addr())
		}
		for _, c := range conns {
			send(t, c, "/json")
		}
		for _, c := range conns {
			_, body := response(t, bufio.NewReader(c), "/json")
			switch body {
			case `{"message":"Hello, World?"}`:
				wrong++
			case JSONBody:
			default:
				t.Fatalf("body %q", body)
			}
			c.Close()
		}
	}
	if wrong == 0 {
		t.Error("20 times 4 requests at once, all answered right; want a wrong body")
	}
}

// pipeline sends n requests for /json at once on one connection and
// returns the responses' statuses and the bodies of the non-200 ones.
func pipeline(t *testing.T, addr string, n int) (statuses []int, bodies []string) {
	t.Helper()
	c := dial(t, addr)
	if _, err := io.WriteString(c, strings.Repeat("GET /json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", n)); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	for range n {
		resp, body := response(t, br, "/json")
		statuses = append(statuses, resp.StatusCode)
		if resp.StatusCode != 200 {
			wantAnswer(t, resp, body, resp.StatusCode, "text/plain", body)
			bodies = append(bodies, body)
		} else if body != JSONBody {
			t.Errorf("200 body %q", body)
		}
	}
	return statuses, bodies
}

// 23 requests, After 3: requests 13 and 23 (the 10th and 20th after After).
var want500 = []int{200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 500,
	200, 200, 200, 200, 200, 200, 200, 200, 200, 500}

// every10th-500: with After 3, exactly requests 13 and 23 of 23 get 500
// with its body.
func TestEvery10th500(t *testing.T) {
	t.Parallel()
	s := start(t, Config{Mode: ModeEvery10th500, After: 3})
	statuses, bodies := pipeline(t, s.Addr(), 23)
	if fmt.Sprint(statuses) != fmt.Sprint(want500) || fmt.Sprint(bodies) != "[internal error (every 10th request) internal error (every 10th request)]" {
		t.Errorf("statuses %v bodies %q, want %v and 2 × %q", statuses, bodies, want500, Every10thBody)
	}
}

// busy: as every10th-500 with the SQLITE_BUSY body, and one log line per
// 500.
func TestBusy(t *testing.T) {
	t.Parallel()
	var log testenv.SyncBuffer
	s := start(t, Config{Mode: ModeBusy, After: 3, Log: &log})
	statuses, bodies := pipeline(t, s.Addr(), 23)
	if fmt.Sprint(statuses) != fmt.Sprint(want500) || fmt.Sprint(bodies) != "[database is locked (5) (SQLITE_BUSY) database is locked (5) (SQLITE_BUSY)]" {
		t.Errorf("statuses %v bodies %q, want %v and 2 × %q", statuses, bodies, want500, BusyBody)
	}
	if want := strings.Repeat("faultserver: GET /json: database is locked (5) (SQLITE_BUSY)\n", 2); log.String() != want {
		t.Errorf("log %q, want %q", log.String(), want)
	}
}

// crash (Start): After 2 answers twice; the third request's connection
// closes without a byte and the port refuses connections from then on.
func TestCrash(t *testing.T) {
	t.Parallel()
	s := start(t, Config{Mode: ModeCrash, After: 2})
	c := dial(t, s.Addr())
	br := bufio.NewReader(c)
	for range 2 {
		send(t, c, "/json")
		resp, body := response(t, br, "/json")
		wantAnswer(t, resp, body, 200, "application/json", JSONBody)
	}
	send(t, c, "/json")
	if b, err := io.ReadAll(br); len(b) != 0 || err != nil {
		t.Errorf("crash request: %q, %v; want EOF at once", b, err)
	}
	if c2, err := net.Dial("tcp", s.Addr()); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("connect after the crash: %v, want connection refused", err)
		if err == nil {
			c2.Close()
		}
	}
	if n := s.Served(); n != 3 {
		t.Errorf("Served %d, want 3", n)
	}
}

// crash through Handler: a given Crash is called once; without one every
// connection from then on closes without a byte while the listener still
// accepts.
func TestCrashHandler(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	ts := httptest.NewServer(Handler(Config{Mode: ModeCrash, Crash: func() { calls.Add(1) }}))
	defer ts.Close()
	for range 2 {
		c := dial(t, ts.Listener.Addr().String())
		send(t, c, "/json")
		if b, err := readFor(c, time.Second); len(b) != 0 || err != io.EOF {
			t.Errorf("read %q, %v; want EOF", b, err)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("Crash called %d times, want 1", n)
	}

	nilCrash := httptest.NewServer(Handler(Config{Mode: ModeCrash, After: 1}))
	defer nilCrash.Close()
	c := dial(t, nilCrash.Listener.Addr().String())
	br := bufio.NewReader(c)
	send(t, c, "/plaintext")
	resp, body := response(t, br, "/plaintext")
	wantAnswer(t, resp, body, 200, "text/plain", PlaintextBody)
	send(t, c, "/plaintext")
	if b, err := io.ReadAll(br); len(b) != 0 || err != nil {
		t.Errorf("crash request: %q, %v; want EOF", b, err)
	}
	c = dial(t, nilCrash.Listener.Addr().String())
	send(t, c, "/json")
	if b, err := readFor(c, time.Second); len(b) != 0 || err != io.EOF {
		t.Errorf("a new connection: %q, %v; want accepted, then EOF", b, err)
	}
}

// ParseMode knows all 20 modes and names an unknown one with the list.
func TestParseMode(t *testing.T) {
	for _, m := range modes {
		if got, err := ParseMode(string(m)); got != m || err != nil {
			t.Errorf("ParseMode(%q) = %q, %v", m, got, err)
		}
	}
	if got, err := ParseMode(""); got != ModeOK || err != nil {
		t.Errorf(`ParseMode("") = %q, %v; want ok`, got, err)
	}
	_, err := ParseMode("slow")
	want := `unknown mode "slow" (have ok, never-ready, crash, hang, garbage, length-long, length-short, reset, drip, huge, racy, every10th-500, busy, escape, stubborn, cheat-json, cheat-fortunes, cheat-db, cheat-page, extra-response)`
	if err == nil || err.Error() != want {
		t.Errorf("ParseMode(slow): %v, want %s", err, want)
	}
}

// ConfigFromEnv reads the three variables, names the bad one, and reads
// back what Environ wrote.
func TestConfigFromEnv(t *testing.T) {
	for _, tc := range []struct {
		mode, after, huge string
		want              Config
		err               string
	}{
		{"", "", "", Config{Mode: ModeOK}, ""},
		{"crash", "30", "", Config{Mode: ModeCrash, After: 30}, ""},
		{"huge", "0", "1048576", Config{Mode: ModeHuge, HugeBytes: 1 << 20}, ""},
		{"Crash", "", "", Config{}, `FAULT_MODE: unknown mode "Crash" (have ok, `},
		{"hang", "-1", "", Config{}, `FAULT_AFTER "-1": not a whole number ≥ 0`},
		{"hang", "3x", "", Config{}, `FAULT_AFTER "3x": not a whole number ≥ 0`},
		{"huge", "", "63", Config{}, `FAULT_HUGE_BYTES "63": not a byte count ≥ 64`},
	} {
		t.Setenv(EnvMode, tc.mode)
		t.Setenv(EnvAfter, tc.after)
		t.Setenv(EnvHugeBytes, tc.huge)
		c, err := ConfigFromEnv()
		if tc.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
				t.Errorf("%+v: error %v, want %s…", tc, err, tc.err)
			}
			continue
		}
		if err != nil || c.Mode != tc.want.Mode || c.After != tc.want.After || c.HugeBytes != tc.want.HugeBytes {
			t.Errorf("%+v: %+v, %v; want %+v", tc, c, err, tc.want)
		}
	}

	environRoundTrip(t, Config{Mode: ModeHuge, After: 7, HugeBytes: 4096}, "[TFBENCH_FAULT_SERVER=1 FAULT_MODE=huge FAULT_AFTER=7 FAULT_HUGE_BYTES=4096]")
	if env := (Config{}).Environ(); fmt.Sprint(env) != "[TFBENCH_FAULT_SERVER=1 FAULT_MODE=ok FAULT_AFTER=0]" {
		t.Errorf("zero Config Environ %v", env)
	}
}

// environRoundTrip asserts that in.Environ() prints as want and that
// ConfigFromEnv reads it back as in (the fields the environment carries).
func environRoundTrip(t *testing.T, in Config, want string) {
	t.Helper()
	env := in.Environ()
	if fmt.Sprint(env) != want {
		t.Errorf("Environ %v, want %s", env, want)
	}
	t.Setenv(EnvHugeBytes, "")
	t.Setenv(EnvDatabase, "")
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	c, err := ConfigFromEnv()
	if err != nil || c.Mode != in.Mode || c.After != in.After || c.HugeBytes != in.HugeBytes || c.Database != in.Database {
		t.Errorf("round trip: %+v, %v; want %+v", c, err, in)
	}
}

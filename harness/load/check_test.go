package load

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"
)

// kept is one response as the parser keeps it for a check.
type kept struct {
	status int
	header http.Header
	body   string
}

// headerOf reads kept header lines ("Name: value\r\n" each) into an
// http.Header, keys canonical, values trimmed: what the tests compare.
func headerOf(tb testing.TB, head []byte) http.Header {
	tb.Helper()
	h := http.Header{}
	for l := range strings.SplitSeq(string(head), "\r\n") {
		if l == "" {
			continue
		}
		name, value, ok := strings.Cut(l, ":")
		if !ok {
			tb.Fatalf("kept header line %q has no colon", l)
		}
		h.Add(name, strings.Trim(value, " \t"))
	}
	if len(head) > 0 && !bytes.HasSuffix(head, []byte("\r\n")) {
		tb.Fatalf("kept header lines %q do not end with CRLF", head)
	}
	return h
}

// With keep set the parser keeps each response's header lines as received,
// each followed by CRLF (Content-Length and Transfer-Encoding included,
// trailers and interim responses' headers not), and its whole body, decoded
// if chunked, whatever the reads and the buffer size.
func TestParseKeep(t *testing.T) {
	cases := []struct {
		file string
		want []kept
	}{
		{"content-length.http", []kept{{200, http.Header{
			"Server": {"x"}, "Date": {"Mon, 02 Jan 2006 15:04:05 GMT"}, "Content-Type": {"text/plain"}, "Content-Length": {"13"},
		}, "Hello, World!"}}},
		{"chunked-ext-trailers.http", []kept{{200, http.Header{
			"Content-Type": {"text/html; charset=utf-8"}, "Transfer-Encoding": {"chunked"},
		}, "Hello" + "abcdefghijklmnopqrstuvwxyz" + "0123456789"}}},
		{"pipelined.http", []kept{
			{200, http.Header{"Content-Length": {"27"}}, `{"message":"Hello, World!"}`},
			{500, http.Header{"Transfer-Encoding": {"gzip, chunked"}}, "err"},
			{204, http.Header{"Content-Length": {"0"}}, ""},
			{404, http.Header{"Content-Length": {"9"}, "Connection": {"keep-alive, Close"}}, "not found"},
		}},
		{"close-delimited.http", []kept{{200, http.Header{"Content-Type": {"text/plain"}}, "body until the server closes\n"}}},
	}
	for _, c := range cases {
		data, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		for rname, wrap := range testReaders {
			for _, size := range []int{16, readBufSize} {
				p := newParser(wrap(bytes.NewReader(data)), size)
				p.keep = true
				var got []kept
				for {
					resp, err := p.next()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatalf("%s (%s reader, %d-byte buffer): %v", c.file, rname, size, err)
					}
					if resp.body != int64(len(p.body)) {
						t.Errorf("%s (%s reader, %d-byte buffer): counted %d body bytes, kept %d", c.file, rname, size, resp.body, len(p.body))
					}
					got = append(got, kept{resp.status, headerOf(t, p.head), string(p.body)})
				}
				if !reflect.DeepEqual(got, c.want) {
					t.Errorf("%s (%s reader, %d-byte buffer): kept\n%+v\nwant\n%+v", c.file, rname, size, got, c.want)
				}
			}
		}
	}
}

// Header lines are kept byte for byte, in order, a bare LF ending made CRLF;
// the Date value is kept apart (the first Date line's, white space trimmed).
func TestParseKeepRepeatedHeaders(t *testing.T) {
	in := "HTTP/1.1 200 OK\r\nset-cookie: a=1\nX-ID:  7 \r\nDATE:  Mon, 02 Jan 2006 15:04:05 GMT \r\nSET-COOKIE: b=2\r\ndate: x\r\nContent-Length: 2\r\n\r\nok"
	p := newParser(strings.NewReader(in), readBufSize)
	p.keep = true
	if _, err := p.next(); err != nil {
		t.Fatal(err)
	}
	want := "set-cookie: a=1\r\nX-ID:  7 \r\nDATE:  Mon, 02 Jan 2006 15:04:05 GMT \r\nSET-COOKIE: b=2\r\ndate: x\r\nContent-Length: 2\r\n"
	if string(p.head) != want || string(p.body) != "ok" || string(p.date[:p.dateN]) != "Mon, 02 Jan 2006 15:04:05 GMT" {
		t.Errorf("kept %q %q, Date %q; want %q %q, Date %q", p.head, p.body, p.date[:p.dateN], want, "ok", "Mon, 02 Jan 2006 15:04:05 GMT")
	}
}

// checkCall is one call of a recording Check.
type checkCall struct {
	status int
	header http.Header
	body   string
	after  int64 // responses the connection had counted when Check ran
}

// On one connection in a one-hour window, Check sees every response with its
// exact header lines and body as each is parsed, and the rounds allocate
// nothing: the kept header and body buffers are reused.
func TestRoundChecksEvery(t *testing.T) {
	k := fakeRound(t, 16)
	var calls []checkCall
	k.p.Check = func(status int, head, body []byte) error {
		calls = append(calls, checkCall{status, headerOf(t, head), string(body), k.tally.responses})
		return nil
	}
	for range 100 {
		if !k.round() {
			t.Fatal("round ended the run")
		}
	}
	if len(calls) != 1600 || k.tally.checked != 1600 {
		t.Fatalf("%d calls, %d counted as checked; want every one of 1600 responses", len(calls), k.tally.checked)
	}
	want := http.Header{"Server": {"x"}, "Date": {"Mon, 02 Jan 2006 15:04:05 GMT"}, "Content-Type": {"text/plain"}, "Content-Length": {"13"}}
	for i, c := range calls {
		if c.status != 200 || !reflect.DeepEqual(c.header, want) || c.body != "Hello, World!" || c.after != int64(i+1) {
			t.Fatalf("call %d: %d %v %q after %d responses; want 200 %v %q after %d", i, c.status, c.header, c.body, c.after, want, "Hello, World!", i+1)
		}
	}
	if k.tally.errors[classIndex(Check)] != 0 {
		t.Errorf("%d check errors, want 0", k.tally.errors[classIndex(Check)])
	}
	k.p.Check = func(int, []byte, []byte) error { return nil }
	allocs := testing.AllocsPerRun(1000, func() { k.round() })
	if allocs != 0 {
		t.Errorf("%.1f allocations per round of 16 checked responses, want 0", allocs)
	}
}

// Above CheckEvery 1 the checked responses are drawn from the seed: the
// connection's first, then about 1 in CheckEvery at positions no schedule
// fixes; the same seed draws the same positions, another seed others.
func TestRoundChecksRandom(t *testing.T) {
	positions := func(seed uint64) []int64 {
		k := fakeRound(t, 16)
		k.p.CheckEvery, k.p.CheckSeed = 10, seed
		k.rng = k.p.newRand(0)
		var at []int64
		k.p.Check = func(int, []byte, []byte) error {
			at = append(at, k.tally.responses) // counted before it is checked
			return nil
		}
		for range 100 {
			k.round()
		}
		if int64(len(at)) != k.tally.checked {
			t.Fatalf("seed %d: %d calls, %d counted as checked", seed, len(at), k.tally.checked)
		}
		return at
	}
	a, again, b := positions(7), positions(7), positions(8)
	// 1600 responses at 1 in 10: 160 expected, sd 12.
	if len(a) < 110 || len(a) > 210 || a[0] != 1 {
		t.Errorf("seed 7: %d checked, first at %d; want 110..210 of 1600, the first at 1", len(a), a[0])
	}
	if !slices.Equal(a, again) || slices.Equal(a, b) {
		t.Errorf("seed 7 twice gave the same positions %v, seed 8 other positions %v; want true, true", slices.Equal(a, again), !slices.Equal(a, b))
	}
	gaps := map[int64]bool{}
	for i := 1; i < len(a); i++ {
		gaps[a[i]-a[i-1]] = true
	}
	if len(gaps) < 10 {
		t.Errorf("gaps between checked positions take %d values, want >= 10 (no fixed schedule): %v", len(gaps), a[:min(20, len(a))])
	}
}

// The gap to the next checked response is geometric: 0 for u = 0, a mean of
// every-1.
func TestCheckGap(t *testing.T) {
	if g := gap(0, 100); g != 0 {
		t.Errorf("gap(0, 100) = %d, want 0", g)
	}
	var sum int
	const n = 10000
	for i := range n {
		sum += gap((float64(i)+0.5)/n, 100)
	}
	if mean := float64(sum) / n; mean < 98 || mean > 100 {
		t.Errorf("mean gap %.2f at 1 in 100, want 99 ± 1", mean)
	}
}

// A failing check counts as class Check with "check GET <path>: response N
// on its connection: <error>", and the response still counts as a 200.
func TestRoundCheckFails(t *testing.T) {
	k := fakeRound(t, 1)
	k.p.Check = func(int, []byte, []byte) error { return errors.New(`body "Hello, World!", want "Hi"`) }
	k.round()
	k.p.Check = func(int, []byte, []byte) error { return nil }
	k.round()
	k.p.Check = func(int, []byte, []byte) error { return errors.New("not this one") }
	k.round()
	tl := &k.tally
	if tl.responses != 3 || tl.success != 3 || tl.checked != 3 || tl.errors[classIndex(Check)] != 2 {
		t.Errorf("%d responses, %d successes, %d checked, %d check errors; want 3, 3, 3, 2",
			tl.responses, tl.success, tl.checked, tl.errors[classIndex(Check)])
	}
	if want := `check GET /plaintext: response 1 on its connection: body "Hello, World!", want "Hi"`; tl.example[classIndex(Check)] != want {
		t.Errorf("example %q, want %q", tl.example[classIndex(Check)], want)
	}
}

// A Date value seen again more than DateStale after it was first seen on the
// connection (from that response's completion to the later request's send)
// fails; a new value starts a new span; a new connection forgets the old.
func TestDateAge(t *testing.T) {
	k := fakeRound(t, 1)
	k.p.DateStale = 2 * time.Second
	t0 := time.Unix(1000, 0)
	at := func(date string, sent time.Duration) error {
		k.parse.dateN = copy(k.parse.date[:], date)
		return k.dateAge(t0.Add(sent), t0.Add(sent+time.Millisecond))
	}
	d1, d2 := "Sat, 05 Dec 2026 00:00:01 GMT", "Sat, 05 Dec 2026 00:00:02 GMT"
	steps := []struct {
		date string
		sent time.Duration
		want string
	}{
		{d1, 0, ""},
		{d1, 1900 * time.Millisecond, ""},
		{d2, 2100 * time.Millisecond, ""}, // new value: its span starts at 2.101 s
		{d2, 4 * time.Second, ""},
		{d2, 4200 * time.Millisecond, `Date "Sat, 05 Dec 2026 00:00:02 GMT" unchanged for 2.1 s on this connection, want a new value at least every 2s (a cached Date)`},
	}
	for i, s := range steps {
		err := at(s.date, s.sent)
		if got := fmt.Sprint(err); (err == nil) != (s.want == "") || (err != nil && got != s.want) {
			t.Errorf("step %d (%s at %s): error %v, want %q", i, s.date, s.sent, err, s.want)
		}
	}
	k.reconnected()
	if err := at(d2, 9*time.Second); err != nil {
		t.Errorf("after a reconnect: %v, want none", err)
	}
}

// helloJSON is the JSON test's body.
const helloJSON = `{"message":"Hello, World!"}`

// checkHello is a Check for helloJSON bodies.
func checkHello(status int, head, body []byte) error {
	if string(body) != helloJSON {
		return fmt.Errorf("body %q, want %q", body, helloJSON)
	}
	return nil
}

// wrongUnderConcurrency answers helloJSON, but a wrong body when another
// request is being handled at the same time. Each request takes 2 ms, so
// that requests on different connections overlap.
func wrongUnderConcurrency() http.HandlerFunc {
	var inFlight atomic.Int64
	return func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		time.Sleep(2 * time.Millisecond)
		if n > 1 || inFlight.Load() > 1 {
			io.WriteString(w, `{"message":"Hello, World?"}`)
		} else {
			io.WriteString(w, helloJSON)
		}
		inFlight.Add(-1)
	}
}

// A server that returns a wrong body only under concurrency fails checks at
// 4 connections and passes them at 1.
func TestRunCheckWrongUnderConcurrency(t *testing.T) {
	s := newServer(t, wrongUnderConcurrency())
	o := Options{Addr: s.addr(), Path: "/json", Connections: 4, Duration: 500 * time.Millisecond, Timeout: 2 * time.Second, Check: checkHello}
	r := run(t, o)
	if r.Checked != r.Responses || r.Errors[Check] == 0 || r.Errors[Check] > r.Checked {
		t.Errorf("%d checked of %d responses, %d check errors; want every one checked, some failed", r.Checked, r.Responses, r.Errors[Check])
	}
	if want := regexp.MustCompile(`^check GET /json: response \d+ on its connection: body "\{\\"message\\":\\"Hello, World\?\\"\}", want "\{\\"message\\":\\"Hello, World!\\"\}"$`); !want.MatchString(r.Examples[Check]) {
		t.Errorf("example %q, want a match for %s", r.Examples[Check], want)
	}
	if r.Success != r.Responses || r.StatusCounts[200] != r.Responses || r.SocketErrors() != 0 {
		t.Errorf("%d responses, %d successes, statuses %v, socket errors %d; want all counted as 200, none",
			r.Responses, r.Success, r.StatusCounts, r.SocketErrors())
	}

	// One connection to a fresh server (none of the requests above still in
	// its handler): one request at a time, every body right, every one checked.
	s.Close()
	o.Addr, o.Connections = newServer(t, wrongUnderConcurrency()).addr(), 1
	r = run(t, o)
	if r.Responses == 0 || r.Connects != 0 || len(r.Errors) != 0 || r.Checked != r.Responses {
		t.Errorf("1 connection: %d responses, %d reconnects, errors %v %v, %d checked; want > 0, 0, none, all",
			r.Responses, r.Connects, r.Errors, r.Examples, r.Checked)
	}
}

// Every response is checked, on every connection and across reconnects (a
// server closing every connection), each once.
func TestRunCheckEveryConnection(t *testing.T) {
	var mu sync.Mutex
	var calls int
	check := func(status int, h, body []byte) error {
		mu.Lock()
		calls++
		mu.Unlock()
		return checkHello(status, h, body)
	}
	slow := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(20 * time.Millisecond)
		io.WriteString(w, helloJSON)
	})
	r := run(t, Options{Addr: slow.addr(), Path: "/json", Connections: 4, Duration: 500 * time.Millisecond, Timeout: 2 * time.Second, Check: check})
	if r.Responses < 4 || r.Responses > 4*25 || r.Connects != 0 || r.Checked != r.Responses || calls != int(r.Responses) || len(r.Errors) != 0 {
		t.Errorf("%d responses, %d reconnects, %d checked, %d calls, errors %v; want 4..100, 0, every one checked once, none",
			r.Responses, r.Connects, r.Checked, calls, r.Errors)
	}

	calls = 0
	closing := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		io.WriteString(w, helloJSON)
	})
	r = run(t, Options{Addr: closing.addr(), Path: "/json", Connections: 2, Duration: 200 * time.Millisecond, Timeout: 2 * time.Second, Check: check})
	if r.Responses < 10 || r.Checked != r.Responses || calls != int(r.Responses) || len(r.Errors) != 0 {
		t.Errorf("Connection: close: %d responses, %d checked, %d calls, errors %v; want >= 10, every response checked once, none",
			r.Responses, r.Checked, calls, r.Errors)
	}
	if r.Uncorrected != nil {
		t.Errorf("Uncorrected is set in closed-loop mode")
	}
}

// Check gets the header as the server sent it and the whole body: decoded
// from many chunks, or read by Content-Length.
func TestRunCheckExactHeaderAndBody(t *testing.T) {
	page := strings.Repeat("<tr><td>11</td><td>&lt;script&gt;</td></tr>", 50) // 2150 bytes
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Server", "test")
		if r.URL.Path == "/length" {
			w.Header().Set("Content-Length", fmt.Sprint(len(page)))
			io.WriteString(w, page)
			return
		}
		f := w.(http.Flusher)
		for i := 0; i < len(page); i += 100 {
			io.WriteString(w, page[i:min(i+100, len(page))])
			f.Flush()
		}
	})
	for _, c := range []struct {
		path    string
		framing http.Header
	}{
		{"/chunked", http.Header{"Transfer-Encoding": {"chunked"}}},
		{"/length", http.Header{"Content-Length": {"2150"}}},
	} {
		var mu sync.Mutex
		var bad []string
		var calls int
		check := func(status int, head, body []byte) error {
			h := headerOf(t, head)
			mu.Lock()
			defer mu.Unlock()
			calls++
			if _, err := http.ParseTime(h.Get("Date")); err != nil {
				bad = append(bad, "Date: "+err.Error())
			}
			got := h.Clone()
			got.Del("Date")
			want := http.Header{"Content-Type": {"text/html; charset=utf-8"}, "Server": {"test"}}
			maps.Copy(want, c.framing)
			if status != 200 || !reflect.DeepEqual(got, want) || string(body) != page {
				bad = append(bad, fmt.Sprintf("%d %v, %d-byte body; want 200 %v, the %d-byte page", status, got, len(body), want, len(page)))
			}
			return nil
		}
		r := run(t, Options{Addr: s.addr(), Path: c.path, Connections: 2, Duration: 200 * time.Millisecond, Timeout: 2 * time.Second,
			Check: check})
		if r.Responses == 0 || r.Checked != r.Responses || calls != int(r.Responses) || len(r.Errors) != 0 {
			t.Errorf("%s: %d responses, %d checked, %d calls, errors %v; want > 0 and every one checked once, no errors",
				c.path, r.Responses, r.Checked, calls, r.Errors)
		}
		if len(bad) > 0 {
			t.Errorf("%s: %d of %d checks got the wrong response; first: %s", c.path, len(bad), calls, bad[0])
		}
	}
}

// Check errors are not socket errors.
func TestResultCheckErrorsAreNotSocketErrors(t *testing.T) {
	r := &Result{Errors: map[Class]int64{Read: 2, Check: 7, Status: 1}}
	if got := r.SocketErrors(); got != 2 {
		t.Errorf("SocketErrors %d, want 2 (check and status errors excluded)", got)
	}
	if want := []Class{Connect, Read, Write, Timeout, Status, Check, Generator}; !slices.Equal(Classes, want) || len(Classes) != numClasses {
		t.Errorf("Classes %v, want %v", Classes, want)
	}
	var tl tally
	tl.checked = 3
	tl.fail(Check, time.Unix(1, 0), func() string { return "check GET /db: bad" })
	var m Result
	m.merge([]*tally{&tl, {checked: 2}})
	if m.Checked != 5 || m.Errors[Check] != 1 || m.Examples[Check] != "check GET /db: bad" {
		t.Errorf("merged: %d checked, errors %v, examples %v; want 5, 1 check error with its example", m.Checked, m.Errors, m.Examples)
	}
}

// BenchmarkRoundChecked is BenchmarkRound with a trivial Check on every
// response and the Date rule: the generator's own cost of checking (keeping
// header lines and body), without the test type's rule (verify's benchmarks).
func BenchmarkRoundChecked(b *testing.B) {
	for _, depth := range []int{1, 16} {
		b.Run(fmt.Sprintf("pipeline-%d", depth), func(b *testing.B) {
			k := fakeRound(b, depth)
			k.p.Check = func(int, []byte, []byte) error { return nil }
			k.p.DateStale = 24 * time.Hour
			b.ReportAllocs()
			for b.Loop() {
				k.round()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*depth), "ns/response")
		})
	}
}

// Run refuses bad check and rate options with errors naming the fields.
func TestOptionsValidateCheckAndRate(t *testing.T) {
	good := Options{Addr: "127.0.0.1:8080", Path: "/json", Connections: 4, Duration: 10 * time.Second, Timeout: 2 * time.Second}
	cfg, err := good.validate()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.CheckEvery != 1 || cfg.seed() != 0 || cfg.interval != 0 || cfg.maxMicros != 2_000_000 || cfg.maxUMicros != 2_000_000 {
		t.Errorf("closed loop: CheckEvery %d, seed %d, interval %v ns, maxMicros %d, maxUMicros %d; want 1, 0, 0, 2000000, 2000000",
			cfg.CheckEvery, cfg.seed(), cfg.interval, cfg.maxMicros, cfg.maxUMicros)
	}
	sampled := good
	sampled.CheckEvery = 10
	if cfg, err := sampled.validate(); err != nil || cfg.seed() == 0 {
		t.Errorf("CheckEvery 10: seed %d, %v; want a seed drawn", cfg.seed(), err)
	}
	good.Rate = 1000
	if cfg, err = good.validate(); err != nil {
		t.Fatal(err)
	}
	// 4 connections at 1000 requests/s: each sends every 4 ms. Corrected
	// latency can reach the window's length.
	if cfg.interval != 4e6 || cfg.maxMicros != 10_000_000 || cfg.maxUMicros != 2_000_000 {
		t.Errorf("Rate 1000: interval %v ns, maxMicros %d, maxUMicros %d; want 4e6, 10000000, 2000000", cfg.interval, cfg.maxMicros, cfg.maxUMicros)
	}
	cases := []struct {
		change func(*Options)
		want   string
	}{
		{func(o *Options) { o.CheckEvery = -1 }, "load: options: CheckEvery is -1, want >= 1"},
		{func(o *Options) { o.DateStale = -time.Second }, "load: options: DateStale is -1s, want >= 0 (0: no Date rule)"},
		{func(o *Options) { o.Rate = -5 }, "load: options: Rate is -5, want >= 0 requests/s (0: closed loop)"},
		{func(o *Options) { o.Rate = math.NaN() }, "load: options: Rate is NaN, want >= 0 requests/s (0: closed loop)"},
		{func(o *Options) { o.Pipeline = 16 },
			"load: options: Pipeline is 16 with Rate 1000 requests/s, want Pipeline 1 (constant-rate mode does not pipeline)"},
	}
	for _, c := range cases {
		o := good
		c.change(&o)
		if _, err := Run(context.Background(), o); err == nil || err.Error() != c.want {
			t.Errorf("Run: error %v, want %q", err, c.want)
		}
	}
}

// keepCapStream is a pipelined stream of bodies around maxKeptBytes: exactly
// 1 MiB (kept), 1 MiB + 1 by Content-Length, 1.5 MiB in three chunks (both
// dropped), then a small response (kept again).
func keepCapStream() ([]byte, []response) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", maxKeptBytes, strings.Repeat("a", maxKeptBytes))
	fmt.Fprintf(&b, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", maxKeptBytes+1, strings.Repeat("b", maxKeptBytes+1))
	b.WriteString("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
	for range 3 {
		fmt.Fprintf(&b, "%x\r\n%s\r\n", 512<<10, strings.Repeat("c", 512<<10))
	}
	b.WriteString("0\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
	return b.Bytes(), []response{{200, maxKeptBytes, false}, {200, maxKeptBytes + 1, false}, {200, 3 * 512 << 10, false}, {200, 2, false}}
}

// With keep set, a body up to maxKeptBytes is kept whole; a larger one is
// counted but not kept (body empty, dropped), by Content-Length or chunked;
// the next response is kept again.
func TestParseKeepCap(t *testing.T) {
	data, want := keepCapStream()
	for rname, wrap := range map[string]func(io.Reader) io.Reader{"whole": func(r io.Reader) io.Reader { return r }, "half": iotest.HalfReader} {
		p := newParser(wrap(bytes.NewReader(data)), readBufSize)
		p.keep = true
		for i, w := range want {
			resp, err := p.next()
			if err != nil || resp != w {
				t.Fatalf("%s reader, response %d: %+v, %v; want %+v", rname, i, resp, err, w)
			}
			kept := w.body <= maxKeptBytes
			if p.dropped == kept || (len(p.body) == 0) == kept || (kept && int64(len(p.body)) != w.body) {
				t.Errorf("%s reader, response %d (%d body bytes): dropped %v, kept %d bytes; want dropped %v",
					rname, i, w.body, p.dropped, len(p.body), !kept)
			}
		}
		if _, err := p.next(); err != io.EOF {
			t.Errorf("%s reader: stream ended with %v, want io.EOF", rname, err)
		}
	}
	// A body to the end of the stream over the cap is dropped too.
	p := newParser(strings.NewReader("HTTP/1.0 200 OK\r\n\r\n"+strings.Repeat("d", maxKeptBytes+10)), readBufSize)
	p.keep = true
	if resp, err := p.next(); err != nil || resp.body != maxKeptBytes+10 || !p.dropped || len(p.body) != 0 {
		t.Errorf("close-delimited: %+v, %v, dropped %v, kept %d bytes; want %d bytes counted, dropped", resp, err, p.dropped, len(p.body), maxKeptBytes+10)
	}
}

// A sampled response whose body was not kept fails its check without a
// call to Check, with the body's size in the example; one of exactly 1 MiB
// is passed to Check whole.
func TestRoundCheckOverKeepCap(t *testing.T) {
	data, want := keepCapStream()
	k := fakeRoundData(t, len(want), data)
	var sizes []int
	k.p.Check = func(status int, head, body []byte) error {
		sizes = append(sizes, len(body))
		return nil
	}
	if !k.round() {
		t.Fatal("round ended the run")
	}
	tl := &k.tally
	if tl.responses != 4 || tl.checked != 4 || tl.errors[classIndex(Check)] != 2 || !slices.Equal(sizes, []int{maxKeptBytes, 2}) {
		t.Errorf("%d responses, %d checked, %d check errors, Check saw bodies of %v bytes; want 4, 4, 2, [%d 2]",
			tl.responses, tl.checked, tl.errors[classIndex(Check)], sizes, maxKeptBytes)
	}
	if want := "check GET /plaintext: response 2 on its connection: body 1048577 bytes, over the 1 MiB kept for a check"; tl.example[classIndex(Check)] != want {
		t.Errorf("example %q, want %q", tl.example[classIndex(Check)], want)
	}
}

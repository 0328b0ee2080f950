package load

import (
	"io"
	"maps"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/tfbench/tfbench/internal/faultserver"
)

// hugeBytes is faultserver's huge body, bytes (50 MiB).
const hugeBytes = 50 << 20

// onlyClasses fails unless r's error classes are exactly want.
func onlyClasses(t *testing.T, r *Result, want ...Class) {
	t.Helper()
	got := slices.Sorted(maps.Keys(r.Errors))
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("error classes %v (%v, examples %v), want %v", got, r.Errors, r.Examples, want)
	}
}

// TestRunFaults runs engine raw for 300 ms (timeout rows 1 s) with 2 connections against each
// way a server can misbehave under load (an in-process faultserver per
// mode, from its first request unless after says otherwise) and asserts the
// outcome: which classes count, their exact first example, what is still
// counted as a response, and that nothing is blamed on the generator. Rows
// whose fault shows as a timeout use a 100 ms Timeout over a 1 s window:
// each connection times out at most once per 100 ms (at most 20 in all) and
// at least once, with 900 ms to spare for a busy machine; huge's 50 MiB
// bodies get 3 s.
func TestRunFaults(t *testing.T) {
	const window, timeoutWindow, shortTimeout = 300 * time.Millisecond, time.Second, 100 * time.Millisecond
	const hugeWindow = 3 * time.Second // a 50 MiB body must fit, however busy the machine
	cases := []struct {
		mode    faultserver.Mode
		after   int64 // requests answered correctly first
		timeout time.Duration
		check   bool
		want    func(t *testing.T, r *Result, addr string)
	}{
		{faultserver.ModeHang, 0, shortTimeout, false, func(t *testing.T, r *Result, addr string) {
			// Two connections time out every 100 ms or later (1 s is the
			// window's end, not counted).
			onlyClasses(t, r, Timeout)
			if n := r.Errors[Timeout]; n < 2 || n > 20 || r.Responses != 0 {
				t.Errorf("%d timeouts, %d responses; want 2..20, 0", n, r.Responses)
			}
			if want := "read " + addr + ": no complete response within 100ms"; r.Examples[Timeout] != want {
				t.Errorf("example %q, want %q", r.Examples[Timeout], want)
			}
		}},
		{faultserver.ModeGarbage, 0, 500 * time.Millisecond, false, func(t *testing.T, r *Result, addr string) {
			onlyClasses(t, r, Read)
			if r.Errors[Read] < 2 || r.Responses != 0 {
				t.Errorf("%d read errors, %d responses; want >= 2, 0", r.Errors[Read], r.Responses)
			}
			if want := "read " + addr + `: malformed status line "\x00\xffgarbage"`; r.Examples[Read] != want {
				t.Errorf("example %q, want %q", r.Examples[Read], want)
			}
		}},
		{faultserver.ModeLengthLong, 0, shortTimeout, false, func(t *testing.T, r *Result, addr string) {
			onlyClasses(t, r, Timeout)
			if n := r.Errors[Timeout]; n < 2 || n > 20 || r.Responses != 0 {
				t.Errorf("%d timeouts, %d responses; want 2..20, 0", n, r.Responses)
			}
			if want := "read " + addr + ": no complete response within 100ms"; r.Examples[Timeout] != want {
				t.Errorf("example %q, want %q", r.Examples[Timeout], want)
			}
		}},
		{faultserver.ModeLengthShort, 0, 500 * time.Millisecond, true, func(t *testing.T, r *Result, addr string) {
			// Each connection's first response is a 200 with a 10-byte body
			// (checked, wrong); the 17 bytes left answer no request, a read
			// error (or, if they come in a later read, start the next
			// response's status line, malformed); then the connection is
			// reopened and it starts again.
			onlyClasses(t, r, Read, Check)
			n := r.Responses
			if n < 2 || r.StatusCounts[200] != n || r.Checked != n || r.Errors[Check] != n || r.BodyBytes != 10*n {
				t.Errorf("%d responses, statuses %v, %d checked, %d check errors, %d body bytes; want >= 2, all 200, all checked and failed, 10 bytes each",
					n, r.StatusCounts, r.Checked, r.Errors[Check], r.BodyBytes)
			}
			if e := r.Errors[Read]; e < n-2 || e > n {
				t.Errorf("%d read errors for %d responses, want one after each (the last two may fall after the window)", e, n)
			}
			if want := `check GET /json: response 1 on its connection: body "{\"message\"", want "{\"message\":\"Hello, World!\"}"`; r.Examples[Check] != want {
				t.Errorf("check example %q, want %q", r.Examples[Check], want)
			}
			left := "read " + addr + `: 17 bytes after the last requested response (an unrequested response): ":\"Hello, World!\"}"`
			malformed := "read " + addr + `: malformed status line ":\"Hello, World!\"}HTTP/1.1 200 OK"`
			if r.Examples[Read] != left && r.Examples[Read] != malformed {
				t.Errorf("read example %q, want %q or %q", r.Examples[Read], left, malformed)
			}
		}},
		{faultserver.ModeReset, 0, 500 * time.Millisecond, false, func(t *testing.T, r *Result, addr string) {
			onlyClasses(t, r, Read)
			if r.Errors[Read] < 2 || r.Responses != 0 {
				t.Errorf("%d read errors, %d responses; want >= 2, 0", r.Errors[Read], r.Responses)
			}
			if want := "read " + addr + ": connection reset by peer"; r.Examples[Read] != want {
				t.Errorf("example %q, want %q", r.Examples[Read], want)
			}
		}},
		{faultserver.ModeDrip, 0, shortTimeout, false, func(t *testing.T, r *Result, addr string) {
			onlyClasses(t, r, Timeout)
			if n := r.Errors[Timeout]; n < 2 || n > 20 || r.Responses != 0 {
				t.Errorf("%d timeouts, %d responses; want 2..20, 0", n, r.Responses)
			}
			if want := "read " + addr + ": no complete response within 100ms"; r.Examples[Timeout] != want {
				t.Errorf("example %q, want %q", r.Examples[Timeout], want)
			}
		}},
		{faultserver.ModeCrash, 5, 500 * time.Millisecond, false, func(t *testing.T, r *Result, addr string) {
			// 5 responses, then the connection in the middle of the 6th
			// request is closed (a read error, unless the crash's close
			// came first and made it a write error), then nothing listens.
			if r.Responses < 1 || r.Responses > 5 || r.Success != r.Responses {
				t.Errorf("%d responses (%d successes), want 1..5, all 200", r.Responses, r.Success)
			}
			if r.Errors[Connect] < 2 || r.GeneratorErrors() != 0 {
				t.Errorf("errors %v, want connect errors (retried every 10 ms), no generator errors", r.Errors)
			}
			for c := range r.Errors {
				if c != Connect && c != Read && c != Write {
					t.Errorf("error class %s (%s), want only connect, read, write", c, r.Examples[c])
				}
			}
			if want := "connect " + addr + ": connection refused"; r.Examples[Connect] != want {
				t.Errorf("example %q, want %q", r.Examples[Connect], want)
			}
		}},
		{faultserver.ModeHuge, 0, hugeWindow, true, func(t *testing.T, r *Result, addr string) {
			// Every response is checked (CheckEvery 1) and fails without its
			// 50 MiB body being kept.
			onlyClasses(t, r, Check)
			n := r.Responses
			if n == 0 || r.Success != n || r.Checked != n || r.Errors[Check] != n || r.BodyBytes != hugeBytes*n {
				t.Errorf("%d responses (%d successes), %d checked, %d check errors, %d body bytes; want > 0, all 200, all checked and failed, %d bytes each",
					n, r.Success, r.Checked, r.Errors[Check], r.BodyBytes, hugeBytes)
			}
			if want := "check GET /json: response 1 on its connection: body 52428800 bytes, over the 1 MiB kept for a check"; r.Examples[Check] != want {
				t.Errorf("example %.300q, want %q", r.Examples[Check], want) // cut: a kept body would be 50 MiB
			}
		}},
		{faultserver.ModeBusy, 0, 500 * time.Millisecond, false, func(t *testing.T, r *Result, addr string) {
			onlyClasses(t, r, Status)
			if fails := r.StatusCounts[500]; fails == 0 || r.Errors[Status] != fails || r.Success+fails != r.Responses {
				t.Errorf("statuses %v, %d status errors, %d responses; want 200s and some 500s, each 500 a status error", r.StatusCounts, r.Errors[Status], r.Responses)
			}
			if want := `status 500 for GET /json: "database is locked (5) (SQLITE_BUSY)"`; r.Examples[Status] != want {
				t.Errorf("example %q, want %q", r.Examples[Status], want)
			}
		}},
	}
	for _, c := range cases {
		t.Run(string(c.mode), func(t *testing.T) {
			if raceEnabled && c.mode == faultserver.ModeHuge {
				t.Skip("a 50 MiB body takes the race detector longer than the window")
			}
			srv, err := faultserver.Start(faultserver.Config{Mode: c.mode, After: c.after, Log: io.Discard})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(srv.Close)
			addr := srv.Addr()
			o := Options{Addr: addr, Path: "/json", Connections: 2, Duration: window, Timeout: c.timeout}
			if c.timeout == shortTimeout {
				o.Duration = timeoutWindow
			}
			if c.mode == faultserver.ModeHuge {
				o.Duration = hugeWindow
			}
			if c.check {
				o.Check = checkHello
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			r := run(t, o)
			runtime.ReadMemStats(&after)
			c.want(t, r, addr)
			// Generator errors never come from a misbehaving server.
			if r.GeneratorErrors() != 0 {
				t.Errorf("%d generator errors (%s), want 0", r.GeneratorErrors(), r.Examples[Generator])
			}
			if c.mode == faultserver.ModeHuge {
				// Keeping each checked 50 MiB body would allocate >= 100 MiB.
				if alloc := after.TotalAlloc - before.TotalAlloc; alloc >= 16<<20 {
					t.Errorf("the run allocated %d MiB against 50 MiB bodies, want < 16 MiB", alloc>>20)
				}
			}
		})
	}
}

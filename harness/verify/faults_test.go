package verify

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/internal/faultserver"
)

// TestRunFaults verifies the json test against each fault of the fault
// server (the fault from the first request on) with a 500 ms request
// timeout: every verdict is a fail with exactly one reason naming the path
// and the error, and Run ends in under 2 s, not the default 8 s per
// request. In the wanted reasons {URL} is the server's origin and {LOCAL}
// the client's address, which the kernel picks.
func TestRunFaults(t *testing.T) {
	const timeout = 500 * time.Millisecond
	cases := []struct {
		mode faultserver.Mode
		want string
		// timesOut is set when the request must have run into the timeout.
		timesOut bool
	}{
		{faultserver.ModeHang, `GET /json: Get "{URL}/json": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`, true},
		// 1 byte each 100 ms: the headers are not complete after 500 ms.
		{faultserver.ModeDrip, `GET /json: Get "{URL}/json": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`, true},
		// Content-Length 100, 27 bytes sent, then nothing.
		{faultserver.ModeLengthLong, `GET /json: GET {URL}/json: read body: context deadline exceeded (Client.Timeout or context cancellation while reading body)`, true},
		{faultserver.ModeGarbage, `GET /json: Get "{URL}/json": net/http: HTTP/1.x transport connection broken: malformed HTTP response "\x00\xffgarbage"`, false},
		{faultserver.ModeHuge, `GET /json: GET {URL}/json: body over 16777216 bytes`, false},
		{faultserver.ModeReset, `GET /json: Get "{URL}/json": read tcp {LOCAL}->{ADDR}: read: connection reset by peer`, false},
		// The connection is closed without a byte, the listener too.
		{faultserver.ModeCrash, `GET /json: Get "{URL}/json": EOF`, false},
		// Content-Length 10: the body read is `{"message"`, the rest is
		// left on the connection (net/http drops that connection).
		{faultserver.ModeLengthShort, `GET /json: invalid JSON: unexpected EOF (TFB rules, json)`, false},
		{faultserver.ModeNeverReady, `GET /json: status 503, want 200 (TFB rules, every response)`, false},
	}
	for _, c := range cases {
		t.Run(string(c.mode), func(t *testing.T) {
			if raceEnabled && c.mode == faultserver.ModeHuge {
				t.Skip("17 MiB of body take the race detector longer than the timeout")
			}
			t.Parallel()
			// 1 MiB over the verification body cap, not the default 50 MiB.
			s, err := faultserver.Start(faultserver.Config{Mode: c.mode, HugeBytes: maxBodyBytes + 1<<20})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(s.Close)
			start := time.Now()
			r := Run(context.Background(), Target{BaseURL: s.URL(), RequestTimeout: timeout},
				[]Check{{Name: "j", Type: model.JSON, Path: "/json"}})["j"]
			took := time.Since(start)
			pattern := strings.NewReplacer(`\{URL\}`, regexp.QuoteMeta(s.URL()), `\{ADDR\}`, regexp.QuoteMeta(s.Addr()),
				`\{LOCAL\}`, `127\.0\.0\.1:[0-9]+`).Replace(regexp.QuoteMeta(c.want))
			if r.Status != model.Fail || len(r.Reasons) != 1 || !regexp.MustCompile("^"+pattern+"$").MatchString(r.Reasons[0]) {
				t.Errorf("%s %q, want fail with one reason %q ({URL} %s)", r.Status, r.Reasons, c.want, s.URL())
			}
			if took >= 2*time.Second {
				t.Errorf("Run took %v with RequestTimeout %v, want < 2s", took, timeout)
			}
			if c.timesOut && took < timeout {
				t.Errorf("Run took %v, less than the %v timeout it reports", took, timeout)
			}
		})
	}
}

// TestTargetDefaults: a zero Target uses the 8 s request timeout and the
// package's Date re-check; DateRecheck is raised to 1.1 s.
func TestTargetDefaults(t *testing.T) {
	timeouts := []struct{ set, want time.Duration }{
		{0, 8 * time.Second},
		{-time.Second, 8 * time.Second},
		{500 * time.Millisecond, 500 * time.Millisecond},
		{30 * time.Second, 30 * time.Second},
	}
	for _, c := range timeouts {
		if got := (Target{RequestTimeout: c.set}).requestTimeout(); got != c.want {
			t.Errorf("RequestTimeout %v: request timeout %v, want %v", c.set, got, c.want)
		}
		if got := newClientTimeout(c.want).Timeout; got != c.want {
			t.Errorf("newClientTimeout(%v).Timeout = %v", c.want, got)
		}
	}
	rechecks := []struct{ set, want time.Duration }{
		{0, dateRecheck},
		{-time.Second, dateRecheck},
		{time.Millisecond, 1100 * time.Millisecond},
		{time.Second, 1100 * time.Millisecond},
		{1100 * time.Millisecond, 1100 * time.Millisecond},
		{2 * time.Second, 2 * time.Second},
	}
	for _, c := range rechecks {
		if got := (Target{DateRecheck: c.set}).dateRecheck(); got != c.want {
			t.Errorf("DateRecheck %v: re-check after %v, want %v", c.set, got, c.want)
		}
	}
	if requestTimeout != 8*time.Second {
		t.Errorf("default request timeout %v, want 8s (docs/tfb-rules.md, Method)", requestTimeout)
	}
}

// TestRunDateRecheckField: Run re-checks the Date Target.DateRecheck after
// the first response (1.25 s here, not the package's 1.1 s), and a Date
// that changed in between passes.
func TestRunDateRecheckField(t *testing.T) {
	t.Parallel()
	const wait = 1250 * time.Millisecond
	s := startServer(t, serverOpts{})
	target := s.target()
	target.DateRecheck = wait
	r := Run(context.Background(), target, []Check{{Name: "j", Type: model.JSON, Path: "/json"}})["j"]
	if r.Status != model.Pass || len(r.Reasons) != 0 {
		t.Errorf("%s %q, want pass", r.Status, r.Reasons)
	}
	log := s.requests()
	if len(log) != 2 || log[0].path != "/json" || log[1].path != "/json" {
		t.Fatalf("requests %v, want /json twice", log)
	}
	if gap := log[1].at.Sub(log[0].at); gap < wait {
		t.Errorf("Date re-checked %v after the first request, want >= %v", gap, wait)
	}
}

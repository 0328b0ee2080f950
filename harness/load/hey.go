package load

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/rakyll/hey/requester"
	"golang.org/x/sys/unix"

	"github.com/tfbench/tfbench/harness/suite"
)

// heyRequestCap is the most requests one hey run sends (Work.N, rounded down
// to a multiple of Connections). hey's report keeps the status and latency of
// at most 1,000,000 responses (requester's maxRes) while still counting
// later ones, so a larger N would leave responses that are counted but have
// no status or latency. A run that reaches the cap ends before
// Options.Duration and Result.Window says so. A variable so that a test can
// reach it.
var heyRequestCap = 1_000_000

// heyOutput is hey's Output template: a JSON object holding the fields of
// requester.Report that Hey reads, each rendered by hey's own jsonify func.
// It names fields one by one because jsonify renders nothing at all for a
// Report holding NaN, as hey's averages are when no response came back.
const heyOutput = `{"NumRes":{{ jsonify .NumRes }},"Total":{{ jsonify .Total }},` +
	`"SizeTotal":{{ jsonify .SizeTotal }},"ErrorDist":{{ jsonify .ErrorDist }},` +
	`"StatusCodes":{{ jsonify .StatusCodes }},"Lats":{{ jsonify .Lats }}}`

// Hey is engine "hey": github.com/rakyll/hey/requester (v0.1.5), a
// net/http client, for what engine raw does not speak: https:// targets
// (Options.Scheme "https") and HTTP/2 (Options.HTTP2, negotiated by ALPN over
// TLS). On this project's 2-core machine a net/http client reaches about 0.6×
// wrk's RPS, so prefer raw for plain http://. Results come from hey's Output
// template rendered as JSON over its exported requester.Report, never from
// its text output.
//
// Requests carry the same fixed header set as raw: Host (Options.Host),
// Accept (Options.Accept, if set), User-Agent suite.UserAgent, Connection:
// keep-alive over HTTP/1.1 (none over HTTP/2, where it is not allowed), and
// no Accept-Encoding (hey's DisableCompression). Redirects are not followed
// (a 3xx is a response of class Status).
//
// It differs from raw in ways that a report must state:
//
//   - TLS certificates are not verified: hey's transport sets
//     InsecureSkipVerify (requester.go, runWorkers) and has no option to
//     change it. Fine for a local server with a self-signed certificate; it
//     authenticates nothing.
//   - hey opens its connections inside the window, so the first request of
//     each connection includes dial and TLS handshake in its latency. Latency
//     runs from just before the request is built to the end of the body
//     (raw: from the write).
//   - Over HTTP/2, Go's transport multiplexes requests onto as few
//     connections as the server's stream limit allows (usually one), so
//     Connections is the number of concurrent streams, not of TCP
//     connections. Over HTTP/1.1 hey keeps at most 500 idle connections, so
//     Connections above 500 reconnect, and Go's transport may dial a spare
//     connection when a request finds none free (both in Result.Connects).
//   - Window rule: when the window ends, the requests in flight are cancelled
//     and dropped from both numerator and denominator, as in raw. hey
//     records no per-error time, so errors are counted from the start of the
//     run to its end; and a response whose headers came before the end and
//     whose body read was cut by the cancel is counted (hey ignores body read
//     errors, also inside the window: a truncated body is a response).
//   - One run sends at most 1,000,000 requests (hey's report holds no more);
//     a run that gets there ends early, its Window is hey's own measured
//     duration, and concurrency falls off in its last moments as workers
//     finish their share.
//   - Memory grows with the run, unlike raw's: hey reserves room for
//     1,000,000 responses at 64 bytes each when it starts (address space,
//     touched as it fills), and when it reports copies them and renders the
//     JSON (about 25 bytes per response, held about three times over), so a
//     run of 1,000,000 responses peaks near 250 MB.
//   - hey v0.1.5 has data races of its own that go test -race reports: every
//     worker sets the shared client's CheckRedirect, and its httptrace hooks
//     write per-request phase timings from transport goroutines. Neither
//     touches what Hey reads (status, total latency, errors, sizes).
//
// Options it cannot honour are an error: Pipeline above 1 (hey does not
// pipeline), Rate (hey's rate limit measures latency from the actual send,
// not wrk2's intended one), Check (hey discards response bodies, so it
// cannot check responses under load) and Probe. It leaves Result.TTFB nil:
// hey reports no first-byte time per response.
type Hey struct{}

// Name returns "hey".
func (Hey) Name() string { return "hey" }

// Run measures one window of o.Duration with o.Connections hey workers, each
// a closed loop of GETs to o.Scheme://o.Addr + o.Path, and maps hey's report
// onto a Result:
//
//   - Responses: responses with a status that completed inside the window
//     within o.Timeout; RPS (Result.RPS) is Responses per second of Window,
//     so it counts responses only, never failed requests (hey's own
//     Requests/sec counts errors as requests and is not used);
//   - Success: responses with status 200; StatusCounts by status;
//     Errors[Status] the responses outside 200..299, with the first one's
//     "status 500 for GET /path" in Examples;
//   - Latency: hey's per-response latency (seconds) in µs, 1 µs ..
//     o.Timeout, 3 significant digits; a response slower than o.Timeout is
//     not a response but an error of class Timeout (hey's own client timeout
//     is o.Timeout rounded up to whole seconds);
//   - Errors: hey's errors by message, classified by heyClass (connect,
//     read, write, timeout, generator); each class's example is its most
//     frequent message, for class generator followed by generatorHint's
//     parenthesis; cancellations of requests in flight at the window's end
//     (heyCancelled) are dropped;
//   - BodyBytes: hey's SizeTotal (Content-Length of the responses, chunked
//     bodies count 0) scaled to the counted responses;
//   - Connects: TCP connections hey opened beyond one per connection.
//
// Run returns an error for invalid options (see Options.validate, and Hey
// for those it cannot honour) or an unreadable hey report, and ctx.Err() if
// ctx is cancelled before the window ends; then the Result covers the part
// of the window that ran (Window says how long).
func (Hey) Run(ctx context.Context, o Options) (*Result, error) {
	cfg, err := o.validate()
	if err != nil {
		return nil, err
	}
	bad := func(format string, a ...any) (*Result, error) {
		return nil, fmt.Errorf("load: options: "+format+" (engine hey)", a...)
	}
	switch {
	case cfg.Pipeline > 1:
		return bad("Pipeline is %d, want 1: hey does not pipeline", cfg.Pipeline)
	case cfg.Rate > 0:
		return bad("Rate is %v requests/s, want 0: hey has no constant-rate mode", cfg.Rate)
	case cfg.Check != nil:
		return bad("Check is set, want nil: hey discards response bodies and cannot check them")
	case cfg.Probe != nil:
		return bad("Probe is set, want nil: hey runs no interference probe")
	case cfg.Connections > heyRequestCap:
		return bad("Connections is %d, want <= %d", cfg.Connections, heyRequestCap)
	}

	reqCtx, cancelRequests := context.WithCancel(ctx)
	defer cancelRequests()
	var dials atomic.Int64
	reqCtx = httptrace.WithClientTrace(reqCtx, &httptrace.ClientTrace{
		ConnectDone: func(_, _ string, err error) {
			if err == nil {
				dials.Add(1)
			}
		},
	})
	target := (&url.URL{Scheme: cfg.Scheme, Host: cfg.Addr}).String() + cfg.Path
	req, err := http.NewRequestWithContext(reqCtx, http.MethodGet, target, nil)
	if err != nil {
		return bad("URL %q: %v", target, err)
	}
	req.Host = cfg.Host
	if cfg.Accept != "" {
		req.Header.Set("Accept", cfg.Accept)
	}
	req.Header.Set("User-Agent", suite.UserAgent)
	if !cfg.HTTP2 {
		req.Header.Set("Connection", "keep-alive")
	}

	var out bytes.Buffer
	w := &requester.Work{
		Request:            req, // hey takes its TLS ServerName from it
		RequestFunc:        func() *http.Request { return req.Clone(reqCtx) },
		N:                  heyRequestCap / cfg.Connections * cfg.Connections,
		C:                  cfg.Connections,
		H2:                 cfg.HTTP2,
		Timeout:            int((cfg.Timeout + time.Second - 1) / time.Second),
		DisableCompression: true,
		DisableRedirects:   true,
		Output:             heyOutput,
		Writer:             &out,
	}
	w.Init() // Stop before Init would send on a nil channel
	finished := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(finished)
		w.Run()
	}()

	window, capped := cfg.Duration, false
	var ctxErr error
	timer := time.NewTimer(cfg.Duration)
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-ctx.Done():
		window, ctxErr = min(time.Since(start), cfg.Duration), ctx.Err()
	case <-finished:
		capped = true
	}
	if !capped {
		// Stop queues one stop per worker, seen before its next request; the
		// cancel ends the requests in flight now. Stop first, so that no
		// worker starts a request after its cancelled one.
		w.Stop()
		cancelRequests()
		<-finished
	}

	var rep requester.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		return nil, fmt.Errorf("load: hey report for %s: %v (report %.200q)", target, err, out.String())
	}
	if len(rep.Lats) != len(rep.StatusCodes) {
		return nil, fmt.Errorf("load: hey report for %s: %d latencies for %d status codes", target, len(rep.Lats), len(rep.StatusCodes))
	}
	if capped {
		window = rep.Total
	}
	r := heyResult(cfg, &rep)
	r.Window = window
	r.Connects = max(0, dials.Load()-int64(cfg.Connections))
	return r, ctxErr
}

// heyResult maps hey's report onto a Result (all but Window and Connects),
// as Hey.Run describes.
func heyResult(cfg config, rep *requester.Report) *Result {
	r := &Result{
		StatusCounts: make(map[int]int64),
		Errors:       make(map[Class]int64),
		Examples:     make(map[Class]string),
		Latency:      hdrhistogram.New(1, cfg.Timeout.Microseconds(), 3),
	}
	limit := cfg.Timeout.Seconds()
	for i, code := range rep.StatusCodes {
		lat := rep.Lats[i]
		if lat > limit {
			if r.Errors[Timeout] == 0 {
				r.Examples[Timeout] = fmt.Sprintf("status %d for GET %s after %.1f ms, over the %s timeout", code, cfg.Path, lat*1e3, cfg.Timeout)
			}
			r.Errors[Timeout]++
			continue
		}
		r.Latency.RecordValue(min(max(int64(math.Round(lat*1e6)), 1), cfg.Timeout.Microseconds()))
		r.Responses++
		r.StatusCounts[code]++
		switch {
		case code == 200:
			r.Success++
		case code < 200 || code > 299:
			if r.Errors[Status] == 0 {
				r.Examples[Status] = fmt.Sprintf("status %d for GET %s", code, cfg.Path)
			}
			r.Errors[Status]++
		}
	}
	if n := int64(len(rep.StatusCodes)); n > 0 {
		r.BodyBytes = int64(float64(rep.SizeTotal) * float64(r.Responses) / float64(n))
	}

	exampleCount := make(map[Class]int)
	for msg, n := range rep.ErrorDist {
		if heyCancelled(msg) {
			continue // in flight at the window's end: dropped
		}
		c := heyClass(msg)
		r.Errors[c] += int64(n)
		if n > exampleCount[c] || n == exampleCount[c] && cmp.Less(msg, r.Examples[c]) {
			exampleCount[c], r.Examples[c] = n, msg
		}
	}
	if msg, ok := r.Examples[Generator]; ok {
		errno, _ := heyGeneratorErrno(msg)
		r.Examples[Generator] = msg + " " + generatorHint(errno, cfg.Connections)
	}
	return r
}

// heyCancelled reports whether hey's error message msg is the cancellation
// of a request in flight when the window ended (or ctx was cancelled): Run
// cancels them, and nothing else cancels a request. Cancelled during a
// request the message ends "context canceled"; during a dial, "operation was
// canceled".
func heyCancelled(msg string) bool {
	return strings.Contains(msg, "context canceled") || strings.Contains(msg, "operation was canceled")
}

// heyGeneratorErrno finds in hey's error message msg the text of one of the
// errnos that are the generator's own failures (generatorErrno) and returns
// that errno: "too many open files in system" (ENFILE), "too many open
// files" (EMFILE), "cannot assign requested address" (EADDRNOTAVAIL), "no
// buffer space available" (ENOBUFS), "cannot allocate memory" (ENOMEM).
func heyGeneratorErrno(msg string) (unix.Errno, bool) {
	// ENFILE's text contains EMFILE's: it comes first.
	for _, e := range []unix.Errno{unix.ENFILE, unix.EMFILE, unix.EADDRNOTAVAIL, unix.ENOBUFS, unix.ENOMEM} {
		if strings.Contains(msg, e.Error()) {
			return e, true
		}
	}
	return 0, false
}

// heyClass classifies one of hey's error messages (net/http client errors,
// e.g. `Get "https://127.0.0.1:8443/db": dial tcp 127.0.0.1:8443: connect:
// connection refused`) by its text, the only form hey keeps, into raw's
// classes:
//
//   - Generator: the generator's own failure (heyGeneratorErrno: "too many
//     open files", "cannot assign requested address", ...), wherever it
//     happened, as in raw;
//   - Connect: the connection could not be opened: "dial", "connection
//     refused", or a TLS handshake failure (a dial timeout is Connect, as in
//     raw);
//   - Timeout: "Client.Timeout", "deadline exceeded", "timeout";
//   - Write: "write" (e.g. "write tcp ...: broken pipe");
//   - Read: anything else (EOF, reset, protocol errors).
func heyClass(msg string) Class {
	has := func(subs ...string) bool {
		for _, s := range subs {
			if strings.Contains(msg, s) {
				return true
			}
		}
		return false
	}
	if _, ok := heyGeneratorErrno(msg); ok {
		return Generator
	}
	switch {
	case has("dial ", "connection refused", "TLS handshake", "tls: "):
		return Connect
	case has("Client.Timeout", "deadline exceeded", "timeout"):
		return Timeout
	case has("write "):
		return Write
	}
	return Read
}

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
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/rakyll/hey/requester"
	"golang.org/x/sys/unix"

	"github.com/tfbench/tfbench/harness/suite"
)

// heyRequestCap is the most requests one hey run sends (Work.N, rounded down to
// a multiple of Connections): hey keeps status and latency of at most 1,000,000
// responses, so a run reaching it ends early (Result.Window). A variable for tests.
var heyRequestCap = 1_000_000

// heyOutput is hey's Output template: a JSON object of the requester.Report
// fields Hey reads, each through hey's jsonify, named one by one because jsonify
// renders nothing for a Report holding NaN (no response came back).
const heyOutput = `{"NumRes":{{ jsonify .NumRes }},"Total":{{ jsonify .Total }},` +
	`"SizeTotal":{{ jsonify .SizeTotal }},"ErrorDist":{{ jsonify .ErrorDist }},` +
	`"StatusCodes":{{ jsonify .StatusCodes }},"Lats":{{ jsonify .Lats }}}`

// Hey is engine "hey", github.com/rakyll/hey/requester v0.1.5 (net/http), for
// https:// and HTTP/2 targets, read through its Output template as JSON. Unlike
// raw it verifies no certificate, times dial and handshake, counts errors over
// the whole run and sends ≤ 1,000,000 requests (docs/load-generator.md).
type Hey struct{}

func (Hey) Name() string { return "hey" }

// Run measures one window of o.Duration, from the first request's build, with
// o.Connections hey workers (closed loops of GETs) and maps hey's report onto
// raw's Result: RPS counts responses, latency is µs up to o.Timeout (slower:
// Timeout), BodyBytes Content-Length only.
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
	case cfg.Responses > 0:
		return bad("Responses is %d, want 0: a window that ends on a response count needs engine raw", cfg.Responses)
	case cfg.OnWindow != nil:
		return bad("OnWindow is set, want nil: hey does not say when its window opens")
	case cfg.Series > 0:
		return bad("Series is %s, want 0: per-second buckets need engine raw", cfg.Series)
	case cfg.Warmup > 0:
		return bad("Warmup is %s, want 0: a window that opens on running load needs engine raw", cfg.Warmup)
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

	// The window starts when a worker builds the first request: hey's setup
	// before it (its report's seven 1,000,000-entry slices, ~56 MB; the
	// workers' start) is not load, and a busy machine spends 30-120 ms on it.
	var begin sync.Once
	var start time.Time
	begun := make(chan struct{})
	var out bytes.Buffer
	w := &requester.Work{
		Request: req, // hey takes its TLS ServerName from it
		RequestFunc: func() *http.Request {
			begin.Do(func() { start = time.Now(); close(begun) })
			return req.Clone(reqCtx)
		},
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
	launched := time.Now()
	go func() {
		defer close(finished)
		w.Run()
	}()

	window, capped := cfg.Duration, false
	var ctxErr error
	select {
	case <-begun:
		timer := time.NewTimer(time.Until(start.Add(cfg.Duration)))
		defer timer.Stop()
		select {
		case <-timer.C:
		case <-ctx.Done():
			window, ctxErr = min(time.Since(start), cfg.Duration), ctx.Err()
		case <-finished:
			capped = true
		}
	case <-ctx.Done():
		window, ctxErr = 0, ctx.Err() // cancelled before the first request
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
		// hey's Total runs from its own start, at or after launched: less
		// the setup before the first request, it is short by at most the
		// time hey's goroutine took to start.
		window = max(rep.Total-start.Sub(launched), time.Microsecond)
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

// heyCancelled reports whether hey's error message msg is the cancellation of a
// request in flight at the window's end (or ctx's), which only Run causes:
// "context canceled" during a request, "operation was canceled" during a dial.
func heyCancelled(msg string) bool {
	return strings.Contains(msg, "context canceled") || strings.Contains(msg, "operation was canceled")
}

// heyGeneratorErrno finds in hey's error message msg the text of one of the
// generator's own errnos (generatorErrno: ENFILE, EMFILE, EADDRNOTAVAIL, ENOBUFS,
// ENOMEM) and returns that errno.
func heyGeneratorErrno(msg string) (unix.Errno, bool) {
	// ENFILE's text contains EMFILE's: it comes first.
	for _, e := range []unix.Errno{unix.ENFILE, unix.EMFILE, unix.EADDRNOTAVAIL, unix.ENOBUFS, unix.ENOMEM} {
		if strings.Contains(msg, e.Error()) {
			return e, true
		}
	}
	return 0, false
}

// heyClass sorts one of hey's error messages, the only form it keeps, into raw's
// classes by text: Generator (heyGeneratorErrno), Connect (dial, refused, TLS
// handshake), Timeout, Write ("write "), else Read (EOF, reset, protocol errors).
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

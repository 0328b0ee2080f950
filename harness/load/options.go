package load

import (
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"strings"
	"time"
)

// DefaultCheckEvery is Options.CheckEvery's default: every response is checked
// under load, so a server cannot pass verification and then answer otherwise
// (docs/verification.md, "Under load").
const DefaultCheckEvery = 1

// DefaultDateStale is the longest one Date value may be seen on a connection
// before a cached Date fails a check (TFB requires a Date that changes every
// second; 2 s leaves a second for delivery).
const DefaultDateStale = 2 * time.Second

// Options describe one sample's load: where it goes, what it asks for and how
// hard and how long it pushes.
type Options struct {
	// Addr is the server's TCP address, "host:port" (e.g. "127.0.0.1:8080").
	Addr string
	// Host is the Host header's value; empty means Addr.
	Host string
	// Path is the request target, starting with "/" (e.g.
	// "/queries?queries=20"); fill "{n}" with suite.PathFor first.
	Path string
	// Accept is the Accept header's value (model.TestType.Accept()); empty sends
	// no Accept header.
	Accept string
	// Connections is the concurrency: open connections, each a closed loop,
	// or in constant-rate mode each a fixed schedule (>= 1).
	Connections int
	// Pipeline is the HTTP/1.1 pipelining depth, requests in flight per
	// connection (>= 1; 0 means 1; TFB uses 16 for plaintext). It must be 1
	// when Rate is set.
	Pipeline int
	// Rate selects constant-rate mode (wrk2's method): requests/s across all
	// connections, each sending every Connections/Rate s whatever the responses do,
	// latency corrected for coordinated omission. 0: closed loop; > 0 needs Pipeline 1.
	Rate float64
	// Check, when set, checks the counted responses under load with verification's
	// rules (docs/verification.md, "Under load"): status, the header lines (each
	// followed by CRLF, no status line) and the decoded body, valid only during the
	// call. Its error counts as class Check. It must be concurrency-safe.
	Check func(status int, head, body []byte) error
	// CheckTimeline, when set with Check, is called instead of Check with the
	// response's Timeline (first and last byte, the flushes of a chunked body,
	// µs from the request's start): the stream page's check (docs/ssr.md).
	CheckTimeline func(status int, head, body []byte, t Timeline) error
	// CheckEvery is 1 (or 0) to check every response; above 1, each connection's
	// first and then each response with probability 1/CheckEvery, from CheckSeed.
	CheckEvery int
	// CheckSeed seeds the random choice of checked responses at a CheckEvery over
	// 1 (0: Run draws one; Result.CheckSeed says which).
	CheckSeed uint64
	// DateStale, with Check, fails a checked response whose Date value was first
	// seen on its connection more than DateStale before its request was sent
	// (a cached Date); 0: no Date rule.
	DateStale time.Duration
	// Duration is the measured window (> 0); with Responses, the longest one.
	Duration time.Duration
	// Responses, when > 0 (closed loop only), ends the window at the first moment
	// it has counted at least Responses responses (any status) and lasted at least
	// MinDuration; Result.Window is then that window. 0: the window is Duration.
	Responses int64
	// MinDuration is the shortest window when Responses is set (0 <= MinDuration
	// <= Duration); unused without Responses.
	MinDuration time.Duration
	// Warmup (closed loop only) runs the load on the window's own connections this
	// long just before the window, nothing counted: the window opens on a running
	// loop, so the responses it counts are those completed in it, whenever sent.
	Warmup time.Duration
	// OnWindow, when set (closed loop only), is called on a goroutine of its own as
	// the window opens, after Warmup; Run returns after it does, unless cancelled
	// first. A caller reads the server's counters there so that they span the window.
	OnWindow func()
	// Series, when > 0 (closed loop, engine raw), also cuts the window into
	// buckets of this width by each response's completion (Result.Series): a
	// cold server's per-second RPS and p99 (coldstart). 0: none.
	Series time.Duration
	// Timeout bounds every response from its request's write (else class timeout),
	// every connect and write, and is the latency histograms' maximum (>= 1 ms; at a
	// Rate Result.Latency's is max(Timeout, Duration)).
	Timeout time.Duration
	// Scheme is the URL scheme: "http" (empty means "http") or "https".
	// Engine raw speaks http only; https needs engine hey (EngineForScheme).
	Scheme string
	// HTTP2 asks for HTTP/2, negotiated by ALPN over TLS: it requires Scheme
	// "https" (no h2c) and engine hey.
	HTTP2 bool
	// MaxCheckBytes is the largest body kept for Check, bytes (0 means
	// DefaultMaxCheckBytes, 1 MiB; page tests keep up to 16 MiB): a sampled
	// response with a larger body fails its check without a call.
	MaxCheckBytes int
	// Probe, when set, runs the interference probe during the window:
	// one more connection asks Probe.Path every Probe.Interval, counted apart in
	// Result.Probe. Engine raw only.
	Probe *Probe
}

// DefaultMaxCheckBytes is Options.MaxCheckBytes's default, bytes (1 MiB): no
// TFB response comes near it, and 256 connections keeping 50 MB bodies would
// exhaust the generator's memory.
const DefaultMaxCheckBytes = maxKeptBytes

// Probe is a sample's interference probe (suite `probe`): one extra connection
// sends GET Path once per Interval on a fixed schedule, so its latency shows what
// a cheap request suffers under the load (docs/design.md, "The load generator").
type Probe struct {
	// Path is the request target, starting with "/" (e.g. "/plaintext").
	Path string
	// Interval is the time between the probe's intended sends (>= 1 ms).
	Interval time.Duration
}

// config is a validated Options with its defaults filled in.
type config struct {
	Options
	maxMicros  int64   // Latency histogram maximum, µs: Timeout, or max(Timeout, Duration) at a Rate
	maxUMicros int64   // Uncorrected histogram maximum, µs: Timeout
	interval   float64 // at a Rate: one connection's interval between sends, ns (Connections/Rate s)
}

// newRand is the check sampler of the run's i-th connection (the probe's: i =
// Connections): nil at CheckEvery 1, else a PCG stream of CheckSeed.
func (c *config) newRand(i int) *rand.Rand {
	if c.CheckEvery <= 1 {
		return nil
	}
	return rand.New(rand.NewPCG(c.CheckSeed, uint64(i)))
}

// maxKept is the largest body kept for a check, bytes: MaxCheckBytes, or
// DefaultMaxCheckBytes when it is 0.
func (c *config) maxKept() int {
	if c.MaxCheckBytes > 0 {
		return c.MaxCheckBytes
	}
	return DefaultMaxCheckBytes
}

// validate checks o and fills its defaults. The error names the field and the
// rule it breaks.
func (o Options) validate() (config, error) {
	bad := func(format string, a ...any) (config, error) {
		return config{}, fmt.Errorf("load: options: "+format, a...)
	}
	if _, port, err := net.SplitHostPort(o.Addr); err != nil || port == "" {
		return bad("Addr %q is not host:port", o.Addr)
	}
	if o.Host == "" {
		o.Host = o.Addr
	}
	if o.Pipeline == 0 {
		o.Pipeline = 1
	}
	if o.CheckEvery == 0 {
		o.CheckEvery = DefaultCheckEvery
	}
	if o.CheckEvery > 1 && o.CheckSeed == 0 {
		o.CheckSeed = rand.Uint64() | 1
	}
	for _, f := range []struct{ name, v string }{
		{"Addr", o.Addr}, {"Host", o.Host}, {"Path", o.Path}, {"Accept", o.Accept},
	} {
		if strings.ContainsAny(f.v, "\r\n") {
			return bad("%s %q contains CR or LF", f.name, f.v)
		}
	}
	switch {
	case o.CheckTimeline != nil && o.Check == nil:
		return bad("CheckTimeline is set without Check, which turns the checks on")
	case !strings.HasPrefix(o.Path, "/"):
		return bad("Path %q does not start with /", o.Path)
	case strings.ContainsAny(o.Path, " \t"):
		return bad("Path %q contains white space", o.Path)
	case o.Connections < 1:
		return bad("Connections is %d, want >= 1", o.Connections)
	case o.Pipeline < 1:
		return bad("Pipeline is %d, want >= 1", o.Pipeline)
	case o.Duration <= 0:
		return bad("Duration is %s, want > 0", o.Duration)
	case o.Timeout < time.Millisecond:
		return bad("Timeout is %s, want >= 1ms", o.Timeout)
	case o.CheckEvery < 1:
		return bad("CheckEvery is %d, want >= 1", o.CheckEvery)
	case o.DateStale < 0:
		return bad("DateStale is %s, want >= 0 (0: no Date rule)", o.DateStale)
	case o.Rate < 0 || math.IsNaN(o.Rate) || math.IsInf(o.Rate, 0):
		return bad("Rate is %v, want >= 0 requests/s (0: closed loop)", o.Rate)
	case o.Responses < 0:
		return bad("Responses is %d, want >= 0 (0: the window is Duration)", o.Responses)
	case o.MinDuration < 0 || o.MinDuration > o.Duration:
		return bad("MinDuration is %s, want 0 to Duration (%s)", o.MinDuration, o.Duration)
	case o.Warmup < 0:
		return bad("Warmup is %s, want >= 0 (0: the window opens as the first requests go)", o.Warmup)
	case o.Warmup > 0 && o.Rate > 0:
		return bad("Warmup is %s with Rate %v requests/s, want 0 (a constant-rate window opens on its schedule)", o.Warmup, o.Rate)
	case o.OnWindow != nil && o.Rate > 0:
		return bad("OnWindow is set with Rate %v requests/s, want nil (closed loop only)", o.Rate)
	case o.Responses > 0 && o.Rate > 0:
		return bad("Responses is %d with Rate %v requests/s, want 0 (a constant-rate window is its Duration)", o.Responses, o.Rate)
	case o.Rate > 0 && o.Pipeline > 1:
		return bad("Pipeline is %d with Rate %v requests/s, want Pipeline 1 (constant-rate mode does not pipeline)", o.Pipeline, o.Rate)
	case o.Series < 0 || o.Series > 0 && o.Rate > 0:
		return bad("Series is %s with Rate %v requests/s, want >= 0 and closed loop only", o.Series, o.Rate)
	case o.MaxCheckBytes < 0:
		return bad("MaxCheckBytes is %d, want >= 0 (0: %d MiB)", o.MaxCheckBytes, DefaultMaxCheckBytes>>20)
	}
	if q := o.Probe; q != nil {
		switch {
		case strings.ContainsAny(q.Path, "\r\n"):
			return bad("Probe.Path %q contains CR or LF", q.Path)
		case !strings.HasPrefix(q.Path, "/"):
			return bad("Probe.Path %q does not start with /", q.Path)
		case strings.ContainsAny(q.Path, " \t"):
			return bad("Probe.Path %q contains white space", q.Path)
		case q.Interval < time.Millisecond:
			return bad("Probe.Interval is %s, want >= 1ms", q.Interval)
		}
	}
	if o.Scheme == "" {
		o.Scheme = "http"
	}
	if o.Scheme != "http" && o.Scheme != "https" {
		return bad("Scheme is %q, want http or https", o.Scheme)
	}
	if o.HTTP2 && o.Scheme != "https" {
		return bad("HTTP2 is set with Scheme %q, want https (HTTP/2 is negotiated over TLS; no h2c)", o.Scheme)
	}
	cfg := config{Options: o, maxMicros: o.Timeout.Microseconds(), maxUMicros: o.Timeout.Microseconds()}
	if o.Rate > 0 {
		cfg.maxMicros = max(o.Timeout, o.Duration).Microseconds()
		cfg.interval = float64(o.Connections) / o.Rate * 1e9
	}
	return cfg, nil
}

// seed is the CheckSeed the run used: 0 when every response is checked.
func (c *config) seed() uint64 {
	if c.CheckEvery <= 1 {
		return 0
	}
	return c.CheckSeed
}

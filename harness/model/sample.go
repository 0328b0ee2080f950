package model

import "time"

// Key identifies a sample (docs/design.md, Sample key): framework, variant,
// runtime, test, N, connections, pipeline depth, engine and round.
type Key struct {
	ID
	Runtime     string   `json:"runtime"`
	Test        string   `json:"test"`
	Type        TestType `json:"type"`
	N           int      `json:"n,omitempty"` // rows per request (queries, updates) or per page (page); 0 otherwise
	Connections int      `json:"connections"` // concurrency level
	// Rate is the constant rate in requests/s of a constant-rate sample
	// (wrk2's method); 0 for the closed-loop samples that peaks come from.
	Rate     float64 `json:"rate,omitempty"`
	Pipeline int     `json:"pipeline"` // pipelining depth, 1 = none
	Engine   string  `json:"engine"`
	Round    int     `json:"round"` // 1-based
}

// Latency holds the percentiles of a sample's merged HDR histogram, in ms.
type Latency struct {
	P50  float64 `json:"p50_ms"`
	P90  float64 `json:"p90_ms"`
	P99  float64 `json:"p99_ms"`
	P999 float64 `json:"p99_9_ms"`
	Max  float64 `json:"max_ms"`
}

// Sample is one measured window and everything measured during it.
type Sample struct {
	Key
	// Window is the measured window in seconds; At is when its load run
	// began, connections opening first (zero in files of method version 6 and before).
	Window float64   `json:"window_s"`
	At     time.Time `json:"at,omitzero"`
	// Warmup is the seconds the load ran on the window's connections before it
	// opened, not counted (suite sample_warmup; 0: the window opened cold).
	Warmup float64 `json:"warmup_s,omitempty"`
	// Responses counts responses sent and answered inside the window.
	Responses int64 `json:"responses"`
	// Success counts counted responses with status 200.
	Success int64 `json:"success"`
	// RPS is Responses / Window, requests/s (docs/design.md, A sample's window).
	RPS float64 `json:"rps"`
	// StatusCounts maps an HTTP status code (as text) to its count.
	StatusCounts map[string]int64 `json:"status_counts,omitempty"`
	// Errors maps an error class (connect, read, write, timeout, status,
	// check, generator) to its count; Examples gives the first message of
	// each class.
	Errors   map[string]int64  `json:"errors,omitempty"`
	Examples map[string]string `json:"error_examples,omitempty"`
	// SocketErrors is connect + read + write + timeout errors.
	SocketErrors int64 `json:"socket_errors"`
	// Latency summarises Histogram (ms). In a constant-rate sample it is
	// measured from each request's intended send time (corrected for
	// coordinated omission).
	Latency Latency `json:"latency"`
	// Uncorrected summarises UncorrectedHistogram (ms): a constant-rate
	// sample's latency from each request's actual send time; nil in
	// closed-loop samples.
	Uncorrected *Latency `json:"uncorrected_latency,omitempty"`
	// UncorrectedHistogram is that latency's histogram in µs, encoded as
	// Histogram is.
	UncorrectedHistogram []byte `json:"uncorrected_histogram,omitempty"`
	// TTFB summarises TTFBHistogram (ms): time to first byte, from the same
	// start as Latency to the read that brought the first byte of the
	// status line; nil for engine hey, which does not see it.
	TTFB *Latency `json:"ttfb,omitempty"`
	// TTFBHistogram is that time's histogram in µs, encoded as Histogram is.
	TTFBHistogram []byte `json:"ttfb_histogram,omitempty"`
	// BodyBytes sums the body bytes of the counted responses (decoded, if
	// chunked); BodyBytes / Responses is the mean page size.
	BodyBytes int64 `json:"body_bytes,omitempty"`
	// Probe is the interference probe during the window (suite `probe`):
	// what a cheap request suffered while this sample's load ran; nil
	// without a probe.
	Probe *Probe `json:"probe,omitempty"`
	// Cache confirms the hits of a cache-hit sample (suite `cache: hit`);
	// nil for tests that render every request.
	Cache *CacheHits `json:"cache,omitempty"`
	// EventLoop is the Node server's event-loop delay over the window, from
	// the harness's preload (perf_hooks.monitorEventLoopDelay); nil for
	// servers that are not Node.
	EventLoop *EventLoop `json:"event_loop,omitempty"`
	// Stream is a stream sample's timeline of shell and parts (nil for the
	// other test types; model/stream.go).
	Stream *StreamRecord `json:"stream,omitempty"`
	// Memory is the server's memory and GC over the window, from its
	// runtimes' own accounting (memory.go); nil when it cannot tell.
	Memory *Memory `json:"memory,omitempty"`
	// Checked counts the responses checked under load against the test
	// type's rule (every response since method version 6, engine raw);
	// failures are Errors["check"].
	Checked int64 `json:"checked"`
	// CheckSeed seeded the random choice of checked responses when only a
	// share was checked (load.Options.CheckEvery > 1); 0 when every one was.
	CheckSeed uint64 `json:"check_seed,omitempty"`
	// Renders is how many times the server rendered the test's route in the
	// sample (framework.yaml `render_counts`), nil without counts; Gate fails
	// a sample whose Renders is below Responses (a hidden cache).
	Renders *int64 `json:"renders,omitempty"`
	// Histogram is the merged latency histogram in µs, in HdrHistogram's
	// V2 compressed encoding (base64 in JSON), so any percentile can be
	// recomputed later.
	Histogram []byte `json:"histogram"`
	// ServerCPU is the CPU time (user+system) of the server's process tree
	// during the window, in seconds; CPUPerRequest is that over Responses,
	// in ms per request.
	ServerCPU     float64 `json:"server_cpu_s"`
	CPUPerRequest float64 `json:"cpu_ms_per_request"`
	// ServerRSS is the peak resident memory (sum of VmHWM over the server's
	// process tree) at the end of the window, in bytes.
	ServerRSS uint64 `json:"server_rss_peak_bytes"`
	// GeneratorCPU is the load generator's CPU time in the window, seconds;
	// GeneratorSaturated: its CPU set was ≥ 90% busy (probe.Saturated), so
	// the sample measured the generator and fails the gate as a harness fault.
	GeneratorCPU       float64 `json:"generator_cpu_s"`
	GeneratorSaturated bool    `json:"generator_saturated"`
	// LinkSaturated flags a two-host sample whose bodies came at ≥ 90% of
	// the link's measured capacity (serverhost.Network.LinkBytes): it fails
	// the gate as a harness fault (docs/remote.md).
	LinkSaturated bool `json:"link_saturated,omitempty"`
	// ServerLogFaults counts the server's log lines in the window naming
	// SQLITE_BUSY or "database is locked" (filled by harness/run); any fails
	// the gate as a harness fault.
	ServerLogFaults int64 `json:"server_log_faults,omitempty"`
	// Gate is the success gate's verdict on this sample.
	Gate GateResult `json:"gate"`
}

// Probe is the interference probe's record of one sample: one connection
// asking Path once per Interval, latency from each intended send time.
type Probe struct {
	Path     string  `json:"path"`
	Interval float64 `json:"interval_ms"`
	// Responses and Success count the probe's answered requests and those
	// with status 200; Errors and Examples are its error classes, as a
	// sample's.
	Responses int64             `json:"responses"`
	Success   int64             `json:"success"`
	Errors    map[string]int64  `json:"errors,omitempty"`
	Examples  map[string]string `json:"error_examples,omitempty"`
	// Latency summarises Histogram (µs, HdrHistogram V2 encoding), in ms.
	Latency   Latency `json:"latency"`
	Histogram []byte  `json:"histogram"`
}

// CacheHits is how a cache-hit sample's hits were confirmed: By render
// counts (Checked = responses, Misses = renders) or by framework.yaml's
// header (Checked = responses checked under load, Misses = those without it).
type CacheHits struct {
	By      string `json:"by"` // "render counts" or the header, "x-nextjs-cache: HIT"
	Checked int64  `json:"checked"`
	Misses  int64  `json:"misses"`
}

// EventLoop is a Node server's event-loop delay over one window, in ms:
// the worst process of its tree (perf_hooks.monitorEventLoopDelay, reset
// at the window's start, read at its end).
type EventLoop struct {
	P50       float64 `json:"p50_ms"`
	P99       float64 `json:"p99_ms"`
	Max       float64 `json:"max_ms"`
	Processes int     `json:"processes"` // Node processes that reported
}

// HarnessFault starts the gate reason of a sample that the harness, not the
// server, invalidated (sweep.Gate); GeneratorSaturatedFault is the fault of a
// generator CPU set ≥ 90% busy (probe.Saturated).
const (
	HarnessFault            = "harness fault, not the server's: "
	GeneratorSaturatedFault = "the load generator's CPU set was saturated (≥ 90% busy): it measured the generator"
)

// GeneratorBound reports whether s failed the gate on a saturated generator
// CPU set alone: its reason is that fault and nothing else, so every other
// check passed (responses, socket errors, checks, the 200 share, renders).
func (s Sample) GeneratorBound() bool {
	return s.GeneratorSaturated && !s.Gate.Passed && s.Gate.Reason == HarnessFault+GeneratorSaturatedFault
}

// GateResult is the success gate's verdict: Passed, or the reason it failed.
type GateResult struct {
	Passed bool   `json:"passed"`
	Reason string `json:"reason,omitempty"`
}

// Package suite loads and validates tfbench suite files (suites/*.yaml): the
// tests, their types (the six TFB tests and the SSR page test), paths, load
// levels and shared defaults. Loading is strict: an unknown key or a bad
// value is an error naming the file, line and key.
package suite

import (
	"strconv"
	"strings"
	"time"

	"github.com/tfbench/tfbench/harness/model"
)

// UserAgent is the fixed User-Agent every tfbench request carries, in
// verification and under load, whatever the engine (docs/design.md, Requests).
const UserAgent = "tfbench/1"

// Settings are the values a test may take from the suite's defaults or set
// itself. Durations are wall-clock; Gate is a share in 0..1.
type Settings struct {
	// Duration is the measured window of one sample (one level, one round);
	// with Responses set, the longest window.
	Duration time.Duration
	// Responses, when > 0, ends a closed-loop window once it has counted this
	// many responses and MinDuration has passed (engine raw; docs/method.md,
	// "Windows"). 0: every window is Duration.
	Responses int
	// MinDuration is the shortest window when Responses is set (≤ Duration).
	MinDuration time.Duration
	// KeepWithin, when > 0, is the share (0..1) below round 1's best level of
	// a test and N within which a level is measured again in later rounds
	// (docs/method.md, "Levels after round 1"); 0 measures every level in every round.
	KeepWithin float64
	// RateRounds, when > 0, runs the constant-rate sample in rounds
	// 1..RateRounds only; 0 runs it in every round.
	RateRounds int
	// Warmup is the unmeasured load run once per test and round at the
	// highest level before the measured levels; 0 disables it. With
	// WarmupResponses, the longest warmup.
	Warmup time.Duration
	// SampleWarmup is each closed-loop sample's own warmup: its load runs this
	// long on the sample's connections just before the window opens, not
	// counted (engine raw; docs/method.md, "Windows"). 0: the window opens cold.
	SampleWarmup time.Duration
	// WarmupResponses, when > 0, ends the warmup once it has counted this
	// many responses (engine raw): a JIT warms by requests served, not by
	// seconds. 0: the warmup is Warmup.
	WarmupResponses int
	// Timeout is the longest a response may take; a slower one is an error
	// of class timeout.
	Timeout time.Duration
	// Concurrency lists the levels: open connections, each a closed loop.
	Concurrency []int
	// Pipeline is the HTTP/1.1 pipelining depth: requests in flight per
	// connection (1 = no pipelining; TFB uses 16 for plaintext).
	Pipeline int
	// Gate is the share (0..1) of counted responses that must succeed for a
	// sample to pass the success gate; 1 means 100%.
	Gate float64
	// MinResponses is the fewest counted responses a sample needs to pass
	// the gate (docs/design.md: default 100).
	MinResponses int
	// Engine names the load generator engine: "raw" (HTTP/1.1, the
	// default) or "hey" (HTTPS and HTTP/2 targets; no pipelining, checks
	// under load or constant rate).
	Engine string
	// Rate, when > 0, adds a constant-rate sample per round after the
	// closed-loop levels (queries, updates: at the headline N): Rate
	// requests/s over RateConnections, latency from each intended send time.
	Rate float64
	// RateConnections is the connection count of the constant-rate sample;
	// 0 means the smallest concurrency level.
	RateConnections int
	// Probe, when > 0, is the interference probe's interval: one extra
	// connection asks the plaintext endpoint once per Probe during every
	// sample (docs/ssr.md). 0 = no probe.
	Probe time.Duration
	// Cache is the cache state a test measures: "" renders on every request
	// (the anti-caching rules hold); CacheHit ("hit") serves the framework's
	// cached page route after a warmup, each hit confirmed (docs/ssr.md).
	Cache string
}

// CacheHit is the Settings.Cache value of a test that measures cache hits.
const CacheHit = "hit"

// Test is one entry of a suite's tests list, with the defaults merged in.
type Test struct {
	// Name is the test's name, unique in the suite (results are keyed by it).
	Name string
	// Type is the TFB test type that decides verification and headers.
	Type model.TestType
	// Path is the request path, possibly holding "{n}" for queries and
	// updates; a framework's framework.yaml may override it per type.
	Path string
	// Queries lists the N values: rows per request for queries and updates
	// (suite key `queries`), World rows per page for page (suite key
	// `rows`); empty for the other types.
	Queries []int
	// Parts is a stream test's K: the parts the page is split into, each
	// flushed on its own (suite key `parts`, 1..MaxParts, default
	// DefaultParts); 0 for the other types.
	Parts int
	// Line is the line of the test's entry in the suite file.
	Line int
	// ColdStart holds a coldstart test's own settings; nil for other types.
	ColdStart *ColdStart
	Settings
}

// Suite is a loaded, validated suite file.
type Suite struct {
	// Name is the suite's name (the file's `name:` key).
	Name string
	// File is the path the suite was loaded from.
	File string
	// Hash is the hex SHA-256 of the file's bytes; results from different
	// suite files never compare.
	Hash string
	// Rounds is how many times every level of every test is measured; the
	// order of frameworks is shuffled per round.
	Rounds int
	// Defaults are the settings tests start from.
	Defaults Settings
	// Tests are the suite's tests in file order.
	Tests []Test
}

// Headline is the N reported as a queries, updates or page test's headline
// figure: HeadlineOf(t.Queries).
func (t Test) Headline() int { return HeadlineOf(t.Queries) }

// HeadlineOf is the N a queries or updates test with row counts ns
// reports as its headline figure (docs/design.md: N = 20), or the largest N when
// 20 is not measured; 0 for no N (the other test types).
func HeadlineOf(ns []int) int {
	best := 0
	for _, n := range ns {
		if n == 20 {
			return 20
		}
		best = max(best, n)
	}
	return best
}

// FillPath replaces "{n}" in path with v (v may be any string, so that
// verification can send "foo" or ""). Paths without "{n}" are returned as
// they are.
func FillPath(path, v string) string { return strings.ReplaceAll(path, "{n}", v) }

// FillParts replaces "{k}" in path with a stream test's parts k (the
// adapter's `endpoints: stream:` or the suite's path); other paths are
// returned as they are.
func FillParts(path string, k int) string { return strings.ReplaceAll(path, "{k}", strconv.Itoa(k)) }

// PathFor is FillPath with the integer n.
func PathFor(path string, n int) string { return FillPath(path, strconv.Itoa(n)) }

package results

import (
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
)

// ColdStart records one fresh start of a variant in a coldstart test
// (docs/ssr.md, "Cold start and warm-up"): times in ms from the spawn or the
// request's connect, per-second figures of the closed-loop run from its first
// request. It is not a sample: a start is not a window.
type ColdStart struct {
	model.ID
	Test string `json:"test"`
	// Start is the start's number, 1..R (suite key starts); At its spawn.
	Start int       `json:"start"`
	At    time.Time `json:"at"`
	// SpawnToAccept is ms from the spawn (before fork and exec) to the first
	// TCP connection the port accepted, tried every AcceptPollMS.
	SpawnToAccept float64 `json:"spawn_to_accept_ms"`
	AcceptPollMS  float64 `json:"accept_poll_ms"`
	// First holds the first request to each route, in the order sent.
	First []FirstRequest `json:"first,omitempty"`
	// Connections and N are the closed-loop level and the page size of the
	// warm-up run; LimitS its length in seconds (suite warmup_limit).
	Connections int     `json:"connections"`
	N           int     `json:"n"`
	LimitS      float64 `json:"limit_s"`
	// PerSecond is the warm-up run second by second from its first request.
	PerSecond []Second `json:"per_second,omitempty"`
	// WarmupS is the first second from which three consecutive seconds are
	// within 5% of SteadyRPS (the median RPS of the run's last third); nil when
	// none is, "> limit" in the report.
	WarmupS   *float64 `json:"warmup_s"`
	SteadyRPS float64  `json:"steady_rps"`
	// SteadySpread is the largest |RPS - SteadyRPS| / SteadyRPS of the last
	// third's seconds (a share): the second-to-second noise of a warm server.
	// Above 5% the warm-up rule reads that noise, not a warm-up.
	SteadySpread float64 `json:"steady_spread"`
	// Error says why the start failed (the server never accepted, a first
	// request failed its check, errors under load); its figures are partial.
	Error string `json:"error,omitempty"`
}

// FirstRequest is a fresh server's first request to one route: ms from the
// connect to the status line's first byte (TTFB) and to the body's last byte.
type FirstRequest struct {
	Route    model.TestType `json:"route"`
	N        int            `json:"n,omitempty"`
	Path     string         `json:"path"`
	Status   int            `json:"status"`
	Bytes    int            `json:"bytes"`
	TTFB     float64        `json:"ttfb_ms"`
	LastByte float64        `json:"last_byte_ms"`
}

// Second is one second s (from s to s+1 after the warm-up run's start) of the
// run: responses completed in it per second and their p99 latency in ms.
type Second struct {
	S   int     `json:"s"`
	RPS float64 `json:"rps"`
	P99 float64 `json:"p99_ms"`
}

// ColdStart records one start and rewrites the file.
func (r *Recorder) ColdStart(c ColdStart) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.f.ColdStarts = append(r.f.ColdStarts, c)
	return r.write()
}

// ColdStartTest is a coldstart test's own settings as results.json records
// them (suite.ColdStart; the limit in seconds).
type ColdStartTest struct {
	Starts int              `json:"starts"`
	Routes []model.TestType `json:"routes"`
	LimitS float64          `json:"warmup_limit_s"`
}

// coldStartTest is c's record; nil for a test of another type.
func coldStartTest(c *suite.ColdStart) *ColdStartTest {
	if c == nil {
		return nil
	}
	return &ColdStartTest{Starts: c.Starts, Routes: c.Routes, LimitS: c.WarmupLimit.Seconds()}
}

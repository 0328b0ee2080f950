package sweep

import (
	"fmt"
	"strconv"
	"time"

	"github.com/tfbench/tfbench/harness/model"
)

// Shot is one load run against a started server: a sample's window or a
// warmup. Path is the request path with N filled in; Concurrency is the
// suite's level, open connections, each a closed loop unless Rate is set.
type Shot struct {
	Path                     string
	N, Concurrency, Pipeline int
	Rate                     float64 // requests/s; 0 = closed loop
	Duration                 time.Duration
	Window                   bool          // a measured window, not a warmup
	Warmup                   time.Duration // a closed-loop window's own warmup (suite sample_warmup)
}

// Level is the shot's level as the run's log names it: "c=64", or "200
// requests/s over 8 connections" at a rate.
func (sh Shot) Level() string {
	if sh.Rate > 0 {
		return fmt.Sprintf("%g requests/s over %d connections", sh.Rate, sh.Concurrency)
	}
	return fmt.Sprintf("c=%d", sh.Concurrency)
}

// NText is " N=20" for a test with sizes, "" for n 0: the N of a step's
// name in the run's log ("queries N=20 c=64").
func NText(n int) string {
	if n == 0 {
		return ""
	}
	return " N=" + strconv.Itoa(n)
}

// Key is the sample key of the shot: base (identity, runtime, test, engine,
// round) with the shot's N, concurrency, rate and pipeline.
func (sh Shot) Key(base model.Key) model.Key {
	base.N, base.Connections, base.Rate, base.Pipeline = sh.N, sh.Concurrency, sh.Rate, sh.Pipeline
	return base
}

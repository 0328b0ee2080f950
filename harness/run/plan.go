package run

import (
	"time"

	"github.com/tfbench/tfbench/harness/suite"
)

// PlanSeconds is a run's planned measuring time in seconds: per target and
// round, each test's warmup plus one window per shot (each N × each level, plus
// the rate shot). Builds, starts, verification and probes are not in it.
func PlanSeconds(tests []suite.Test, targets, rounds int) float64 {
	var per time.Duration
	for _, t := range tests {
		per += testPlan(t)
	}
	return (time.Duration(targets*rounds) * per).Seconds()
}

// testPlan is the planned measuring time of one test in one round on one
// target: what (*runner).test runs.
func testPlan(t suite.Test) time.Duration {
	shots := max(len(t.Queries), 1) * len(t.Concurrency)
	if t.Rate > 0 {
		shots++
	}
	return t.Warmup + time.Duration(shots)*t.Duration
}

package run

import (
	"time"

	"github.com/tfbench/tfbench/harness/suite"
)

// PlanSeconds is the planned measuring time of a run in seconds: for each
// of targets framework variants and each of rounds rounds, every test's
// warmup (once per test and round) plus one window (the test's duration)
// per shot: each N (queries, updates) × each concurrency level, and the
// constant-rate shot when the test has a rate. Builds, server starts,
// verification and probes are not in it; the progress ETA scales it by the
// wall time each planned second has taken so far (progress.ETA).
//
// suites/smoke.yaml, one target, one round: 6 tests × (0.2 s warmup + 1 s
// at c=8 + 1 s at 200 requests/s) + page (0.2 + 1 + 1 s at 50 requests/s)
// + page-hit (0.2 + 1 s) = 16.6 s.
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

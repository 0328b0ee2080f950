package run

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
)

func TestPlanSeconds(t *testing.T) {
	s, err := suite.Load(filepath.Join("..", "..", "suites", "smoke.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// 6 tests × (0.2 s warmup + 1 s at c=8 + 1 s at 200 requests/s), page
	// 0.2 s + 1 s at c=8 + 1 s at 50 requests/s, page-hit 0.2 s + 1 s at c=8.
	if got := PlanSeconds(s.Tests, 1, 1); got != 16.6 {
		t.Errorf("smoke, 1 target, 1 round: %v s, want 16.6", got)
	}
	if got := PlanSeconds(s.Tests, 2, 3); got != 99.6 {
		t.Errorf("smoke, 2 targets, 3 rounds: %v s, want 99.6", got)
	}
	// queries at N = 1, 5, 20 × c = 16, 64: 6 windows of 5 s after a 2 s
	// warmup, no rate shot, and no warmup when it is 0.
	queries := suite.Test{Name: "q", Type: model.Queries, Queries: []int{1, 5, 20},
		Settings: suite.Settings{Duration: 5 * time.Second, Warmup: 2 * time.Second, Concurrency: []int{16, 64}}}
	json := suite.Test{Name: "j", Type: model.JSON, Settings: suite.Settings{Duration: 5 * time.Second, Concurrency: []int{16}}}
	if got := PlanSeconds([]suite.Test{queries, json}, 1, 1); got != 37 {
		t.Errorf("queries and json: %v s, want 32 + 5 = 37", got)
	}
	// suites/engine.yaml's header: 194 s per variant and round (the six
	// tests 147 s, the page test 47 s); 4 variants × 5 rounds.
	engine, err := suite.Load(filepath.Join("..", "..", "suites", "engine.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if got := PlanSeconds(engine.Tests, 1, 1); got != 194 {
		t.Errorf("engine, 1 target, 1 round: %v s, want 194", got)
	}
	if got := PlanSeconds(engine.Tests, 4, 5); got != 3880 {
		t.Errorf("engine, 4 targets, 5 rounds: %v s, want 3880", got)
	}
}

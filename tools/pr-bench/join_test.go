package main

import (
	"math"
	"testing"

	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/results"
)

var goStdlib = model.ID{Framework: "go-stdlib", Variant: "default"}

// roundFile is a one-round run of go-stdlib on json at 64 connections.
func roundFile(runID string, rps float64, status model.Verdict) *results.File {
	return &results.File{
		SchemaVersion: results.SchemaVersion, MethodVersion: results.MethodVersion, RunID: runID, Status: results.Complete,
		Suite:         results.Suite{Name: "pr", Hash: "abc", Rounds: 1, Tests: []results.Test{{Name: "json", Type: model.JSON, Concurrency: []int{64}, Pipeline: 1}}},
		Host:          probe.Host{Hostname: "runner"},
		Frameworks:    []results.Framework{{Name: "go-stdlib", Variant: "default"}},
		Verifications: []results.Verification{{ID: goStdlib, Test: "json", Status: status}},
		Samples: []model.Sample{{Key: model.Key{ID: goStdlib, Test: "json", Type: model.JSON, Connections: 64, Pipeline: 1, Round: 1},
			RPS: rps, Responses: int64(rps), Success: int64(rps), Window: 1, Gate: model.GateResult{Passed: true}}},
	}
}

// TestJoinRounds joins six one-round runs a side and checks that compare
// sees six rounds a side: a 20% drop at every round is slower at p = 2/924.
func TestJoinRounds(t *testing.T) {
	var base, head []*results.File
	for i := range 6 {
		status := model.Pass
		if i == 3 {
			status = model.Warn
		}
		base = append(base, roundFile("b"+string(rune('1'+i)), 1000+float64(i), status))
		head = append(head, roundFile("h"+string(rune('1'+i)), 800+float64(i), model.Pass))
	}
	b, err := JoinRounds("base", base)
	if err != nil {
		t.Fatal(err)
	}
	h, err := JoinRounds("head", head)
	if err != nil {
		t.Fatal(err)
	}
	if b.Suite.Rounds != 6 || len(b.Samples) != 6 || b.Samples[5].Round != 6 || b.RunID != "base" {
		t.Fatalf("joined: rounds %d, %d samples, last round %d, run %s", b.Suite.Rounds, len(b.Samples), b.Samples[5].Round, b.RunID)
	}
	if v, _ := b.Verification(goStdlib, "json"); v.Status != model.Warn {
		t.Errorf("verification %s, want the warn of round 4", v.Status)
	}
	tab, err := compare.Sets(&results.Set{Runs: []results.Run{{Label: "base", File: b}}},
		&results.Set{Runs: []results.Run{{Label: "head", File: h}}}, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 1 {
		t.Fatalf("%d rows", len(tab.Rows))
	}
	r := tab.Rows[0]
	if r.Verdict != compare.Slower || len(r.Base.Values) != 6 || len(r.New.Values) != 6 || math.Abs(r.P-2.0/924) > 1e-12 {
		t.Errorf("verdict %s, %d and %d values, p %g; want slower, 6 and 6, p %g", r.Verdict, len(r.Base.Values), len(r.New.Values), r.P, 2.0/924)
	}
}

func TestJoinRoundsRefuses(t *testing.T) {
	other := roundFile("r2", 1, model.Pass)
	other.Suite.Hash = "def"
	host := roundFile("r2", 1, model.Pass)
	host.Host.Hostname = "laptop"
	for _, tc := range []struct {
		files []*results.File
		err   string
	}{
		{nil, "base: no rounds to join"},
		{[]*results.File{roundFile("r1", 1, model.Pass), other}, "base: round file 2 (run r2) followed suite sha256 def, the first (run r1) abc"},
		{[]*results.File{roundFile("r1", 1, model.Pass), host}, "base: round file 2 ran on laptop, the first on runner: rounds of one side must share a machine"},
	} {
		if _, err := JoinRounds("base", tc.files); err == nil || err.Error() != tc.err {
			t.Errorf("err = %v, want %s", err, tc.err)
		}
	}
}

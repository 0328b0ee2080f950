package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
)

func TestSummarize(t *testing.T) {
	start := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	f := &results.File{Started: start, Finished: start.Add(4*time.Minute + 12400*time.Millisecond),
		Suite: results.Suite{Tests: []results.Test{{Name: "json"}, {Name: "plaintext"}, {Name: "queries", Queries: []int{1, 20}}, {Name: "fortunes"}}},
		Frameworks: []results.Framework{{Name: "go-stdlib", Variant: "default"}, {Name: "nextjs", Variant: "default"},
			{Name: "astro", Variant: "default", Error: "build failed: exit status 1"}},
		Verifications: []results.Verification{{ID: model.ID{Framework: "go-stdlib", Variant: "default"}, Test: "json", Status: "pass"},
			{ID: model.ID{Framework: "nextjs", Variant: "default"}, Test: "fortunes", Status: "warn"}},
	}
	add := func(fw, test string, n, conns, pipeline int, rps ...float64) {
		for i, v := range rps {
			f.Samples = append(f.Samples, model.Sample{Key: model.Key{ID: model.ID{Framework: fw, Variant: "default"}, Test: test, N: n,
				Connections: conns, Pipeline: pipeline, Round: i + 1}, RPS: v, Gate: model.GateResult{Passed: true}})
		}
	}
	add("go-stdlib", "json", 0, 16, 1, 50000, 52000) // median 51,000: the peak
	add("go-stdlib", "json", 0, 64, 1, 45000, 45000)
	add("nextjs", "json", 0, 16, 1, 2000, 2100)
	add("go-stdlib", "plaintext", 0, 256, 16, 1234567)
	add("go-stdlib", "queries", 20, 16, 1, 1000, 1200)
	add("go-stdlib", "queries", 1, 16, 1, 9000, 9000) // not the headline N
	add("nextjs", "fortunes", 0, 16, 1, 800, 900)
	f.Samples[len(f.Samples)-2].Gate = model.GateResult{Reason: "3 timeouts"} // fortunes round 1: no peak
	f.Samples = append(f.Samples, model.Sample{Key: model.Key{ID: model.ID{Framework: "go-stdlib", Variant: "default"}, Test: "json",
		Connections: 8, Rate: 200, Round: 1}, RPS: 200, Gate: model.GateResult{Passed: true}}) // constant rate: no peak
	f.Time = &results.Time{Builds: 62.4, RuntimeInstalls: 3, ServerStarts: 70, Verification: 20.2, Warmups: 45, Windows: 30, Pauses: 1.8, Report: 0.2, Total: 232.6}
	var b strings.Builder
	summarize(&b, f)
	want := `time: builds 1:02 (runtime installs 0:03), server starts and stops 1:10, verification 0:20, warmups 0:45, measured windows 0:30, pauses 0:02, report 0:00; total 3:53
wall time 4m12s; 14 samples, 1 failed the gate; 2 verification verdicts, 2 not a pass
  nextjs/default fortunes: warn
  astro/default: build failed: exit status 1
best per test (peak RPS, median over rounds):
  json: go-stdlib/default 51,000 RPS at c=16 (best of 2)
  plaintext: go-stdlib/default 1,234,567 RPS at c=256, pipeline 16
  queries N=20: go-stdlib/default 1,100 RPS at c=16
  fortunes: no variant has a peak (none measured, or no level passed the gate in every round)
`
	if got := b.String(); got != want {
		t.Errorf("summary:\n%s\nwant:\n%s", got, want)
	}
}

func TestBenchRoundsBelowOne(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := cli(context.Background(), []string{"bench", "--suite", "../../suites/smoke.yaml", "--frameworks", "go-stdlib",
		"--frameworks-dir", "../../frameworks", "--work", t.TempDir(), "--rounds", "-1"}, &stdout, &stderr)
	if code != 1 || stderr.String() != "tfbench bench: -1 rounds: a run needs at least 1\n" {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

// TestBenchRoundsFlag runs go-stdlib's json test of suites/smoke.yaml (one
// round) with --rounds 2: two rounds of samples and 2 recorded, plain
// progress (stdout is not a terminal) with the elapsed time and ETA on
// every sample line, and the summary counting the gate's failures and
// naming the best variant. Whether c=8 keeps the generator's one CPU ≥ 90%
// busy depends on the machine (idle, go-stdlib outruns a raw generator), so
// a sample may fail the gate for that alone (passed) and the counts follow
// results.json.
func TestBenchRoundsFlag(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs go-stdlib")
	}
	work := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"bench", "--suite", "../../suites/smoke.yaml", "--frameworks", "go-stdlib", "--tests", "json",
		"--frameworks-dir", "../../frameworks", "--work", work, "--rounds", "2"}
	if code := cli(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	f, err := results.Read(filepath.Join(work, "runs", "latest", "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rounds []int
	failed := 0
	for _, s := range f.Samples {
		rounds = append(rounds, s.Round)
		if !s.Gate.Passed {
			failed++
		}
		if !passed(s) {
			t.Errorf("round %d c=%d rate %g failed the gate: %s", s.Round, s.Connections, s.Rate, s.Gate.Reason)
		}
	}
	slices.Sort(rounds)
	if f.Suite.Rounds != 2 || !slices.Equal(rounds, []int{1, 1, 2, 2}) || !slices.Contains(f.Command, "--rounds") {
		t.Errorf("suite rounds %d, sample rounds %v (c=8 and 200 requests/s per round), command %q", f.Suite.Rounds, rounds, f.Command)
	}
	out := stdout.String()
	if strings.ContainsAny(out, "\r\x1b") {
		t.Errorf("escape bytes in plain output:\n%q", out)
	}
	sample := regexp.MustCompile(`(?m)^round [12]/2: go-stdlib/default json (c=8|200 requests/s over 8 connections): .*, gate (passed|FAILED: .*) \(\d+:\d\d elapsed, ETA \d+:\d\d\)$`)
	if got := len(sample.FindAllString(out, -1)); got != 4 {
		t.Errorf("%d sample lines with elapsed time and ETA, want 4:\n%s", got, out)
	}
	best := "best per test (peak RPS, median over rounds):\n  json: "
	if failed == 0 {
		best += "go-stdlib/default "
	}
	for _, want := range []string{"1 framework variant × 1 test × 2 rounds", fmt.Sprintf("; 4 samples, %d failed the gate; 1 verification verdicts, 0 not a pass\n", failed), best} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
}

// TestBenchPublish: publish writes --copy-results and --report only for a
// complete run without an error; otherwise it leaves both files as they
// were and says so with the run's folder.
func TestBenchPublish(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "runs", "20261204-101010")
	path := filepath.Join(run, "results.json")
	f := &results.File{RunID: "20261204-101010", Status: results.Complete,
		Suite: results.Suite{Name: "s", Rounds: 1, Tests: []results.Test{{Name: "json", Type: "json", Concurrency: []int{8}, Pipeline: 1, Duration: 1, Gate: 1}}}}
	copied, report := filepath.Join(dir, "latest.json"), filepath.Join(dir, "latest.md")
	const old = "published before\n"
	reset := func() {
		t.Helper()
		for _, p := range []string{copied, report} {
			if err := os.WriteFile(p, []byte(old), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := results.Write(path, f); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name                string
		status              string
		runErr              error
		copyResults, report string
		out                 string
		published           bool
	}{
		{"complete", results.Complete, nil, copied, report, "results copied to " + copied + "\nreport copied to " + report + "\n", true},
		{"complete, no copies asked", results.Complete, nil, "", "", "", false},
		{"interrupted", results.Interrupted, errors.New("interrupted"), copied, report,
			"the run did not complete (status interrupted): " + report + " and " + copied + " not replaced; this run's results and report are in " + run + "\n", false},
		{"complete with an error", results.Complete, errors.New("the source dataset changed during the run"), copied, "",
			"the run ended with an error: " + copied + " not replaced; this run's results and report are in " + run + "\n", false},
	} {
		reset()
		g := *f
		g.Status = c.status
		var out strings.Builder
		if err := publish(&out, &g, path, c.runErr, c.copyResults, c.report); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		if out.String() != c.out {
			t.Errorf("%s: output %q, want %q", c.name, out.String(), c.out)
		}
		gotJSON, _ := os.ReadFile(copied)
		gotMD, _ := os.ReadFile(report)
		wantJSON, _ := os.ReadFile(path)
		if c.published && (!bytes.Equal(gotJSON, wantJSON) || !strings.HasPrefix(string(gotMD), "# ")) {
			t.Errorf("%s: %s holds %d bytes (results.json %d), %s starts %.20q; want both replaced", c.name, copied, len(gotJSON), len(wantJSON), report, gotMD)
		}
		if !c.published && (string(gotJSON) != old || string(gotMD) != old) {
			t.Errorf("%s: %s %.20q, %s %.20q; want both left as they were", c.name, copied, gotJSON, report, gotMD)
		}
	}
}

// TestBenchCompletePublishes runs the fault adapter's ok variant and its
// unbuilt one (a build that fails) with --report and --copy-results: a
// build failure is a result, so the run completes, exits 0 and replaces
// both files, the report's row saying why unbuilt was not measured.
func TestBenchCompletePublishes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the fault server, a few seconds")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(envTestBinary, exe)
	work, published := t.TempDir(), t.TempDir()
	copied, report := filepath.Join(published, "latest.json"), filepath.Join(published, "latest.md")
	for _, p := range []string{copied, report} {
		if err := os.WriteFile(p, []byte("published before\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	code := cli(context.Background(), []string{"bench", "--suite", "testdata/suites/shard.yaml", "--tests", "json", "--frameworks", "fault:ok,fault:unbuilt",
		"--frameworks-dir", "testdata/frameworks-fault", "--work", work, "--report", report, "--copy-results", copied}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	path := filepath.Join(work, "runs", "latest", "results.json")
	f, err := results.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	unbuilt := slices.IndexFunc(f.Frameworks, func(fw results.Framework) bool { return fw.Variant == "unbuilt" })
	if f.Status != results.Complete || len(f.Samples) != 2 || unbuilt < 0 || !strings.HasPrefix(f.Frameworks[unbuilt].Error, "build failed: ") {
		t.Fatalf("status %s, %d samples, frameworks %+v; want complete, fault/ok's 2 levels, unbuilt's build failed", f.Status, len(f.Samples), f.Frameworks)
	}
	got, _ := os.ReadFile(copied)
	want, _ := os.ReadFile(path)
	if !bytes.Equal(got, want) {
		t.Errorf("%s (%d bytes) is not the run's results.json (%d bytes)", copied, len(got), len(want))
	}
	md, _ := os.ReadFile(report)
	if !strings.Contains(string(md), "not measured: build failed: ") {
		t.Errorf("%s has no row saying unbuilt was not measured:\n%s", report, md)
	}
	if want := "results copied to " + copied + "\nreport copied to " + report + "\n"; !strings.Contains(stdout.String(), want) {
		t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
	}
}

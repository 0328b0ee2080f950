package run

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/profile"
	"github.com/tfbench/tfbench/harness/ratio"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/suite"
)

// TestBenchProfile runs two rounds of json at two levels with
// Config.Profile on the fake Go server (which writes a pprof to
// $TFBENCH_CPU_PROFILE, as a Go adapter does) and, unless -short, the
// nodeloop Node server: the profiled round adds no sample (every sample
// is of round 1 or 2, and figures come from them alone), each variant's
// profile is under profiles/FW/VARIANT/, parses with samples, is listed
// in results.json with the load's responses as its requests (the fake
// server's own /json count bounds them) and logged, and no scratch folder,
// process or database copy is left.
func TestBenchProfile(t *testing.T) {
	fake := fakeTarget(t)
	targets := []Target{{Spec: fake, Variant: fake.Variants[0]}}
	want := map[string]string{"fake/default": "profiles/fake/default/json.pprof"}
	work := t.TempDir()
	if !testing.Short() {
		node := adapter(t, "nodeloop")
		targets = append(targets, Target{Spec: node, Variant: node.Variants[0]})
		want["nodeloop/default"] = "profiles/nodeloop/default/json.cpuprofile"
		sharedRuntimes(t, work)
	}
	json := suite.Test{Name: "json", Type: model.JSON, Path: "/json", Settings: suite.Settings{
		Duration: 300 * time.Millisecond, Warmup: 100 * time.Millisecond, Timeout: 2 * time.Second,
		Concurrency: []int{1, 2}, Pipeline: 1, Gate: 1, MinResponses: 10, Engine: "raw"}}
	s := &suite.Suite{Name: "profile", Rounds: 2, Tests: []suite.Test{json}}
	var log strings.Builder
	f, path, err := Bench(context.Background(), Config{
		Suite: s, WorkDir: work, Log: &log, Seed: 1, RunID: "prof", dateRecheck: time.Millisecond,
		Targets: targets, Profile: true,
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if n := len(f.Samples); n != 4*len(targets) {
		t.Errorf("%d samples, want %d (2 levels × 2 rounds per variant)", n, 4*len(targets))
	}
	for _, smp := range f.Samples {
		if smp.Round < 1 || smp.Round > 2 {
			t.Errorf("sample of round %d: %+v", smp.Round, smp.Key)
		}
	}
	// The figures: one peak per variant, from rounds 1 and 2 only.
	for k, p := range ratio.HeadlineRows(f) {
		if len(p.Samples) > 2 {
			t.Errorf("%s: peak over rounds %v", k.ID, p.Rounds())
		}
	}
	// What results.json holds is what Bench returned.
	saved, err := results.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(saved.Samples) != len(f.Samples) || len(saved.Profiles) != len(targets) {
		t.Fatalf("results.json: %d samples, %d profiles", len(saved.Samples), len(saved.Profiles))
	}
	runDir := filepath.Join(work, "runs", "prof")
	for _, p := range saved.Profiles {
		name := p.Framework + "/" + p.Variant
		if p.Error != "" || !slices.Equal(p.Files, []string{want[name]}) || p.Test != "json" || p.Seconds != 0.4 || (p.Connections != 1 && p.Connections != 2) {
			t.Errorf("%s: profile record %+v, want files [%s]", name, p, want[name])
			continue
		}
		file := filepath.Join(runDir, p.Files[0])
		prof, err := profile.Read(file)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if prof.Samples == 0 {
			t.Errorf("%s: %s has no samples", name, file)
		}
		if line := "profile " + name + " json: " + file + " ("; !strings.Contains(log.String(), line) {
			t.Errorf("log lacks %q:\n%s", line, log.String())
		}
		// Requests are the load's responses, warmup included: every one
		// was rendered, besides the readiness GET /json and the load
		// check's reference (both once), and at most one in flight per
		// connection when the load stopped (10 allows for retried
		// readiness polls).
		if p.Requests <= 0 {
			t.Errorf("%s: %d requests", name, p.Requests)
		}
		line := fmt.Sprintf("profile round: %s json c=%d (its peak level): %s responses", name, p.Connections, humanize.Comma(p.Requests))
		if !strings.Contains(log.String(), line) {
			t.Errorf("log lacks %q", line)
		}
		if p.Framework == "fake" {
			server, err := os.ReadFile(filepath.Join(runDir, "logs", "fake-default-profile-json.log"))
			var renders int64
			if err == nil {
				_, err = fmt.Sscanf(string(server[bytes.LastIndex(server, []byte("json renders: ")):]), "json renders: %d", &renders)
			}
			if err != nil || renders < p.Requests+1 || renders > p.Requests+int64(p.Connections)+10 {
				t.Errorf("fake: %d requests recorded, the server rendered %d /json (want requests+1 .. requests+%d+10): %v\n%s", p.Requests, renders, p.Connections, err, server)
			}
		}
	}
	if left, _ := filepath.Glob(filepath.Join(runDir, "profiles", "*", "*", ".*")); len(left) > 0 {
		t.Errorf("scratch folders left: %v", left)
	}
	noLeftovers(t, work, "prof")
	if t.Failed() || os.Getenv("SHOWLOG") != "" {
		t.Log(log.String())
	}
}

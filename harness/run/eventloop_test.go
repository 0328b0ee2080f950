package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/runtimes"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/internal/testenv"
)

// sharedRuntimes links work/runtimes to a folder of installed runtimes
// shared by test runs ($TFBENCH_TEST_RUNTIMES, else the user cache's
// tfbench/runtimes), so Bench installs the pinned Node.js once per machine.
func sharedRuntimes(t *testing.T, work string) {
	t.Helper()
	dir, err := testenv.RuntimesDir()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, runtimes.RuntimesDir(work)); err != nil {
		t.Fatal(err)
	}
}

// TestBenchNodeEventLoop runs the nodeloop adapter (every 20th /json
// blocks its event loop 60 ms) beside the fake Go server: the Node
// sample's event-loop delay shows the block, the Go sample has none, and
// a Node server whose start empties NODE_OPTIONS (nodeloop/cleared) passes
// its gate without one, logged once per sample. No socket folder outlives
// its server.
func TestBenchNodeEventLoop(t *testing.T) {
	if testing.Short() {
		t.Skip("installs Node.js from the npm registry")
	}
	node := adapter(t, "nodeloop")
	fake := fakeTarget(t)
	json := suite.Test{Name: "json", Type: model.JSON, Path: "/json", Settings: suite.Settings{
		Duration: 500 * time.Millisecond, Timeout: 2 * time.Second,
		Concurrency: []int{2}, Pipeline: 1, Gate: 1, MinResponses: 10, Engine: "raw"}}
	s := &suite.Suite{Name: "eventloop", Rounds: 1, Tests: []suite.Test{json}}
	work := t.TempDir()
	sharedRuntimes(t, work)
	var log strings.Builder
	f, _, err := Bench(context.Background(), Config{
		Suite: s, WorkDir: work, Log: &log, Seed: 1, RunID: "el", dateRecheck: time.Millisecond,
		Targets: []Target{{Spec: node, Variant: node.Variants[0]}, {Spec: node, Variant: node.Variants[1]}, {Spec: fake, Variant: fake.Variants[0]}},
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if len(f.Samples) != 3 {
		t.Fatalf("%d samples, want 3:\n%s", len(f.Samples), log.String())
	}
	for _, smp := range f.Samples {
		if !smp.Gate.Passed {
			t.Errorf("%s/%s: gate %q", smp.Framework, smp.Variant, smp.Gate.Reason)
		}
		el := smp.EventLoop
		switch smp.Framework + "/" + smp.Variant {
		case "nodeloop/default":
			if el == nil {
				t.Errorf("nodeloop/default: no event-loop delay\n%s", log.String())
				continue
			}
			// At least 20 responses, so at least one 60 ms block.
			if smp.Responses < 20 || el.Processes != 1 || el.Max < 50 || el.P50 <= 0 || el.P99 > el.Max {
				t.Errorf("nodeloop/default: %d responses, event loop %+v; want a max of at least 50 ms from 1 process", smp.Responses, *el)
			}
		default:
			if el != nil {
				t.Errorf("%s/%s: event loop %+v, want none", smp.Framework, smp.Variant, *el)
			}
		}
	}
	runDir := filepath.Join(work, "runs", "el")
	want := "nodeloop/cleared json c=2: event loop: no Node process answered in " +
		filepath.Join(runDir, "eventloop", "nodeloop-cleared-r1") + " (the sample has no event-loop delay or memory)"
	if n := strings.Count(log.String(), "event loop:"); n != 1 || !strings.Contains(log.String(), want) {
		t.Errorf("log has %d event-loop lines, want one: %q\n%s", n, want, log.String())
	}
	if _, err := os.Stat(filepath.Join(runDir, "eventloop.cjs")); err != nil {
		t.Errorf("the run's preload: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(runDir, "eventloop", "*")); len(left) > 0 {
		t.Errorf("socket folders left after the run: %v", left)
	}
	for _, smp := range f.Samples {
		if smp.EventLoop != nil {
			t.Logf("%s/%s: %d responses, event loop %+v", smp.Framework, smp.Variant, smp.Responses, *smp.EventLoop)
		}
	}
	noLeftovers(t, work, "el")
}

package run

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/report"
	"github.com/tfbench/tfbench/harness/suite"
)

// nodememAlloc is what the nodemem adapter allocates per /json on the V8 heap
// (testdata/frameworks/nodemem/server.js): 8 arrays of 16,000 small integers.
const nodememAlloc = 8 * (16000*8 + 48)

// TestBenchNodeMemory runs the nodemem adapter (1,024,384 bytes allocated per
// /json; its leak variant keeps 64,048 more per request) beside the fake Go
// server, two rounds, each window ending on 1,000 responses after a warmup of 2,000: through the preload,
// the default variant's KB per request is within 10% of the known allocation
// and neither it nor any other sample but the leak variant's is flagged as a
// possible leak; the fake Go server (no hook) has no memory and logs nothing.
func TestBenchNodeMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("installs Node.js from the npm registry")
	}
	node := adapter(t, "nodemem")
	fake := fakeTarget(t)
	json := suite.Test{Name: "json", Type: model.JSON, Path: "/json", Settings: suite.Settings{
		Duration: 30 * time.Second, Responses: 1000, Warmup: 30 * time.Second, WarmupResponses: 2000,
		Timeout: 5 * time.Second, Concurrency: []int{2}, Pipeline: 1, Gate: 1, MinResponses: 10, Engine: "raw"}}
	s := &suite.Suite{Name: "memory", Rounds: 2, Tests: []suite.Test{json}}
	work := t.TempDir()
	sharedRuntimes(t, work)
	var log strings.Builder
	f, _, err := Bench(context.Background(), Config{
		Suite: s, WorkDir: work, Log: &log, Seed: 1, RunID: "mem", dateRecheck: time.Millisecond,
		Targets: []Target{{Spec: node, Variant: node.Variants[0]}, {Spec: node, Variant: node.Variants[1]}, {Spec: fake, Variant: fake.Variants[0]}},
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if len(f.Samples) != 6 {
		t.Fatalf("%d samples, want 6:\n%s", len(f.Samples), log.String())
	}
	if strings.Contains(log.String(), "event loop:") {
		t.Errorf("log has event-loop lines, want none:\n%s", log.String())
	}
	wantKB := float64(nodememAlloc) / 1024
	for _, smp := range f.Samples {
		m := smp.Memory
		id := fmt.Sprintf("%s round %d", smp.ID, smp.Round)
		if smp.Framework == "fake" {
			if m != nil {
				t.Errorf("%s: memory %+v, want none (no hook)", id, *m)
			}
			continue
		}
		if m == nil {
			t.Errorf("%s: no memory\n%s", id, log.String())
			continue
		}
		t.Logf("%s: %d responses in %.2f s, memory %+v", id, smp.Responses, smp.Window, *m)
		if smp.Responses < 1000 {
			t.Errorf("%s: %d responses, want the window's 1,000", id, smp.Responses)
		}
		if m.Source != "node" || m.Processes != 1 || m.Threads != 1 {
			t.Errorf("%s: source %q, %d processes, %d threads; want node, 1, 1", id, m.Source, m.Processes, m.Threads)
		}
		if smp.Variant == "default" && math.Abs(m.AllocPerRequest-wantKB) > 0.1*wantKB {
			t.Errorf("%s: %.1f KB allocated per request, want %.1f ± 10%%", id, m.AllocPerRequest, wantKB)
		}
		// 1 GB allocated in 1 MB pieces: young-generation collections at least.
		if m.GCCount < 1 || m.GCms <= 0 || m.PauseMax <= 0 || m.PauseP99 > m.PauseMax || m.GCPercent <= 0 || m.GCPercent > 100 {
			t.Errorf("%s: %d GCs of %.3f ms (%.2f%% of the window), pauses p99 %.3f max %.3f ms; want GCs, 0 < p99 <= max, 0 < GC %% <= 100",
				id, m.GCCount, m.GCms, m.GCPercent, m.PauseP99, m.PauseMax)
		}
		if m.HeapBefore <= 0 || m.HeapAfter <= 0 || m.RSSBefore <= 0 || m.RSSAfter <= 0 {
			t.Errorf("%s: heap %d → %d, RSS %d → %d bytes; want all positive", id, m.HeapBefore, m.HeapAfter, m.RSSBefore, m.RSSAfter)
		}
		if got := float64(m.RSSAfter-m.RSSBefore) / float64(m.RSSBefore); got != m.RSSGrowth {
			t.Errorf("%s: RSS growth %v, want %v", id, m.RSSGrowth, got)
		}
	}
	leaks := report.PossibleLeaks(f.Samples)
	if len(leaks) != 1 || leaks[0].Key.ID != (model.ID{Framework: "nodemem", Variant: "leak"}) || leaks[0].Rounds != 2 {
		t.Errorf("possible leaks %v, want nodemem/leak json c=2 over 2 rounds", leaks)
	}
	noLeftovers(t, work, "mem")
}

package run

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	goruntime "runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/eventloop"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/report"
	"github.com/tfbench/tfbench/harness/suite"
)

// gomemAlloc is what the gomem server allocates per /json: one 1 MiB slice.
const gomemAlloc = 1 << 20

// gomemServer is the gomem adapter's server (testdata/frameworks/gomem): a Go
// adapter's memory hook in its least form (heap allocations, GC cycles and
// heap from runtime/metrics, RSS from /proc/self/statm; no GC time) and /json after
// allocating gomemAlloc bytes (kept in a ring of 4, so they reach the heap;
// with TFBENCH_RUN_GOMEM_LEAK=1 also 64 KiB kept for good).
func gomemServer() {
	leak := os.Getenv("TFBENCH_RUN_GOMEM_LEAK") == "1"
	if dir := os.Getenv(eventloop.EnvDir); dir != "" {
		ln, err := net.Listen("unix", filepath.Join(dir, strconv.Itoa(os.Getpid())+".sock"))
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		go gomemMonitor(ln)
	}
	var mu sync.Mutex
	var ring [4][]byte
	var kept [][]byte
	n := 0
	http.HandleFunc("/json", func(w http.ResponseWriter, r *http.Request) {
		b := make([]byte, gomemAlloc)
		mu.Lock()
		ring[n%4] = b
		n++
		if leak {
			kept = append(kept, make([]byte, 64<<10))
		}
		mu.Unlock()
		w.Header().Set("Server", "gomem")
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"message":"Hello, World!"}`))
	})
	ln, err := net.Listen("tcp", "127.0.0.1:"+os.Getenv("PORT"))
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	http.Serve(ln, nil)
}

// gomemMonitor answers reset and read on ln (docs/adapters.md, Memory and GC).
func gomemMonitor(ln net.Listener) {
	type counters struct{ allocs, cycles, heap, rss int64 }
	now := func() counters {
		s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}, {Name: "/gc/cycles/total:gc-cycles"}, {Name: "/memory/classes/heap/objects:bytes"}}
		metrics.Read(s)
		c := counters{int64(s[0].Value.Uint64()), int64(s[1].Value.Uint64()), int64(s[2].Value.Uint64()), 0}
		if b, err := os.ReadFile("/proc/self/statm"); err == nil {
			if f := strings.Fields(string(b)); len(f) > 1 {
				pages, _ := strconv.ParseInt(f[1], 10, 64)
				c.rss = pages * int64(os.Getpagesize())
			}
		}
		return c
	}
	var mu sync.Mutex
	var base *counters
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		line, _ := bufio.NewReader(io.LimitReader(c, 64)).ReadString('\n')
		switch strings.TrimSpace(line) {
		case "reset":
			b := now()
			mu.Lock()
			base = &b
			mu.Unlock()
			io.WriteString(c, "ok\n")
		case "read":
			e := now()
			mu.Lock()
			b := base
			mu.Unlock()
			var mem *eventloop.ProcMemory
			if b != nil {
				mem = &eventloop.ProcMemory{Threads: 1, AllocBytes: e.allocs - b.allocs, GCCount: e.cycles - b.cycles,
					HeapBefore: b.heap, HeapAfter: e.heap, RSSBefore: b.rss, RSSAfter: e.rss}
			}
			out, _ := json.Marshal(eventloop.Reading{Pid: os.Getpid(), Runtime: "go", Memory: mem})
			c.Write(append(out, '\n'))
		}
		c.Close()
	}
}

// TestBenchGoMemory runs the gomem adapter (a Go server with the memory hook,
// 1 MiB allocated per /json; its leak variant keeps 64 KiB more per request),
// two rounds of windows ending on 1,000 responses: the harness gives the Go
// server the socket folder, the default variant's KB per request is within
// 10% of 1,024, its source is go, and only the leak variant is a possible leak.
func TestBenchGoMemory(t *testing.T) {
	if goruntime.GOOS != "linux" {
		t.Skip("the fixture reads its RSS from /proc/self/statm (Linux), which the leak rule needs")
	}
	g := adapter(t, "gomem")
	json := suite.Test{Name: "json", Type: model.JSON, Path: "/json", Settings: suite.Settings{
		Duration: 30 * time.Second, Responses: 1000, Warmup: 30 * time.Second, WarmupResponses: 2000,
		Timeout: 5 * time.Second, Concurrency: []int{2}, Pipeline: 1, Gate: 1, MinResponses: 10, Engine: "raw"}}
	s := &suite.Suite{Name: "gomemory", Rounds: 2, Tests: []suite.Test{json}}
	work := t.TempDir()
	var log strings.Builder
	f, _, err := Bench(context.Background(), Config{
		Suite: s, WorkDir: work, Log: &log, Seed: 1, RunID: "gomem", dateRecheck: time.Millisecond,
		Targets: []Target{{Spec: g, Variant: g.Variants[0]}, {Spec: g, Variant: g.Variants[1]}},
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if len(f.Samples) != 4 {
		t.Fatalf("%d samples, want 4:\n%s", len(f.Samples), log.String())
	}
	wantKB := float64(gomemAlloc) / 1024
	for _, smp := range f.Samples {
		id := fmt.Sprintf("%s round %d", smp.ID, smp.Round)
		m := smp.Memory
		if m == nil {
			t.Errorf("%s: no memory\n%s", id, log.String())
			continue
		}
		t.Logf("%s: %d responses in %.2f s, memory %+v", id, smp.Responses, smp.Window, *m)
		if m.Source != "go" || m.Processes != 1 || m.Threads != 1 || m.GCCount < 1 || m.RSSBefore <= 0 {
			t.Errorf("%s: source %q, %d processes, %d threads, %d GCs, RSS %d; want go, 1, 1, GCs, an RSS", id, m.Source, m.Processes, m.Threads, m.GCCount, m.RSSBefore)
		}
		if smp.Variant == "default" && math.Abs(m.AllocPerRequest-wantKB) > 0.1*wantKB {
			t.Errorf("%s: %.1f KB allocated per request, want %.0f ± 10%%", id, m.AllocPerRequest, wantKB)
		}
	}
	leaks := report.PossibleLeaks(f.Samples)
	if len(leaks) != 1 || leaks[0].Key.ID != (model.ID{Framework: "gomem", Variant: "leak"}) {
		t.Errorf("possible leaks %v, want gomem/leak json c=2", leaks)
	}
	noLeftovers(t, work, "gomem")
}

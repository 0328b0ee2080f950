package run

import (
	"context"
	"fmt"
	"math"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/progress"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/supervise"
	"github.com/tfbench/tfbench/internal/faultserver"
)

// TestMain makes the test binary the fake adapter's server
// (testdata/frameworks/fake and counts) when TFBENCH_RUN_FAKE_SERVER is 1:
// /json by the TFB rules on 127.0.0.1:$PORT until killed; and the fault
// adapter's server (testdata/frameworks/fault) when TFBENCH_FAULT_SERVER
// is 1 (faultserver.Main); the gomem adapter's (gomemServer) when
// TFBENCH_RUN_GOMEM_SERVER is 1; the cold adapter's (coldServer) when
// TFBENCH_RUN_COLD_SERVER is 1.
func TestMain(m *testing.M) {
	if os.Getenv("TFBENCH_RUN_FAKE_SERVER") == "1" {
		fakeServer()
		return
	}
	if os.Getenv("TFBENCH_RUN_GOMEM_SERVER") == "1" {
		gomemServer()
		return
	}
	if os.Getenv("TFBENCH_RUN_COLD_SERVER") == "1" {
		coldServer()
		return
	}
	if os.Getenv(faultserver.EnvServer) == "1" {
		faultserver.Main()
	}
	os.Exit(m.Run())
}

// fakeServer serves /json, the page /ssr?rows=N (fakePage), and /renders
// with the number of /json and /ssr renders so far ({"/json":N,"/ssr":M});
// when TFBENCH_RUN_FAKE_COUNTS_OK is set to K, only the first K /renders
// requests answer, later ones get 503. Profiled, it logs its /json
// renders on SIGTERM ("json renders: N").
func fakeServer() {
	var renders, asked atomic.Int64
	if file := os.Getenv(supervise.EnvCPUProfile); file != "" {
		// As a Go adapter supports profiling (docs/profiles.md).
		f, err := os.Create(file)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			sigs := make(chan os.Signal, 1)
			signal.Notify(sigs, syscall.SIGTERM)
			go func() {
				<-sigs
				pprof.StopCPUProfile()
				f.Close()
				// For TestBenchProfile: what the server rendered, load and all.
				fmt.Fprintf(os.Stderr, "json renders: %d\n", renders.Load())
				os.Exit(0)
			}()
		}
	}
	http.HandleFunc("/ssr", fakePage(os.Getenv("DATABASE_PATH"), os.Getenv("TFBENCH_RUN_FAKE_PAGE_CACHE") == "1"))
	countsOK, countsDown := strconv.Atoi(os.Getenv("TFBENCH_RUN_FAKE_COUNTS_OK"))
	http.HandleFunc("/json", func(w http.ResponseWriter, r *http.Request) {
		renders.Add(1)
		w.Header().Set("Server", "fake")
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"message":"Hello, World!"}`))
	})
	http.HandleFunc("/renders", func(w http.ResponseWriter, r *http.Request) {
		if countsDown == nil && asked.Add(1) > int64(countsOK) {
			http.Error(w, "render counts are down", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"/json":%d,"/ssr":%d}`, renders.Load(), pageRenders.Load())
	})
	ln, err := net.Listen("tcp", "127.0.0.1:"+os.Getenv("PORT"))
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	http.Serve(ln, nil)
}

// fakeTarget loads testdata/frameworks/fake; its server is this test binary.
func fakeTarget(t *testing.T) *framework.Spec { return adapter(t, "fake") }

// adapter loads testdata/frameworks/NAME, whose server is this test binary
// (TFBENCH_RUN_FAKE_BIN).
func adapter(t *testing.T, name string) *framework.Spec {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("TFBENCH_RUN_FAKE_BIN", exe)
	s, err := framework.Load(filepath.Join("testdata", "frameworks", name, framework.FileName))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestBenchRoundsAndLabel runs the fake adapter, labelled "default@new",
// over Config.Rounds = 2 of a one-round suite with one json level: one
// sample per round, the label as the variant everywhere results record
// one, 2 rounds recorded, and one progress step per shot with the planned
// time done (warmups and windows) and in all.
func TestBenchRoundsAndLabel(t *testing.T) {
	spec := fakeTarget(t)
	json := suite.Test{Name: "json", Type: model.JSON, Path: "/json", Settings: suite.Settings{
		Duration: 300 * time.Millisecond, Warmup: 100 * time.Millisecond, Timeout: 2 * time.Second,
		Concurrency: []int{2}, Pipeline: 1, Gate: 1, MinResponses: 10, Engine: "raw"}}
	s := &suite.Suite{Name: "fake", Rounds: 1, Tests: []suite.Test{json}}
	var steps []progress.Step
	var log strings.Builder
	work := t.TempDir()
	f, _, err := Bench(context.Background(), Config{
		Suite: s, WorkDir: work, Rounds: 2, Log: &log, Seed: 1, RunID: "rounds", dateRecheck: time.Millisecond,
		Targets:  []Target{{Spec: spec, Variant: spec.Variants[0], Label: "default@new"}},
		Progress: func(p progress.Step) { steps = append(steps, p) },
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if f.Suite.Rounds != 2 {
		t.Errorf("results suite rounds %d, want 2", f.Suite.Rounds)
	}
	if len(f.Frameworks) != 1 || f.Frameworks[0].Name != "fake" || f.Frameworks[0].Variant != "default@new" || f.Frameworks[0].Error != "" {
		t.Errorf("frameworks %+v", f.Frameworks)
	}
	if len(f.Verifications) != 1 || f.Verifications[0].Variant != "default@new" || f.Verifications[0].Status != "pass" {
		t.Fatalf("verifications %+v", f.Verifications)
	}
	var rounds []int
	for _, smp := range f.Samples {
		rounds = append(rounds, smp.Round)
		// Under the race detector a 300 ms window on a busy machine may
		// see fewer than MinResponses: the gate is not this test's point.
		if smp.Framework != "fake" || smp.Variant != "default@new" || smp.Test != "json" || smp.Connections != 2 || (!smp.Gate.Passed && !raceEnabled) {
			t.Errorf("sample %+v (gate %q)", smp.Key, smp.Gate.Reason)
		}
	}
	slices.Sort(rounds)
	if !slices.Equal(rounds, []int{1, 2}) {
		t.Errorf("sample rounds %v, want [1 2]", rounds)
	}
	// Where the time went: the windows are the samples', two warmups ran,
	// and the phases add up to the total.
	if tm := f.Time; tm == nil || tm.MeasuringStarted.IsZero() || tm.Warmups < 0.2 || tm.ServerStarts <= 0 || tm.Verification <= 0 {
		t.Errorf("time %+v", tm)
	} else {
		if w := f.Samples[0].Window + f.Samples[1].Window; tm.Windows != w {
			t.Errorf("windows %v s, want the samples' %v s", tm.Windows, w)
		}
		sum := tm.Builds + tm.RuntimeInstalls + tm.ServerStarts + tm.Verification + tm.Warmups + tm.Windows + tm.Pauses + tm.Report
		if math.Abs(sum-tm.Total) > 1e-6 || tm.Total > f.Finished.Sub(f.Started).Seconds()+1e-3 {
			t.Errorf("phases add up to %v s, total %v s, run %v", sum, tm.Total, f.Finished.Sub(f.Started))
		}
	}
	if f.Samples[0].At.Before(f.Started) || !f.Samples[1].At.After(f.Samples[0].At) {
		t.Errorf("sample starts %v, %v after the run's %v", f.Samples[0].At, f.Samples[1].At, f.Started)
	}
	ms := time.Millisecond
	want := []progress.Step{
		{ID: model.ID{Framework: "fake", Variant: "default@new"}, Test: "json", Connections: 2, Round: 1, Rounds: 2, Shot: 300 * ms, Done: 100 * ms, Total: 800 * ms},
		{ID: model.ID{Framework: "fake", Variant: "default@new"}, Test: "json", Connections: 2, Round: 2, Rounds: 2, Shot: 300 * ms, Done: 500 * ms, Total: 800 * ms},
	}
	// First the build: the ETA from the first second is one build guessed
	// at progress.BuildGuess, then the plan.
	if len(steps) == 0 || steps[0].Build != "fake" || steps[0].Builds != 1 || steps[0].BuildsDone != 0 ||
		steps[0].BuildsLeft != progress.BuildGuess || steps[0].Total != 800*ms {
		t.Fatalf("first step %+v, want the build of fake with the plan's 800 ms", steps)
	}
	steps = steps[1:]
	if len(steps) != len(want) {
		t.Fatalf("%d progress steps, want %d: %+v", len(steps), len(want), steps)
	}
	for i := range steps {
		if steps[i].Elapsed <= 0 || (i > 0 && steps[i].Elapsed <= steps[i-1].Elapsed) || steps[i].Measuring <= 0 || steps[i].Measuring > steps[i].Elapsed {
			t.Errorf("step %d: elapsed %v after %v, measuring %v", i, steps[i].Elapsed, steps[max(i-1, 0)].Elapsed, steps[i].Measuring)
		}
		steps[i].Elapsed, steps[i].Measuring = 0, 0
		if steps[i] != want[i] {
			t.Errorf("step %d: %+v, want %+v", i, steps[i], want[i])
		}
	}
	for _, line := range []string{"1 framework variant × 1 test × 2 rounds", "round 1/2: fake/default@new json c=2: ", "round 2/2: fake/default@new json c=2: "} {
		if !strings.Contains(log.String(), line) {
			t.Errorf("log lacks %q:\n%s", line, log.String())
		}
	}
	for _, name := range []string{"fake-default@new-r1.log", "fake-default@new-r2.log"} {
		if _, err := os.Stat(filepath.Join(work, "runs", "rounds", "logs", name)); err != nil {
			t.Errorf("server log: %v", err)
		}
	}
	noLeftovers(t, work, "rounds")
}

func TestBenchRoundsBelowOne(t *testing.T) {
	spec := &framework.Spec{Name: "a", Variants: []framework.Variant{{Name: "default"}}}
	for _, c := range []struct {
		suite, config int
		want          string
	}{
		{1, -1, "-1 rounds: a run needs at least 1"},
		{0, 0, "0 rounds: a run needs at least 1"},
	} {
		_, _, err := Bench(context.Background(), Config{Suite: &suite.Suite{Name: "x", Rounds: c.suite}, Rounds: c.config,
			WorkDir: t.TempDir(), Targets: []Target{{Spec: spec, Variant: spec.Variants[0]}}})
		if err == nil || err.Error() != c.want {
			t.Errorf("suite rounds %d, Config.Rounds %d: err %v, want %q", c.suite, c.config, err, c.want)
		}
	}
}

// TestTwoSourceTrees: two targets of one adapter from two source folders
// have different build keys and build folders; the first folder keeps the
// plain one. Labels must be file-name safe and names unique.
func TestTwoSourceTrees(t *testing.T) {
	base := &framework.Spec{Name: "go-stdlib", Dir: "frameworks/go-stdlib", Runtime: "go", Variants: []framework.Variant{{Name: "default"}}}
	newTree := *base
	newTree.Dir = "/tmp/new/go-stdlib"
	a := Target{Spec: base, Variant: base.Variants[0], Label: "default@base"}
	b := Target{Spec: &newTree, Variant: base.Variants[0], Label: "default@new"}
	first, err := checkTargets([]Target{a, b})
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("frameworks/go-stdlib")
	if len(first) != 1 || first["go-stdlib"] != abs {
		t.Fatalf("first dirs %v", first)
	}
	r := &runner{firstDir: first}
	if ka, kb := r.buildKey(a), r.buildKey(b); ka != abs+"\x00go" || kb != "/tmp/new/go-stdlib\x00go" {
		t.Errorf("build keys %q, %q", ka, kb)
	}
	// "@" + the first 8 hex digits of sha256("/tmp/new/go-stdlib").
	if ta, tb := r.buildTag(a), r.buildTag(b); ta != "" || tb != "@2935cbe9" {
		t.Errorf("build tags %q, %q", ta, tb)
	}
	if a.ID().String() != "go-stdlib/default@base" || b.VariantName() != "default@new" || (Target{Spec: base, Variant: base.Variants[0]}).ID().String() != "go-stdlib/default" {
		t.Errorf("names %q %q", a.ID(), b.VariantName())
	}
	for _, c := range []struct {
		targets []Target
		want    string
	}{
		{[]Target{a, a}, "target go-stdlib/default@base is given twice; give one a label"},
		{[]Target{{Spec: base, Variant: base.Variants[0], Label: "new/x"}}, `target go-stdlib/default: label "new/x": use letters, digits and . _ @ + - (it names files)`},
	} {
		if _, err := checkTargets(c.targets); err == nil || err.Error() != c.want {
			t.Errorf("err %v, want %q", err, c.want)
		}
	}
}

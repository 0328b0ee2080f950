package report

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/internal/golden"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/results"
)

// tfbFixture is siteFixture's run (json with a constant-rate round,
// queries at N = 1 and 20, fortunes) grown to the six TFB tests in TFB
// order: plaintext pipelined 16 deep at 8 and 16 connections (slow fails
// the gate at 16), db (node-http's verification warns) and updates at
// N = 1 and 20 (node-http has no N = 1 sample). The command runs the
// whole suite; the host names its OS and the harness's Go. node-http's
// samples and db's have memory figures; slow's db is a possible leak.
// Generator-bound levels (failed the gate on a saturated generator CPU set
// alone): node-http's plaintext at 16 in round 1, above its peak at 8 (a
// lower bound beside the peak), and slow's db in both rounds (no peak).
func tfbFixture(t *testing.T) *results.File {
	f := siteFixture(t)
	f.Command = []string{"tfbench", "bench", "--suite", "suites/smoke.yaml"}
	f.Host.OS, f.Host.Kernel, f.Host.Arch, f.Host.GoVersion = "debian 12.8", "6.1.0", "x86_64", "go1.26.8"
	// The provenance a published figure carries: a virtual host, the pinned CPUs' cores (the
	// generator and the server on one core's two threads), a dirty tree.
	f.Host.Virtual, f.Host.Boost, f.Host.SharedCores = "kvm guest", "on", true
	f.Host.CPUs = []probe.CPU{{ID: 0, Role: "generator", Siblings: "0-1", Governor: "performance"}, {ID: 1, Role: "server", Siblings: "0-1"}}
	f.Tfbench = "2ba518a0c1d2e3f405162738495a6b7c8d9e0f12+dirty"
	f.Source = &results.Source{Commit: "2ba518a0c1d2e3f405162738495a6b7c8d9e0f12", Dirty: true, DiffSHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}
	byName := map[string]results.Test{}
	for _, x := range f.Suite.Tests {
		byName[x.Name] = x
	}
	byName["plaintext"] = results.Test{Name: "plaintext", Type: "plaintext", Path: "/plaintext", Concurrency: []int{8, 16}, Pipeline: 16, Duration: 1, Gate: 1, MinResponses: 100}
	byName["db"] = results.Test{Name: "db", Type: "db", Path: "/db", Concurrency: []int{8}, Pipeline: 1, Duration: 1, Gate: 1, MinResponses: 100}
	byName["updates"] = results.Test{Name: "updates", Type: "updates", Path: "/updates?queries={n}", Queries: []int{1, 20}, Concurrency: []int{8}, Pipeline: 1, Duration: 1, Gate: 1, MinResponses: 100}
	f.Suite.Tests = nil
	for _, name := range []string{"json", "plaintext", "db", "queries", "fortunes", "updates"} {
		f.Suite.Tests = append(f.Suite.Tests, byName[name])
	}
	for _, fw := range f.Frameworks {
		for _, test := range []string{"plaintext", "db", "updates"} {
			v := results.Verification{ID: model.ID{Framework: fw.Name, Variant: fw.Variant}, Test: test, Status: "pass"}
			if fw.Name == "node-http" && test == "db" {
				v.Status, v.Reasons = "warn", []string{"GET /db: Server header missing"}
			}
			f.Verifications = append(f.Verifications, v)
		}
	}
	add := func(fw, variant, test string, n, conns, pipe, round int, rps float64, pass bool) {
		s := model.Sample{Key: model.Key{ID: model.ID{Framework: fw, Variant: variant}, Test: test, N: n, Connections: conns, Pipeline: pipe, Round: round},
			RPS: rps, Responses: int64(rps), Success: int64(rps), Histogram: hist(t, 50), CPUPerRequest: 0.01 + 1/rps*100, ServerRSS: 25 << 20}
		if fw == "node-http" || test == "db" {
			// Memory where the server tells (node-http; db for all): slow's db
			// grows its RSS 20% in both rounds, a possible leak.
			growth := 0.02
			if fw == "slow" {
				growth = 0.2
			}
			s.Memory = &model.Memory{Source: "node", Processes: 1, Threads: 1, AllocPerRequest: 3.5 * float64(round), GCPercent: 1.5 * float64(round), PauseMax: 2.25, RSSBefore: 80 << 20, RSSGrowth: growth}
		}
		s.Gate.Passed = pass
		if !pass {
			s.Gate.Reason = "timeout errors: 3"
		}
		f.Samples = append(f.Samples, s)
	}
	for round := 1; round <= 2; round++ {
		r := float64(round)
		add("go-stdlib", "default", "plaintext", 0, 8, 16, round, 200000+1000*r, true)
		add("go-stdlib", "default", "plaintext", 0, 16, 16, round, 300000+2000*r, true)
		add("slow", "a|b", "plaintext", 0, 8, 16, round, 50000*r, true)
		add("slow", "a|b", "plaintext", 0, 16, 16, round, 80000, round == 1)
		add("node-http", "default", "plaintext", 0, 8, 16, round, 150000+r, true)
		add("node-http", "default", "plaintext", 0, 16, 16, round, 160000+r, round == 2)
		add("go-stdlib", "default", "db", 0, 8, 1, round, 9000+100*r, true)
		add("slow", "a|b", "db", 0, 8, 1, round, 900+10*r, true)
		add("node-http", "default", "db", 0, 8, 1, round, 7000+50*r, true)
		for _, n := range []int{1, 20} {
			add("go-stdlib", "default", "updates", n, 8, 1, round, 6000/float64(n)+r, true)
			add("slow", "a|b", "updates", n, 8, 1, round, 600/float64(n)+r, true)
			if n == 20 {
				add("node-http", "default", "updates", n, 8, 1, round, 500+r, true)
			}
		}
	}
	for i, s := range f.Samples {
		if s.Framework == "node-http" && s.Test == "plaintext" && s.Connections == 16 && s.Round == 1 || s.Framework == "slow" && s.Test == "db" {
			f.Samples[i].GeneratorSaturated = true
			f.Samples[i].Gate = model.GateResult{Reason: model.HarnessFault + model.GeneratorSaturatedFault}
		}
	}
	return f
}

// TestMarkdownTFBGolden pins the single-file markdown report of a run of
// the six TFB tests (golden testdata/report-tfb.golden): header, machine
// and method, frameworks, each test's table, by-N tables, rate table, notes.
func TestMarkdownTFBGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := Markdown(&buf, tfbFixture(t)); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	golden.Check(t, "report-tfb.golden", out)
	for _, test := range []string{"json", "plaintext", "db", "queries", "fortunes", "updates"} {
		if !strings.Contains(out, "\n## "+test+"\n") {
			t.Errorf("report has no section %s", test)
		}
	}
}

// TestReportSiteTFBGolden pins every markdown and CSV page the docs site
// writes for the six-test run (testdata/site-tfb/NAME.golden: index.md, a
// page per test, results.csv); the SVG charts are left to harness/chart.
func TestReportSiteTFBGolden(t *testing.T) {
	files := site(t, single(tfbFixture(t)))
	var names []string
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	want := []string{"db.md", "db.svg", "fortunes.md", "fortunes.svg", "index.md", "json.md", "json.svg", "plaintext.md", "plaintext.svg",
		"queries.md", "queries.svg", "results.csv", "updates.md", "updates.svg"}
	if !slices.Equal(names, want) {
		t.Errorf("files %q, want %q", names, want)
	}
	for _, name := range names {
		if strings.HasSuffix(name, ".svg") {
			continue
		}
		golden.Check(t, filepath.Join("site-tfb", name+".golden"), files[name])
	}
}

// A suite with sample_warmup says so in the Window row; one without keeps
// the sent-and-answered rule.
func TestWindowText(t *testing.T) {
	cold := []results.Test{{Name: "json"}}
	if got := windowText(cold); got != "only responses to requests sent and answered inside the window count; RPS = counted responses / window" {
		t.Errorf("cold windows: %q", got)
	}
	warm := []results.Test{{Name: "json"}, {Name: "fortunes", SampleWarmup: 0.25}}
	if got := windowText(warm); got != "a closed-loop window opens on load already running on its connections (sample_warmup) and counts every response completed in it, whenever sent; otherwise only responses to requests sent and answered inside the window count; RPS = counted responses / window" {
		t.Errorf("with sample_warmup: %q", got)
	}
}

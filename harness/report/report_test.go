package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/texttab"
)

// hist encodes a histogram holding 1..n ms in 1 ms steps (µs values).
func hist(t *testing.T, n int) []byte {
	h := hdrhistogram.New(1, 8_000_000, 3)
	for i := 1; i <= n; i++ {
		h.RecordValue(int64(i) * 1000)
	}
	b, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func fixture(t *testing.T) *results.File {
	f := &results.File{
		SchemaVersion: 1, MethodVersion: 1, RunID: "r1", Status: results.Complete, Command: []string{"tfbench", "bench", "--tests", "json,queries"},
		Started: time.Date(2026, 11, 29, 19, 30, 0, 0, time.UTC),
		Suite: results.Suite{Name: "smoke", File: "suites/smoke.yaml", Hash: "0123456789abcdef", Rounds: 2, Tests: []results.Test{
			{Name: "json", Type: "json", Path: "/json", Concurrency: []int{8, 16}, Pipeline: 1, Duration: 1, Warmup: 0.2, Timeout: 8, Gate: 1, MinResponses: 100, Rate: 500, RateConnections: 8},
			{Name: "queries", Type: "queries", Path: "/queries?queries={n}", Queries: []int{1, 20}, Concurrency: []int{8}, Pipeline: 1, Duration: 1, Gate: 1, MinResponses: 100},
		}},
		Host: probe.Host{CPUModel: "Test CPU", LogicalCPUs: 2, MemoryBytes: 24 << 30, GeneratorCPUs: "0", ServerCPUs: "1", Disjoint: true},
		Frameworks: []results.Framework{
			{Name: "go-stdlib", Variant: "default", Runtime: "go1.26.8", Rendering: "html/template", Start: "server",
				Versions: []results.Package{{Name: "modernc.org/sqlite", Version: "v1.62.0"}, {Name: "golang.org/x/sys", Version: "v0.49.0"}}},
			{Name: "slow", Variant: "a|b", Runtime: "go1.26.8", Start: "slow"},
		},
		Verifications: []results.Verification{
			{ID: model.ID{Framework: "go-stdlib", Variant: "default"}, Test: "json", Status: "pass"},
			{ID: model.ID{Framework: "go-stdlib", Variant: "default"}, Test: "queries", Status: "warn", Reasons: []string{"501 gave 501 rows"}},
			{ID: model.ID{Framework: "slow", Variant: "a|b"}, Test: "json", Status: "pass"},
			{ID: model.ID{Framework: "slow", Variant: "a|b"}, Test: "queries", Status: "fail", Reasons: []string{"queries=0 gave 0 rows"}},
		},
	}
	add := func(fw, variant, test string, n, conns, round int, rps float64, pass bool) {
		s := model.Sample{Key: model.Key{ID: model.ID{Framework: fw, Variant: variant}, Test: test, N: n, Connections: conns, Pipeline: 1, Round: round},
			RPS: rps, Responses: int64(rps), Success: int64(rps), Histogram: hist(t, 100), CPUPerRequest: 0.05, ServerRSS: 20 << 20}
		s.Gate.Passed = pass
		if !pass {
			s.Gate.Reason = "socket errors: read 1"
		}
		f.Samples = append(f.Samples, s)
	}
	add("go-stdlib", "default", "json", 0, 8, 1, 10000, true)
	add("go-stdlib", "default", "json", 0, 8, 2, 12000, true)
	add("go-stdlib", "default", "json", 0, 16, 1, 20000, true)
	add("go-stdlib", "default", "json", 0, 16, 2, 30000, false)
	add("slow", "a|b", "json", 0, 8, 1, 5000, true)
	add("slow", "a|b", "json", 0, 8, 2, 5500, true)
	add("slow", "a|b", "json", 0, 16, 1, 100, false)
	add("slow", "a|b", "json", 0, 16, 2, 100, false)
	addRate := func(fw, variant string, round int, rps float64) {
		s := model.Sample{Key: model.Key{ID: model.ID{Framework: fw, Variant: variant}, Test: "json", Connections: 8, Rate: 500, Pipeline: 1, Round: round},
			RPS: rps, Responses: int64(rps), Success: int64(rps), Histogram: hist(t, 100), UncorrectedHistogram: hist(t, 10)}
		s.Gate.Passed = true
		f.Samples = append(f.Samples, s)
	}
	addRate("go-stdlib", "default", 1, 500)
	addRate("go-stdlib", "default", 2, 499)
	addRate("slow", "a|b", 1, 300)
	for _, n := range []int{1, 20} {
		add("go-stdlib", "default", "queries", n, 8, 1, float64(4000/n), true)
		add("go-stdlib", "default", "queries", n, 8, 2, float64(4000/n), true)
		add("slow", "a|b", "queries", n, 8, 1, 9999, true)
	}
	return f
}

func TestMarkdown(t *testing.T) {
	var buf bytes.Buffer
	if err := Markdown(&buf, fixture(t)); err != nil {
		t.Fatal(err)
	}
	out := squeeze(buf.String())
	want := []string{
		"# tfbench: smoke",
		"Command: `tfbench bench --tests json,queries`",
		"**A subset:** this run was limited with `--tests json,queries`; frameworks or tests it left out are not in this report.",
		"| CPU sets | load generator on CPU 0, servers on CPU 1 |",
		"| go-stdlib | default | modernc.org/sqlite v1.62.0, golang.org/x/sys v0.49.0 | go1.26.8 | html/template | `server` | ran |",
		"| slow | a\\|b | — | go1.26.8 | | `slow` | ran |",
		// json: 16 connections failed a round, so the peak is the
		// 8-connection median 11,000; its rounds (10,000–12,000) are all
		// above slow's (5,000–5,500), so slow ranks 2.
		"| go-stdlib | default   |   11,000 |    1 |   10,000–12,000 |           8 |  50.02 |  99.01 |      0.050 |   20.0 |      — |    — |               — |          — | pass         |",
		"| slow      | a\\|b      |    5,250 |    2 |     5,000–5,500 |           8 |  50.02 |  99.01 |      0.050 |   20.0 |      — |    — |               — |          — | pass         |",
		"**Rank** is 1 + the rows whose every round was faster than this row's fastest (min–max ranges apart)",
		// queries: the failed verification hides slow's number even though it has samples.
		"| go-stdlib | default   |      200 |    1 |         200–200 |           8 |  50.02 |  99.01 |      0.050 |   20.0 |      — |    — |               — |          — | warn         |",
		"| slow      | a\\|b      |        — |         — |               — |           — |      — |      — |          — |      — |      — |    — |               — |          — | fail         |",
		"| go-stdlib | default | 4,000 (4,000–4,000) | 200 (200–200) |",
		"- go-stdlib (default): warn: 501 gave 501 rows",
		// the constant-rate table: corrected 1..100 ms, uncorrected 1..10 ms
		"Latency at a constant 500 requests/s over 8 connections",
		"| go-stdlib | default | 500 | 50.02 | 90.05 | 99.01 | 100.03 | 100.03 | 10.01 |",
		"| slow | a\\|b | 300 |",
		"- slow (a|b): sustained only 300 of the 500 requests/s asked for",
		"- slow (a|b): fail: queries=0 gave 0 rows",
	}
	for _, w := range want {
		if w = squeeze(w); !strings.Contains(out, w) {
			t.Errorf("report lacks line\n%s\n--- report:\n%s", w, out)
			break
		}
	}
	if strings.Count(out, "\n## ") != 4 { // machine, frameworks, json, queries
		t.Errorf("%d sections", strings.Count(out, "\n## "))
	}
}

func TestThousands(t *testing.T) {
	for in, want := range map[float64]string{0: "0", 999.6: "1,000", 1234567: "1,234,567", 12: "12"} {
		if got := texttab.Thousands(in); got != want {
			t.Errorf("texttab.Thousands(%v) = %q, want %q", in, got, want)
		}
	}
}

// squeeze folds runs of spaces so assertions do not depend on column widths.
func squeeze(s string) string {
	for strings.Contains(s, "  ") {
		s = strings.ReplaceAll(s, "  ", " ")
	}
	return s
}

func TestSubsetFlags(t *testing.T) {
	for _, c := range []struct {
		cmd  []string
		want string
	}{
		{[]string{"tfbench", "bench", "--suite", "suites/tfb.yaml"}, ""},
		{[]string{"tfbench", "bench", "--frameworks", "nextjs,qwik", "--tests=json"}, "`--frameworks nextjs,qwik`, `--tests=json`"},
		{[]string{"tfbench", "bench", "-tests", "fortunes"}, "`-tests fortunes`"},
		{[]string{"tfbench", "bench", "--tests"}, ""},
	} {
		if got := subsetFlags(c.cmd); got != c.want {
			t.Errorf("subsetFlags(%q) = %q, want %q", c.cmd, got, c.want)
		}
	}
}

// TestRSSDefinition: the "Server cost" row says how RSS was read: VmHWM on
// Linux, sampled on macOS (docs/platforms.md).
func TestRSSDefinition(t *testing.T) {
	for os, want := range map[string]string{
		"debian 12.8": "peak resident memory (VmHWM) of the tree",
		"darwin 15.1": "the highest resident memory of the tree sampled before and after each window (macOS keeps no high-water mark; a peak between samples is missed)",
	} {
		if got := rssDefinition(os); got != want {
			t.Errorf("rssDefinition(%q) = %q, want %q", os, got, want)
		}
	}
}

// TestCPUSetsRow: the method header's "CPU sets" row for a pinned host, a
// one-CPU host and a host without CPU affinity (macOS, docs/platforms.md).
func TestCPUSetsRow(t *testing.T) {
	for _, c := range []struct {
		host probe.Host
		want string
	}{
		{probe.Host{GeneratorCPUs: "0", ServerCPUs: "1", Disjoint: true}, "load generator on CPU 0, servers on CPU 1"},
		{probe.Host{GeneratorCPUs: "0", ServerCPUs: "0"}, "load generator on CPU 0, servers on CPU 0 (not disjoint: too few CPUs, the generator competes with the server)"},
		{probe.Host{OS: "darwin 15.1"}, "not pinned: generator and server share the machine's cores (no CPU affinity on darwin 15.1); RPS is not per core"},
	} {
		var got string
		for _, row := range machineRows(&results.File{Host: c.host}) {
			if row[0] == "CPU sets" {
				got = row[1]
			}
		}
		if got != c.want {
			t.Errorf("host %+v: CPU sets = %q, want %q", c.host, got, c.want)
		}
	}
}

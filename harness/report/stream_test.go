package report

import (
	"bytes"
	"encoding/csv"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tfbench/tfbench/internal/golden"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/results"
)

// streamFixture is a run of the stream test (rows 1,000 and 10,000 in 4
// parts, levels 4 and 16, 2 rounds, the low-rate sample at 10,000 rows):
// go-stdlib streams, node-http sends every low-rate page in one flush (not
// streamed), react-router is n/a with its reason.
func streamFixture(t *testing.T) *results.File {
	f := &results.File{
		SchemaVersion: 1, MethodVersion: 1, RunID: "s1", Status: results.Complete, Command: []string{"tfbench", "bench", "--suite", "suites/ssr-extra.yaml"},
		Started: time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC),
		Suite: results.Suite{Name: "ssr-extra", File: "suites/ssr-extra.yaml", Hash: "0123456789abcdef", Rounds: 2, Tests: []results.Test{
			{Name: "stream", Type: model.Stream, Path: "/stream?rows={n}&parts={k}", Queries: []int{1000, 10000}, Parts: 4, Concurrency: []int{4, 16}, Pipeline: 1,
				Duration: 5, Warmup: 2, Timeout: 8, Gate: 1, MinResponses: 10, Rate: 3, RateConnections: 2, Probe: 0.02},
		}},
		Host: probe.Host{CPUModel: "Test CPU", LogicalCPUs: 2, MemoryBytes: 24 << 30, GeneratorCPUs: "0", ServerCPUs: "1", Disjoint: true},
		Frameworks: []results.Framework{
			{Name: "go-stdlib", Variant: "default", Runtime: "go1.26.8", Start: "server"},
			{Name: "node-http", Variant: "default", Runtime: "node 24.22.3", Start: "node server.mjs"},
			{Name: "react-router", Variant: "default", Runtime: "node 24.22.3", Start: "react-router-serve"},
		},
		Verifications: []results.Verification{
			{ID: model.ID{Framework: "go-stdlib", Variant: "default"}, Test: "stream", Status: "pass", PageBytes: 700000},
			{ID: model.ID{Framework: "node-http", Variant: "default"}, Test: "stream", Status: "pass", PageBytes: 700000},
			{ID: model.ID{Framework: "react-router", Variant: "default"}, Test: "stream", Status: model.NotApplicable,
				Reasons: []string{"React Router renders the whole page before its first byte for a bot User-Agent"}},
		},
	}
	// rec is a stream record whose shell comes at shell ms and part k at
	// shell + (k+1) × step ms, p99 twice p50; one of its responses came in
	// one flush when one.
	rec := func(shell, step float64, responses, one int64) *model.StreamRecord {
		r := &model.StreamRecord{Parts: 4, Responses: responses, OneFlush: one, Streamed: one < responses,
			Shell: model.Latency{P50: shell, P99: 2 * shell}, BytesPerFlush: 140000, Flushes: 5}
		if !r.Streamed {
			r.Flushes, r.BytesPerFlush = 1, 700000
		}
		for k := range 4 {
			at := shell + float64(k+1)*step
			r.Part = append(r.Part, model.Latency{P50: at, P99: 2 * at})
		}
		r.Last = r.Part[3]
		return r
	}
	add := func(fw string, n, conns, round int, rate, rps float64, st *model.StreamRecord) {
		s := model.Sample{Key: model.Key{ID: model.ID{Framework: fw, Variant: "default"}, Test: "stream", Type: model.Stream, N: n, Connections: conns, Rate: rate, Pipeline: 1, Round: round},
			RPS: rps, Responses: int64(rps * 5), Success: int64(rps * 5), Histogram: hist(t, 100), CPUPerRequest: 5, ServerRSS: 40 << 20, Stream: st}
		s.BodyBytes = s.Responses * int64(n) * 70 // 70 bytes a row
		s.Gate.Passed = true
		f.Samples = append(f.Samples, s)
	}
	for round := 1; round <= 2; round++ {
		r := float64(round)
		for _, n := range []int{1000, 10000} {
			scale := float64(n) / 1000
			add("go-stdlib", n, 4, round, 0, 300/scale+r, rec(0.5*r, 1*scale, 1500, 0))
			add("go-stdlib", n, 16, round, 0, 350/scale+r, rec(2*r, 2*scale, 1750, 10))
			add("node-http", n, 4, round, 0, 200/scale+r, rec(1*r, 1.5*scale, 1000, 0))
			add("node-http", n, 16, round, 0, 180/scale+r, rec(3*r, 4*scale, 900, 0))
		}
		add("go-stdlib", 10000, 2, round, 3, 3, rec(0.4, 6, 15, 0))
		add("node-http", 10000, 2, round, 3, 3, rec(12*r, 0.01, 15, 15))
	}
	return f
}

// TestStreamSiteGolden pins the stream test's site page (testdata/stream-site.md):
// the test's table, then per size the shell, parts and last byte under load
// (the peak level: c=16 for go-stdlib, c=4 for node-http) and at the low rate
// (10,000 rows), node-http not streamed, react-router n/a with its reason;
// a chart per size.
func TestStreamSiteGolden(t *testing.T) {
	files := site(t, single(streamFixture(t)))
	var names []string
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	want := []string{"index.md", "results.csv", "stream-stream-1000.svg", "stream-stream-10000.svg", "stream.md", "stream.svg"}
	if !slices.Equal(names, want) {
		t.Errorf("files %q, want %q", names, want)
	}
	golden.Check(t, "stream-site.md", files["stream.md"])
	page := strings.Join(strings.Fields(files["stream.md"]), " ")
	for _, s := range []string{
		"| react-router | default | n/a: React Router renders the whole page before its first byte for a bot User-Agent |",
		"not streamed: the whole page arrived in one flush (30 of 30 responses)",
		"| go-stdlib | default | 3/s | 0.400 / 0.800 | 6.40 / 12.8 | 12.4 / 24.8 | 18.4 / 36.8 | 24.4 / 48.8 | 24.4 / 48.8 | 140,000 | 5.0 | streamed (0 of 30 responses in one flush) |",
	} {
		if !strings.Contains(page, s) {
			t.Errorf("stream.md lacks %q", s)
		}
	}
	if svg := files["stream-stream-1000.svg"]; !strings.Contains(svg, "go-stdlib/default") || !strings.Contains(svg, "node-http/default") || strings.Contains(svg, "react-router") {
		t.Errorf("the 1,000-row chart's series: want go-stdlib and node-http only")
	}
}

// TestStreamMarkdownGolden pins the single-file report of the stream run
// (testdata/stream-report.md): the test's section, then its timeline
// tables without charts.
func TestStreamMarkdownGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := Markdown(&buf, streamFixture(t)); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "stream-report.md", buf.String())
	if out := buf.String(); !strings.Contains(out, "## Stream timeline") || strings.Contains(out, ".svg") {
		t.Errorf("report: want the timeline and no chart link")
	}
}

// TestStreamCSVPageBytes: a stream test's CSV rows give each N's own mean
// page bytes, from its samples (70 bytes a row in the fixture), not the
// headline page verification fetched (700,000 bytes at N=10,000).
func TestStreamCSVPageBytes(t *testing.T) {
	ts, err := Tables(&results.Set{Runs: []results.Run{{Label: "s1", File: streamFixture(t)}}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := CSV(&buf, ts); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(rows[0], "page_bytes")
	got := map[string]string{}
	for _, r := range rows[1:] {
		if r[0] == "stream" && r[3] == "go-stdlib" {
			got[r[1]] = r[col]
		}
	}
	if want := map[string]string{"1000": "70000", "10000": "700000"}; !maps.Equal(got, want) {
		t.Errorf("go-stdlib's stream page_bytes by N = %v, want %v", got, want)
	}
}

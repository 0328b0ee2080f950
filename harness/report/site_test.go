package report

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/internal/runfixture"
)

// siteFixture is fixture's run plus node-http (the best on json, no queries
// samples) and a fortunes test: go-stdlib passes, slow warns about markup
// ("<style>") with a saturated generator, node-http fails.
func siteFixture(t *testing.T) *results.File {
	f := fixture(t)
	f.Suite.Tests = append(f.Suite.Tests, results.Test{Name: "fortunes", Type: "fortunes", Path: "/fortunes", Concurrency: []int{8}, Pipeline: 1, Duration: 1, Gate: 1, MinResponses: 100})
	f.Frameworks = append(f.Frameworks, results.Framework{Name: "node-http", Variant: "default", Runtime: "node 24.22.3", Start: "node server.mjs"})
	f.Verifications = append(f.Verifications,
		results.Verification{ID: model.ID{Framework: "node-http", Variant: "default"}, Test: "json", Status: "pass"},
		results.Verification{ID: model.ID{Framework: "node-http", Variant: "default"}, Test: "queries", Status: "pass"},
		results.Verification{ID: model.ID{Framework: "go-stdlib", Variant: "default"}, Test: "fortunes", Status: "pass", PageBytes: 1228},
		results.Verification{ID: model.ID{Framework: "slow", Variant: "a|b"}, Test: "fortunes", Status: "warn", PageBytes: 3210,
			Reasons: []string{"extra markup around the table, page 3210 bytes: after <title>: expected </head>, got <style>"}},
		results.Verification{ID: model.ID{Framework: "node-http", Variant: "default"}, Test: "fortunes", Status: "fail", PageBytes: 900,
			Reasons: []string{"row 3 differs"}},
	)
	add := func(fw, variant, test string, round int, rps float64, saturated bool) {
		s := model.Sample{Key: model.Key{ID: model.ID{Framework: fw, Variant: variant}, Test: test, Connections: 8, Pipeline: 1, Round: round},
			RPS: rps, Responses: int64(rps), Success: int64(rps), Histogram: hist(t, 100), CPUPerRequest: 0.25, ServerRSS: 30 << 20, GeneratorSaturated: saturated}
		s.Gate.Passed = true
		f.Samples = append(f.Samples, s)
	}
	add("node-http", "default", "json", 1, 11500, false)
	add("node-http", "default", "json", 2, 12500, false)
	add("go-stdlib", "default", "fortunes", 1, 3000, false)
	add("go-stdlib", "default", "fortunes", 2, 3100, false)
	add("slow", "a|b", "fortunes", 1, 1000, false)
	add("slow", "a|b", "fortunes", 2, 1100, true)
	add("node-http", "default", "fortunes", 1, 9000, false)
	return f
}

func single(f *results.File) *results.Set {
	return &results.Set{Runs: []results.Run{{Label: f.RunID, File: f}}}
}

// site renders s into a temporary directory and returns its files by name.
func site(t *testing.T, s *results.Set) map[string]string {
	t.Helper()
	dir := t.TempDir()
	paths, err := Site(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = string(data)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(paths) {
		t.Errorf("%d files in the site directory, %d written (temporary files left?)", len(entries), len(paths))
	}
	return out
}

// TestReportSiteSingle pins the site of one run: the index's summary,
// the json and fortunes pages, the files written.
func TestReportSiteSingle(t *testing.T) {
	files := site(t, single(siteFixture(t)))
	var names []string
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	if want := []string{"fortunes.md", "fortunes.svg", "index.md", "json.md", "json.svg", "queries.md", "queries.svg", "results.csv"}; !slices.Equal(names, want) {
		t.Errorf("files %q, want %q", names, want)
	}
	index := files["index.md"]
	// json: node-http's rounds (11,500–12,500) overlap go-stdlib's
	// (10,000–12,000), a tie for rank 1; slow's (5,000–5,500) are below
	// both: rank 3; queries: only go-stdlib measured; fortunes: slow
	// 1,000–1,100 below go-stdlib's 3,000–3,100, node-http failed.
	wantSummary := `## Summary

Each cell is the variant's rank on that test, then its peak RPS with the min–max over the rounds at the peak level. Ranks tie ("=1") where the rounds cannot tell variants apart; each test's page says how it was ranked. A test's page has the figures, a chart and the notes; all rows as CSV: [results.csv](results.csv).

| Framework | Variant |             [json](json.md) | [queries](queries.md) | [fortunes](fortunes.md) |
|:----------|:--------|----------------------------:|----------------------:|------------------------:|
| go-stdlib | default | =1 · 11,000 (10,000–12,000) |     1 · 200 (200–200) | 1 · 3,050 (3,000–3,100) |
| slow      | a\|b    |     3 · 5,250 (5,000–5,500) |                     — | 2 · 1,050 (1,000–1,100) |
| node-http | default | =1 · 12,000 (11,500–12,500) |                     — |                       — |

## Machine and method
`
	if !strings.Contains(index, wantSummary) {
		t.Errorf("index.md lacks the summary\n%s\n--- index.md:\n%s", wantSummary, index)
	}
	for _, want := range []string{
		"# tfbench: smoke\n\nRun `r1`, 2026-11-29 19:30 UTC, commit unknown, machine Test CPU, 2 logical CPUs.\n\nStatus complete; method version 1, suite `smoke` (sha256 0123456789ab), 2 rounds.\n",
		"| CPU         | Test CPU, 2 logical CPUs ",
		"| go-stdlib | default | modernc.org/sqlite v1.62.0, golang.org/x/sys v0.49.0 | go1.26.8     | html/template | `server`          | ran    |",
	} {
		if !strings.Contains(index, want) {
			t.Errorf("index.md lacks %q", want)
		}
	}
	wantJSON := `# json

Run ` + "`" + `r1` + "`" + `, 2026-11-29 19:30 UTC, commit unknown, machine Test CPU, 2 logical CPUs.

[All tests](index.md) · all rows as CSV: [results.csv](results.csv)

Type ` + "`" + `json` + "`" + `, ` + "`" + `/json` + "`" + `, 8, 16 connections.

![json: peak RPS](json.svg)

**Peak RPS** is the highest median over rounds of a level whose every round passed the gate; **range** is min–max RPS over the rounds at the peak level, where latency (merged HDR histograms), server CPU per request (median) and RSS (largest) are taken too; **÷ go-stdlib** is peak RPS over go-stdlib's peak RPS in this run, with the min–max of the per-round ratio (rounds are interleaved).

**Rank** is 1 + the rows whose every round was faster than this row's fastest (min–max ranges apart); "=2" is a rank two or more rows share. Ranges decide because compare's rank test cannot reach α = 0.05 here: with 2 rounds its smallest p is 0.33.

**KB/req** is the runtime's heap bytes allocated per response and **GC %** its GC time over the window (Node: the main thread's GC pauses; Go: GC CPU time over GOMAXPROCS), both the median over rounds; **GC pause max** and **RSS growth** over the window are the largest of the rounds; — where the server does not tell (docs/ssr.md, Memory and GC per request).

| Framework | Variant | Runtime      | Peak RPS | Rank |       ÷ go-stdlib | Connections | Pipeline | p50 ms | p99 ms | CPU ms/req | RSS MB | KB/req | GC % | GC pause max ms | RSS growth | Verification | Range (min–max) | Rounds |
|:----------|:--------|:-------------|---------:|-----:|------------------:|------------:|---------:|-------:|-------:|-----------:|-------:|-------:|-----:|----------------:|-----------:|:-------------|----------------:|-------:|
| node-http | default | node 24.22.3 |   12,000 |   =1 | 1.09× (1.04–1.15) |           8 |        1 |  50.02 |  99.01 |      0.250 |   30.0 |      — |    — |               — |          — | pass         |   11,500–12,500 |      2 |
| go-stdlib | default | go1.26.8     |   11,000 |   =1 | 1.00× (1.00–1.00) |           8 |        1 |  50.02 |  99.01 |      0.050 |   20.0 |      — |    — |               — |          — | pass         |   10,000–12,000 |      2 |
| slow      | a\|b    | go1.26.8     |    5,250 |    3 | 0.48× (0.46–0.50) |           8 |        1 |  50.02 |  99.01 |      0.050 |   20.0 |      — |    — |               — |          — | pass         |     5,000–5,500 |      2 |

p99 ms at each level, so variants compare at the same concurrency (the median over rounds of each round's p99, with the min–max; "failed": a round failed the gate; "generator-bound": the load generator's CPU set was saturated, so the latency is partly the generator's; "—": not measured):

| Framework | Variant |                 c=8 |   c=16 |
|:----------|:--------|--------------------:|-------:|
| node-http | default | 99.01 (99.01–99.01) |      — |
| go-stdlib | default | 99.01 (99.01–99.01) | failed |
| slow      | a\|b    | 99.01 (99.01–99.01) | failed |

At a constant 500 requests/s over 8 connections (latency from each request's intended send time: corrected for coordinated omission), each cell the range over the rounds (min–max; one figure when they agree):

| Framework | Variant | Achieved RPS | p50 ms | p99 ms | CPU ms/req | Rounds |
|:----------|:--------|-------------:|-------:|-------:|-----------:|-------:|
| go-stdlib | default |      499–500 |   50.0 |   99.0 |      0.000 |      2 |
| slow      | a\|b    |          300 |   50.0 |   99.0 |      0.000 |      1 |

Notes:

- go-stdlib (default): 16 connections: not eligible, round 2: socket errors: read 1
- slow (a|b): 16 connections: not eligible, round 1: socket errors: read 1
- slow (a|b): constant rate: a round sustained only 300 of the 500 requests/s asked for: its latency grows with the backlog
`
	if got := files["json.md"]; got != wantJSON {
		t.Errorf("json.md:\n%s\n--- want:\n%s", got, wantJSON)
	}
	wantFortunes := `| Framework | Variant | Runtime      | Peak RPS | Rank |       ÷ go-stdlib | Connections | Pipeline | p50 ms | p99 ms | CPU ms/req | RSS MB | KB/req | GC % | GC pause max ms | RSS growth | Page bytes | Verification | Range (min–max) | Rounds |
|:----------|:--------|:-------------|---------:|-----:|------------------:|------------:|---------:|-------:|-------:|-----------:|-------:|-------:|-----:|----------------:|-----------:|-----------:|:-------------|----------------:|-------:|
| go-stdlib | default | go1.26.8     |    3,050 |    1 | 1.00× (1.00–1.00) |           8 |        1 |  50.02 |  99.01 |      0.250 |   30.0 |      — |    — |               — |          — |       1228 | pass         |     3,000–3,100 |      2 |
| slow      | a\|b    | go1.26.8     |    1,050 |    2 | 0.34× (0.33–0.35) |           8 |        1 |  50.02 |  99.01 |      0.250 |   30.0 |      — |    — |               — |          — |       3210 | warn         |     1,000–1,100 |      2 |
| node-http | default | node 24.22.3 |        — |    — |                 — |           — |        — |      — |      — |          — |      — |      — |    — |               — |          — |        900 | fail         |               — |      — |

p99 ms at each level, so variants compare at the same concurrency (the median over rounds of each round's p99, with the min–max; "failed": a round failed the gate; "generator-bound": the load generator's CPU set was saturated, so the latency is partly the generator's; "—": not measured):

| Framework | Variant |                 c=8 |
|:----------|:--------|--------------------:|
| go-stdlib | default | 99.01 (99.01–99.01) |
| slow      | a\|b    | 99.01 (99.01–99.01) |
| node-http | default |                   — |

Notes:

- slow (a|b): warn: extra markup around the table, page 3210 bytes: after &lt;title&gt;: expected &lt;/head&gt;, got &lt;style&gt;
- slow (a|b): the load generator's CPU was saturated at 8 connections: the figure may measure the generator
- node-http (default): fail: row 3 differs
`
	if got := files["fortunes.md"]; !strings.HasSuffix(got, wantFortunes) || !strings.Contains(got, "![fortunes: peak RPS](fortunes.svg)\n") {
		t.Errorf("fortunes.md:\n%s\n--- want it to end in:\n%s", got, wantFortunes)
	}
	// The json chart: three bars, node-http's and go-stdlib's highlighted
	// (tied for rank 1).
	n := parseSVG(t, files["json.svg"])
	if got := n.texts(); !slices.Contains(got, "12,000") || !slices.Contains(got, "slow/a|b") {
		t.Errorf("json.svg texts %q", got)
	}
	if all, best := n.bars(); all != 3 || best != 2 {
		t.Errorf("json.svg: %d bars, %d highlighted, want 3 and 2", all, best)
	}
	if got := n.texts(); !slices.Contains(got, "peak RPS (requests/s)") {
		t.Errorf("json.svg has no axis title; texts %q", got)
	}
}

func TestReportCSV(t *testing.T) {
	ts, err := Tables(single(siteFixture(t)))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := CSV(&b, ts); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"test,n,run,framework,variant,runtime,peak_rps,rank,tied,ratio_to_go_stdlib,ratio_lo,ratio_hi,connections,pipeline,p50_ms,p99_ms,cpu_ms_per_request,rss_bytes,page_bytes,verification,min_rps,max_rps,rounds,notes,alloc_kb_per_request,gc_percent,gc_pause_max_ms,rss_growth,lower_bound_rps,lower_bound_min_rps,lower_bound_max_rps,lower_bound_connections,lower_bound_pipeline",
		"json,0,r1,node-http,default,node 24.22.3,12000,1,true,1.091,1.042,1.150,8,1,50.015,99.007,0.250,31457280,,pass,11500,12500,2,,,,,,,,,,",
		`json,0,r1,go-stdlib,default,go1.26.8,11000,1,true,1.000,1.000,1.000,8,1,50.015,99.007,0.050,20971520,,pass,10000,12000,2,"16 connections: not eligible, round 2: socket errors: read 1",,,,,,,,,`,
		`json,0,r1,slow,a|b,go1.26.8,5250,3,false,0.477,0.458,0.500,8,1,50.015,99.007,0.050,20971520,,pass,5000,5500,2,"16 connections: not eligible, round 1: socket errors: read 1",,,,,,,,,`,
		"queries,1,r1,go-stdlib,default,go1.26.8,4000,1,false,1.000,1.000,1.000,8,1,50.015,99.007,0.050,20971520,,warn,4000,4000,2,warn: 501 gave 501 rows,,,,,,,,,",
		"queries,1,r1,slow,a|b,go1.26.8,,,,,,,,,,,,,,fail,,,,fail: queries=0 gave 0 rows,,,,,,,,,",
		"queries,1,r1,node-http,default,node 24.22.3,,,,,,,,,,,,,,pass,,,,not measured: no samples,,,,,,,,,",
		"queries,20,r1,go-stdlib,default,go1.26.8,200,1,false,1.000,1.000,1.000,8,1,50.015,99.007,0.050,20971520,,warn,200,200,2,warn: 501 gave 501 rows,,,,,,,,,",
		"queries,20,r1,slow,a|b,go1.26.8,,,,,,,,,,,,,,fail,,,,fail: queries=0 gave 0 rows,,,,,,,,,",
		"queries,20,r1,node-http,default,node 24.22.3,,,,,,,,,,,,,,pass,,,,not measured: no samples,,,,,,,,,",
		"fortunes,0,r1,go-stdlib,default,go1.26.8,3050,1,false,1.000,1.000,1.000,8,1,50.015,99.007,0.250,31457280,1228,pass,3000,3100,2,,,,,,,,,,",
		`fortunes,0,r1,slow,a|b,go1.26.8,1050,2,false,0.344,0.333,0.355,8,1,50.015,99.007,0.250,31457280,3210,warn,1000,1100,2,"warn: extra markup around the table, page 3210 bytes: after <title>: expected </head>, got <style>; the load generator's CPU was saturated at 8 connections: the figure may measure the generator",,,,,,,,,`,
		"fortunes,0,r1,node-http,default,node 24.22.3,,,,,,,,,,,,,900,fail,,,,fail: row 3 differs,,,,,,,,,",
	}
	if got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n"); !slices.Equal(got, want) {
		t.Errorf("CSV:\n%s\n--- want:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// 30 MiB is 31457280 bytes; the histogram of 1..100 ms has p50 50.015 ms
	// and p99 99.007 ms at 3 significant digits.
}

// keep returns a copy of f with only the named frameworks, their
// verdicts and samples; go-stdlib's samples scaled by scale (a faster or
// slower machine).
func keep(f *results.File, scale float64, names ...string) *results.File {
	g := *f
	g.Frameworks, g.Verifications, g.Samples = nil, nil, nil
	for _, fw := range f.Frameworks {
		if slices.Contains(names, fw.Name) {
			g.Frameworks = append(g.Frameworks, fw)
		}
	}
	for _, v := range f.Verifications {
		if slices.Contains(names, v.Framework) {
			g.Verifications = append(g.Verifications, v)
		}
	}
	for _, s := range f.Samples {
		if slices.Contains(names, s.Framework) {
			if s.Framework == "go-stdlib" {
				s.RPS *= scale
			}
			g.Samples = append(g.Samples, s)
		}
	}
	return &g
}

// TestReportSiteMerged: two runs on different machines, each with its own
// go-stdlib; ranks order the ratio to each row's own go-stdlib.
func TestReportSiteMerged(t *testing.T) {
	a := keep(siteFixture(t), 1, "go-stdlib", "node-http")
	a.RunID = "ra"
	b := keep(siteFixture(t), 2, "go-stdlib", "slow")
	b.RunID, b.Host.CPUModel = "rb", "Other CPU"
	s, err := results.Merge([]results.Run{{Label: "ci-a", File: a}, {Label: "ci-b", File: b}})
	if err != nil {
		t.Fatal(err)
	}
	files := site(t, s)
	// Ratios: node-http 12,000/11,000 = 1.09, per round 11,500/11,000 and
	// 12,500/12,000... its rounds' ratios (1.04–1.15) all above go-stdlib's
	// 1.00: rank 1; each go-stdlib is its run's reference, 1.00 in every
	// round: tied for 2 though run ci-b's peak is 22,000; slow
	// 5,250/22,000 = 0.24 (0.23–0.25): rank 4.
	wantRows := `| Run  | Framework | Variant | Runtime      | Peak RPS | Rank |       ÷ go-stdlib | Connections | Pipeline | p50 ms | p99 ms | CPU ms/req | RSS MB | KB/req | GC % | GC pause max ms | RSS growth | Verification | Range (min–max) | Rounds |
|:-----|:----------|:--------|:-------------|---------:|-----:|------------------:|------------:|---------:|-------:|-------:|-----------:|-------:|-------:|-----:|----------------:|-----------:|:-------------|----------------:|-------:|
| ci-a | node-http | default | node 24.22.3 |   12,000 |    1 | 1.09× (1.04–1.15) |           8 |        1 |  50.02 |  99.01 |      0.250 |   30.0 |      — |    — |               — |          — | pass         |   11,500–12,500 |      2 |
| ci-a | go-stdlib | default | go1.26.8     |   11,000 |   =2 | 1.00× (1.00–1.00) |           8 |        1 |  50.02 |  99.01 |      0.050 |   20.0 |      — |    — |               — |          — | pass         |   10,000–12,000 |      2 |
| ci-b | go-stdlib | default | go1.26.8     |   22,000 |   =2 | 1.00× (1.00–1.00) |           8 |        1 |  50.02 |  99.01 |      0.050 |   20.0 |      — |    — |               — |          — | pass         |   20,000–24,000 |      2 |
| ci-b | slow      | a\|b    | go1.26.8     |    5,250 |    4 | 0.24× (0.23–0.25) |           8 |        1 |  50.02 |  99.01 |      0.050 |   20.0 |      — |    — |               — |          — | pass         |     5,000–5,500 |      2 |
`
	page := files["json.md"]
	if !strings.Contains(page, wantRows) {
		t.Errorf("json.md lacks the run rows\n%s\n--- json.md:\n%s", wantRows, page)
	}
	for _, want := range []string{
		"![json: peak RPS ÷ go-stdlib of the same run](json.svg)",
		"The runs come from different machines: ranks order each row's **÷ go-stdlib**",
		"| ci-b | go-stdlib | default |    998–1,000 |   50.0 |   99.0 |      0.000 |      2 |",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("json.md lacks %q", want)
		}
	}
	index := files["index.md"]
	for _, want := range []string{
		"# tfbench: smoke, 2 runs merged",
		"| Run  | Framework | Variant |        [json](json.md) |  [queries](queries.md) | [fortunes](fortunes.md) |",
		"| ci-b | slow      | a\\|b    |  4 · 0.24× (0.23–0.25) |                      — |   3 · 0.17× (0.17–0.18) |",
		"| ci-a | go-stdlib | default | =2 · 1.00× (1.00–1.00) | =1 · 1.00× (1.00–1.00) |  =1 · 1.00× (1.00–1.00) |",
		"## Run ci-a", "## Run ci-b", "| CPU         | Other CPU, 2 logical CPUs",
	} {
		if !strings.Contains(index, want) {
			t.Errorf("index.md lacks %q\n%s", want, index)
		}
	}
	// The chart shows the ratios with their per-round min–max (a whisker
	// and two caps per bar); go-stdlib twice, named by run.
	if got := parseSVG(t, files["json.svg"]).strokes("stroke-width:1.5;stroke:rgb(51,51,51);fill:none"); got != 3*4 {
		t.Errorf("json.svg: %d whisker strokes, want %d", got, 3*4)
	}
	texts := parseSVG(t, files["json.svg"]).texts()
	for _, want := range []string{"go-stdlib/default (ci-a)", "go-stdlib/default (ci-b)", "node-http/default", "1.09×", "0.24×"} {
		if !slices.Contains(texts, want) {
			t.Errorf("json.svg has no text %q: %q", want, texts)
		}
	}
	if !strings.Contains(files["results.csv"], "\njson,0,ci-b,slow,a|b,go1.26.8,5250,4,false,0.239,0.229,0.250,") {
		t.Errorf("results.csv:\n%s", files["results.csv"])
	}

	// Runs of one suite that measured different tests (--tests json in
	// ci-a): every test gets its page, in either order of the runs, and a
	// run has rows only on the tests it ran.
	a.Suite.Tests = a.Suite.Tests[:1]
	for _, runs := range [][]results.Run{{{Label: "ci-a", File: a}, {Label: "ci-b", File: b}}, {{Label: "ci-b", File: b}, {Label: "ci-a", File: a}}} {
		s, err := results.Merge(runs)
		if err != nil {
			t.Fatal(err)
		}
		files := site(t, s)
		page, ok := files["fortunes.md"]
		if !ok {
			t.Errorf("runs %s, %s: no fortunes page", runs[0].Label, runs[1].Label)
			continue
		}
		if strings.Contains(page, "| ci-a ") || !strings.Contains(page, "| ci-b | slow ") {
			t.Errorf("runs %s, %s: fortunes page rows:\n%s", runs[0].Label, runs[1].Label, page)
		}
		if !strings.Contains(files["json.md"], "| ci-a | node-http ") {
			t.Errorf("runs %s, %s: json page lacks ci-a's rows", runs[0].Label, runs[1].Label)
		}
	}
}

// TestReportSiteEscapes: a framework named a<b&"c" stays text in the
// pages (entities) and in the SVG (well-formed XML with that label).
func TestReportSiteEscapes(t *testing.T) {
	f := siteFixture(t)
	name := `a<b&"c"`
	for i := range f.Frameworks {
		if f.Frameworks[i].Name == "slow" {
			f.Frameworks[i].Name = name
		}
	}
	for i := range f.Verifications {
		if f.Verifications[i].Framework == "slow" {
			f.Verifications[i].Framework = name
		}
	}
	for i := range f.Samples {
		if f.Samples[i].Framework == "slow" {
			f.Samples[i].Framework = name
		}
	}
	files := site(t, single(f))
	if !slices.Contains(parseSVG(t, files["json.svg"]).texts(), name+"/a|b") {
		t.Errorf("json.svg has no label %q", name+"/a|b")
	}
	if !strings.Contains(files["json.svg"], `>a&lt;b&amp;"c"/a|b</text>`) {
		t.Errorf("json.svg does not escape the label")
	}
	if !strings.Contains(files["json.md"], `| a&lt;b&amp;"c" | a\|b    |`) || strings.Contains(files["json.md"], "a<b") {
		t.Errorf("json.md does not escape the name:\n%s", files["json.md"])
	}
	if !strings.Contains(files["fortunes.md"], `- a&lt;b&amp;"c" (a|b): warn:`) {
		t.Errorf("fortunes.md notes:\n%s", files["fortunes.md"])
	}
}

func TestReportSlug(t *testing.T) {
	for in, want := range map[string]string{"json": "json", "Fortunes (SSR)": "fortunes-ssr", "a/b": "a-b", "--x__y--": "x-y", "Ä": "", "db2": "db2"} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReportSlugErrors(t *testing.T) {
	for _, c := range []struct {
		tests []string
		want  string
	}{
		{[]string{"json", "db", "JSON"}, `tests "json" and "JSON" would both be page json.md; rename one in the suite`},
		{[]string{"a/b", "a b"}, `tests "a/b" and "a b" would both be page a-b.md; rename one in the suite`},
		{[]string{"json", "Index"}, `test "Index" would be page index.md, the site's index; rename it in the suite`},
		{[]string{"ü"}, `test "ü" has no letters or digits to name its page; rename it in the suite`},
	} {
		f := siteFixture(t)
		f.Suite.Tests = nil
		for _, name := range c.tests {
			f.Suite.Tests = append(f.Suite.Tests, results.Test{Name: name, Type: "json", Path: "/json", Concurrency: []int{8}})
		}
		dir := t.TempDir()
		_, err := Site(dir, single(f))
		if err == nil || err.Error() != c.want {
			t.Errorf("tests %q: error %v, want %q", c.tests, err, c.want)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("tests %q: %d files written despite the error", c.tests, len(entries))
		}
	}
}

// TestReportSiteLatest renders the published run 20261202-143809
// (internal/runfixture, not reports/latest.json, which a run replaces):
// nine variants, so nine bars per chart; nextjs, qwik and solidstart warn
// on fortunes with their page sizes spelled out.
func TestReportSiteLatest(t *testing.T) {
	s, err := results.ReadSet(runfixture.Results(t))
	if err != nil {
		t.Fatal(err)
	}
	files := site(t, s)
	if len(files) != 2+2*6 {
		t.Errorf("%d files, want index, results.csv and a page and a chart for each of 6 tests", len(files))
	}
	// Rank 1 is highlighted, ties included: json go-stdlib 74,006–85,573
	// and node-http 65,056–90,473; plaintext node-http and go-stdlib;
	// fortunes node-http, engine/pool and go-stdlib; updates node-http,
	// engine/pool, solidstart and qwik (3 rounds: min–max ranges decide).
	firsts := map[string]int{"json": 2, "plaintext": 2, "db": 1, "queries": 1, "fortunes": 3, "updates": 4}
	for _, test := range []string{"json", "plaintext", "db", "queries", "fortunes", "updates"} {
		svg := parseSVG(t, files[test+".svg"])
		if all, best := svg.bars(); all != 9 || best != firsts[test] {
			t.Errorf("%s.svg: %d bars, %d highlighted, want 9 and %d", test, all, best, firsts[test])
		}
		// Every variant has its min–max over three rounds: a whisker
		// and two caps per bar.
		if got := svg.strokes("stroke-width:1.5;stroke:rgb(51,51,51);fill:none"); got != 3*9 {
			t.Errorf("%s.svg: %d whisker strokes, want %d", test, got, 3*9)
		}
		title := test
		if test == "queries" || test == "updates" {
			title += ", N=20"
		}
		if !strings.Contains(files[test+".md"], fmt.Sprintf("![%s: peak RPS](%s.svg)", title, test)) {
			t.Errorf("%s.md does not show its chart titled %q", test, title+": peak RPS")
		}
		if !strings.Contains(files["index.md"], fmt.Sprintf("[%s](%s.md)", test, test)) {
			t.Errorf("index.md does not link %s.md", test)
		}
	}
	page := squeeze(files["fortunes.md"])
	for _, want := range []string{
		"| qwik | default | node 24.22.3 | 3,435 | 5 | 0.17× (0.16–0.21) | 256 | 1 | 70.91 | 137.47 | 0.291 | 472.7 | — | — | — | — | 3212 | warn | 3,320–3,647 | 3 |",
		"| nextjs | default | node 24.22.3 | 663 | =8 | 0.033× (0.03–0.036) | 256 | 1 | 371.71 | 619.52 | 1.508 | 917.1 | — | — | — | — | 8447 | warn | 563–666 | 3 |",
		"- solidstart (default): warn: GET /fortunes: extra markup around the table, page 4353 bytes (TFB fails this; tfbench warns because the table itself is exact): after &lt;/title&gt;&lt;/head&gt;&lt;body&gt;: expected &lt;table&gt;, got &lt;div&gt;\n",
		"- qwik (default): warn: GET /fortunes: extra markup around the table, page 3212 bytes (TFB fails this; tfbench warns because the table itself is exact): after &lt;title&gt;text \"Fortunes\"&lt;/title&gt;: expected &lt;/head&gt;, got &lt;style&gt;\n",
		"- nextjs (default): warn: GET /fortunes: extra markup around the table, page 8447 bytes (TFB fails this; tfbench warns because the table itself is exact): after &lt;/title&gt;&lt;/head&gt;&lt;body&gt;: expected &lt;table&gt;, got &lt;div&gt;\n",
	} {
		if !strings.Contains(page, squeeze(want)) {
			t.Errorf("fortunes.md lacks\n%s\n--- fortunes.md:\n%s", want, files["fortunes.md"])
		}
	}
	if strings.Contains(page, "<style>") || strings.Contains(page, "<div>") {
		t.Error("fortunes.md has raw markup from a verification reason")
	}
	csvLines := strings.Split(strings.TrimSpace(files["results.csv"]), "\n")
	// A row per variant and test, and queries and updates at their four
	// other N each.
	if len(csvLines) != 1+9*6+9*4*2 {
		t.Errorf("results.csv has %d lines, want a header and 126 rows", len(csvLines))
	}
	if !slices.ContainsFunc(csvLines, func(l string) bool {
		return strings.HasPrefix(l, "fortunes,0,20261202-143809,nextjs,default,node 24.22.3,663,8,true,0.033,0.030,0.036,") && strings.Contains(l, ",8447,warn,563,666,3,")
	}) {
		t.Error("results.csv has no nextjs fortunes line with page bytes 8447")
	}
}

// svgDoc is what the tests read from a chart: its texts and path styles.
type svgDoc struct {
	Texts []string `xml:"text"`
	Paths []struct {
		Style string `xml:"style,attr"`
	} `xml:"path"`
}

func parseSVG(t *testing.T, svg string) svgDoc {
	t.Helper()
	var d svgDoc
	if err := xml.Unmarshal([]byte(svg), &d); err != nil {
		t.Fatalf("chart is not well-formed XML: %v", err)
	}
	return d
}

func (d svgDoc) texts() []string { return d.Texts }

// bars counts the filled shapes but the white background (the bars), and
// those outlined (highlighted).
func (d svgDoc) bars() (all, outlined int) {
	for _, p := range d.Paths {
		if strings.Contains(p.Style, "fill:rgb(") {
			all++
			if strings.HasPrefix(p.Style, "stroke-width:2;") {
				outlined++
			}
		}
	}
	return all, outlined
}

// strokes counts the paths styled style.
func (d svgDoc) strokes(style string) int {
	n := 0
	for _, p := range d.Paths {
		if p.Style == style {
			n++
		}
	}
	return n
}

func TestReportNoteText(t *testing.T) {
	got := noteText("start failed: not ready after 1s; last lines:\r\n  listening\n  got <div>\n")
	if want := "start failed: not ready after 1s; last lines: /   listening /   got &lt;div&gt;"; got != want {
		t.Errorf("noteText = %q, want %q", got, want)
	}
}

// TestReportShard: a shard's report says which shard it is and how to get
// the whole tables, in the single-file report, in the site's header and in
// each run's section of a merged site; a run of the whole plan says
// nothing of shards.
func TestReportShard(t *testing.T) {
	a := keep(siteFixture(t), 1, "go-stdlib", "node-http")
	a.RunID, a.Shard, a.Command = "ra", "1/2", []string{"tfbench", "bench", "--shard", "1/2"}
	b := keep(siteFixture(t), 2, "go-stdlib", "slow")
	b.RunID, b.Shard, b.Command = "rb", "2/2", []string{"tfbench", "bench", "--shard", "2/2"}
	shard1 := "Command: `tfbench bench --shard 1/2`\n\n**Shard 1 of 2:** this run measured one of 2 slices of the plan's framework variants (`--shard 1/2`) and the reference go-stdlib/default; `tfbench merge` of the 2 shards' results gives the whole plan's tables.\n\n"
	shard2 := strings.ReplaceAll(shard1, "1/2", "2/2")
	shard2 = strings.Replace(shard2, "Shard 1 of 2", "Shard 2 of 2", 1)

	var md strings.Builder
	if err := Markdown(&md, a); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "\n\n"+shard1+"## Machine and method\n") {
		t.Errorf("report.md lacks the shard paragraph\n%s\n--- report.md:\n%s", shard1, md.String())
	}
	if index := site(t, single(b))["index.md"]; !strings.Contains(index, "\n\n"+shard2+"## Summary\n") {
		t.Errorf("index.md lacks the shard paragraph\n%s\n--- index.md:\n%s", shard2, index)
	}
	s, err := results.Merge([]results.Run{{Label: "shard-1-of-2", File: a}, {Label: "shard-2-of-2", File: b}})
	if err != nil {
		t.Fatal(err)
	}
	index := site(t, s)["index.md"]
	for _, want := range []string{"## Run shard-1-of-2\n\nRun `ra`, 2026-11-29 19:30 UTC, complete.\n\n" + shard1 + "### Machine and method\n",
		"## Run shard-2-of-2\n\nRun `rb`, 2026-11-29 19:30 UTC, complete.\n\n" + shard2 + "### Machine and method\n"} {
		if !strings.Contains(index, want) {
			t.Errorf("merged index.md lacks\n%s\n--- index.md:\n%s", want, index)
		}
	}

	whole := siteFixture(t)
	md.Reset()
	if err := Markdown(&md, whole); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md.String(), "Shard") || strings.Contains(site(t, single(whole))["index.md"], "Shard") {
		t.Error("a run of the whole plan mentions a shard")
	}
}

package report

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tfbench/tfbench/internal/golden"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/serverhost"
)

// histMs encodes a histogram holding lo..hi ms in 1 ms steps (µs values).
func histMs(t *testing.T, lo, hi int) []byte {
	t.Helper()
	h := hdrhistogram.New(1, 8_000_000, 3)
	for i := lo; i <= hi; i++ {
		h.RecordValue(int64(i) * 1000)
	}
	b, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pageFixture is an SSR run of two rounds: test "page" at 10 and 1,000
// rows (4 and 16 connections, 3 pages/s on one connection, a probe every
// 20 ms) and "page-hit" at 1,000 rows with cache hit. go-stdlib is not
// Node (no event loop); nextjs is, its 1,000-row page fails the gate at
// 16 connections in round 2 (the peak is 4) and its constant-rate round 2
// sustains only 2.5 pages/s; node-http failed page-hit's verification.
// Every sample has memory figures; nextjs' 1,000-row page at 4 connections
// grows its RSS more than 10% in both rounds (a possible leak).
func pageFixture(t *testing.T) *results.File {
	page := results.Test{Name: "page", Type: "page", Path: "/ssr?rows={n}", Queries: []int{10, 1000}, Concurrency: []int{4, 16}, Pipeline: 1,
		Duration: 5, Warmup: 2, Timeout: 8, Gate: 1, MinResponses: 10, Rate: 3, RateConnections: 1, Probe: 0.02}
	hit := page
	hit.Name, hit.Queries, hit.Concurrency, hit.Rate, hit.Cache = "page-hit", []int{1000}, []int{4}, 0, "hit"
	f := &results.File{
		SchemaVersion: 1, MethodVersion: 5, RunID: "ssr1", Status: results.Complete, Command: []string{"tfbench", "bench", "--suite", "suites/ssr.yaml"},
		Started: time.Date(2026, 12, 2, 7, 0, 0, 0, time.UTC),
		Suite:   results.Suite{Name: "ssr", File: "suites/ssr.yaml", Hash: "fedcba9876543210", Rounds: 2, Tests: []results.Test{page, hit}},
		Host:    probe.Host{CPUModel: "Test CPU", LogicalCPUs: 2, MemoryBytes: 8 << 30, GeneratorCPUs: "0", ServerCPUs: "1", Disjoint: true},
		Frameworks: []results.Framework{
			{Name: "go-stdlib", Variant: "default", Runtime: "go1.26.8", Rendering: "html/template", Start: "server"},
			{Name: "nextjs", Variant: "default", Runtime: "node 24.22.3", Rendering: "React Server Components", Start: "node server.js"},
			{Name: "node-http", Variant: "default", Runtime: "node 24.22.3", Rendering: "template literals", Start: "node server.mjs"},
		},
		Verifications: []results.Verification{
			{ID: model.ID{Framework: "go-stdlib", Variant: "default"}, Test: "page", Status: "pass", PageBytes: 61000},
			{ID: model.ID{Framework: "nextjs", Variant: "default"}, Test: "page", Status: "warn", PageBytes: 152000, Reasons: []string{"GET /ssr?rows=1000: <script> after the table"}},
			{ID: model.ID{Framework: "node-http", Variant: "default"}, Test: "page", Status: "pass", PageBytes: 58000},
			{ID: model.ID{Framework: "go-stdlib", Variant: "default"}, Test: "page-hit", Status: "pass", PageBytes: 61000},
			{ID: model.ID{Framework: "nextjs", Variant: "default"}, Test: "page-hit", Status: "pass", PageBytes: 152000},
			{ID: model.ID{Framework: "node-http", Variant: "default"}, Test: "page-hit", Status: "fail", Reasons: []string{"no cache route: framework.yaml has no cache"}},
		},
	}
	// page bytes and milliseconds per framework and N: go-stdlib renders
	// 10 rows in 1–2 ms, nextjs in 20–40 ms; 1,000 rows take 10× longer.
	type shape struct {
		bytes    int64
		ms       int
		cpu      float64
		loop     bool
		rpsScale float64
	}
	shapes := map[string]map[int]shape{
		"go-stdlib": {10: {1100, 1, 0.08, false, 1}, 1000: {61000, 10, 0.9, false, 0.1}},
		"nextjs":    {10: {9100, 20, 4.5, true, 0.05}, 1000: {152000, 200, 48, true, 0.004}},
		"node-http": {10: {1000, 2, 0.1, true, 0.9}, 1000: {58000, 15, 1.2, true, 0.08}},
	}
	add := func(fw, test string, n, conns, round int, rate, rps float64, pass bool) {
		sh := shapes[fw][n]
		s := model.Sample{Key: model.Key{ID: model.ID{Framework: fw, Variant: "default"}, Runtime: "rt", Test: test, Type: "page", N: n, Connections: conns, Rate: rate, Pipeline: 1, Round: round},
			Window: 5, RPS: rps, Responses: int64(rps * 5), Success: int64(rps * 5), CPUPerRequest: sh.cpu * (1 + 0.1*float64(round-1)), ServerRSS: 50 << 20,
			Histogram: histMs(t, sh.ms, sh.ms*(2+round)), TTFBHistogram: histMs(t, max(sh.ms/2, 1), sh.ms*(1+round))}
		s.BodyBytes = sh.bytes * s.Responses
		// nextjs' 1,000-row page holds the probe back in round 2: 120 of
		// the 250 scheduled probes answered, which the report notes.
		probes := int64(250)
		if fw == "nextjs" && n == 1000 && round == 2 {
			probes = 120
		}
		s.Probe = &model.Probe{Path: "/plaintext", Interval: 20, Responses: probes, Success: probes, Histogram: histMs(t, 1, 1+sh.ms*round)}
		if sh.loop {
			s.EventLoop = &model.EventLoop{P50: 10.1, P99: float64(sh.ms) * 1.1 * float64(round), Max: float64(sh.ms) * 1.5 * float64(round), Processes: 1}
		}
		// Memory: 12 bytes allocated per page byte; nextjs' page grows its
		// RSS 12% and 15% in each of its 8 closed-loop windows (2 sizes, 2
		// levels, 2 rounds): a possible leak.
		growth := 0.01 * float64(round)
		if fw == "nextjs" && rate == 0 && test == "page" {
			growth = 0.09 + 0.03*float64(round)
		}
		s.Memory = &model.Memory{Source: "node", Processes: 1, Threads: 1, AllocPerRequest: float64(sh.bytes) * 12 / 1024 * (1 + 0.02*float64(round)),
			GCPercent: 1.5 + float64(sh.ms)/20*float64(round), PauseMax: float64(sh.ms) / 10 * float64(round), RSSBefore: 100 << 20, RSSGrowth: growth}
		s.Gate.Passed = pass
		if !pass {
			s.Gate.Reason = "timeout errors: 2"
		}
		f.Samples = append(f.Samples, s)
	}
	for round := 1; round <= 2; round++ {
		for _, fw := range []string{"go-stdlib", "nextjs", "node-http"} {
			for _, n := range []int{10, 1000} {
				base := 20000 * shapes[fw][n].rpsScale
				add(fw, "page", n, 4, round, 0, base*(0.9+0.05*float64(round)), true)
				add(fw, "page", n, 16, round, 0, base*(1+0.05*float64(round)), !(fw == "nextjs" && n == 1000 && round == 2))
				achieved := 3.0
				if fw == "nextjs" && n == 1000 && round == 2 {
					achieved = 2.5
				}
				add(fw, "page", n, 1, round, 3, achieved, true)
			}
			if fw != "node-http" {
				add(fw, "page-hit", 1000, 4, round, 0, 20000*shapes[fw][1000].rpsScale*10*(1+0.02*float64(round)), true)
			}
		}
	}
	return f
}

// TestMarkdownPage pins the single-file report of a page test (golden
// testdata/page.md) and checks its figures.
func TestMarkdownPage(t *testing.T) {
	var buf bytes.Buffer
	if err := Markdown(&buf, pageFixture(t)); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	golden.Check(t, "page.md", out)
	sq := squeeze(out)
	for _, want := range []string{
		"### 10 rows per page", "### 1,000 rows per page",
		// go-stdlib at 10 rows: the peak at 16 connections is the median of
		// 21,000 and 22,000; CPU the median of 0.080 and 0.088; page bytes
		// 1,100; TTFB 1..2 and 1..3 ms merged (p50 2, p99 3); total 1..3 and
		// 1..4 ms (p99 4); probe 1..2 and 1..3; not Node: no event loop;
		// memory: 1,100 × 12 / 1,024 × 1.02 and × 1.04 KB (median 13.3),
		// GC 1.55% and 1.6% (median 1.575), pauses 0.1 and 0.2 ms, RSS +1%, +2%.
		"| go-stdlib | default | 21,500 | 21,000–22,000 | 1 | 16 | 0.084 | 1,100 | 2.00 | 3.00 | 2.00 | 4.00 | 3.00 | 3.00 | — | — | 13.3 | 1.6 | 0.200 | +2.0% | pass |",
		// nextjs at 1,000 rows: 16 connections failed round 2, so the peak
		// is at 4 (76 and 80 RPS); the event loop's worst p99 is 200 × 1.1 × 2
		// ms and its max 200 × 1.5 × 2; KB/req the median of 152,000 × 12 /
		// 1,024 × 1.02 and × 1.04, GC % of 11.5 and 21.5, its RSS +12% and +15%.
		"| nextjs | default | 78.0 | 76.0–80.0 | 3 | 4 | 50.4 | 152,000 | 300 | 592 | 450 | 790 | 395 | 401 | 440 | 600 | 1,835 | 16.5 | 40.0 | +15.0% | warn |",
		// the constant-rate rows: ranges over the two rounds (page p50 of
		// 200..600 and 200..800 ms: 400 and 500).
		"| nextjs | default | 2.5–3.0 | 400–500 | 596–794 | 48.0–52.8 | 101–201 | 199–397 | 201–401 | 300–600 | 2 |",
		"| go-stdlib | default | 3.0 | 2.00 | 3.00–4.00 | 0.080–0.088 | 1.00–2.00 | 2.00–3.00 | 2.00–3.00 | — | 2 |",
		"| node-http | default | — | — | — | — | — | — | — | — | — | — | — | — | — | — | — | — | — | — | fail |",
		"- possible leak: nextjs/default page: RSS +12.0% or more in each of its 8 windows in 2 rounds",
		"- nextjs (default): warn: GET /ssr?rows=1000: &lt;script&gt; after the table",
		"- nextjs (default), 1,000 rows: constant rate: a round sustained only 2.5 of the 3 pages/s asked for",
		"Cache state **hit**",
		"- node-http (default): fail: no cache route: framework.yaml has no cache",
	} {
		if !strings.Contains(sq, squeeze(want)) {
			t.Errorf("report lacks\n%s", want)
		}
	}
}

// TestReportSitePage pins a page test's site page (golden
// testdata/page-site.md), its charts and CSV lines.
func TestReportSitePage(t *testing.T) {
	files := site(t, single(pageFixture(t)))
	var names []string
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	if want := []string{"index.md", "page-alloc.svg", "page-cpu.svg", "page-hit-alloc.svg", "page-hit-cpu.svg", "page-hit-rps.svg", "page-hit.md", "page-rps.svg", "page.md", "results.csv"}; !slices.Equal(names, want) {
		t.Errorf("files %q, want %q", names, want)
	}
	golden.Check(t, "page-site.md", files["page.md"])
	for _, want := range []string{"![page: peak RPS by page bytes](page-rps.svg)", "![page: CPU ms per request by page bytes](page-cpu.svg)", "![page: KB allocated per request by page bytes](page-alloc.svg)"} {
		if !strings.Contains(files["page.md"], want) {
			t.Errorf("page.md lacks %q", want)
		}
	}
	// index: the headline (1,000 rows), RPS written as the page tables
	// write it: nextjs third on page (78.0 of 76.0–80.0
	// RPS, below node-http's 1,680–1,760), second on page-hit (824 of
	// 816–832, node-http has no figure).
	if !strings.Contains(squeeze(files["index.md"]), "| nextjs | default | 3 · 78.0 (76.0–80.0) | 2 · 824 (816–832) |") {
		t.Errorf("index.md summary:\n%s", files["index.md"])
	}
	// The RPS chart: a line per variant through its two sizes.
	texts := parseSVG(t, files["page-rps.svg"]).texts()
	for _, want := range []string{"go-stdlib/default", "nextjs/default", "node-http/default", "1 kB", "1 MB"} {
		if !slices.Contains(texts, want) {
			t.Errorf("page-rps.svg has no text %q: %q", want, texts)
		}
	}
	csv := strings.Split(files["results.csv"], "\n")
	if want := strings.Join(append(append(slices.Clone(CSVHeader), PageCSVColumns...), append(slices.Clone(MemoryCSVColumns), BoundCSVColumns...)...), ","); csv[0] != want {
		t.Errorf("CSV header %q, want %q", csv[0], want)
	}
	for _, want := range []string{
		"page,10,ssr1,go-stdlib,default,go1.26.8,21500,1,false,1.000,1.000,1.000,16,1,2.000,4.001,0.084,52428800,1100,pass,21000,22000,2,,2.000,3.001,3.001,3.001,,,13.277,1.575,0.200,0.0200,,,,,",
		`page,1000,ssr1,nextjs,default,node 24.22.3,78,3,false,0.036,0.036,0.036,4,1,450.047,790.015,50.400,52428800,152000,warn,76,80,2,"warn: GET /ssr?rows=1000: <script> after the table; 16 connections: not eligible, round 2: timeout errors: 2; probe: 120 of 250 scheduled requests answered in round 2's window: the server answered it slower than it came, and its p99 and max cover the answered ones only",300.031,592.383,395.007,401.151,440.000,600.000,1834.688,16.500,40.000,0.1500,,,,,`,
		"page-hit,1000,ssr1,node-http,default,node 24.22.3,,,,,,,,,,,,,,fail,,,,fail: no cache route: framework.yaml has no cache,,,,,,,,,,,,,,,",
	} {
		if !slices.Contains(csv, want) {
			t.Errorf("CSV lacks\n%s\n--- CSV:\n%s", want, files["results.csv"])
		}
	}
}

// TestReportSitePageMerged: a page test of two runs (go-stdlib in both,
// on a machine twice as fast in ci-b) has a Run column in every size's
// tables and names go-stdlib's two lines by run in the charts.
func TestReportSitePageMerged(t *testing.T) {
	a := keep(pageFixture(t), 1, "go-stdlib", "nextjs")
	b := keep(pageFixture(t), 2, "go-stdlib", "node-http")
	b.RunID = "ssr2"
	s, err := results.Merge([]results.Run{{Label: "ci-a", File: a}, {Label: "ci-b", File: b}})
	if err != nil {
		t.Fatal(err)
	}
	files := site(t, s)
	page := squeeze(files["page.md"])
	for _, want := range []string{
		"| Run | Framework | Variant | Peak RPS | Range (min–max) | Rank | ÷ go-stdlib | Connections |",
		// 1,000 rows: ci-b's go-stdlib peak is twice ci-a's 2,150; each is
		// its run's reference, 1.00× in every round, so they tie.
		"| ci-a | go-stdlib | default | 2,150 | 2,100–2,200 | =1 | 1.00× (1.00–1.00) | 16 |",
		"| ci-b | go-stdlib | default | 4,300 | 4,200–4,400 | =1 | 1.00× (1.00–1.00) | 16 |",
		// node-http at 1,680 and 1,760 of ci-b's 4,200 and 4,400: 0.40× in
		// each round; nextjs 76 and 80 of ci-a's 2,100 and 2,200: 0.036×.
		"| ci-b | node-http | default | 1,720 | 1,680–1,760 | 3 | 0.40× (0.40–0.40) | 16 |",
		"| ci-a | nextjs | default | 78.0 | 76.0–80.0 | 4 | 0.036× (0.036–0.036) | 4 |",
		"- nextjs (default, run ci-a), 1,000 rows: constant rate: a round sustained only 2.5 of the 3 pages/s asked for",
		"The runs come from different machines",
	} {
		if !strings.Contains(page, squeeze(want)) {
			t.Errorf("page.md lacks\n%s\n--- page.md:\n%s", want, files["page.md"])
		}
	}
	texts := parseSVG(t, files["page-rps.svg"]).texts()
	for _, want := range []string{"go-stdlib/default (ci-a)", "go-stdlib/default (ci-b)", "nextjs/default", "node-http/default"} {
		if !slices.Contains(texts, want) {
			t.Errorf("page-rps.svg has no text %q: %q", want, texts)
		}
	}
}

// TestReportSlugPageCharts: a test named like a page test's chart is
// refused before anything is written.
func TestReportSlugPageCharts(t *testing.T) {
	f := pageFixture(t)
	f.Suite.Tests = append(f.Suite.Tests, results.Test{Name: "Page CPU", Type: "json", Path: "/json", Concurrency: []int{8}})
	dir := t.TempDir()
	_, err := Site(dir, single(f))
	if want := `tests "page" and "Page CPU" would both write chart page-cpu.svg; rename one in the suite`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%d files written despite the error", len(entries))
	}
}

// TestMarkdownTwoHosts pins the machine rows of a two-host run (docs/remote.md,
// golden testdata/two-hosts.md): both hosts, the network path measured,
// whole-machine CPU sets.
func TestMarkdownTwoHosts(t *testing.T) {
	f := pageFixture(t)
	f.Host.Hostname, f.Host.GeneratorCPUs, f.Host.ServerCPUs, f.Host.Disjoint = "gen", "0-7", "0-15", true
	f.ServerHost = &probe.Host{Hostname: "srv", CPUModel: "AMD EPYC 7B13", LogicalCPUs: 16, MemoryBytes: 64 << 30, OS: "debian 12.8", Kernel: "6.1.0", Arch: "x86_64", GoVersion: "go1.26.8", ServerCPUs: "0-15"}
	f.Network = &serverhost.Network{Transport: "ssh bench@10.0.0.2", Address: "10.0.0.2", RTT: 0.182, LinkBytes: 1.17e9}
	var buf bytes.Buffer
	if err := Markdown(&buf, f); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	golden.Check(t, "two-hosts.md", out)
	for _, want := range []string{
		"| Hosts | two hosts: the load generator on one machine, the servers on another |",
		"| Server host | srv: AMD EPYC 7B13, 16 logical CPUs, 64.0 GiB; debian 12.8, 6.1.0 x86_64 |",
		"| Network | ssh bench@10.0.0.2, address 10.0.0.2: RTT 0.182 ms (median TCP connect), link 1170 MB/s measured before the first sample; a sample whose response bodies reach 90% of it fails the gate as a harness fault |",
		"| CPU sets | whole machines: load generator on CPU 0-7 of its host, servers on CPU 0-15 of theirs |",
	} {
		if !strings.Contains(squeeze(out), squeeze(want)) {
			t.Errorf("report lacks\n%s", want)
		}
	}
}

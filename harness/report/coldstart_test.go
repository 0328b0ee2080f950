package report

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/internal/golden"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
)

// coldFixture is siteFixture's run plus a coldstart test (3 starts, page at
// 1000 rows, 16 connections, 8 s): go-stdlib warms in 1–2 s; slow a|b has one
// failed start and one that never steadies ("> 8 s"); node-http fails every
// start (it never accepted).
func coldFixture(t *testing.T) *results.File {
	f := siteFixture(t)
	f.Suite.Tests = append(f.Suite.Tests, results.Test{Name: "coldstart", Type: model.Coldstart, Path: "/ssr?rows={n}", Queries: []int{10, 1000},
		Concurrency: []int{16}, Pipeline: 1, Timeout: 8, Gate: 1, MinResponses: 100, Engine: "raw",
		ColdStart: &results.ColdStartTest{Starts: 3, Routes: []model.TestType{model.Page, model.JSON}, LimitS: 8}})
	w := func(v float64) *float64 { return &v }
	add := func(fw, variant string, start int, accept, page float64, warm *float64, rps []float64, errText string) {
		c := results.ColdStart{ID: model.ID{Framework: fw, Variant: variant}, Test: "coldstart", Start: start, SpawnToAccept: accept, AcceptPollMS: 2,
			Connections: 16, N: 1000, LimitS: 8, WarmupS: warm, Error: errText}
		if errText == "" || strings.HasPrefix(errText, "first") {
			c.First = []results.FirstRequest{{Route: model.Page, N: 1000, Path: "/ssr?rows=1000", Status: 200, Bytes: 50000, TTFB: page / 2, LastByte: page},
				{Route: model.Page, N: 10, Path: "/ssr?rows=10", Status: 200, Bytes: 900, TTFB: 1, LastByte: 1.2}}
		}
		if strings.HasPrefix(errText, "first") { // the first request answered 500
			c.First = c.First[:1]
			c.First[0].Status, c.First[0].LastByte = 500, 3
		}
		for s, v := range rps {
			c.PerSecond = append(c.PerSecond, results.Second{S: s, RPS: v, P99: 1000 / math.Max(v, 1)})
		}
		if len(rps) > 0 {
			c.SteadyRPS = rps[len(rps)-1]
			for _, v := range rps[len(rps)-(len(rps)+2)/3:] { // the last third's largest distance
				c.SteadySpread = math.Max(c.SteadySpread, math.Abs(v-c.SteadyRPS)/c.SteadyRPS)
			}
		}
		f.ColdStarts = append(f.ColdStarts, c)
	}
	for start := 1; start <= 3; start++ {
		s := float64(start)
		add("go-stdlib", "default", start, 4+s, 30+s, w(float64(1+start%2)), []float64{500, 900 + s, 1000, 1000, 1000, 1001, 1000, 1000}, "")
		switch start {
		case 1:
			add("slow", "a|b", start, 300, 900, w(4), []float64{10, 50, 100, 150, 200, 200, 200, 200}, "")
		case 2:
			add("slow", "a|b", start, 320, 0, nil, nil, "first GET /ssr?rows=1000: status 500")
		case 3:
			add("slow", "a|b", start, 310, 950, nil, []float64{10, 30, 60, 90, 120, 150, 180, 210}, "")
		}
		add("node-http", "default", start, 0, 0, nil, nil, "start failed: server exited before it was ready (exit status 1)\nlast lines of logs/node-http-default-cold1.log:\n    Error: EADDRINUSE")
	}
	return f
}

// TestColdstartReportGolden pins report.md's coldstart section: start ms,
// first-page ms and warm-up as p50 (min–max), "> 8 s" for a start that never
// steadied, failed starts counted with the first reason, and the RPS by second.
func TestColdstartReportGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := Markdown(&buf, coldFixture(t)); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	i := strings.Index(out, "\n## coldstart\n")
	if i < 0 {
		t.Fatalf("no coldstart section:\n%s", out)
	}
	golden.Check(t, "coldstart-report.golden", out[i+1:])
}

// TestColdstartSiteGolden pins the site's coldstart page and CSV; the index
// links the page, the chart is written, and the sample tables have no
// coldstart page of their own.
func TestColdstartSiteGolden(t *testing.T) {
	files := site(t, single(coldFixture(t)))
	golden.Check(t, "site-cold/coldstart.md.golden", files[ColdstartFile])
	golden.Check(t, "site-cold/coldstart.csv.golden", files[ColdstartCSV])
	if svg := files[ColdstartChart]; !strings.Contains(svg, "<svg") || !strings.Contains(svg, "go-stdlib/default") || !strings.Contains(svg, "slow/a|b") {
		t.Errorf("chart %q…", svg[:min(len(svg), 200)])
	}
	if !strings.Contains(files[IndexFile], "[coldstart.md](coldstart.md)") {
		t.Errorf("index does not link the coldstart page")
	}
	if _, ok := files["coldstart.svg"]; !ok {
		t.Errorf("no chart")
	}
	noCold := site(t, single(siteFixture(t)))
	if _, ok := noCold[ColdstartFile]; ok || strings.Contains(noCold[IndexFile], ColdstartFile) {
		t.Errorf("a run without coldstart has its page or link")
	}
}

// TestColdstartSummaryLine: the run's one line on a coldstart test.
func TestColdstartSummaryLine(t *testing.T) {
	if got := ColdstartSummary(coldFixture(t), "coldstart"); got != "coldstart: 3 variants, 9 starts, 4 failed (the report's coldstart section)" {
		t.Errorf("%q", got)
	}
}

// TestColdstartCells: p50 and range with "> limit" for never steady.
func TestColdstartCells(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		vs   []float64
		want string
	}{
		{nil, "—"},
		{[]float64{3}, "3 s"},
		{[]float64{3, 3}, "3 s"},
		{[]float64{2, 3, 4}, "3 s (2 s–4 s)"},
		{[]float64{2, inf, inf}, "> 8 s (2 s–> 8 s)"},
		{[]float64{2, 4}, "3 s (2 s–4 s)"},
		{[]float64{2, inf}, "> 8 s (2 s–> 8 s)"},
	}
	for _, c := range cases {
		if got := p50Range(c.vs, 8, warmText); got != c.want {
			t.Errorf("%v: %q, want %q", c.vs, got, c.want)
		}
	}
}

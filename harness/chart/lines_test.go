package chart

import (
	"bytes"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/internal/golden"
)

// sweep is the golden XY chart's input: peak RPS against page bytes over
// four page sizes, points out of X order, one series of a single point, a
// name with XML's special characters, min–max whiskers on go-stdlib's
// first three points.
var sweep = XY{
	Title:  "page: peak RPS by page bytes",
	XTitle: "page bytes (log scale)",
	YTitle: "peak RPS (log scale)",
	LogY:   true,
	Series: []Series{
		{Name: "go-stdlib/default", Points: []Point{{1200, 21000, 19000, 23000}, {9800, 9400, 9000, 9900}, {96000, 1500, 1200, 1550}, {960000, 160, 0, 0}}},
		{Name: "nextjs/default", Points: []Point{{1536000, 4.2, 0, 0}, {16000, 380, 0, 0}, {2400, 520, 0, 0}, {150000, 61, 0, 0}}},
		{Name: "node-http/default", Points: []Point{{1100, 12000, 0, 0}}},
		{Name: `a<b&"c"`, Points: []Point{{3000, 2000, 0, 0}, {30000, 800, 0, 0}}},
	},
}

func renderXY(t *testing.T, c XY) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Lines(&b, c); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestLinesGolden pins the SVG bytes of an XY chart: twice in this process
// and as the committed golden (rerun with -update after an intended
// change).
func TestLinesGolden(t *testing.T) {
	got := renderXY(t, sweep)
	if again := renderXY(t, sweep); !bytes.Equal(got, again) {
		t.Fatal("two renderings in one process differ")
	}
	golden.Check(t, "sweep.svg", string(got))
}

// TestLinesPNG writes the golden chart as PNG to look at:
// CHART_PNG=/tmp/sweep.png go test ./harness/chart -run TestLinesPNG.
func TestLinesPNG(t *testing.T) {
	path := os.Getenv("CHART_PNG")
	if path == "" {
		t.Skip("CHART_PNG=file.png writes the chart as PNG")
	}
	var b bytes.Buffer
	if err := lines(&b, sweep, "png"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

var dot = regexp.MustCompile(`<circle cx="(\d+)" cy="(\d+)" r="3"`)

// TestLinesLogAxes: the axes' ticks are decades (1k..10M bytes, 1..100k
// RPS), the legend names every series, and a point's position follows
// log10 of its values: go-stdlib's 1,200 → 9,800 bytes is log10(9800/1200)
// of one decade's width.
func TestLinesLogAxes(t *testing.T) {
	svg := renderXY(t, sweep)
	n := parse(t, svg)
	for _, want := range []string{"1k", "10k", "100k", "1M", "10M", "1", "10", "100", "100k", "go-stdlib/default", `a<b&"c"`, "page bytes (log scale)", "peak RPS (log scale)"} {
		if !slices.Contains(n.Texts, want) {
			t.Errorf("no <text> %q; texts %q", want, n.Texts)
		}
	}
	if !bytes.Contains(svg, []byte(`>a&lt;b&amp;"c"</text>`)) {
		t.Error("series name not escaped")
	}
	var xs, ys []int
	for _, m := range dot.FindAllStringSubmatch(string(svg), -1) {
		x, _ := strconv.Atoi(m[1])
		y, _ := strconv.Atoi(m[2])
		xs, ys = append(xs, x), append(ys, y)
	}
	// 4 + 4 + 1 + 2 points, and one legend dot per series.
	if len(xs) != 11+4 {
		t.Fatalf("%d dots, want 15: %v", len(xs), xs)
	}
	// The x axis spans 1k..10M (4 decades) over Width-30-left px.
	decade := float64(xs[1]-xs[0]) / math.Log10(9800.0/1200)
	span := float64(xs[3]-xs[0]) / math.Log10(960000.0/1200)
	if math.Abs(decade-span) > 1.5 {
		t.Errorf("x positions %v are not log-spaced: %.1f and %.1f px per decade", xs[:4], decade, span)
	}
	// y: 21,000 → 160 RPS falls log10(21000/160) decades of 300/5 px.
	if d := float64(ys[3]-ys[0]) - math.Log10(21000.0/160)*PlotHeight/5; math.Abs(d) > 1.5 {
		t.Errorf("y positions %v: off by %.1f px", ys[:4], d)
	}
	// nextjs's points come in X order: the line runs left to right.
	line := regexp.MustCompile(`M (\d+) \d+\s+L (\d+) \d+\s+L (\d+) \d+\s+L (\d+) \d+" style="stroke-width:2;stroke:` + regexp.QuoteMeta(colourOf("nextjs/default").String())).FindStringSubmatch(string(svg))
	if line == nil {
		t.Fatalf("no four-point line in nextjs's colour in\n%s", svg)
	}
	for i := 2; i < 5; i++ {
		a, _ := strconv.Atoi(line[i-1])
		b, _ := strconv.Atoi(line[i])
		if b <= a {
			t.Errorf("nextjs line x %v not increasing", line[1:])
		}
	}
}

// TestLinesLinearY: without LogY the y axis runs from 0 to a round number.
func TestLinesLinearY(t *testing.T) {
	c := XY{Title: "cpu", Series: []Series{{Name: "a", Points: []Point{{1000, 0.5, 0, 0}, {100000, 7, 0, 0}}}}}
	n := parse(t, renderXY(t, c))
	var ticks []string
	for _, s := range n.Texts {
		if strings.ContainsAny(s, "0123456789") {
			ticks = append(ticks, s)
		}
	}
	// x: 1k 10k 100k with 2× and 5× between; y: 0 2 4 6 8.
	want := []string{"1k", "2k", "5k", "10k", "20k", "50k", "100k", "0", "2", "4", "6", "8"}
	if !slices.Equal(ticks, want) {
		t.Errorf("ticks %q, want %q", ticks, want)
	}
}

func TestLinesErrors(t *testing.T) {
	for _, c := range []struct {
		xy   XY
		want string
	}{
		{XY{Title: "t"}, "chart: no series"},
		{XY{Title: "t", Series: []Series{{Name: "s"}}}, `chart "t": series "s" has no points`},
		{XY{Title: "t", Series: []Series{{Name: "s", Points: []Point{{X: 0, Y: 1}}}}}, `chart "t": series "s" has point (0, 1); want finite values, x > 0 (log axis), y ≥ 0 (> 0 on a log axis)`},
		{XY{Title: "t", LogY: true, Series: []Series{{Name: "s", Points: []Point{{X: 1, Y: 0}}}}}, `chart "t": series "s" has point (1, 0); want finite values, x > 0 (log axis), y ≥ 0 (> 0 on a log axis)`},
		{XY{Title: "t", Series: []Series{{Name: "s", Points: []Point{{X: 1, Y: math.NaN()}}}}}, `chart "t": series "s" has point (1, NaN); want finite values, x > 0 (log axis), y ≥ 0 (> 0 on a log axis)`},
		{XY{Title: "t", Series: []Series{{Name: "s", Points: []Point{{1, 5, 6, 4}}}}}, `chart "t": series "s" has whisker 6–4 at x 1; want finite values, 0 ≤ lo ≤ hi (lo > 0 on a log axis)`},
		{XY{Title: "t", LogY: true, Series: []Series{{Name: "s", Points: []Point{{1, 5, 0, 6}}}}}, `chart "t": series "s" has whisker 0–6 at x 1; want finite values, 0 ≤ lo ≤ hi (lo > 0 on a log axis)`},
	} {
		if err := Lines(io.Discard, c.xy); err == nil || err.Error() != c.want {
			t.Errorf("Lines(%+v) = %v, want %q", c.xy, err, c.want)
		}
	}
}

func TestTickNumber(t *testing.T) {
	for in, want := range map[float64]string{0.001: "0.001", 0.0002: "0.0002", 0.01: "0.01", 0: "0", 1e5: "100k"} {
		if got := tickNumber(in); got != want {
			t.Errorf("tickNumber(%v) = %q, want %q", in, got, want)
		}
	}
}

func TestLogTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   []float64
	}{
		{1200, 1536000, []float64{1e3, 1e4, 1e5, 1e6, 1e7}},
		{1000, 1000, []float64{1e3, 2e3, 5e3, 1e4}},
		{0.05, 0.4, []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1}},
	} {
		got := logTicks(c.lo, c.hi)
		ok := len(got) == len(c.want)
		for i := 0; ok && i < len(got); i++ {
			ok = math.Abs(got[i]-c.want[i]) <= 1e-9*c.want[i]
		}
		if !ok {
			t.Errorf("logTicks(%v, %v) = %v, want %v", c.lo, c.hi, got, c.want)
		}
	}
}

// TestLinesWhiskers: go-stdlib's first point, 21,000 RPS with a min–max of
// 19,000–23,000, has a whisker at its dot's x from log10(21000/19000)
// below to log10(23000/21000) above, in px of a decade (PlotHeight over
// the y axis's 5 decades), caps 6 px wide; a point without Lo and Hi has
// none.
func TestLinesWhiskers(t *testing.T) {
	svg := renderXY(t, sweep)
	n := parse(t, svg)
	m := dot.FindStringSubmatch(string(svg))
	x, _ := strconv.Atoi(m[1])
	y, _ := strconv.Atoi(m[2])
	decade := float64(PlotHeight) / 5
	lo := y + int(math.Round(math.Log10(21000.0/19000)*decade))
	hi := y - int(math.Round(math.Log10(23000.0/21000)*decade))
	segs := segments(n)
	want := [][4]int{{x, lo, x, hi}, {x - 3, lo, x + 3, lo}, {x - 3, hi, x + 3, hi}}
	for _, w := range want {
		found := false
		for _, s := range segs {
			found = found || (s[0] == w[0] && s[2] == w[2] && abs(s[1]-w[1]) <= 1 && abs(s[3]-w[3]) <= 1)
		}
		if !found {
			t.Errorf("no whisker stroke %v (dot at %d, %d)", w, x, y)
		}
	}
	// go-stdlib's whiskers are its colour; three points have one.
	col := "stroke:" + colourOf("go-stdlib/default").String()
	count := 0
	for _, p := range n.Paths {
		if s := seg.FindStringSubmatch(p.D); s != nil && s[1] == s[3] && strings.Contains(p.Style, "stroke-width:1;"+col) {
			count++
		}
	}
	if count != 3 {
		t.Errorf("%d vertical whisker strokes in go-stdlib's colour, want 3", count)
	}
}

func abs(v int) int { return max(v, -v) }

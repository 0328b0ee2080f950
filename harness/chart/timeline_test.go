package chart

import (
	"bytes"
	"fmt"
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

// nights is the golden Timeline's input: ratio to go-stdlib over five
// nights, nextjs missing on the third (a gap), a method change before the
// fourth, labelled.
var nights = Timeline{
	Title:  "json: ratio to go-stdlib by night",
	YTitle: "peak RPS ÷ go-stdlib",
	Labels: []string{"2026-11-28", "2026-11-29", "2026-11-30", "2026-12-01", "2026-12-02"},
	Marks:  []Mark{{Before: 3, Label: "method v7"}},
	Series: []TimeSeries{
		{Name: "nextjs/default", Values: []float64{0.21, 0.22, math.NaN(), 0.25, 0.24}},
		{Name: "node-http/default", Values: []float64{0.61, 0.6, 0.63, 0.66, 0.65}},
	},
}

func renderTrend(t *testing.T, c Timeline) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Trend(&b, c); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestTrendGolden pins the SVG bytes of a Timeline: twice in this process
// and as the committed golden (rerun with -update after an intended change).
func TestTrendGolden(t *testing.T) {
	got := renderTrend(t, nights)
	if again := renderTrend(t, nights); !bytes.Equal(got, again) {
		t.Fatal("two renderings in one process differ")
	}
	golden.Check(t, "nights.svg", string(got))
}

// TestTrendPNG writes the golden chart as PNG to look at:
// CHART_PNG=/tmp/nights.png go test ./harness/chart -run TestTrendPNG.
func TestTrendPNG(t *testing.T) {
	path := os.Getenv("CHART_PNG")
	if path == "" {
		t.Skip("CHART_PNG=file.png writes the chart as PNG")
	}
	var b bytes.Buffer
	if err := timeline(&b, nights, "png"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestTrendGap: a NaN is a gap, not a zero: nextjs has four dots (plus its
// legend dot), none on the axis, and its line breaks into two pieces of two
// points; the labels, ticks and series names are texts.
func TestTrendGap(t *testing.T) {
	svg := renderTrend(t, nights)
	n := parse(t, svg)
	for _, want := range []string{"2026-11-28", "2026-12-02", "0", "0.2", "0.4", "0.6", "0.8", "nextjs/default", "node-http/default", "peak RPS ÷ go-stdlib"} {
		if !slices.Contains(n.Texts, want) {
			t.Errorf("no <text> %q; texts %q", want, n.Texts)
		}
	}
	var ys []int
	for _, m := range dot.FindAllStringSubmatch(string(svg), -1) {
		y, _ := strconv.Atoi(m[2])
		ys = append(ys, y)
	}
	// 4 + 5 points and two legend dots.
	if len(ys) != 11 {
		t.Fatalf("%d dots, want 11", len(ys))
	}
	if bottom := PlotTop + PlotHeight; slices.Contains(ys, bottom) {
		t.Errorf("a dot sits on the axis (y %d): a gap drawn as zero; dots %v", bottom, ys)
	}
	blue := regexp.MustCompile(`M \d+ \d+\s+L \d+ \d+" style="stroke-width:2;stroke:`+regexp.QuoteMeta(colourOf("nextjs/default").String())).FindAllString(string(svg), -1)
	if len(blue) != 3 { // two pieces of the line and the legend's stroke
		t.Errorf("nextjs has %d two-point strokes, want 3 (two pieces and the legend)", len(blue))
	}
	if !bytes.Contains(svg, []byte("stroke-dasharray")) {
		t.Error("no dashed mark line")
	}
}

// TestTrendMark: the mark is a dashed line half way between the third and
// fourth night, its label right of it above the plot, and no line segment
// crosses it: node-http, with a value every night, is two lines (three
// nights and two), each wholly on one side.
func TestTrendMark(t *testing.T) {
	svg := renderTrend(t, nights)
	n := parse(t, svg)
	var dots []int
	for _, m := range dot.FindAllStringSubmatch(string(svg), -1) {
		x, _ := strconv.Atoi(m[1])
		if y, _ := strconv.Atoi(m[2]); y <= PlotTop+PlotHeight {
			dots = append(dots, x)
		}
	}
	// node-http's five dots, the last in the SVG: the nights' x.
	xs := dots[len(dots)-5:]
	markX := (xs[2] + xs[3]) / 2
	var mark []int
	for _, p := range n.Paths {
		if s := seg.FindStringSubmatch(p.D); s != nil && p.Dash != "" {
			x1, _ := strconv.Atoi(s[1])
			x2, _ := strconv.Atoi(s[3])
			if x1 == x2 {
				mark = append(mark, x1)
			}
		}
	}
	if len(mark) != 1 || mark[0] < markX-1 || mark[0] > markX+1 {
		t.Fatalf("dashed vertical lines at %v, want one at x %d (between %d and %d)", mark, markX, xs[2], xs[3])
	}
	if x, y := textAt(t, n, "method v7"); x != mark[0]+4 || y >= PlotTop {
		t.Errorf("mark label at (%d, %d), want x %d above the plot (y < %d)", x, y, mark[0]+4, PlotTop)
	}
	node := regexp.MustCompile(`d="(M \d+ \d+(?:\s+L \d+ \d+)+)" style="stroke-width:2;stroke:` + regexp.QuoteMeta(colourOf("node-http/default").String()))
	num := regexp.MustCompile(`[ML] (\d+) \d+`)
	var lines []string
	for _, m := range node.FindAllStringSubmatch(string(svg), -1) {
		var px []int
		for _, q := range num.FindAllStringSubmatch(m[1], -1) {
			x, _ := strconv.Atoi(q[1])
			px = append(px, x)
		}
		left, right := false, false
		for _, x := range px {
			left, right = left || x < mark[0], right || x > mark[0]
		}
		if left && right {
			t.Errorf("node-http's line %v crosses the mark at x %d", px, mark[0])
		}
		lines = append(lines, fmt.Sprint(len(px)))
	}
	// Three nights, two nights, and the legend's swatch.
	if want := []string{"3", "2", "2"}; !slices.Equal(lines, want) {
		t.Errorf("node-http's strokes have %v points, want %v", lines, want)
	}
}

// ring is a Ring's circle: radius 7, no fill.
var ring = regexp.MustCompile(`<circle cx="(\d+)" cy="(\d+)" r="7" style="stroke-width:2;stroke:([^;]+);fill:none"`)

// TestTrendRings: a ring is drawn round its series' dot, in its colour,
// with its label above; two labels that would overlap are stacked; the
// golden pins the bytes.
func TestTrendRings(t *testing.T) {
	c := nights
	c.Rings = []Ring{{Series: 1, At: 3, Label: "node-http/default +5%"}, {Series: 0, At: 3, Label: "nextjs/default +14%"},
		{Series: 1, At: 4, Label: "node-http/default −2%"}}
	svg := renderTrend(t, c)
	golden.Check(t, "nights-rings.svg", string(svg))
	plain := renderTrend(t, nights)
	if ring.Match(plain) {
		t.Fatal("the chart without rings has one")
	}
	rings := ring.FindAllStringSubmatch(string(svg), -1)
	if len(rings) != 3 {
		t.Fatalf("%d rings, want 3", len(rings))
	}
	var dots [][2]int
	for _, m := range dot.FindAllStringSubmatch(string(svg), -1) {
		x, _ := strconv.Atoi(m[1])
		y, _ := strconv.Atoi(m[2])
		dots = append(dots, [2]int{x, y})
	}
	for i, name := range []string{"node-http/default", "nextjs/default"} {
		x, _ := strconv.Atoi(rings[i][1])
		y, _ := strconv.Atoi(rings[i][2])
		if !slices.Contains(dots, [2]int{x, y}) {
			t.Errorf("%s's ring at (%d, %d) is not on a dot", name, x, y)
		}
		if want := colourOf(name).String(); rings[i][3] != want {
			t.Errorf("%s's ring is %s, want %s", name, rings[i][3], want)
		}
	}
	n := parse(t, svg)
	for i, label := range []string{"node-http/default +5%", "nextjs/default +14%"} {
		ry, _ := strconv.Atoi(rings[i][2])
		if _, y := textAt(t, n, label); y >= ry-7 || y < ry-7-14 {
			t.Errorf("label %q at y %d, its ring at %d: want it just above the ring", label, y, ry)
		}
	}
	// The third label would overlap the first: a line above it.
	_, y1 := textAt(t, n, "node-http/default +5%")
	if _, y3 := textAt(t, n, "node-http/default −2%"); y3 > y1-12 || y3 < y1-24 {
		t.Errorf("labels of adjacent rings at y %d and %d, want the second 12 to 24 px above the first (no overlap)", y1, y3)
	}
}

func TestTrendErrors(t *testing.T) {
	for _, c := range []struct {
		tl   Timeline
		want string
	}{
		{Timeline{Title: "t"}, "chart: no labels"},
		{Timeline{Title: "t", Labels: []string{"a"}}, "chart: no series"},
		{Timeline{Title: "t", Labels: []string{"a"}, Series: []TimeSeries{{Name: "s"}}}, `chart "t": series "s" has 0 values for 1 labels`},
		{Timeline{Title: "t", Labels: []string{"a"}, Series: []TimeSeries{{Name: "s", Values: []float64{-1}}}}, `chart "t": series "s" has -1 at a; want a finite value ≥ 0 (NaN: none)`},
		{Timeline{Title: "t", Labels: []string{"a"}, Rings: []Ring{{Series: 1}}, Series: []TimeSeries{{Name: "s", Values: []float64{1}}}}, `chart "t": ring at 0 of series 1: no such value`},
		{Timeline{Title: "t", Labels: []string{"a"}, Rings: []Ring{{}}, Series: []TimeSeries{{Name: "s", Values: []float64{math.NaN()}}}}, `chart "t": ring at a of series "s": no value there`},
	} {
		if err := Trend(io.Discard, c.tl); err == nil || err.Error() != c.want {
			t.Errorf("Trend(%+v) = %v, want %q", c.tl, err, c.want)
		}
	}
}

// TestTrendLabelsApart: 90 nights leave room between their date labels
// (one and a half label widths from start to start; the last, moved
// left to stay inside the chart, more than one), and two marks on nights close together stack their labels a
// line apart instead of writing one over the other.
func TestTrendLabelsApart(t *testing.T) {
	c := Timeline{Title: "90 nights", YTitle: "ratio", Marks: []Mark{{Before: 80, Label: "method v2, new suite"}, {Before: 84, Label: "method v3"}}}
	s := TimeSeries{Name: "node-http/default"}
	for i := range 90 {
		c.Labels = append(c.Labels, fmt.Sprintf("2026-%02d-%02d", 9+i/30, 1+i%30))
		s.Values = append(s.Values, 0.5)
	}
	c.Series = []TimeSeries{s}
	svg := string(renderTrend(t, c))
	text := regexp.MustCompile(`<text x="(-?\d+)" y="(\d+)"[^>]*>([^<]*)<`)
	var xs []int
	marks := map[string][2]int{}
	for _, m := range text.FindAllStringSubmatch(svg, -1) {
		x, _ := strconv.Atoi(m[1])
		y, _ := strconv.Atoi(m[2])
		if regexp.MustCompile(`^2026-\d\d-\d\d$`).MatchString(m[3]) {
			xs = append(xs, x)
		}
		if strings.HasPrefix(m[3], "method") {
			marks[m[3]] = [2]int{x, y}
		}
	}
	if len(xs) < 2 || len(xs) > MaxXLabels {
		t.Fatalf("%d date labels, want 2 to %d", len(xs), MaxXLabels)
	}
	for i := 1; i < len(xs); i++ {
		if gap := xs[i] - xs[i-1]; gap < 90 { // "2026-09-01" is about 80 px; the last one moves left to stay inside
			t.Errorf("date labels %d px apart at x %v, want at least 90", gap, xs)
		}
	}
	a, b := marks["method v2, new suite"], marks["method v3"]
	if a == ([2]int{}) || b == ([2]int{}) || a[1] == b[1] {
		t.Errorf("mark labels at %v and %v: want both, on two lines", a, b)
	}
}

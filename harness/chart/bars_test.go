package chart

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-analyze/charts"

	"github.com/tfbench/tfbench/internal/golden"
)

// three is the golden chart's input: the best bar highlighted with its
// whisker, one bar at half its length, a label with XML's special
// characters and no whisker.
var three = BarChart{
	Title:  "json: peak RPS",
	XTitle: "peak RPS (requests/s)",
	Bars: []Bar{
		{Label: "node-http/default", Value: "56,683", X: 56683, Lo: 52000, Hi: 58100, Highlight: true},
		{Label: "go-stdlib/default", Value: "28,341.5", X: 56683.0 / 2, Lo: 27000, Hi: 29000},
		{Label: `a<b&"c"`, Value: "1,000", X: 1000},
	},
}

// long is the golden chart of the longest labels the report writes: a
// variant measured in several runs of a merged file, named with its run.
var long = BarChart{
	Title:  "queries, N=20: peak RPS ÷ go-stdlib of the same run",
	XTitle: "× go-stdlib peak RPS",
	XTick:  func(v float64) string { return axisNumber(v) + "×" },
	Bars: []Bar{
		{Label: "react-router/custom-server (ci-shard-3-of-8)", Key: "react-router/custom-server", Value: "1.14×", X: 1.14, Lo: 1.02, Hi: 1.19, Highlight: true},
		{Label: "nextjs/fast-webstreams (nightly-2026-12-02)", Key: "nextjs/fast-webstreams", Value: "0.97×", X: 0.97, Lo: 0.9, Hi: 1.01},
		{Label: "go-stdlib/default", Value: "1.00×", X: 1, Lo: 1, Hi: 1},
		{Label: "react-router/custom-server (ci-shard-4-of-8)", Key: "react-router/custom-server", Value: "0.031×", X: 0.031},
	},
}

func render(t *testing.T, c BarChart) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Bars(&b, c); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestBarsGolden pins the SVG bytes: the same input gives the same bytes
// in this process (twice) and in a fresh one, and as the committed golden.
func TestBarsGolden(t *testing.T) {
	got := render(t, three)
	if again := render(t, three); !bytes.Equal(got, again) {
		t.Fatal("two renderings in one process differ")
	}
	golden.Check(t, "three.svg", string(got))
	// A second process renders the same bytes.
	cmd := exec.Command(os.Args[0], "-test.run", "^TestBarsHelperProcess$")
	cmd.Env = append(os.Environ(), "CHART_HELPER=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("helper process: %v", err)
	}
	if i := bytes.Index(out, []byte("</svg>")); i < 0 || !bytes.Equal(out[:i+len("</svg>")], got) {
		t.Errorf("a second process rendered other bytes:\n%s", out)
	}
}

// TestBarsHelperProcess writes the golden chart to stdout when run by
// TestBarsGolden as a separate process; otherwise it does nothing.
func TestBarsHelperProcess(t *testing.T) {
	if os.Getenv("CHART_HELPER") != "1" {
		t.Skip("helper process for TestBarsGolden")
	}
	os.Stdout.Write(render(t, three))
}

// svgNode is the part of the SVG the tests read: texts and paths.
type svgNode struct {
	Text []struct {
		X    int    `xml:"x,attr"`
		Y    int    `xml:"y,attr"`
		Body string `xml:",chardata"`
	} `xml:"text"`
	Paths []struct {
		D     string `xml:"d,attr"`
		Style string `xml:"style,attr"`
		Dash  string `xml:"stroke-dasharray,attr"`
	} `xml:"path"`
	// Texts are the texts' bodies in SVG order.
	Texts []string `xml:"-"`
}

func parse(t *testing.T, svg []byte) svgNode {
	t.Helper()
	var n svgNode
	if err := xml.Unmarshal(svg, &n); err != nil {
		t.Fatalf("the chart is not well-formed XML: %v", err)
	}
	for _, e := range n.Text {
		n.Texts = append(n.Texts, e.Body)
	}
	return n
}

// textAt is the x and y px of the text reading s.
func textAt(t *testing.T, n svgNode, s string) (x, y int) {
	t.Helper()
	for _, e := range n.Text {
		if e.Body == s {
			return e.X, e.Y
		}
	}
	t.Fatalf("no <text> %q; texts %q", s, n.Texts)
	return 0, 0
}

func TestBarsEscapesLabels(t *testing.T) {
	c := three
	c.Title = `t<i&"tle"`
	svg := render(t, c)
	n := parse(t, svg)
	for _, want := range []string{`a<b&"c"`, `t<i&"tle"`, "56,683", "28,341.5", "node-http/default", "peak RPS (requests/s)"} {
		if !slices.Contains(n.Texts, want) {
			t.Errorf("no <text> reads %q after XML decoding; texts %q", want, n.Texts)
		}
	}
	if !bytes.Contains(svg, []byte(`>a&lt;b&amp;"c"</text>`)) {
		t.Errorf("label not escaped as a&lt;b&amp;\"c\":\n%s", svg)
	}
}

var (
	rect = regexp.MustCompile(`^M (\d+) (\d+)\s+L (\d+) \d+\s+L \d+ (\d+)\s+L \d+ \d+\s+L \d+ \d+$`)
	seg  = regexp.MustCompile(`^M (\d+) (\d+)\s+L (\d+) (\d+)$`)
	fill = regexp.MustCompile(`fill:(rgb\(\d+,\d+,\d+\))`)
)

// bar is one drawn bar: its edges in px, fill colour and whether it is
// outlined (stroked).
type bar struct {
	left, top, right, bottom int
	fill                     string
	outlined                 bool
}

// barsOf returns the filled rectangles other than the white background,
// top to bottom.
func barsOf(t *testing.T, n svgNode) []bar {
	t.Helper()
	var out []bar
	for _, p := range n.Paths {
		f := fill.FindStringSubmatch(p.Style)
		m := rect.FindStringSubmatch(p.D)
		if f == nil || m == nil {
			continue
		}
		var v [4]int
		for i := range v {
			v[i], _ = strconv.Atoi(m[i+1])
		}
		out = append(out, bar{v[0], v[1], v[2], v[3], f[1], strings.Contains(p.Style, "stroke-width")})
	}
	return out
}

// segments are the two-point paths (axis, grid, whisker strokes) as x1,
// y1, x2, y2 px.
func segments(n svgNode) [][4]int {
	var out [][4]int
	for _, p := range n.Paths {
		if m := seg.FindStringSubmatch(p.D); m != nil {
			var v [4]int
			for i := range v {
				v[i], _ = strconv.Atoi(m[i+1])
			}
			out = append(out, v)
		}
	}
	return out
}

func TestBarsLengthsAndHighlight(t *testing.T) {
	bs := barsOf(t, parse(t, render(t, three)))
	if len(bs) != 3 {
		t.Fatalf("%d bars, want 3: %v", len(bs), bs)
	}
	if !bs[0].outlined || bs[1].outlined || bs[2].outlined {
		t.Errorf("outlined: %v %v %v, want only the first (highlighted)", bs[0].outlined, bs[1].outlined, bs[2].outlined)
	}
	longest, half := bs[0].right-bs[0].left, bs[1].right-bs[1].left
	// Pixels are whole: the half-length bar is within 1 px of half.
	if d := 2*half - longest; d < -2 || d > 2 {
		t.Errorf("bars %d px and %d px long, want the second half the first", longest, half)
	}
	// The value axis starts at 0 where the bars start; bars[0] on top.
	if bs[0].left != bs[1].left || bs[1].left != bs[2].left || !(bs[0].top < bs[1].top && bs[1].top < bs[2].top) {
		t.Errorf("bars %v: want one left edge, first on top", bs)
	}
}

// TestBarsWhiskers: a whisker spans Lo..Hi at the bar's middle, at the px
// the bar's own scale gives (the bar is X long from the axis), with caps;
// the value text starts right of it; a bar without Lo and Hi has none.
func TestBarsWhiskers(t *testing.T) {
	n := parse(t, render(t, three))
	bs := barsOf(t, n)
	segs := segments(n)
	for i, b := range three.Bars[:2] {
		r := bs[i]
		scale := float64(r.right-r.left) / b.X
		lo := r.left + int(math.Round(b.Lo*scale))
		hi := r.left + int(math.Round(b.Hi*scale))
		mid := (r.top + r.bottom) / 2
		var found [4]int
		for _, s := range segs {
			if s[1] == mid && s[3] == mid && math.Abs(float64(s[0]-lo)) <= 1 && math.Abs(float64(s[2]-hi)) <= 1 {
				found = s
			}
		}
		if found == [4]int{} {
			t.Fatalf("%s: no whisker at y %d from x %d to %d; segments %v", b.Label, mid, lo, hi, segs)
		}
		caps := 0
		for _, s := range segs {
			if s[0] == s[2] && (s[0] == found[0] || s[0] == found[2]) && s[1] < mid && s[3] > mid {
				caps++
			}
		}
		if caps != 2 {
			t.Errorf("%s: %d whisker caps, want 2", b.Label, caps)
		}
		if x, _ := textAt(t, n, b.Value); x <= found[2] {
			t.Errorf("%s: value at x %d, on the whisker ending at %d", b.Label, x, found[2])
		}
	}
	third := bs[2]
	for _, s := range segs {
		if mid := (third.top + third.bottom) / 2; s[1] == mid && s[3] == mid {
			t.Errorf("a whisker on the bar without Lo and Hi: %v", s)
		}
	}
}

// TestBarsLongLabels: with the longest labels, every label ends (its
// measured width × Slack, the widest fallback font) before the bars start,
// every value starts after its bar's tip and whisker and ends inside the
// chart, and the chart grows wider to keep MinPlot px for the bars.
func TestBarsLongLabels(t *testing.T) {
	svg := render(t, long)
	golden.Check(t, "bars-long.svg", string(svg))
	n := parse(t, svg)
	bs := barsOf(t, n)
	m := charts.NewPainter(charts.PainterOptions{OutputFormat: charts.ChartOutputSVG, Width: Width, Height: 100})
	width := 0
	fmt.Sscanf(string(svg[bytes.Index(svg, []byte("viewBox")):]), `viewBox="0 0 %d`, &width)
	if width <= Width {
		t.Errorf("chart %d px wide, want it wider than %d for these labels", width, Width)
	}
	label := charts.FontStyle{FontSize: 12}
	value := charts.FontStyle{FontSize: 11}
	for i, b := range long.Bars {
		x, _ := textAt(t, n, b.Label)
		if end := x + int(float64(m.MeasureText(b.Label, 0, label).Width())*Slack); end >= bs[i].left {
			t.Errorf("label %q ends at x %d, under its bar from %d", b.Label, end, bs[i].left)
		}
		vx, _ := textAt(t, n, b.Value)
		if vx <= bs[i].right {
			t.Errorf("value %q at x %d, on its bar ending at %d", b.Value, vx, bs[i].right)
		}
		if end := vx + int(float64(m.MeasureText(b.Value, 0, value).Width())*Slack); end > width {
			t.Errorf("value %q ends at x %d, past the chart's %d px", b.Value, end, width)
		}
	}
	// The axis runs to 1.2: the 1.14 bar is 1.14/1.2 of MinPlot px.
	if got, want := bs[0].right-bs[0].left, int(math.Round(MinPlot*1.14/1.2)); got < want-1 || got > want+1 {
		t.Errorf("1.14 bar %d px, want %d (1.14/1.2 of MinPlot)", got, want)
	}
	for _, want := range []string{"0×", "0.3×", "1.2×", "× go-stdlib peak RPS"} {
		if !slices.Contains(n.Texts, want) {
			t.Errorf("no <text> %q; texts %q", want, n.Texts)
		}
	}
}

// TestBarsColourByKey: a bar's colour comes from its Key (else its Label),
// the same in two charts whatever the order and the other bars; the two
// runs of one variant share it.
func TestBarsColourByKey(t *testing.T) {
	a := barsOf(t, parse(t, render(t, long)))
	b := barsOf(t, parse(t, render(t, BarChart{Title: "t", Bars: []Bar{
		{Label: "go-stdlib/default", X: 5},
		{Label: "react-router/custom-server", X: 1},
	}})))
	if a[2].fill != b[0].fill || a[0].fill != b[1].fill || a[3].fill != a[0].fill {
		t.Errorf("fills %v and %v: want go-stdlib's and react-router's the same in both", a, b)
	}
	if a[0].fill == a[1].fill || a[0].fill == a[2].fill {
		t.Errorf("fills %v: want react-router, nextjs and go-stdlib apart", a)
	}
	// go-stdlib/default: FNV-1a 32 is 0x…24 → palette[4], #59a14f.
	if want := "rgb(89,161,79)"; a[2].fill != want {
		t.Errorf("go-stdlib/default filled %s, want %s", a[2].fill, want)
	}
}

func TestBarsHeightGrowsPerBar(t *testing.T) {
	for _, count := range []int{1, 9} {
		bars := make([]Bar, count)
		for i := range bars {
			bars[i] = Bar{Label: fmt.Sprintf("fw%d/default", i), Value: strconv.Itoa(i + 1), X: float64(i + 1)}
		}
		svg := string(render(t, BarChart{Title: "t", Bars: bars}))
		want := fmt.Sprintf(`viewBox="0 0 %d %d"`, Width, Frame+RowHeight*count)
		if !strings.Contains(svg, want) {
			t.Errorf("%d bars: no %s in %.200s", count, want, svg)
		}
		if got := len(barsOf(t, parse(t, []byte(svg)))); got != count {
			t.Errorf("%d bars drawn, want %d", got, count)
		}
	}
}

func TestBarsErrors(t *testing.T) {
	for _, c := range []struct {
		bars []Bar
		want string
	}{
		{nil, "chart: no bars"},
		{[]Bar{{Label: "x/y", X: -1}}, `chart "t": bar "x/y" has length -1; want a finite value ≥ 0`},
		{[]Bar{{Label: "x/y", X: 1, Lo: 2, Hi: 1}}, `chart "t": bar "x/y" has whisker 2–1; want finite values, 0 ≤ lo ≤ hi`},
		{[]Bar{{Label: "x/y", X: 1, Lo: 1, Hi: math.Inf(1)}}, `chart "t": bar "x/y" has whisker 1–+Inf; want finite values, 0 ≤ lo ≤ hi`},
	} {
		err := Bars(io.Discard, BarChart{Title: "t", Bars: c.bars})
		if err == nil || err.Error() != c.want {
			t.Errorf("Bars(%v) = %v, want %q", c.bars, err, c.want)
		}
	}
}

func TestAxisNumber(t *testing.T) {
	for in, want := range map[float64]string{0: "0", 15000: "15k", 2500000: "2.5M", 0.25: "0.25", 0.30000000000000004: "0.3", 1250: "1.25k"} {
		if got := axisNumber(in); got != want {
			t.Errorf("axisNumber(%v) = %q, want %q", in, got, want)
		}
	}
}

func TestTickStep(t *testing.T) {
	for in, want := range map[float64]float64{56683.0 / 4: 15000, 14201.0 / 4: 4000, 1.14 / 4: 0.3, 7.0 / 4: 2, 0.25: 0.25, 1: 1, 9: 10, 0: 1} {
		if got := tickStep(in); math.Abs(got-want) > 1e-9*want {
			t.Errorf("tickStep(%v) = %v, want %v", in, got, want)
		}
	}
}

// TestBarsRatioAxis: lengths below 1 (ratios) get an axis from 0 to a
// round number above the longest whisker, and keep their ratio.
func TestBarsRatioAxis(t *testing.T) {
	n := parse(t, render(t, BarChart{Title: "json: peak RPS ÷ go-stdlib of the same run", Bars: []Bar{
		{Label: "node-http/default", Value: "1.14×", X: 1.14, Lo: 1.1, Hi: 1.25, Highlight: true},
		{Label: "go-stdlib/default", Value: "1.00×", X: 1},
		{Label: "nextjs/default", Value: "0.03×", X: 0.03},
	}}))
	var axis []string
	for _, s := range n.Texts {
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			axis = append(axis, s)
		}
	}
	if want := []string{"0", "0.4", "0.8", "1.2", "1.6"}; !slices.Equal(axis, want) {
		t.Errorf("value axis %q, want %q (1.25 is past 1.2)", axis, want)
	}
	bs := barsOf(t, n)
	if len(bs) != 3 || bs[0].left != bs[1].left {
		t.Fatalf("bars %v: want 3 starting at one x", bs)
	}
	// 1.00 over 1.14: the lengths keep the ratio within a pixel.
	if l, r := bs[0].right-bs[0].left, bs[1].right-bs[1].left; math.Abs(float64(r)-float64(l)/1.14) > 1 {
		t.Errorf("bars %d px and %d px, want a ratio of 1.14", l, r)
	}
}

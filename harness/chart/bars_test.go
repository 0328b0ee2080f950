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

	"github.com/tfbench/tfbench/internal/golden"
)

// three is the golden chart's input: the best bar highlighted, one bar at
// half its length, a label with XML's special characters.
var three = []Bar{
	{Label: "node-http/default", Value: "56,683", X: 56683, Highlight: true},
	{Label: "go-stdlib/default", Value: "28,341.5", X: 56683.0 / 2},
	{Label: `a<b&"c"`, Value: "1,000", X: 1000},
}

func render(t *testing.T, title string, bars []Bar) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Bars(&b, title, bars); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestBarsGolden pins the SVG bytes: the same input gives the same bytes
// in this process (twice) and in a fresh one, and as the committed golden.
func TestBarsGolden(t *testing.T) {
	got := render(t, "json: peak RPS", three)
	if again := render(t, "json: peak RPS", three); !bytes.Equal(got, again) {
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
	os.Stdout.Write(render(t, "json: peak RPS", three))
}

// svgNode is the part of the SVG the tests read: texts and paths.
type svgNode struct {
	Texts []string `xml:"text"`
	Paths []struct {
		D     string `xml:"d,attr"`
		Style string `xml:"style,attr"`
	} `xml:"path"`
}

func parse(t *testing.T, svg []byte) svgNode {
	t.Helper()
	var n svgNode
	if err := xml.Unmarshal(svg, &n); err != nil {
		t.Fatalf("the chart is not well-formed XML: %v", err)
	}
	return n
}

func TestBarsEscapesLabels(t *testing.T) {
	svg := render(t, `t<i&"tle"`, three)
	n := parse(t, svg)
	for _, want := range []string{`a<b&"c"`, `t<i&"tle"`, "56,683", "28,341.5", "node-http/default"} {
		found := false
		for _, s := range n.Texts {
			found = found || s == want
		}
		if !found {
			t.Errorf("no <text> reads %q after XML decoding; texts %q", want, n.Texts)
		}
	}
	if !bytes.Contains(svg, []byte(`>a&lt;b&amp;"c"</text>`)) {
		t.Errorf("label not escaped as a&lt;b&amp;\"c\":\n%s", svg)
	}
}

var rect = regexp.MustCompile(`^M (\d+) (\d+)\s+L (\d+) \d+\s+L \d+ (\d+)`)

// barsOf returns the filled rectangles of the given colour in SVG order
// (the library draws the bottom bar first): their left and right x in px.
func barsOf(t *testing.T, n svgNode, fill string) [][2]int {
	t.Helper()
	var out [][2]int
	for _, p := range n.Paths {
		if !strings.Contains(p.Style, "fill:"+fill) {
			continue
		}
		m := rect.FindStringSubmatch(p.D)
		if m == nil {
			t.Fatalf("bar path %q is not a rectangle", p.D)
		}
		l, _ := strconv.Atoi(m[1])
		r, _ := strconv.Atoi(m[3])
		out = append(out, [2]int{l, r})
	}
	return out
}

func TestBarsLengthsAndHighlight(t *testing.T) {
	n := parse(t, render(t, "json: peak RPS", three))
	best := barsOf(t, n, "rgb(43,108,176)")
	others := barsOf(t, n, "rgb(154,165,184)")
	if len(best) != 1 || len(others) != 2 {
		t.Fatalf("%d highlighted and %d plain bars, want 1 and 2", len(best), len(others))
	}
	longest := best[0][1] - best[0][0]
	var half int
	for _, b := range others {
		if w := b[1] - b[0]; w > half {
			half = w
		}
	}
	// Pixels are whole: the half-length bar is within 1 px of half.
	if d := 2*half - longest; d < -2 || d > 2 {
		t.Errorf("bars %d px and %d px long, want the second half the first", longest, half)
	}
	// The value axis starts at 0 where the bars start.
	if best[0][0] != others[0][0] {
		t.Errorf("bars start at x=%d and x=%d", best[0][0], others[0][0])
	}
}

func TestBarsHeightGrowsPerBar(t *testing.T) {
	for _, count := range []int{1, 9} {
		bars := make([]Bar, count)
		for i := range bars {
			bars[i] = Bar{Label: fmt.Sprintf("fw%d/default", i), Value: strconv.Itoa(i + 1), X: float64(i + 1)}
		}
		svg := string(render(t, "t", bars))
		want := fmt.Sprintf(`viewBox="0 0 %d %d"`, Width, Frame+RowHeight*count)
		if !strings.Contains(svg, want) {
			t.Errorf("%d bars: no %s in %.200s", count, want, svg)
		}
		if got := len(barsOf(t, parse(t, []byte(svg)), "rgb(154,165,184)")); got != count {
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
	} {
		err := Bars(io.Discard, "t", c.bars)
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

// TestBarsRatioAxis: lengths below 1 (ratios) still get an axis from 0
// (the library would start a stack's axis at min−1 otherwise).
func TestBarsRatioAxis(t *testing.T) {
	n := parse(t, render(t, "json: peak RPS ÷ go-stdlib of the same run", []Bar{
		{Label: "node-http/default", Value: "1.14×", X: 1.14, Highlight: true},
		{Label: "go-stdlib/default", Value: "1.00×", X: 1},
		{Label: "nextjs/default", Value: "0.03×", X: 0.03},
	}))
	var axis []string
	for _, s := range n.Texts {
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			axis = append(axis, s)
		}
	}
	if want := []string{"0", "0.3", "0.6", "0.9", "1.2"}; !slices.Equal(axis, want) {
		t.Errorf("value axis %q, want %q", axis, want)
	}
	best := barsOf(t, n, "rgb(43,108,176)")
	others := barsOf(t, n, "rgb(154,165,184)")
	if len(best) != 1 || len(others) != 2 || best[0][0] != others[1][0] {
		t.Fatalf("bars %v and %v: want 1 and 2 starting at one x", best, others)
	}
	// 1.00 over 1.14: the lengths keep the ratio within a pixel.
	// The SVG draws bottom to top: others[1] is go-stdlib's.
	if l, r := best[0][1]-best[0][0], others[1][1]-others[1][0]; math.Abs(float64(r)-float64(l)/1.14) > 1 {
		t.Errorf("bars %d px and %d px, want a ratio of 1.14", l, r)
	}
}

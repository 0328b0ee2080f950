package chart

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/go-analyze/charts"
)

// Point is one point of a Series, in the chart's units (e.g. page bytes
// and requests/s); Lo and Hi, when not both 0, are Y's min–max over the
// rounds, drawn as a vertical whisker.
type Point struct{ X, Y, Lo, Hi float64 }

// Series is one line of an XY chart: its legend name and its points, drawn
// joined in order of X with a dot at each. Key picks its look (styles; ""
// is Name): the framework variant, e.g. "engine/pool", so that a variant
// has one colour in every chart.
type Series struct {
	Name, Key string
	Points    []Point
}

// XY is a line chart with numeric axes, drawn with the library's painter
// (its charts have no log axis): X is log base 10, Y linear from 0 or log
// with LogY.
type XY struct {
	Title          string
	XTitle, YTitle string
	// XTick and YTick write a tick's label (default: 15k, 2.5M, 0.25,
	// 0.001).
	XTick, YTick func(float64) string
	LogY         bool
	Series       []Series
}

// Layout of Lines, in px: the SVG is Width wide and PlotTop + PlotHeight +
// 64 + LegendRow × legend rows + 10 high.
const (
	PlotTop    = 56
	PlotHeight = 300
	LegendRow  = 20
)

var (
	axisColour = charts.ColorFromHex("#6e7079")
	gridColour = charts.ColorFromHex("#e0e6f1")
	textColour = charts.ColorFromHex("#464646")
)

// Lines writes c as SVG to w: each series a line with dots and min–max
// whiskers, a legend below in series order. It refuses no series, a series
// without points, a point not finite, X ≤ 0, Y < 0, or Y ≤ 0 with LogY,
// and a whisker with Lo > Hi, or Lo ≤ 0 with LogY.
func Lines(w io.Writer, c XY) error { return lines(w, c, charts.ChartOutputSVG) }

// lines draws c in format (SVG; PNG to look at it in a test).
func lines(w io.Writer, c XY, format string) error {
	if len(c.Series) == 0 {
		return errors.New("chart: no series")
	}
	minX, maxX, minY, maxY := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, s := range c.Series {
		if len(s.Points) == 0 {
			return fmt.Errorf("chart %q: series %q has no points", c.Title, s.Name)
		}
		for _, p := range s.Points {
			bad := math.IsNaN(p.X) || math.IsInf(p.X, 0) || math.IsNaN(p.Y) || math.IsInf(p.Y, 0) || p.X <= 0 || p.Y < 0 || (c.LogY && p.Y == 0)
			if bad {
				return fmt.Errorf("chart %q: series %q has point (%v, %v); want finite values, x > 0 (log axis), y ≥ 0 (> 0 on a log axis)", c.Title, s.Name, p.X, p.Y)
			}
			minX, maxX, minY, maxY = min(minX, p.X), max(maxX, p.X), min(minY, p.Y), max(maxY, p.Y)
			if p.Lo == 0 && p.Hi == 0 {
				continue
			}
			if bad := math.IsNaN(p.Lo) || math.IsInf(p.Lo, 0) || math.IsNaN(p.Hi) || math.IsInf(p.Hi, 0) || p.Lo < 0 || p.Lo > p.Hi || (c.LogY && p.Lo == 0); bad {
				return fmt.Errorf("chart %q: series %q has whisker %v–%v at x %v; want finite values, 0 ≤ lo ≤ hi (lo > 0 on a log axis)", c.Title, s.Name, p.Lo, p.Hi, p.X)
			}
			minY, maxY = min(minY, p.Lo), max(maxY, p.Hi)
		}
	}
	xTick, yTick := orDefault(c.XTick), orDefault(c.YTick)
	xs := logTicks(minX, maxX)
	var ys []float64
	if c.LogY {
		ys = logTicks(minY, maxY)
	} else {
		ys = linearTicks(maxY)
	}
	names, keys := make([]string, len(c.Series)), make([]string, len(c.Series))
	for i, s := range c.Series {
		names[i], keys[i] = s.Name, cmp.Or(s.Key, s.Name)
	}
	f := newFrame(format, c.Title, ys, yTick, names, keys)
	p, left, right, bottom := f.p, f.left, f.right, f.bottom

	lx, hx := math.Log10(xs[0]), math.Log10(xs[len(xs)-1])
	px := func(v float64) int {
		return left + int(math.Round((math.Log10(v)-lx)/(hx-lx)*float64(right-left)))
	}
	py := func(v float64) int {
		lo, hi := ys[0], ys[len(ys)-1]
		f := (v - lo) / (hi - lo)
		if c.LogY {
			f = (math.Log10(v) - math.Log10(lo)) / (math.Log10(hi) - math.Log10(lo))
		}
		return bottom - int(math.Round(f*PlotHeight))
	}
	for _, v := range xs {
		x := px(v)
		p.LineStroke([]charts.Point{{X: x, Y: PlotTop}, {X: x, Y: bottom}}, gridColour, 1)
		t := xTick(v)
		b := p.MeasureText(t, 0, f.label)
		p.Text(t, x-b.Width()/2, bottom+18, 0, f.label)
	}
	for _, v := range ys {
		f.yGrid(py(v), yTick(v))
	}
	f.axes(c.XTitle, c.YTitle)
	for i, s := range c.Series {
		pts := slices.Clone(s.Points)
		slices.SortStableFunc(pts, func(a, b Point) int {
			switch {
			case a.X < b.X:
				return -1
			case a.X > b.X:
				return 1
			}
			return 0
		})
		line := make([]charts.Point, len(pts))
		for j, q := range pts {
			line[j] = charts.Point{X: px(q.X), Y: py(q.Y)}
			if q.Lo != 0 || q.Hi != 0 {
				f.whisker(i, line[j].X, py(q.Lo), py(q.Hi))
			}
		}
		f.series(i, s.Name, [][]charts.Point{line}, line)
	}
	return f.write(w, c.Title)
}

func orDefault(f func(float64) string) func(float64) string {
	if f == nil {
		return tickNumber
	}
	return f
}

// tickNumber is axisNumber, with ticks below 0.01 (a log axis) in full:
// 0.001, not 0.
func tickNumber(v float64) string {
	if v != 0 && math.Abs(v) < 0.01 {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	return axisNumber(v)
}

// logTicks are the ticks of a base-10 log axis holding lo..hi (both > 0):
// the enclosing powers of ten (at least two), with 2× and 5× between them
// when they span at most two decades.
func logTicks(lo, hi float64) []float64 {
	a := math.Floor(math.Log10(lo) + 1e-9)
	b := math.Ceil(math.Log10(hi) - 1e-9)
	if b <= a {
		b = a + 1
	}
	var out []float64
	for e := a; e <= b; e++ {
		d := math.Pow(10, e)
		out = append(out, d)
		if b-a <= 2 && e < b {
			out = append(out, 2*d, 5*d)
		}
	}
	return out
}

package chart

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/go-analyze/charts"
)

// Point is one point of a Series, in the chart's units (e.g. page bytes
// and requests/s).
type Point struct{ X, Y float64 }

// Series is one line of an XY chart: its legend name and its points, drawn
// joined in order of X with a dot at each.
type Series struct {
	Name   string
	Points []Point
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

// palette colours the series in order (Tableau 10); from the 11th series
// on, lines repeat the colours dashed.
var palette = []string{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"}

var (
	axisColour = charts.ColorFromHex("#6e7079")
	gridColour = charts.ColorFromHex("#e0e6f1")
	textColour = charts.ColorFromHex("#464646")
)

// Lines writes c as SVG to w: each series a line with dots, a legend below
// in series order. It refuses no series, a series without points, and a
// point not finite, X ≤ 0, Y < 0, or Y ≤ 0 with LogY.
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
		}
	}
	xTick, yTick := orDefault(c.XTick), orDefault(c.YTick)
	xs := logTicks(minX, maxX)
	var ys []float64
	if c.LogY {
		ys = logTicks(minY, maxY)
	} else {
		step := tickStep(maxY / Ticks)
		for i := 0; i <= Ticks; i++ {
			ys = append(ys, float64(i)*step)
		}
	}
	label := charts.FontStyle{FontSize: 11, FontColor: axisColour}
	title := charts.FontStyle{FontSize: 16, FontColor: textColour}
	legend := charts.FontStyle{FontSize: 11, FontColor: textColour}
	axisTitle := charts.FontStyle{FontSize: 12, FontColor: textColour}

	// Measure on a scratch painter: the left margin holds the widest Y
	// label, the legend wraps within Width.
	m := charts.NewPainter(charts.PainterOptions{OutputFormat: format, Width: Width, Height: 100})
	widest := 0
	for _, y := range ys {
		widest = max(widest, m.MeasureText(yTick(y), 0, label).Width())
	}
	left, right := 20+16+8+widest+8, Width-30
	type entry struct{ x, row int }
	entries := make([]entry, len(c.Series))
	x, row := left, 0
	for i, s := range c.Series {
		wd := 24 + m.MeasureText(s.Name, 0, legend).Width()
		if x > left && x+wd > right {
			x, row = left, row+1
		}
		entries[i] = entry{x, row}
		x += wd + 18
	}
	bottom := PlotTop + PlotHeight
	legendTop := bottom + 64
	height := legendTop + LegendRow*(row+1) + 10

	p := charts.NewPainter(charts.PainterOptions{OutputFormat: format, Width: Width, Height: height})
	p.FilledRect(0, 0, Width, height, charts.ColorFromHex("#ffffff"), charts.ColorFromHex("#ffffff"), 0)
	p.Text(c.Title, 20, 36, 0, title)

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
		b := p.MeasureText(t, 0, label)
		p.Text(t, x-b.Width()/2, bottom+18, 0, label)
	}
	for _, v := range ys {
		y := py(v)
		p.LineStroke([]charts.Point{{X: left, Y: y}, {X: right, Y: y}}, gridColour, 1)
		t := yTick(v)
		b := p.MeasureText(t, 0, label)
		p.Text(t, left-8-b.Width(), y+b.Height()/2, 0, label)
	}
	p.LineStroke([]charts.Point{{X: left, Y: bottom}, {X: right, Y: bottom}}, axisColour, 1)
	p.LineStroke([]charts.Point{{X: left, Y: PlotTop}, {X: left, Y: bottom}}, axisColour, 1)
	if c.XTitle != "" {
		b := p.MeasureText(c.XTitle, 0, axisTitle)
		p.Text(c.XTitle, (left+right)/2-b.Width()/2, bottom+42, 0, axisTitle)
	}
	if c.YTitle != "" {
		b := p.MeasureText(c.YTitle, 0, axisTitle)
		p.Text(c.YTitle, 32, (PlotTop+bottom)/2+b.Width()/2, -math.Pi/2, axisTitle)
	}
	for i, s := range c.Series {
		colour := charts.ColorFromHex(palette[i%len(palette)])
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
		}
		if len(line) > 1 {
			if i >= len(palette) {
				p.DashedLineStroke(line, colour, 2, []float64{6, 3})
			} else {
				p.LineStroke(line, colour, 2)
			}
		}
		p.Dots(line, colour, colour, 1, 3)
		e := entries[i]
		y := legendTop + LegendRow*e.row
		p.LineStroke([]charts.Point{{X: e.x, Y: y - 4}, {X: e.x + 18, Y: y - 4}}, colour, 2)
		p.Dots([]charts.Point{{X: e.x + 9, Y: y - 4}}, colour, colour, 1, 3)
		p.Text(s.Name, e.x+24, y, 0, legend)
	}
	svg, err := p.Bytes()
	if err != nil {
		return fmt.Errorf("chart %q: %w", c.Title, err)
	}
	_, err = w.Write(svg)
	return err
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

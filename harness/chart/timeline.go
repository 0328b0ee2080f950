package chart

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/go-analyze/charts"
)

// Timeline is a line chart over ordered categories (e.g. nights, as
// YYYY-MM-DD), Y linear from 0: one line per series, a NaN value a gap
// (the line breaks there, no dot), not a zero.
type Timeline struct {
	Title, YTitle string
	// YTick writes a Y tick's label (default: 15k, 2.5M, 0.25).
	YTick func(float64) string
	// Labels name the X categories, left to right; at most MaxXLabels of
	// them are written under the axis, evenly picked, the last always.
	Labels []string
	// Marks are indices into Labels before which a dashed vertical line is
	// drawn (e.g. a change of method): figures on either side differ in kind.
	Marks  []int
	Series []TimeSeries
}

// TimeSeries is one line of a Timeline: Values[i] is at Labels[i], NaN
// where the series has no value.
type TimeSeries struct {
	Name   string
	Values []float64
}

// MaxXLabels is the most X labels a Timeline writes under its axis.
const MaxXLabels = 8

var markColour = charts.ColorFromHex("#a0a0a0")

// Trend writes c as SVG to w: each series a line with dots, a legend
// below in series order, Width px wide and as high as Lines. It refuses no
// labels, no series, a series whose Values are not one per label, and a
// value that is infinite or negative.
func Trend(w io.Writer, c Timeline) error { return timeline(w, c, charts.ChartOutputSVG) }

func timeline(w io.Writer, c Timeline, format string) error {
	if len(c.Labels) == 0 {
		return errors.New("chart: no labels")
	}
	if len(c.Series) == 0 {
		return errors.New("chart: no series")
	}
	maxY := 0.0
	for _, s := range c.Series {
		if len(s.Values) != len(c.Labels) {
			return fmt.Errorf("chart %q: series %q has %d values for %d labels", c.Title, s.Name, len(s.Values), len(c.Labels))
		}
		for i, v := range s.Values {
			if math.IsInf(v, 0) || v < 0 {
				return fmt.Errorf("chart %q: series %q has %v at %s; want a finite value ≥ 0 (NaN: none)", c.Title, s.Name, v, c.Labels[i])
			}
			if !math.IsNaN(v) {
				maxY = max(maxY, v)
			}
		}
	}
	if maxY == 0 {
		maxY = 1
	}
	yTick := orDefault(c.YTick)
	step := tickStep(maxY / Ticks)
	var ys []float64
	for i := 0; i <= Ticks; i++ {
		ys = append(ys, float64(i)*step)
	}
	label := charts.FontStyle{FontSize: 11, FontColor: axisColour}
	title := charts.FontStyle{FontSize: 16, FontColor: textColour}
	legend := charts.FontStyle{FontSize: 11, FontColor: textColour}
	axisTitle := charts.FontStyle{FontSize: 12, FontColor: textColour}

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

	// Categories sit at the centres of equal slots, so one night is drawn
	// in the middle and a mark falls between two nights.
	n := len(c.Labels)
	slot := float64(right-left) / float64(n)
	px := func(i int) int { return left + int(math.Round((float64(i)+0.5)*slot)) }
	py := func(v float64) int { return bottom - int(math.Round(v/ys[len(ys)-1]*PlotHeight)) }
	for _, v := range ys {
		y := py(v)
		p.LineStroke([]charts.Point{{X: left, Y: y}, {X: right, Y: y}}, gridColour, 1)
		t := yTick(v)
		b := p.MeasureText(t, 0, label)
		p.Text(t, left-8-b.Width(), y+b.Height()/2, 0, label)
	}
	every := (n + MaxXLabels - 1) / MaxXLabels
	for i := range c.Labels {
		if (n-1-i)%every != 0 {
			continue
		}
		x := px(i)
		p.LineStroke([]charts.Point{{X: x, Y: bottom}, {X: x, Y: bottom + 4}}, axisColour, 1)
		b := p.MeasureText(c.Labels[i], 0, label)
		p.Text(c.Labels[i], x-b.Width()/2, bottom+18, 0, label)
	}
	for _, i := range c.Marks {
		if i <= 0 || i >= n {
			continue
		}
		x := left + int(math.Round(float64(i)*slot))
		p.DashedLineStroke([]charts.Point{{X: x, Y: PlotTop}, {X: x, Y: bottom}}, markColour, 1, []float64{4, 3})
	}
	p.LineStroke([]charts.Point{{X: left, Y: bottom}, {X: right, Y: bottom}}, axisColour, 1)
	p.LineStroke([]charts.Point{{X: left, Y: PlotTop}, {X: left, Y: bottom}}, axisColour, 1)
	if c.YTitle != "" {
		b := p.MeasureText(c.YTitle, 0, axisTitle)
		p.Text(c.YTitle, 32, (PlotTop+bottom)/2+b.Width()/2, -math.Pi/2, axisTitle)
	}
	for i, s := range c.Series {
		colour := charts.ColorFromHex(palette[i%len(palette)])
		var run, dots []charts.Point
		stroke := func() {
			if len(run) > 1 {
				if i >= len(palette) {
					p.DashedLineStroke(run, colour, 2, []float64{6, 3})
				} else {
					p.LineStroke(run, colour, 2)
				}
			}
			run = nil
		}
		for j, v := range s.Values {
			if math.IsNaN(v) {
				stroke()
				continue
			}
			pt := charts.Point{X: px(j), Y: py(v)}
			run = append(run, pt)
			dots = append(dots, pt)
		}
		stroke()
		if len(dots) > 0 {
			p.Dots(dots, colour, colour, 1, 3)
		}
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

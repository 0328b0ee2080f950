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
	ys := linearTicks(maxY)
	names := make([]string, len(c.Series))
	for i, s := range c.Series {
		names[i] = s.Name
	}
	f := newFrame(format, c.Title, ys, yTick, names)
	p, left, right, bottom := f.p, f.left, f.right, f.bottom

	// Categories sit at the centres of equal slots, so one night is drawn
	// in the middle and a mark falls between two nights.
	n := len(c.Labels)
	slot := float64(right-left) / float64(n)
	px := func(i int) int { return left + int(math.Round((float64(i)+0.5)*slot)) }
	py := func(v float64) int { return bottom - int(math.Round(v/ys[len(ys)-1]*PlotHeight)) }
	for _, v := range ys {
		f.yGrid(py(v), yTick(v))
	}
	every := (n + MaxXLabels - 1) / MaxXLabels
	for i := range c.Labels {
		if (n-1-i)%every != 0 {
			continue
		}
		x := px(i)
		p.LineStroke([]charts.Point{{X: x, Y: bottom}, {X: x, Y: bottom + 4}}, axisColour, 1)
		b := p.MeasureText(c.Labels[i], 0, f.label)
		p.Text(c.Labels[i], x-b.Width()/2, bottom+18, 0, f.label)
	}
	for _, i := range c.Marks {
		if i <= 0 || i >= n {
			continue
		}
		x := left + int(math.Round(float64(i)*slot))
		p.DashedLineStroke([]charts.Point{{X: x, Y: PlotTop}, {X: x, Y: bottom}}, markColour, 1, []float64{4, 3})
	}
	f.axes("", c.YTitle)
	for i, s := range c.Series {
		var run, dots []charts.Point
		for j, v := range s.Values {
			if math.IsNaN(v) {
				f.stroke(i, run)
				run = nil
				continue
			}
			pt := charts.Point{X: px(j), Y: py(v)}
			run = append(run, pt)
			dots = append(dots, pt)
		}
		f.series(i, s.Name, run, dots)
	}
	return f.write(w, c.Title)
}

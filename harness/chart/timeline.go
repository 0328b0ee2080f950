package chart

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

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
	// Marks are dashed vertical lines (e.g. a change of method): figures
	// on either side differ in kind, so no line is drawn across one.
	Marks []Mark
	// Rings circle single values (e.g. change points) with a label.
	Rings  []Ring
	Series []TimeSeries
}

// Ring marks Series[Series].Values[At]: a ring round its dot in the
// series' colour and Label (e.g. "nextjs/default −12%") above it, raised
// a line at a time past any earlier ring's label it would overlap.
type Ring struct {
	Series, At int
	Label      string
}

// Mark is a dashed vertical line between Labels[Before-1] and
// Labels[Before], its Label (e.g. "method v7") written at its top.
type Mark struct {
	Before int
	Label  string
}

// TimeSeries is one line of a Timeline: Values[i] is at Labels[i], NaN
// where the series has no value. Key picks its look as Series.Key does.
type TimeSeries struct {
	Name, Key string
	Values    []float64
}

// MaxXLabels is the most X labels a Timeline writes under its axis.
const MaxXLabels = 8

var markColour = charts.ColorFromHex("#a0a0a0")

// Trend writes c as SVG to w: each series a line with dots, broken at a
// gap and at a mark, a legend below in series order, Width px wide and as
// high as Lines. It refuses no
// labels, no series, a series whose Values are not one per label, a
// value that is infinite or negative, and a ring without a value.
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
	names, keys := make([]string, len(c.Series)), make([]string, len(c.Series))
	for i, s := range c.Series {
		names[i], keys[i] = s.Name, cmp.Or(s.Key, s.Name)
	}
	f := newFrame(format, c.Title, ys, yTick, names, keys)
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
	// At most MaxXLabels labels, and none closer than one and a half times
	// the widest (room for a fallback font wider than the one measured);
	// the last kept inside the chart with a quarter of its width to spare.
	widest := 0
	for _, l := range c.Labels {
		widest = max(widest, p.MeasureText(l, 0, f.label).Width())
	}
	every := max((n+MaxXLabels-1)/MaxXLabels, int(math.Ceil(float64(widest)*1.5/slot)))
	for i := range c.Labels {
		if (n-1-i)%every != 0 {
			continue
		}
		x := px(i)
		p.LineStroke([]charts.Point{{X: x, Y: bottom}, {X: x, Y: bottom + 4}}, axisColour, 1)
		w := p.MeasureText(c.Labels[i], 0, f.label).Width()
		p.Text(c.Labels[i], min(x-w/2, Width-4-w-w/4), bottom+18, 0, f.label)
	}
	breaks := map[int]bool{}
	markText := charts.FontStyle{FontSize: 10, FontColor: textColour}
	var marked []box // mark labels placed: a later one that would overlap goes a line higher
	for _, m := range c.Marks {
		if m.Before <= 0 || m.Before >= n {
			continue
		}
		breaks[m.Before] = true
		x := left + int(math.Round(float64(m.Before)*slot))
		p.DashedLineStroke([]charts.Point{{X: x, Y: PlotTop - 4}, {X: x, Y: bottom}}, markColour, 1, []float64{4, 3})
		if m.Label != "" {
			// Above the plot, right of the line; flush left of it when
			// it would run past the chart's edge.
			w := textWidth(p, m.Label, markText)
			b := box{x + 4, PlotTop - 18, w, 12}
			if b.x+w > Width-4 {
				b.x = x - 4 - w
			}
			for slices.ContainsFunc(marked, b.overlaps) {
				b.y -= 12
			}
			marked = append(marked, b)
			p.Text(m.Label, b.x, b.y+b.h, 0, markText)
		}
	}
	f.axes("", c.YTitle)
	for i, s := range c.Series {
		var runs [][]charts.Point
		var run, dots []charts.Point
		for j, v := range s.Values {
			if math.IsNaN(v) || breaks[j] {
				runs, run = append(runs, run), nil
			}
			if math.IsNaN(v) {
				continue
			}
			pt := charts.Point{X: px(j), Y: py(v)}
			run = append(run, pt)
			dots = append(dots, pt)
		}
		f.series(i, s.Name, append(runs, run), dots)
	}
	var placed []box
	for _, m := range c.Rings {
		if m.Series < 0 || m.Series >= len(c.Series) || m.At < 0 || m.At >= n {
			return fmt.Errorf("chart %q: ring at %d of series %d: no such value", c.Title, m.At, m.Series)
		}
		v := c.Series[m.Series].Values[m.At]
		if math.IsNaN(v) {
			return fmt.Errorf("chart %q: ring at %s of series %q: no value there", c.Title, c.Labels[m.At], c.Series[m.Series].Name)
		}
		x, y := px(m.At), py(v)
		p.Circle(7, x, y, charts.ColorTransparent, f.styles[m.Series].colour, 2)
		if m.Label == "" {
			continue
		}
		w := textWidth(p, m.Label, markText)
		b := box{min(max(x-w/2, left), Width-4-w), y - 22, w, 12}
		for slices.ContainsFunc(placed, b.overlaps) {
			b.y -= 12
		}
		placed = append(placed, b)
		p.Text(m.Label, b.x, b.y+b.h, 0, markText)
	}
	return f.write(w, c.Title)
}

// box is a label's place in px: left, top, width, height.
type box struct{ x, y, w, h int }

func (a box) overlaps(b box) bool {
	return a.x < b.x+b.w && b.x < a.x+a.w && a.y < b.y+b.h && b.y < a.y+a.h
}

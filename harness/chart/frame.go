package chart

import (
	"fmt"
	"io"
	"math"

	"github.com/go-analyze/charts"
)

// Slack is the factor on every measured text width that layout reserves.
// Text is measured in Roboto Medium (the library's embedded font) and the
// SVG names it, but a viewer without it draws its sans-serif: DejaVu Sans
// (Linux) is 11% wider, Arial and Helvetica 4% narrower (measured on
// "react-router/default (ci-shard-3-of-8) go-stdlib/default 56,683").
const Slack = 1.15

// textWidth is the px a text may take in any viewer: its measured width
// times Slack, rounded up.
func textWidth(p *charts.Painter, s string, f charts.FontStyle) int {
	return int(math.Ceil(float64(p.MeasureText(s, 0, f).Width()) * Slack))
}

// frame is the canvas Lines and Trend share: a white painter Width px wide
// with the title drawn, the plot's edges in px (left, right, bottom; top
// is PlotTop), the series' looks and each series' legend slot.
type frame struct {
	p                        *charts.Painter
	left, right, bottom      int
	legendTop                int
	slots                    []legendSlot
	styles                   []style
	label, legend, axisTitle charts.FontStyle
}

type legendSlot struct{ x, row int }

// Legend layout, in px: a swatch of SwatchWidth, then the name; entries
// sit row by row in columns each as wide as its widest entry (textWidth)
// plus LegendGap.
const (
	SwatchWidth = 24
	LegendGap   = 18
)

// newFrame lays out a chart whose Y tick labels are yTick(ys) and whose
// legend names are names, coloured by keys (styles): the left margin holds
// the widest label, the legend's columns the widest name.
func newFrame(format, title string, ys []float64, yTick func(float64) string, names, keys []string) frame {
	f := frame{
		label:     charts.FontStyle{FontSize: 11, FontColor: axisColour},
		legend:    charts.FontStyle{FontSize: 11, FontColor: textColour},
		axisTitle: charts.FontStyle{FontSize: 12, FontColor: textColour},
		styles:    styles(keys),
	}
	// Measure on a scratch painter: the left margin holds the widest Y
	// label, the legend wraps within Width.
	m := charts.NewPainter(charts.PainterOptions{OutputFormat: format, Width: Width, Height: 100})
	widest := 0
	for _, y := range ys {
		widest = max(widest, textWidth(m, yTick(y), f.label))
	}
	f.left, f.right = 20+16+8+widest+8, Width-30
	// The most columns (entries row by row) whose widths, each its widest
	// entry's, fit between the margins.
	entry := make([]int, len(names))
	for i, name := range names {
		entry[i] = SwatchWidth + 6 + textWidth(m, name, f.legend) + LegendGap
	}
	cols, colX := 1, []int{20}
	for try := len(names); try > 1; try-- {
		xs, x := []int{20}, 20
		for c := range try {
			wd := 0
			for i := c; i < len(names); i += try {
				wd = max(wd, entry[i])
			}
			x += wd
			xs = append(xs, x)
		}
		if x-LegendGap <= Width-20 {
			cols, colX = try, xs
			break
		}
	}
	f.slots = make([]legendSlot, len(names))
	for i := range names {
		f.slots[i] = legendSlot{colX[i%cols], i / cols}
	}
	rows := (len(names) + cols - 1) / cols
	f.bottom = PlotTop + PlotHeight
	f.legendTop = f.bottom + 64
	height := f.legendTop + LegendRow*rows + 10

	f.p = charts.NewPainter(charts.PainterOptions{OutputFormat: format, Width: Width, Height: height})
	f.p.FilledRect(0, 0, Width, height, charts.ColorFromHex("#ffffff"), charts.ColorFromHex("#ffffff"), 0)
	f.p.Text(title, 20, 36, 0, charts.FontStyle{FontSize: 16, FontColor: textColour})
	return f
}

// linearTicks is a linear axis from 0 to at least maxY: Ticks+1 values a
// round step apart (tickStep).
func linearTicks(maxY float64) []float64 {
	step := tickStep(maxY / Ticks)
	ys := make([]float64, Ticks+1)
	for i := range ys {
		ys[i] = float64(i) * step
	}
	return ys
}

// yGrid draws a horizontal grid line at y px with its tick label t.
func (f frame) yGrid(y int, t string) {
	f.p.LineStroke([]charts.Point{{X: f.left, Y: y}, {X: f.right, Y: y}}, gridColour, 1)
	b := f.p.MeasureText(t, 0, f.label)
	f.p.Text(t, f.left-8-b.Width(), y+b.Height()/2, 0, f.label)
}

// axes draws the X and Y axis lines and, when set, the X axis title below
// the plot and the Y axis title rotated along the left edge.
func (f frame) axes(xTitle, yTitle string) {
	f.p.LineStroke([]charts.Point{{X: f.left, Y: f.bottom}, {X: f.right, Y: f.bottom}}, axisColour, 1)
	f.p.LineStroke([]charts.Point{{X: f.left, Y: PlotTop}, {X: f.left, Y: f.bottom}}, axisColour, 1)
	if xTitle != "" {
		b := f.p.MeasureText(xTitle, 0, f.axisTitle)
		f.p.Text(xTitle, (f.left+f.right)/2-b.Width()/2, f.bottom+42, 0, f.axisTitle)
	}
	if yTitle != "" {
		b := f.p.MeasureText(yTitle, 0, f.axisTitle)
		f.p.Text(yTitle, 32, (PlotTop+f.bottom)/2+b.Width()/2, -math.Pi/2, f.axisTitle)
	}
}

// series draws series i's line runs (each joined, in its look) and dots,
// then its legend entry: a swatch in the same look and the name.
func (f frame) series(i int, name string, runs [][]charts.Point, dots []charts.Point) {
	s := f.styles[i]
	for _, run := range runs {
		s.line(f.p, run, 2)
	}
	if len(dots) > 0 {
		f.p.Dots(dots, s.colour, s.colour, 1, 3)
	}
	e := f.slots[i]
	y := f.legendTop + LegendRow*e.row
	s.line(f.p, []charts.Point{{X: e.x, Y: y - 4}, {X: e.x + SwatchWidth, Y: y - 4}}, 2)
	f.p.Dots([]charts.Point{{X: e.x + SwatchWidth/2, Y: y - 4}}, s.colour, s.colour, 1, 3)
	f.p.Text(name, e.x+SwatchWidth+6, y, 0, f.legend)
}

// whisker draws series i's min–max at x px: a vertical line from y px lo
// to hi with 6 px caps, 1 px wide in the series' colour.
func (f frame) whisker(i, x, lo, hi int) {
	c := f.styles[i].colour
	f.p.LineStroke([]charts.Point{{X: x, Y: lo}, {X: x, Y: hi}}, c, 1)
	f.p.LineStroke([]charts.Point{{X: x - 3, Y: lo}, {X: x + 3, Y: lo}}, c, 1)
	f.p.LineStroke([]charts.Point{{X: x - 3, Y: hi}, {X: x + 3, Y: hi}}, c, 1)
}

// write renders the painter and writes it to w.
func (f frame) write(w io.Writer, title string) error {
	return writeSVG(w, f.p, title)
}

// writeSVG renders p and writes it to w.
func writeSVG(w io.Writer, p *charts.Painter, title string) error {
	svg, err := p.Bytes()
	if err != nil {
		return fmt.Errorf("chart %q: %w", title, err)
	}
	_, err = w.Write(svg)
	return err
}

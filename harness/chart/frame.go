package chart

import (
	"fmt"
	"io"
	"math"

	"github.com/go-analyze/charts"
)

// frame is the canvas Lines and Trend share: a white painter Width px wide
// with the title drawn, the plot's edges in px (left, right, bottom; top
// is PlotTop) and each series' legend slot, wrapped within Width.
type frame struct {
	p                        *charts.Painter
	left, right, bottom      int
	legendTop                int
	slots                    []legendSlot
	label, legend, axisTitle charts.FontStyle
}

type legendSlot struct{ x, row int }

// newFrame lays out a chart whose Y tick labels are yTick(ys) and whose
// legend names are names: the left margin holds the widest label.
func newFrame(format, title string, ys []float64, yTick func(float64) string, names []string) frame {
	f := frame{
		label:     charts.FontStyle{FontSize: 11, FontColor: axisColour},
		legend:    charts.FontStyle{FontSize: 11, FontColor: textColour},
		axisTitle: charts.FontStyle{FontSize: 12, FontColor: textColour},
	}
	// Measure on a scratch painter: the left margin holds the widest Y
	// label, the legend wraps within Width.
	m := charts.NewPainter(charts.PainterOptions{OutputFormat: format, Width: Width, Height: 100})
	widest := 0
	for _, y := range ys {
		widest = max(widest, m.MeasureText(yTick(y), 0, f.label).Width())
	}
	f.left, f.right = 20+16+8+widest+8, Width-30
	f.slots = make([]legendSlot, len(names))
	x, row := f.left, 0
	for i, name := range names {
		wd := 24 + m.MeasureText(name, 0, f.legend).Width()
		if x > f.left && x+wd > f.right {
			x, row = f.left, row+1
		}
		f.slots[i] = legendSlot{x, row}
		x += wd + 18
	}
	f.bottom = PlotTop + PlotHeight
	f.legendTop = f.bottom + 64
	height := f.legendTop + LegendRow*(row+1) + 10

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

// series draws series i's line (dashed past the palette) and dots, then
// its legend entry; a line of fewer than two points is dots alone.
func (f frame) series(i int, name string, line, dots []charts.Point) {
	colour := charts.ColorFromHex(palette[i%len(palette)])
	f.stroke(i, line)
	if len(dots) > 0 {
		f.p.Dots(dots, colour, colour, 1, 3)
	}
	e := f.slots[i]
	y := f.legendTop + LegendRow*e.row
	f.p.LineStroke([]charts.Point{{X: e.x, Y: y - 4}, {X: e.x + 18, Y: y - 4}}, colour, 2)
	f.p.Dots([]charts.Point{{X: e.x + 9, Y: y - 4}}, colour, colour, 1, 3)
	f.p.Text(name, e.x+24, y, 0, f.legend)
}

// stroke draws one run of series i's line: solid in the palette's colours,
// dashed once they repeat; nothing for fewer than two points.
func (f frame) stroke(i int, line []charts.Point) {
	if len(line) < 2 {
		return
	}
	colour := charts.ColorFromHex(palette[i%len(palette)])
	if i >= len(palette) {
		f.p.DashedLineStroke(line, colour, 2, []float64{6, 3})
	} else {
		f.p.LineStroke(line, colour, 2)
	}
}

// write renders the painter and writes it to w.
func (f frame) write(w io.Writer, title string) error {
	svg, err := f.p.Bytes()
	if err != nil {
		return fmt.Errorf("chart %q: %w", title, err)
	}
	_, err = w.Write(svg)
	return err
}

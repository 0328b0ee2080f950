// Package chart draws the report's charts as SVG with go-analyze/charts'
// painter (pure Go, embedded Roboto metrics: no system fonts, no cgo). It
// knows nothing of tfbench's types: callers pass labels, lengths, min–max
// ranges and text. The same input gives the same bytes (golden-tested).
package chart

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/go-analyze/charts"
)

// Bar is one bar of a horizontal bar chart.
type Bar struct {
	// Label names the bar, left of it, e.g. "go-stdlib/default". Any
	// text: the SVG writer XML-escapes it.
	Label string
	// Key picks the bar's colour (colourOf; "" is Label): the framework
	// variant, e.g. "go-stdlib/default", the same colour in every chart.
	Key string
	// Value is the text printed right of the bar's tip (and whisker), e.g.
	// "56,683" or "1.06×".
	Value string
	// X is the bar's length in the chart's unit (e.g. requests/s), ≥ 0;
	// the value axis runs from 0 to a round number at or above the largest
	// X or Hi.
	X float64
	// Lo and Hi, when not both 0, are X's min–max over the rounds in X's
	// unit, drawn as a whisker across the bar's tip.
	Lo, Hi float64
	// Highlight outlines the bar (e.g. the best one).
	Highlight bool
}

// BarChart is a horizontal bar chart: Bars[0] on top, the value axis
// below titled XTitle with its unit, e.g. "peak RPS (requests/s)".
type BarChart struct {
	Title, XTitle string
	// XTick writes a value-axis tick (default: 0, 15k, 2.5M, 0.25).
	XTick func(float64) string
	Bars  []Bar
}

// Layout of Bars, in px: the SVG is Width wide (wider when labels and
// values leave the bars less than MinPlot) and Frame + RowHeight × bars
// high: BarTop above the bars for the title, the rest below for the value
// axis and its title.
const (
	Width     = 720
	RowHeight = 32
	Frame     = 112
	BarTop    = 56
	MinPlot   = 240
)

// Colours of the text, the highlight's outline and the whiskers.
var (
	valueText = charts.ColorFromHex("#333333")
	outline   = charts.ColorFromHex("#1a1a1a")
)

// Bars writes c as SVG to w: each bar in its key's colour with its Label
// left of it (a column as wide as the longest, textWidth), its whisker,
// and its Value right of the tip. It refuses no bars, an X that is
// negative, NaN or infinite, and a whisker with Lo > Hi or not finite.
func Bars(w io.Writer, c BarChart) error { return bars(w, c, charts.ChartOutputSVG) }

func bars(w io.Writer, c BarChart, format string) error {
	if len(c.Bars) == 0 {
		return errors.New("chart: no bars")
	}
	longest := 0.0
	for _, b := range c.Bars {
		if b.X < 0 || math.IsNaN(b.X) || math.IsInf(b.X, 0) {
			return fmt.Errorf("chart %q: bar %q has length %v; want a finite value ≥ 0", c.Title, b.Label, b.X)
		}
		if b.Lo != 0 || b.Hi != 0 {
			if math.IsNaN(b.Lo) || math.IsInf(b.Lo, 0) || math.IsNaN(b.Hi) || math.IsInf(b.Hi, 0) || b.Lo < 0 || b.Lo > b.Hi {
				return fmt.Errorf("chart %q: bar %q has whisker %v–%v; want finite values, 0 ≤ lo ≤ hi", c.Title, b.Label, b.Lo, b.Hi)
			}
		}
		longest = max(longest, b.X, b.Hi)
	}
	tick := c.XTick
	if tick == nil {
		tick = axisNumber
	}
	top := longest
	if top == 0 {
		top = 1
	}
	axisMax := Ticks * tickStep(top/Ticks)

	label := charts.FontStyle{FontSize: 12, FontColor: textColour}
	value := charts.FontStyle{FontSize: 11, FontColor: valueText}
	m := charts.NewPainter(charts.PainterOptions{OutputFormat: format, Width: Width, Height: 100})
	labels, values := 0, 0
	for _, b := range c.Bars {
		labels = max(labels, textWidth(m, b.Label, label))
		values = max(values, textWidth(m, b.Value, value))
	}
	// The last tick's label is centred on the plot's right edge.
	values = max(values, textWidth(m, tick(axisMax), label)/2)
	width := max(Width, 20+labels+12+MinPlot+6+values+20)
	left, right := 20+labels+12, width-20-values-6
	n := len(c.Bars)
	bottom := BarTop + RowHeight*n
	height := Frame + RowHeight*n
	px := func(v float64) int { return left + int(math.Round(v/axisMax*float64(right-left))) }

	p := charts.NewPainter(charts.PainterOptions{OutputFormat: format, Width: width, Height: height})
	p.FilledRect(0, 0, width, height, charts.ColorFromHex("#ffffff"), charts.ColorFromHex("#ffffff"), 0)
	p.Text(c.Title, 20, 36, 0, charts.FontStyle{FontSize: 16, FontColor: textColour})
	for i := 0; i <= Ticks; i++ {
		v := float64(i) * axisMax / Ticks
		x := px(v)
		p.LineStroke([]charts.Point{{X: x, Y: BarTop}, {X: x, Y: bottom}}, gridColour, 1)
		t := tick(v)
		tb := p.MeasureText(t, 0, label)
		p.Text(t, x-tb.Width()/2, bottom+18, 0, charts.FontStyle{FontSize: 11, FontColor: axisColour})
	}
	for i, b := range c.Bars {
		mid := BarTop + RowHeight*i + RowHeight/2
		lb := p.MeasureText(b.Label, 0, label)
		p.Text(b.Label, 20, mid+lb.Height()/2-1, 0, label)
		colour := colourOf(cmp.Or(b.Key, b.Label))
		end := px(b.X)
		edge, stroke := colour, 0.0
		if b.Highlight {
			edge, stroke = outline, 2
		}
		p.FilledRect(left, mid-9, end, mid+9, colour, edge, stroke)
		tip := end
		if b.Lo != 0 || b.Hi != 0 {
			lo, hi := px(b.Lo), px(b.Hi)
			p.LineStroke([]charts.Point{{X: lo, Y: mid}, {X: hi, Y: mid}}, valueText, 1.5)
			p.LineStroke([]charts.Point{{X: lo, Y: mid - 6}, {X: lo, Y: mid + 6}}, valueText, 1.5)
			p.LineStroke([]charts.Point{{X: hi, Y: mid - 6}, {X: hi, Y: mid + 6}}, valueText, 1.5)
			tip = max(tip, hi)
		}
		vb := p.MeasureText(b.Value, 0, value)
		p.Text(b.Value, tip+6, mid+vb.Height()/2-1, 0, value)
	}
	p.LineStroke([]charts.Point{{X: left, Y: BarTop}, {X: left, Y: bottom}}, axisColour, 1)
	p.LineStroke([]charts.Point{{X: left, Y: bottom}, {X: right, Y: bottom}}, axisColour, 1)
	if c.XTitle != "" {
		tb := p.MeasureText(c.XTitle, 0, label)
		p.Text(c.XTitle, (left+right)/2-tb.Width()/2, bottom+42, 0, label)
	}
	return writeSVG(w, p, c.Title)
}

// Ticks is the number of intervals on the value axis.
const Ticks = 4

// tickStep is the smallest "round" step ≥ v: 1, 1.5, 2, 2.5, 3, 4, 5, 6 or
// 8 times a power of ten (so the axis ends at 60k for 56,683 and at 1.2
// for 1.14); 1 when v ≤ 0.
func tickStep(v float64) float64 {
	if v <= 0 {
		return 1
	}
	pow := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 1.5, 2, 2.5, 3, 4, 5, 6, 8} {
		if m*pow >= v*(1-1e-12) {
			return m * pow
		}
	}
	return 10 * pow
}

// axisNumber writes a value-axis tick compactly: 0, 15k, 2.5M, 0.25.
func axisNumber(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e6:
		return strconv.FormatFloat(round(v/1e6), 'f', -1, 64) + "M"
	case a >= 1e3:
		return strconv.FormatFloat(round(v/1e3), 'f', -1, 64) + "k"
	default:
		return strconv.FormatFloat(round(v), 'f', -1, 64)
	}
}

// round keeps two decimals, so tick arithmetic (0.1 + 0.2) prints cleanly.
func round(v float64) float64 { return math.Round(v*100) / 100 }

// Package chart draws the report's charts as SVG with go-analyze/charts
// (pure Go, embedded Roboto metrics: no system fonts, no cgo). It knows
// nothing of tfbench's types: callers pass labels, lengths and text.
// The same input gives the same bytes (golden-tested).
package chart

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/go-analyze/charts"
)

// Bar is one bar of a horizontal bar chart.
type Bar struct {
	// Label names the bar on the category axis (left), e.g.
	// "go-stdlib/default". Any text: the SVG writer XML-escapes it.
	Label string
	// Value is the text printed at the bar's tip, e.g. "56,683" or "1.06×".
	Value string
	// X is the bar's length in the chart's unit (e.g. requests/s), ≥ 0;
	// the value axis runs from 0 to a round number at or above the largest X.
	X float64
	// Highlight draws the bar in the accent colour (e.g. the best one).
	Highlight bool
}

// Layout of Bars, in px.
const (
	// Width is the SVG's width.
	Width = 720
	// RowHeight is the height per bar, and Frame the height of the title
	// and value axis around the bars.
	RowHeight = 32
	Frame     = 80
)

// Colours of plain and highlighted bars and of the text at their tips.
var (
	plain     = charts.ColorFromHex("#9aa5b8")
	highlight = charts.ColorFromHex("#2b6cb0")
	valueText = charts.ColorFromHex("#333333")
)

// Bars writes a horizontal bar chart as SVG to w, bars[0] on top with each
// Value at its tip, Width px wide and Frame + RowHeight × len(bars) px high.
// It refuses no bars and an X that is negative, NaN or infinite.
func Bars(w io.Writer, title string, bars []Bar) error {
	if len(bars) == 0 {
		return errors.New("chart: no bars")
	}
	n := len(bars)
	// The library draws category 0 at the bottom: feed the bars reversed.
	// Each bar is its own series, stacked, null (no bar, no label) at the
	// other categories: so each bar gets its own colour, and the label
	// formatter, which is passed the series index (not the data index its
	// doc names), finds the bar's Value text.
	null := charts.GetNullValue()
	labels := make([]string, n)
	series := make([][]float64, n)
	colours := make([]charts.Color, n)
	values := make([]string, n)
	for i, b := range bars {
		if b.X < 0 || math.IsNaN(b.X) || math.IsInf(b.X, 0) {
			return fmt.Errorf("chart %q: bar %q has length %v; want a finite value ≥ 0", title, b.Label, b.X)
		}
		j := n - 1 - i
		labels[j], values[j] = b.Label, b.Value
		series[j] = make([]float64, n)
		for k := range series[j] {
			series[j][k] = null
		}
		series[j][j] = b.X
		colours[j] = plain
		if b.Highlight {
			colours[j] = highlight
		}
	}
	// For stacks the library lowers the data minimum by 1 before it
	// applies the axis minimum (range.go: "minVal--"), so with all lengths
	// below 1 (ratios) the axis would start below 0. A last series holding
	// one 0 (no width, no label, background colour) keeps the data
	// minimum at 0.
	zero := make([]float64, n)
	for k := range zero {
		zero[k] = null
	}
	zero[0] = 0
	series = append(series, zero)
	colours = append(colours, charts.ColorFromHex("#ffffff"))
	values = append(values, "")
	opt := charts.NewBarChartOptionWithData(series)
	opt.Horizontal = true
	opt.StackSeries = charts.Ptr(true)
	opt.Title = charts.TitleOption{Text: title}
	opt.CategoryAxis = charts.CategoryAxisOption{Labels: labels}
	longest := 0.0
	for _, b := range bars {
		longest = max(longest, b.X)
	}
	opt.ValueAxis[0].Min = charts.Ptr(0.0)
	opt.ValueAxis[0].Max = charts.Ptr(Ticks * tickStep(longest/Ticks))
	opt.ValueAxis[0].LabelCount = Ticks + 1
	opt.ValueFormatter = axisNumber
	opt.Padding = charts.NewBox(20, 20, 70, 10)
	opt.Theme = charts.GetTheme(charts.ThemeLight).WithSeriesColors(colours)
	for i := range opt.SeriesList {
		opt.SeriesList[i].Label = charts.SeriesLabel{
			Show:      charts.Ptr(true),
			FontStyle: charts.FontStyle{FontSize: 11, FontColor: valueText},
			LabelFormatter: func(series int, _ string, _ float64) (string, *charts.LabelStyle) {
				return values[series], nil
			},
		}
	}
	p := charts.NewPainter(charts.PainterOptions{OutputFormat: charts.ChartOutputSVG, Width: Width, Height: Frame + RowHeight*n})
	if err := p.BarChart(opt); err != nil {
		return fmt.Errorf("chart %q: %w", title, err)
	}
	svg, err := p.Bytes()
	if err != nil {
		return fmt.Errorf("chart %q: %w", title, err)
	}
	_, err = w.Write(svg)
	return err
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

package report

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/tfbench/tfbench/harness/chart"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/texttab"
	"github.com/tfbench/tfbench/internal/words"
)

// sizesOf is a page test's Sizes in one run (Tables' for a Set of one).
func sizesOf(run string, f *results.File, peaks *model.Peaks, t results.Test) []Size {
	var out []Size
	for _, n := range t.Queries {
		rows := rowsAt(run, f, peaks, t.Name, n)
		g := rank(rows, false)
		out = append(out, Size{N: n, Rows: rows, Ranking: g, Rate: rateRows(run, f, t.Name, n)})
	}
	return out
}

// pageText says how a page test ran beyond testText, without the final
// period: constant rate, probe (probePath, "" when none recorded), cache
// state and how a hit was confirmed.
func pageText(t results.Test, probePath string) string {
	var parts []string
	if t.Rate > 0 {
		parts = append(parts, fmt.Sprintf("plus a constant-rate sample: %g pages/s over %s", t.Rate, words.Plural(t.RateConnections, "connection")))
	}
	if t.Probe > 0 {
		what := "a cheap endpoint of the same server"
		if probePath != "" {
			what += " (`" + probePath + "`)"
		}
		parts = append(parts, fmt.Sprintf("during every sample an interference probe asks %s every %s on a connection of its own", what, secs(t.Probe)))
	}
	text := ""
	if len(parts) > 0 {
		text = strings.ToUpper(parts[0][:1]) + parts[0][1:]
		for _, p := range parts[1:] {
			text += "; " + p
		}
		text += ".\n\n"
	}
	if t.Cache == suite.CacheHit {
		text += "Cache state **hit**: the harness warms each page first and measures the framework's cached page route (framework.yaml `cache: path`, e.g. the engine's `/isr?rows={n}`, in place of the path above); a sample counts only when its pages were hits, confirmed by the response header the adapter names in framework.yaml (`cache: hit_header`) or, without one, by no new renders in its render counts (an unconfirmed hit fails the gate).\n\n"
	}
	return strings.TrimSuffix(text, "\n\n")
}

// probePathOf is the probe path recorded by the first sample of test that
// has a probe, or "".
func probePathOf(files []*results.File, test string) string {
	for _, f := range files {
		for _, s := range f.Samples {
			if s.Test == test && s.Probe != nil && s.Probe.Path != "" {
				return s.Probe.Path
			}
		}
	}
	return ""
}

// pageLegend explains the columns of a page test's tables.
const pageLegend = "**Peak RPS** is the highest median over rounds of a level whose every round passed the gate, **range** min–max RPS over the rounds at that level; at the peak level (**connections**): **CPU ms/req** is the server's CPU time per response (median over rounds), **page bytes** the mean body bytes of the counted responses, **TTFB** the time to the first byte of the status line and **p50/p99** the time to the last byte (merged HDR histograms of the rounds), **probe** the interference probe's latency from each probe's intended send time (merged), **event loop** the Node server's event-loop delay (perf_hooks.monitorEventLoopDelay; the worst round; — for servers that are not Node)."

// pageSizes writes a page test's per-size sections and then the notes,
// tables through tbl and names made safe by cell; it reports whether it
// wrote notes (they end in one newline).
func (b *builder) pageSizes(tt TestTable, tbl func([]string, [][]string, []texttab.Align), cell func(string) string) bool {
	t := tt.Test
	type noteKey struct{ who, text string }
	var order []noteKey
	sizesOf := map[noteKey][]int{}
	note := func(who, text string, n int) {
		k := noteKey{who, text}
		if _, ok := sizesOf[k]; !ok {
			order = append(order, k)
		}
		sizesOf[k] = append(sizesOf[k], n)
	}
	who := func(run, framework, variant string) string {
		w := variant
		if tt.Merged {
			w += ", run " + run
		}
		return inline(framework) + " (" + inline(w) + ")"
	}
	dash := "—"
	for _, sz := range tt.Sizes {
		b.printf("### %s rows per page\n\n", texttab.Thousands(float64(sz.N)))
		var header []string
		var align []texttab.Align
		col := func(name string, a texttab.Align) { header, align = append(header, name), append(align, a) }
		if tt.Merged {
			col("Run", texttab.Left)
		}
		col("Framework", texttab.Left)
		col("Variant", texttab.Left)
		for _, name := range []string{"Peak RPS", "Range (min–max)", "Rank"} {
			col(name, texttab.Right)
		}
		if tt.Merged {
			col("÷ "+reference(), texttab.Right)
		}
		for _, name := range []string{"Connections", "CPU ms/req", "Page bytes", "TTFB p50 ms", "TTFB p99 ms", "p50 ms", "p99 ms", "Probe p99 ms", "Probe max ms", "Event loop p99 ms", "Event loop max ms"} {
			col(name, texttab.Right)
		}
		for _, name := range MemoryColumns {
			col(name, texttab.Right)
		}
		col("Verification", texttab.Left)
		var rows [][]string
		for _, r := range sz.Rows {
			var line []string
			if tt.Merged {
				line = append(line, cell(r.Run))
			}
			line = append(line, cell(r.Framework), cell(r.Variant))
			if r.OK {
				line = append(line, withBound(r, texttab.RPS(r.PeakRPS), texttab.RPS), span(r.MinRPS, r.MaxRPS, texttab.RPS), rankCell(r))
				if tt.Merged {
					line = append(line, ratioCell(r))
				}
				line = append(line, strconv.Itoa(r.Connections), sig(r.CPUms))
			} else {
				line = append(line, cell(withBound(r, dash, texttab.RPS)), boundRange(r, texttab.RPS), dash, dash, dash)
				if tt.Merged {
					line = append(line, dash)
				}
			}
			page := dash
			if r.PageBytes > 0 {
				page = texttab.Thousands(float64(r.PageBytes))
			}
			line = append(line, page)
			if r.OK {
				line = append(line, sig(r.TTFBP50ms), sig(r.TTFBP99ms), sig(r.P50ms), sig(r.P99ms),
					sig(r.ProbeP99ms), sig(r.ProbeMaxms), sig(r.LoopP99ms), sig(r.LoopMaxms))
			} else {
				line = append(line, dash, dash, dash, dash, dash, dash, dash, dash)
			}
			line = append(line, r.Memory.cells(r.OK)...)
			rows = append(rows, append(line, string(r.Verification)))
			for _, n := range r.Notes {
				note(who(r.Run, r.Framework, r.Variant), noteText(n), sz.N)
			}
		}
		tbl(header, rows, align)
		b.printf("%s\n\n", rankingText(sz.Ranking))
		if header, lines, align := levelTable(sz.Rows, tt.Merged, sig); header != nil {
			b.printf("%s\n\n", levelLegend)
			for _, l := range lines {
				for i := range l {
					l[i] = cell(l[i])
				}
			}
			tbl(header, lines, align)
		}
		if len(sz.Rate) == 0 {
			continue
		}
		b.printf("At a constant %g pages/s over %s (latency from each request's intended send time), each cell the range over the rounds (min–max; one figure when they agree):\n\n", t.Rate, words.Plural(t.RateConnections, "connection"))
		header, align = nil, nil
		if tt.Merged {
			col("Run", texttab.Left)
		}
		col("Framework", texttab.Left)
		col("Variant", texttab.Left)
		for _, name := range []string{"Achieved RPS", "p50 ms", "p99 ms", "CPU ms/req", "Probe p50 ms", "Probe p99 ms", "Probe max ms", "Event loop max ms", "Rounds"} {
			col(name, texttab.Right)
		}
		rows = nil
		for _, r := range sz.Rate {
			var line []string
			if tt.Merged {
				line = append(line, cell(r.Run))
			}
			line = append(line, cell(r.Framework), cell(r.Variant),
				spanOf(r.Achieved, texttab.RPS), spanOf(r.P50, sig), spanOf(r.P99, sig), spanOf(r.CPU, sig),
				spanOf(r.ProbeP50, sig), spanOf(r.ProbeP99, sig), spanOf(r.ProbeMax, sig), spanOf(r.LoopMax, sig), strconv.Itoa(r.Rounds))
			rows = append(rows, line)
			switch {
			case r.Why != "":
				note(who(r.Run, r.Framework, r.Variant), noteText("constant rate: "+r.Why), sz.N)
			case r.Achieved.Min < 0.95*t.Rate:
				note(who(r.Run, r.Framework, r.Variant), fmt.Sprintf("constant rate: a round sustained only %s of the %g pages/s asked for: its latency grows with the backlog", texttab.RPS(r.Achieved.Min), t.Rate), sz.N)
			}
		}
		tbl(header, rows, align)
	}
	if len(order) == 0 {
		return false
	}
	var lines []string
	for _, k := range order {
		ns := sizesOf[k]
		if len(ns) == len(tt.Sizes) {
			lines = append(lines, fmt.Sprintf("- %s: %s", k.who, k.text))
			continue
		}
		for _, n := range ns {
			lines = append(lines, fmt.Sprintf("- %s, %s rows: %s", k.who, texttab.Thousands(float64(n)), k.text))
		}
	}
	b.printf("Notes:\n\n%s\n", strings.Join(lines, "\n"))
	return true
}

// sig writes a figure in ms (latency, CPU per request) to three
// significant digits: 0.512, 3.25, 37.1, 115, 1,234; "—" when negative
// (none).
func sig(v float64) string {
	switch {
	case v < 0:
		return "—"
	case v >= 100:
		return texttab.Thousands(v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	case v >= 1:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3f", v)
}

// span writes a range over rounds as "37.1–40.2", or one figure when both
// ends read the same.
func span(lo, hi float64, format func(float64) string) string {
	a, b := format(lo), format(hi)
	if a == b {
		return a
	}
	return a + "–" + b
}

// spanOf is span of r, "—" when no round recorded it.
func spanOf(r Range, format func(float64) string) string {
	if !r.OK {
		return "—"
	}
	return span(r.Min, r.Max, format)
}

// sweepChart is one chart of a page test's site page.
type sweepChart struct {
	name, title string
	svg         []byte
}

// sweepCharts draws a page test's charts of peak RPS (with its min–max over
// rounds), CPU ms per request and KB allocated per request (medians: no
// whisker; the runtime's own accounting, memory.go) against page bytes
// (log axes), a line per variant (and run, like chartBars) in the
// variant's colour; a chart without points is left out.
func sweepCharts(t TestTable) ([]sweepChart, error) {
	count := map[string]int{}
	for _, r := range t.Rows {
		count[r.ID.String()]++
	}
	var out []sweepChart
	for _, c := range []struct {
		suffix, title, y string
		pick             func(Row) chart.Point
	}{
		{"rps", "peak RPS by page bytes", "peak RPS (requests/s, log scale)", func(r Row) chart.Point {
			lo, hi := rpsRange(r)
			return chart.Point{Y: r.PeakRPS, Lo: lo, Hi: hi}
		}},
		{"cpu", "CPU ms per request by page bytes", "CPU ms per request (log scale)", func(r Row) chart.Point { return chart.Point{Y: r.CPUms} }},
		{"alloc", "KB allocated per request by page bytes", "KB allocated per request (log scale)", func(r Row) chart.Point {
			if !r.Memory.OK {
				return chart.Point{}
			}
			return chart.Point{Y: r.Memory.KBPerRequest}
		}},
	} {
		var series []chart.Series
		index := map[string]int{}
		for _, sz := range t.Sizes {
			for _, r := range sz.Rows {
				pt := c.pick(r)
				if !r.OK || r.PageBytes <= 0 || pt.Y <= 0 {
					continue
				}
				pt.X = float64(r.PageBytes)
				key := r.Run + "\x00" + r.ID.String()
				i, ok := index[key]
				if !ok {
					name := r.ID.String()
					if count[name] > 1 {
						name += " (" + r.Run + ")"
					}
					i = len(series)
					index[key] = i
					series = append(series, chart.Series{Name: name, Key: r.ID.String()})
				}
				series[i].Points = append(series[i].Points, pt)
			}
		}
		if len(series) == 0 {
			continue
		}
		title := t.Test.Name + ": " + c.title
		var svg bytes.Buffer
		if err := chart.Lines(&svg, chart.XY{Title: title, XTitle: "page bytes (log scale)", YTitle: c.y, XTick: byteTick, LogY: true, Series: series}); err != nil {
			return nil, err
		}
		out = append(out, sweepChart{name: t.Slug + "-" + c.suffix + ".svg", title: title, svg: svg.Bytes()})
	}
	return out, nil
}

// rpsRange is r's min–max RPS over the rounds at its peak level for a
// whisker; 0, 0 (none) unless 0 < MinRPS ≤ MaxRPS.
func rpsRange(r Row) (lo, hi float64) {
	if r.MinRPS <= 0 || r.MaxRPS < r.MinRPS {
		return 0, 0
	}
	return r.MinRPS, r.MaxRPS
}

// byteTick writes a byte count in decimal units: 500 B, 1 kB, 20 kB, 1 MB.
func byteTick(v float64) string {
	f := func(x float64) string { return strconv.FormatFloat(math.Round(x*100)/100, 'f', -1, 64) }
	switch {
	case v >= 1e6:
		return f(v/1e6) + " MB"
	case v >= 1e3:
		return f(v/1e3) + " kB"
	}
	return f(v) + " B"
}

// sweepPage writes a page test's site page: how it ran, its charts, the
// column legend, then every size's tables and the notes.
func sweepPage(w io.Writer, s *results.Set, t TestTable, charts []sweepChart) error {
	b := &builder{w: w}
	b.printf("# %s\n\n", inline(t.Test.Name))
	b.printf("%s\n\n", Provenance(s))
	b.printf("[All tests](%s) · all rows as CSV: [%s](%s)\n\n", IndexFile, CSVFile, CSVFile)
	b.printf("%s.\n\n", testText(t.Test))
	var files []*results.File
	for _, r := range s.Runs {
		files = append(files, r.File)
	}
	if text := pageText(t.Test, probePathOf(files, t.Test.Name)); text != "" {
		b.printf("%s\n\n", text)
	}
	if len(charts) == 0 {
		b.printf("No variant has a peak with page bytes on this test, so there are no charts.\n\n")
	}
	for _, c := range charts {
		b.printf("![%s](%s)\n\n", linkText(c.title), c.name)
	}
	if t.Merged {
		b.printf("The runs come from different machines: peak RPS, its range and the latencies are the raw figures of each row's run and do not compare across runs; ranks order **÷ %s**, peak RPS over %s's in the same run (with the min–max of the per-round ratio), and a size %s has no figure on is not ranked.\n\n", reference(), reference(), reference())
	}
	b.printf("%s %s\n\n", pageLegend, memoryLegend)
	notes := b.pageSizes(t, func(header []string, rows [][]string, align []texttab.Align) {
		b.table(header, rows, align)
		b.printf("\n")
	}, inline)
	b.leaks(setLeaks(s, t.Test.Name), notes)
	return b.err
}

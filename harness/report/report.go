// Package report renders a results file as markdown for a docs site: a
// machine and method header, the frameworks that ran, and per test the peak
// RPS, its range, level, latency, server cost and verification verdict.
// A number appears only for a test that passed verification (pass or warn)
// at a level whose every round passed the gate (docs/design.md, Peak); else
// "—" and the reason.
package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/montanaflynn/stats"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/texttab"
	"github.com/tfbench/tfbench/internal/words"
)

// Markdown writes the whole report for f to w.
func Markdown(w io.Writer, f *results.File) error {
	b := &builder{w: w, f: f, peaks: f.Peaks()}
	var ts []TestTable
	for _, t := range f.Suite.Tests {
		rows, _ := b.rowsFor(t.Name, headlineOf(t))
		ts = append(ts, TestTable{Test: t, Rows: rows})
	}
	b.header(spreadText(spreadOf(ts, ""), ""))
	b.frameworks()
	for _, t := range f.Suite.Tests {
		if t.Type == model.Coldstart {
			b.coldstart(t) // coldstart.go
			continue
		}
		b.test(t)
	}
	return b.err
}

type builder struct {
	w     io.Writer
	f     *results.File
	peaks *model.Peaks
	err   error
}

func (b *builder) printf(format string, a ...any) {
	if b.err == nil {
		_, b.err = fmt.Fprintf(b.w, format, a...)
	}
}

func (b *builder) table(header []string, rows [][]string, align []texttab.Align) {
	if b.err == nil {
		b.err = texttab.Markdown(b.w, texttab.Table{Header: header, Rows: rows, Align: align})
	}
}

func (b *builder) frameworks() {
	b.printf("## Frameworks\n\n")
	b.table(frameworksHeader, frameworkRows(b.f), nil)
	b.printf("\n")
}

var frameworksHeader = []string{"Framework", "Variant", "Versions (lockfile)", "Runtime", "Rendering", "Start", "Status"}

// frameworkRows are one row per framework variant of f: name, variant,
// locked versions, runtime, rendering model, start command, status.
func frameworkRows(f *results.File) [][]string {
	var rows [][]string
	for _, fw := range f.Frameworks {
		status := "ran"
		if fw.Error != "" {
			status = "not measured: " + fw.Error
		}
		rows = append(rows, []string{fw.Name, fw.Variant, words.OrDash(fw.VersionText()), fw.Runtime, fw.Rendering, "`" + fw.Start + "`", status})
	}
	return rows
}

// rowsFor returns the rows of test at N in rank order (Tables' order) and
// how they were ranked.
func (b *builder) rowsFor(test string, n int) ([]Row, Ranking) {
	rows := rowsAt(b.f.RunID, b.f, b.peaks, test, n)
	g := rank(rows, false)
	return rows, g
}

func (b *builder) test(t results.Test) {
	b.printf("## %s\n\n", t.Name)
	b.printf("%s.\n\n", testText(t))
	if t.Type == model.Page {
		b.pageTest(t)
		return
	}
	rows, g := b.rowsFor(t.Name, suite.HeadlineOf(t.Queries))
	header := []string{"Framework", "Variant", "Peak RPS", "Rank", "Range (min–max)", "Connections", "p50 ms", "p99 ms", "CPU ms/req", "RSS MB"}
	align := []texttab.Align{texttab.Left, texttab.Left, texttab.Right, texttab.Right, texttab.Right, texttab.Right, texttab.Right, texttab.Right, texttab.Right, texttab.Right}
	header = append(header, MemoryColumns...)
	align = append(align, texttab.Right, texttab.Right, texttab.Right, texttab.Right)
	if t.Type == "fortunes" {
		header = append(header, "Page bytes")
		align = append(align, texttab.Right)
	}
	header = append(header, "Verification")
	align = append(align, texttab.Left)
	var lines [][]string
	var notes []string
	for _, r := range rows {
		lines = append(lines, cells(r, t))
		for _, note := range r.Notes {
			notes = append(notes, fmt.Sprintf("- %s (%s): %s", inline(r.Framework), inline(r.Variant), noteText(note)))
		}
	}
	b.table(header, lines, align)
	b.printf("\n%s\n\n", rankingText(g))
	b.printf("%s\n\n", memoryLegend)
	if header, lines, align := levelTable(rows, false, msf); header != nil {
		b.printf("%s\n\n", levelLegend)
		b.table(header, lines, align)
		b.printf("\n")
	}
	for _, n := range leakNotes(b.f.Samples, t.Name) {
		notes = append(notes, "- "+n)
	}
	if len(t.Queries) > 1 {
		b.byN(t)
	}
	if t.Rate > 0 {
		notes = append(notes, b.rateTable(t)...)
	}
	if len(notes) > 0 {
		b.printf("Notes:\n\n%s\n\n", strings.Join(notes, "\n"))
	}
	if t.Type == model.Stream {
		b.streamTimeline(t) // stream.go
	}
}

// pageTest writes the rest of a page test's section: how it ran, the peak
// RPS by N, then per size its closed-loop and constant-rate tables, and the
// notes.
func (b *builder) pageTest(t results.Test) {
	if text := pageText(t, probePathOf([]*results.File{b.f}, t.Name)); text != "" {
		b.printf("%s\n\n", text)
	}
	b.printf("%s %s\n\n", pageLegend, memoryLegend)
	if len(t.Queries) > 1 {
		b.byN(t)
	}
	tt := TestTable{Test: t, N: headlineOf(t), Sizes: sizesOf(b.f.RunID, b.f, b.peaks, t)}
	notes := b.pageSizes(tt, func(header []string, rows [][]string, align []texttab.Align) {
		b.table(header, rows, align)
		b.printf("\n")
	}, func(s string) string { return s })
	leaks := leakNotes(b.f.Samples, t.Name)
	b.leaks(leaks, notes)
	if notes || len(leaks) > 0 {
		b.printf("\n")
	}
}

// testText describes a test's settings in one sentence (without the final
// period): type, path, connections, pipeline depth, N and the headline N.
func testText(t results.Test) string {
	desc := fmt.Sprintf("Type `%s`, `%s`, %s connections", t.Type, t.Path, joinInts(t.Concurrency))
	if t.Pipeline > 1 {
		desc += fmt.Sprintf(", pipeline depth %d", t.Pipeline)
	}
	if len(t.Queries) > 0 {
		desc += fmt.Sprintf(", N = %s; the headline is N = %d", joinInts(t.Queries), suite.HeadlineOf(t.Queries))
	}
	return desc
}

// cells renders one row of the markdown report's test table.
func cells(r Row, t results.Test) []string {
	dash := "—"
	line := []string{r.Framework, r.Variant}
	if !r.OK {
		line = append(line, withBound(r, dash, texttab.Thousands), dash, boundRange(r, texttab.Thousands), dash, dash, dash, dash, dash)
		line = append(line, r.Memory.cells(false)...)
	} else {
		line = append(line,
			withBound(r, texttab.Thousands(r.PeakRPS), texttab.Thousands),
			rankCell(r),
			texttab.Thousands(r.MinRPS)+"–"+texttab.Thousands(r.MaxRPS),
			strconv.Itoa(r.Connections),
			msf(r.P50ms), msf(r.P99ms),
			fmt.Sprintf("%.3f", r.CPUms),
			mb(r.RSSBytes),
		)
		line = append(line, r.Memory.cells(true)...)
	}
	if t.Type == "fortunes" {
		if r.PageBytes > 0 {
			line = append(line, strconv.Itoa(r.PageBytes))
		} else {
			line = append(line, dash)
		}
	}
	return append(line, string(r.Verification))
}

// byN writes the peak RPS of every N for a queries or updates test (a page
// test's sizes), each with its min–max over rounds.
func (b *builder) byN(t results.Test) {
	b.printf("Peak RPS by N (min–max over the rounds at the peak level):\n\n")
	header := []string{"Framework", "Variant"}
	align := []texttab.Align{texttab.Left, texttab.Left}
	for _, n := range t.Queries {
		header = append(header, fmt.Sprintf("N = %d", n))
		align = append(align, texttab.Right)
	}
	byN := make([][]Row, len(t.Queries))
	for i, n := range t.Queries {
		byN[i], _ = b.rowsFor(t.Name, n)
	}
	var rows [][]string
	format := texttab.Thousands
	if t.Type == model.Page {
		format = texttab.RPS
	}
	head, _ := b.rowsFor(t.Name, headlineOf(t))
	for _, r := range head {
		line := []string{r.Framework, r.Variant}
		for i := range t.Queries {
			cell := "—"
			for _, rn := range byN[i] {
				if rn.Framework == r.Framework && rn.Variant == r.Variant && (rn.OK || rn.Bound != nil) {
					cell = withBound(rn, peakCell(rn, format), format)
				}
			}
			line = append(line, cell)
		}
		rows = append(rows, line)
	}
	b.table(header, rows, align)
	b.printf("\n")
}

// peakCell writes a row's peak RPS with its min–max over rounds, both
// ends always: "78,100 (74,012–85,990)", "200 (200–200)".
func peakCell(r Row, format func(float64) string) string {
	return format(r.PeakRPS) + " (" + format(r.MinRPS) + "–" + format(r.MaxRPS) + ")"
}

// rateTable writes the latency of every framework variant at the test's
// common constant rate (wrk2's method: corrected for coordinated omission),
// merged over rounds, and returns the notes that explain its cells.
func (b *builder) rateTable(t results.Test) []string {
	b.printf("Latency at a constant %g requests/s over %d connections (from each request's intended send time; merged over rounds):\n\n", t.Rate, t.RateConnections)
	header := []string{"Framework", "Variant", "Achieved RPS", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms", "p99 uncorrected ms"}
	align := []texttab.Align{texttab.Left, texttab.Left, texttab.Right, texttab.Right, texttab.Right, texttab.Right, texttab.Right, texttab.Right, texttab.Right}
	var rows [][]string
	var notes []string
	for _, fw := range b.f.Frameworks {
		var ss []model.Sample
		for _, s := range b.f.Samples {
			if s.Rate > 0 && s.Framework == fw.Name && s.Variant == fw.Variant && s.Test == t.Name {
				ss = append(ss, s)
			}
		}
		if len(ss) == 0 {
			continue
		}
		line := []string{fw.Name, fw.Variant}
		var rps []float64
		failed := ""
		for _, s := range ss {
			rps = append(rps, s.RPS)
			if !s.Gate.Passed && failed == "" {
				failed = fmt.Sprintf("round %d: %s", s.Round, s.Gate.Reason)
			}
		}
		achieved, _ := stats.Median(rps)
		h := model.MergeHistograms(ss, func(s model.Sample) []byte { return s.Histogram })
		u := model.MergeHistograms(ss, func(s model.Sample) []byte { return s.UncorrectedHistogram })
		if failed != "" || h == nil || u == nil {
			if failed == "" {
				failed = "no latency recorded"
			}
			rows = append(rows, append(line, "—", "—", "—", "—", "—", "—", "—"))
			notes = append(notes, fmt.Sprintf("- %s (%s): constant rate: %s", fw.Name, fw.Variant, failed))
			continue
		}
		if achieved < 0.95*t.Rate {
			notes = append(notes, fmt.Sprintf("- %s (%s): sustained only %s of the %g requests/s asked for: its latency grows with the backlog", fw.Name, fw.Variant, texttab.Thousands(achieved), t.Rate))
		}
		q := func(x *hdrhistogram.Histogram, p float64) string { return ms(x.ValueAtQuantile(p)) }
		rows = append(rows, append(line, texttab.Thousands(achieved), q(h, 50), q(h, 90), q(h, 99), q(h, 99.9), ms(h.Max()), q(u, 99)))
	}
	b.table(header, rows, align)
	b.printf("\n")
	return notes
}

func secs(s float64) string { return (time.Duration(s * float64(time.Second))).String() }

func ms(us int64) string {
	if us < 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f", float64(us)/1000)
}

// msf formats a latency in ms with two decimals; "—" when negative (none).
func msf(v float64) string {
	if v < 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f", v)
}

// mb formats bytes as MiB with one decimal, as the tables' "RSS MB".
func mb(b uint64) string { return fmt.Sprintf("%.1f", float64(b)/(1<<20)) }

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ", ")
}

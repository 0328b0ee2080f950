package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"github.com/montanaflynn/stats"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tfbench/tfbench/harness/chart"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/texttab"
	"github.com/tfbench/tfbench/internal/words"
)

// Site files of the coldstart tests (docs/ssr.md, "Cold start and warm-up").
const (
	ColdstartFile  = "coldstart.md"
	ColdstartChart = "coldstart.svg"
	ColdstartCSV   = "coldstart.csv"
)

// coldRow is one variant's starts in one coldstart test of one run: start
// ms (spawn → accept), first-page ms (last byte of the first page request at
// the headline size), warm-up s (+Inf: "> limit"), steady RPS, of the starts
// that did not fail; failed counts the others, why is the first's reason.
type coldRow struct {
	run     string
	id      model.ID
	starts  int
	failed  int
	why     string
	limit   float64
	n       int
	conns   int
	accept  []float64
	page    []float64
	warmup  []float64
	steady  []float64
	spread  []float64 // SteadySpread, a share
	first   []coldFirstReq
	seconds [][]float64 // seconds[s]: RPS at second s of each good start
}

// coldFirstReq is one first request of a variant's good starts: its route
// and N, and the TTFB and last byte (ms) of each start.
type coldFirstReq struct {
	route      model.TestType
	n          int
	ttfb, last []float64
}

// label names a first request's column: "page 1,000", "json".
func (q coldFirstReq) label() string {
	if q.n > 0 {
		return string(q.route) + " " + texttab.Thousands(float64(q.n))
	}
	return string(q.route)
}

// coldRows groups the coldstart records of test in s's runs by run and
// variant, in order of first record.
func coldRows(s *results.Set, test string) []*coldRow {
	var rows []*coldRow
	for _, r := range s.Runs {
		for _, c := range r.File.ColdStarts {
			if c.Test != test {
				continue
			}
			i := slices.IndexFunc(rows, func(x *coldRow) bool { return x.run == r.Label && x.id == c.ID })
			if i < 0 {
				rows = append(rows, &coldRow{run: r.Label, id: c.ID, limit: c.LimitS, n: c.N, conns: c.Connections})
				i = len(rows) - 1
			}
			row := rows[i]
			row.starts++
			if c.Error != "" {
				if row.failed++; row.why == "" {
					// Its first line: a start's error may quote the server log's tail.
					first, _, _ := strings.Cut(c.Error, "\n")
					row.why = fmt.Sprintf("start %d: %s", c.Start, first)
				}
				continue
			}
			row.accept = append(row.accept, c.SpawnToAccept)
			for _, f := range c.First {
				i := slices.IndexFunc(row.first, func(q coldFirstReq) bool { return q.route == f.Route && q.n == f.N })
				if i < 0 {
					row.first = append(row.first, coldFirstReq{route: f.Route, n: f.N})
					i = len(row.first) - 1
				}
				row.first[i].ttfb = append(row.first[i].ttfb, f.TTFB)
				row.first[i].last = append(row.first[i].last, f.LastByte)
			}
			for _, f := range c.First {
				if f.Route == model.Page && f.N == c.N {
					row.page = append(row.page, f.LastByte)
					break
				}
			}
			w := math.Inf(1)
			if c.WarmupS != nil {
				w = *c.WarmupS
			}
			row.warmup = append(row.warmup, w)
			row.steady = append(row.steady, c.SteadyRPS)
			row.spread = append(row.spread, c.SteadySpread)
			for _, sec := range c.PerSecond {
				for len(row.seconds) <= sec.S {
					row.seconds = append(row.seconds, nil)
				}
				row.seconds[sec.S] = append(row.seconds[sec.S], sec.RPS)
			}
		}
	}
	return rows
}

// median is the median of vs (stats.Median: a +Inf upper middle gives
// +Inf); NaN for none.
func median(vs []float64) float64 {
	m, err := stats.Median(vs)
	if err != nil {
		return math.NaN()
	}
	return m
}

// p50Range is "p50 (min–max)" of vs with format, "—" for none; +Inf is
// "> limit s".
func p50Range(vs []float64, limit float64, format func(float64) string) string {
	if len(vs) == 0 {
		return "—"
	}
	f := func(v float64) string {
		if math.IsInf(v, 1) {
			return "> " + strconv.FormatFloat(limit, 'f', -1, 64) + " s"
		}
		return format(v)
	}
	p50 := f(median(vs))
	r := span(slices.Min(vs), slices.Max(vs), f)
	if len(vs) == 1 || r == p50 {
		return p50
	}
	return p50 + " (" + r + ")"
}

// warmText is a warm-up in whole seconds.
func warmText(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) + " s" }

// startsText is "5" or "5, 2 failed: start 3: …".
func (r *coldRow) startsText() string {
	if r.failed == 0 {
		return strconv.Itoa(r.starts)
	}
	if r.failed == r.starts {
		return fmt.Sprintf("%d, failed: %s", r.starts, r.why)
	}
	return fmt.Sprintf("%d, %d failed: %s", r.starts, r.failed, r.why)
}

// coldTable is the header and rows of a coldstart test's table; merged adds
// the Run column.
func coldTable(rows []*coldRow, merged bool) ([]string, [][]string, []texttab.Align) {
	header := []string{"Framework", "Variant", "Start ms", "First page ms", "Warm-up", "Steady RPS", "Steady ±", "Starts"}
	align := []texttab.Align{texttab.Left, texttab.Left, texttab.Right, texttab.Right, texttab.Right, texttab.Right, texttab.Right, texttab.Left}
	if merged {
		header, align = append([]string{"Run"}, header...), append([]texttab.Align{texttab.Left}, align...)
	}
	var out [][]string
	for _, r := range rows {
		line := []string{r.id.Framework, r.id.Variant, p50Range(r.accept, r.limit, msText), p50Range(r.page, r.limit, msText),
			p50Range(r.warmup, r.limit, warmText), p50Range(r.steady, r.limit, sig), p50Range(r.spread, r.limit, pctText), r.startsText()}
		if merged {
			line = append([]string{r.run}, line...)
		}
		out = append(out, line)
	}
	return header, out, align
}

// pctText is a share as a percentage with one decimal: 0.031 is "3.1%".
func pctText(v float64) string { return fmt.Sprintf("%.1f%%", v*100) }

// msText is a time in ms: one decimal below 100, whole above.
func msText(v float64) string {
	if v >= 100 {
		return texttab.Thousands(v)
	}
	return fmt.Sprintf("%.1f", v)
}

// coldIntro explains a coldstart test's figures.
func coldIntro(t results.Test, rows []*coldRow) string {
	limit, starts := 0.0, 0
	if t.ColdStart != nil {
		limit, starts = t.ColdStart.LimitS, t.ColdStart.Starts
	}
	n, conns := 0, 0
	if len(rows) > 0 {
		n, conns = rows[0].n, rows[0].conns
	}
	return fmt.Sprintf("Each variant is started %d times, each start on a fresh copy of the dataset with its build already made (not timed). "+
		"**Start ms** is spawn to the first TCP connection its port accepted (tried every 2 ms); **first page ms** the last byte of its first request, the page at %d rows, from the connect; "+
		"then %d connections load that page for %g s, every response checked: **warm-up** is the first second from which three consecutive seconds' RPS are within 5%% of **steady RPS**, "+
		"the median per-second RPS of the run's last third (\"> %g s\": never within the run); **steady ±** is the largest distance of those last seconds from it, the server's second-to-second noise once warm: above 5%% the warm-up reads that noise, not a warm-up. Cells are the p50 over the starts with their min–max; the OS page cache is not dropped between starts (docs/ssr.md, \"Cold start and warm-up\").",
		starts, n, conns, limit, limit)
}

// coldSeconds is the per-second table of a coldstart test: per variant the
// median RPS over its good starts at each second.
func coldSeconds(rows []*coldRow, merged bool) ([]string, [][]string, []texttab.Align) {
	most := 0
	for _, r := range rows {
		most = max(most, len(r.seconds))
	}
	header := []string{"Variant"}
	align := []texttab.Align{texttab.Left}
	for s := range most {
		header, align = append(header, strconv.Itoa(s)), append(align, texttab.Right)
	}
	var out [][]string
	for _, r := range rows {
		line := []string{r.name(merged)}
		for s := range most {
			v := "—"
			if s < len(r.seconds) && len(r.seconds[s]) > 0 {
				v = sig(median(r.seconds[s]))
			}
			line = append(line, v)
		}
		out = append(out, line)
	}
	return header, out, align
}

// name is the row's variant, after its run's label when merged.
func (r *coldRow) name(merged bool) string {
	if merged {
		return r.run + ": " + r.id.String()
	}
	return r.id.String()
}

// coldFirst is the table of a coldstart test's first requests: per variant
// and request (in the order sent), the last byte's p50 over the good starts
// and, in brackets, the TTFB's, in ms from the connect.
func coldFirst(rows []*coldRow, merged bool) ([]string, [][]string, []texttab.Align) {
	var cols []coldFirstReq
	for _, r := range rows {
		for _, q := range r.first {
			if !slices.ContainsFunc(cols, func(c coldFirstReq) bool { return c.route == q.route && c.n == q.n }) {
				cols = append(cols, coldFirstReq{route: q.route, n: q.n})
			}
		}
	}
	header := []string{"Variant"}
	align := []texttab.Align{texttab.Left}
	for _, c := range cols {
		header, align = append(header, c.label()+" ms"), append(align, texttab.Right)
	}
	var out [][]string
	for _, r := range rows {
		line := []string{r.name(merged)}
		for _, c := range cols {
			v := "—"
			if i := slices.IndexFunc(r.first, func(q coldFirstReq) bool { return q.route == c.route && q.n == c.n }); i >= 0 {
				v = msText(median(r.first[i].last)) + " (" + msText(median(r.first[i].ttfb)) + ")"
			}
			line = append(line, v)
		}
		out = append(out, line)
	}
	return header, out, align
}

// coldFirstIntro introduces the first-requests table.
const coldFirstIntro = "First requests of a fresh server, in the order sent, each on a new connection: the last byte's p50 over the starts in ms from the connect, the TTFB's in brackets:"

// coldSecondsIntro introduces the per-second table.
const coldSecondsIntro = "RPS by second since the load's first request (median over the starts):"

// coldNoise is the note under a coldstart table naming the variants whose
// steady ± (p50 over their starts) is above the 5% band: their warm-up reads
// the server's second-to-second noise, not a warm-up; "" when none is. merged
// names each variant's run.
func coldNoise(rows []*coldRow, merged bool) string {
	var noisy []string
	for _, r := range rows {
		if len(r.spread) > 0 && median(r.spread) > 0.05 {
			name := r.id.String()
			if merged {
				name = r.run + ": " + name
			}
			noisy = append(noisy, fmt.Sprintf("%s (steady ± %s)", name, pctText(median(r.spread))))
		}
	}
	if len(noisy) == 0 {
		return ""
	}
	return "**Noise above the band**: " + strings.Join(noisy, ", ") + ": once warm, these servers' per-second RPS moved by more than the warm-up rule's 5%, so their warm-up reads that noise, not a warm-up."
}

// coldstart writes a coldstart test's section of report.md: its table and
// the RPS second by second.
func (b *builder) coldstart(t results.Test) {
	rows := coldRows(&results.Set{Runs: []results.Run{{File: b.f}}}, t.Name)
	b.printf("## %s\n\n", t.Name)
	b.printf("%s\n\n", coldIntro(t, rows))
	if len(rows) == 0 {
		b.printf("No start was recorded.\n\n")
		return
	}
	b.table(coldTable(rows, false))
	if note := coldNoise(rows, false); note != "" {
		b.printf("\n%s\n", note)
	}
	b.printf("\n%s\n\n", coldFirstIntro)
	b.table(coldFirst(rows, false))
	b.printf("\n%s\n\n", coldSecondsIntro)
	b.table(coldSeconds(rows, false))
	b.printf("\n")
}

// coldstartSite is the site's coldstart page, its chart (RPS by second, a
// line per variant: Trend) and CSV of every start; nil when no run has a
// coldstart test.
func coldstartSite(s *results.Set) (md, svg, csvData []byte, err error) {
	var tests []results.Test
	for _, r := range s.Runs {
		for _, t := range r.File.Suite.Tests {
			if t.Type == model.Coldstart && !slices.ContainsFunc(tests, func(x results.Test) bool { return x.Name == t.Name }) {
				tests = append(tests, t)
			}
		}
	}
	if len(tests) == 0 {
		return nil, nil, nil, nil
	}
	merged := len(s.Runs) > 1
	var page, pic bytes.Buffer
	b := &builder{w: &page}
	b.printf("# Cold start and warm-up\n\n")
	b.printf("%s\n\n", Provenance(s))
	b.printf("[All tests](%s) · every start as CSV: [%s](%s)\n\n", IndexFile, ColdstartCSV, ColdstartCSV)
	charted := false
	for _, t := range tests {
		rows := coldRows(s, t.Name)
		if len(tests) > 1 {
			b.printf("## %s\n\n", inline(t.Name))
		}
		b.printf("%s\n\n", coldIntro(t, rows))
		if len(rows) == 0 {
			b.printf("No start was recorded.\n\n")
			continue
		}
		if !charted {
			var series []chart.TimeSeries
			most := 0
			for _, r := range rows {
				most = max(most, len(r.seconds))
			}
			for _, r := range rows {
				vs := make([]float64, most)
				for i := range vs {
					vs[i] = math.NaN()
					if i < len(r.seconds) && len(r.seconds[i]) > 0 {
						vs[i] = median(r.seconds[i])
					}
				}
				name := r.id.String()
				if merged {
					name = r.run + ": " + name
				}
				series = append(series, chart.TimeSeries{Name: name, Key: r.id.String(), Values: vs})
			}
			if most > 0 {
				labels := make([]string, most)
				for i := range labels {
					labels[i] = strconv.Itoa(i) + " s"
				}
				title := fmt.Sprintf("%s: RPS by second since the load began", t.Name)
				if err := chart.Trend(&pic, chart.Timeline{Title: title, YTitle: "RPS", Labels: labels, Series: series}); err != nil {
					return nil, nil, nil, err
				}
				b.printf("![%s](%s)\n\nEach line is a variant's median RPS over its starts, second by second from the load's first request.\n\n", linkText(title), ColdstartChart)
				charted = true
			}
		}
		h, rs, al := coldTable(rows, merged)
		siteTable(b, h, rs, al)
		if note := coldNoise(rows, merged); note != "" {
			b.printf("%s\n\n", inline(note))
		}
		b.printf("%s\n\n", coldFirstIntro)
		h, rs, al = coldFirst(rows, merged)
		siteTable(b, h, rs, al)
		b.printf("%s\n\n", coldSecondsIntro)
		h, rs, al = coldSeconds(rows, merged)
		siteTable(b, h, rs, al)
	}
	if b.err != nil {
		return nil, nil, nil, b.err
	}
	var c bytes.Buffer
	cw := csv.NewWriter(&c)
	cw.Write([]string{"run", "test", "framework", "variant", "start", "spawn_to_accept_ms", "first_page_ms", "warmup_s", "steady_rps", "steady_spread", "error"})
	for _, r := range s.Runs {
		for _, cs := range r.File.ColdStarts {
			accept, page, steady, spread := "", "", "", ""
			if cs.SpawnToAccept > 0 {
				accept = strconv.FormatFloat(cs.SpawnToAccept, 'f', 3, 64)
			}
			if cs.Error == "" {
				steady = strconv.FormatFloat(cs.SteadyRPS, 'f', 1, 64)
				spread = strconv.FormatFloat(cs.SteadySpread, 'f', 4, 64)
			}
			for _, f := range cs.First {
				if f.Route == model.Page && f.N == cs.N && f.Status == 200 {
					page = strconv.FormatFloat(f.LastByte, 'f', 3, 64)
					break
				}
			}
			warm := ""
			if cs.WarmupS != nil {
				warm = strconv.FormatFloat(*cs.WarmupS, 'f', -1, 64)
			} else if cs.Error == "" {
				warm = "> " + strconv.FormatFloat(cs.LimitS, 'f', -1, 64)
			}
			cw.Write([]string{r.Label, cs.Test, cs.Framework, cs.Variant, strconv.Itoa(cs.Start), accept,
				page, warm, steady, spread, strings.ReplaceAll(cs.Error, "\n", " / ")})
		}
	}
	cw.Flush()
	if !charted {
		return page.Bytes(), nil, c.Bytes(), cw.Error()
	}
	return page.Bytes(), pic.Bytes(), c.Bytes(), cw.Error()
}

// coldTests reports whether a run of s has a coldstart test.
func coldTests(s *results.Set) bool {
	for _, r := range s.Runs {
		for _, t := range r.File.Suite.Tests {
			if t.Type == model.Coldstart {
				return true
			}
		}
	}
	return false
}

// ColdstartSummary is the run's one line on a coldstart test: "coldstart:
// 9 variants × 5 starts, 2 failed (the report's coldstart section)".
func ColdstartSummary(f *results.File, test string) string {
	rows := coldRows(&results.Set{Runs: []results.Run{{File: f}}}, test)
	starts, failed := 0, 0
	for _, r := range rows {
		starts += r.starts
		failed += r.failed
	}
	return fmt.Sprintf("%s: %s, %d starts, %d failed (the report's %s section)", test, words.Plural(len(rows), "variant"), starts, failed, test)
}

// sampledTests are ts without the coldstart tests, whose settings (starts,
// one level, the cap) their own section states.
func sampledTests(ts []results.Test) []results.Test {
	var out []results.Test
	for _, t := range ts {
		if t.Type != model.Coldstart {
			out = append(out, t)
		}
	}
	return out
}

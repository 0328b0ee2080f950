package report

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tfbench/tfbench/harness/chart"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/texttab"
	"github.com/tfbench/tfbench/internal/words"
)

// Site file names besides the per-test pages "<slug>.md" and charts
// "<slug>.svg".
const (
	IndexFile = "index.md"
	CSVFile   = "results.csv"
)

// Site renders s into dir (docs/comparing.md, Docs-site pages), all before
// writing each file atomically, other files left alone; it returns the
// paths written, index first, and write errors name the file.
func Site(dir string, s *results.Set) ([]string, error) {
	ts, err := Tables(s)
	if err != nil {
		return nil, err
	}
	type file struct {
		name string
		data []byte
	}
	var files []file
	var b bytes.Buffer
	if err := index(&b, s, ts); err != nil {
		return nil, err
	}
	files = append(files, file{IndexFile, bytes.Clone(b.Bytes())})
	for _, t := range ts {
		if t.Sizes != nil {
			charts, err := sweepCharts(t)
			if err != nil {
				return nil, err
			}
			b.Reset()
			if err := sweepPage(&b, s, t, charts); err != nil {
				return nil, err
			}
			files = append(files, file{t.Slug + ".md", bytes.Clone(b.Bytes())})
			for _, c := range charts {
				files = append(files, file{c.name, c.svg})
			}
			continue
		}
		var svg bytes.Buffer
		bars := chartBars(t)
		if len(bars) > 0 {
			if err := chart.Bars(&svg, chart.BarChart{Title: chartTitle(t), XTitle: chartAxis(t), Bars: bars}); err != nil {
				return nil, err
			}
		}
		b.Reset()
		if err := page(&b, s, t, len(bars) > 0); err != nil {
			return nil, err
		}
		if t.Test.Type == model.Stream { // the timeline (stream.go)
			charts, err := streamSection(&builder{w: &b}, s, t, true)
			if err != nil {
				return nil, err
			}
			for _, c := range charts {
				files = append(files, file{c.name, c.svg})
			}
		}
		files = append(files, file{t.Slug + ".md", bytes.Clone(b.Bytes())})
		if len(bars) > 0 {
			files = append(files, file{t.Slug + ".svg", svg.Bytes()})
		}
	}
	b.Reset()
	if err := CSV(&b, ts); err != nil {
		return nil, err
	}
	files = append(files, file{CSVFile, bytes.Clone(b.Bytes())})
	if md, svg, csv, err := coldstartSite(s); err != nil {
		return nil, err
	} else if md != nil {
		files = append(files, file{ColdstartFile, md}, file{ColdstartCSV, csv})
		if svg != nil {
			files = append(files, file{ColdstartChart, svg})
		}
	}
	var written []string
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := results.WriteFileAtomic(p, f.data); err != nil {
			return written, fmt.Errorf("report site: write %s: %w", p, err)
		}
		written = append(written, p)
	}
	return written, nil
}

// reference is the reference variant's framework name, as column headers
// spell it ("÷ go-stdlib").
func reference() string { return model.Reference.Framework }

// index writes the site's index page.
func index(w io.Writer, s *results.Set, ts []TestTable) error {
	b := &builder{w: w}
	first := s.Runs[0].File
	merged := len(s.Runs) > 1
	if !merged {
		f := first
		b.printf("# tfbench: %s\n\n", inline(f.Suite.Name))
		b.printf("%s\n\n", Provenance(s))
		b.printf("Status %s; method version %d, suite `%s` (sha256 %s), %s.\n\n",
			f.Status, f.MethodVersion, f.Suite.Name, words.Commit(f.Suite.Hash), words.Plural(f.Suite.Rounds, "round"))
		command(b, f)
	} else {
		b.printf("# tfbench: %s, %d runs merged\n\n", inline(first.Suite.Name), len(s.Runs))
		b.printf("%s\n\n", Provenance(s))
		b.printf("Method version %d, suite `%s` (sha256 %s); the runs and their machines are listed below.\n\n",
			s.MethodVersion(), first.Suite.Name, words.Commit(s.SuiteHash()))
	}
	if !merged {
		if w := spreadText(spreadOf(ts, ""), ""); w != "" {
			b.printf("%s\n\n", w)
		}
	} else {
		for _, r := range s.Runs {
			if w := spreadText(spreadOf(ts, r.Label), " in run "+inline(r.Label)); w != "" {
				b.printf("%s\n\n", w)
			}
		}
	}
	b.printf("## Summary\n\n")
	if merged {
		b.printf("Each cell is the variant's rank on that test and its peak RPS divided by %s's peak RPS in the same run, with the min–max of that ratio over the rounds (rounds are interleaved, so each round's ratio is taken within the round). The runs come from different machines, so raw requests/s do not compare across them; a test %s has no figure on shows raw peak RPS, unranked; the test pages show both.", reference(), reference())
	} else {
		b.printf("Each cell is the variant's rank on that test, then its peak RPS with the min–max over the rounds at the peak level.")
	}
	b.printf(" Ranks tie (\"=1\") where the rounds cannot tell variants apart; each test's page says how it was ranked. A test's page has the figures, a chart and the notes; all rows as CSV: [%s](%s).\n\n", CSVFile, CSVFile)
	summary(b, s, ts)
	if coldTests(s) {
		b.printf("Cold start and warm-up (fresh starts, first requests, RPS by second): [%s](%s).\n\n", ColdstartFile, ColdstartFile)
	}
	if !merged {
		b.printf("## Machine and method\n\n")
		siteTable(b, []string{"What", "Value"}, machineRows(first), nil)
		b.printf("## Frameworks\n\n")
		siteTable(b, frameworksHeader, frameworkRows(first), nil)
		return b.err
	}
	b.printf("## Runs\n\n")
	var rows [][]string
	for _, r := range s.Runs {
		f, h := r.File, r.File.Host
		var fws []string
		for _, fw := range f.Frameworks {
			fws = append(fws, fw.ID().String())
		}
		rows = append(rows, []string{r.Label, "`" + f.RunID + "`", date(f), f.Status,
			fmt.Sprintf("%s, %d logical CPUs, %.1f GiB", words.OrDash(h.CPUModel), h.LogicalCPUs, float64(h.MemoryBytes)/(1<<30)),
			words.Plural(f.Suite.Rounds, "round"), strings.Join(fws, ", ")})
	}
	siteTable(b, []string{"Run", "Run ID", "Started", "Status", "Machine", "Rounds", "Framework variants"}, rows, nil)
	for _, r := range s.Runs {
		f := r.File
		b.printf("## Run %s\n\n", inline(r.Label))
		b.printf("Run `%s`, %s, %s.\n\n", f.RunID, date(f), f.Status)
		command(b, f)
		b.printf("### Machine and method\n\n")
		siteTable(b, []string{"What", "Value"}, machineRows(f), nil)
		b.printf("### Frameworks\n\n")
		siteTable(b, frameworksHeader, frameworkRows(f), nil)
	}
	return b.err
}

// command writes a run's command line and says when it ran a subset.
func command(b *builder, f *results.File) {
	if len(f.Command) == 0 {
		return
	}
	b.printf("Command: `%s`\n\n", strings.Join(f.Command, " "))
	if subset := subsetFlags(f.Command); subset != "" {
		b.printf("**A subset:** this run was limited with %s; frameworks or tests it left out are not in this report.\n\n", subset)
	}
	b.printf("%s", shardText(f))
}

func date(f *results.File) string { return f.Started.UTC().Format("2006-01-02 15:04 UTC") }

// summary writes the frameworks × tests table of ranks and peaks: one line per
// framework variant (per run when merged) in run and framework order, one
// column per test linking its page.
func summary(b *builder, s *results.Set, ts []TestTable) {
	merged := len(s.Runs) > 1
	var header []string
	var align []texttab.Align
	if merged {
		header, align = append(header, "Run"), append(align, texttab.Left)
	}
	header = append(header, "Framework", "Variant")
	align = append(align, texttab.Left, texttab.Left)
	for _, t := range ts {
		header = append(header, fmt.Sprintf("[%s](%s.md)", linkText(t.Test.Name), t.Slug))
		align = append(align, texttab.Right)
	}
	var rows [][]string
	for _, r := range s.Runs {
		for _, fw := range r.File.Frameworks {
			var line []string
			if merged {
				line = append(line, r.Label)
			}
			line = append(line, fw.Name, fw.Variant)
			for _, t := range ts {
				cell := "—"
				for _, row := range t.Rows {
					if row.Run == r.Label && row.Framework == fw.Name && row.Variant == fw.Variant {
						cell = summaryCell(row, t.Merged, rpsFormat(t))
					}
				}
				line = append(line, cell)
			}
			rows = append(rows, line)
		}
	}
	siteTable(b, header, rows, align)
}

// summaryCell is a row's cell in the summary, its RPS by format:
// "=1 · 78,100 (74,012–85,990)",
// a merged row's ratio "2 · 1.09× (1.02–1.15)", a merged row without a
// reference its raw peak unranked; "—" without figures.
func summaryCell(r Row, merged bool, format func(float64) string) string {
	switch {
	case !r.OK:
		return withBound(r, "—", format)
	case merged && r.RatioToRef > 0:
		return withBound(r, rankCell(r)+" · "+ratioCell(r), format)
	case merged:
		return withBound(r, peakCell(r, format), format)
	}
	return withBound(r, rankCell(r)+" · "+peakCell(r, format), format)
}

// rpsFormat writes a test's RPS as its pages do: a page test's to three
// significant digits under 100 (texttab.RPS: 8.8, 61.0), whole requests/s
// otherwise.
func rpsFormat(t TestTable) func(float64) string {
	if t.Test.Type == model.Page {
		return texttab.RPS
	}
	return texttab.Thousands
}

// ratioCell writes a row's ratio to the reference with its per-round
// min–max, both ends always: "1.09× (1.02–1.15)", "1.00× (1.00–1.00)"
// for the reference; "—" without a reference.
func ratioCell(r Row) string {
	switch {
	case r.RatioToRef == 0:
		return "—"
	case r.RatioHi > 0:
		return times(r.RatioToRef) + " (" + ratioNum(r.RatioLo) + "–" + ratioNum(r.RatioHi) + ")"
	}
	return times(r.RatioToRef)
}

// ratioNum writes a ratio to two decimals, to two significant digits
// under 0.1 (0.036).
func ratioNum(v float64) string {
	if v < 0.1 {
		return strconv.FormatFloat(v, 'g', 2, 64)
	}
	return fmt.Sprintf("%.2f", v)
}

// page writes one test's page.
func page(w io.Writer, s *results.Set, t TestTable, withChart bool) error {
	b := &builder{w: w}
	b.printf("# %s\n\n", inline(t.Test.Name))
	b.printf("%s\n\n", Provenance(s))
	b.printf("[All tests](%s) · all rows as CSV: [%s](%s)\n\n", IndexFile, CSVFile, CSVFile)
	b.printf("%s.\n\n", testText(t.Test))
	if withChart {
		b.printf("![%s](%s.svg)\n\n", linkText(chartTitle(t)), t.Slug)
	} else {
		b.printf("No variant has a peak on this test, so there is no chart.\n\n")
	}
	ref := reference()
	if t.Merged {
		b.printf("The runs come from different machines: ranks order each row's **÷ %s**, its peak RPS over %s's peak RPS in the same run (with the min–max of the per-round ratio). Peak RPS and its range are the raw figures of the row's run and do not compare across runs.\n\n", ref, ref)
	} else {
		b.printf("**Peak RPS** is the highest median over rounds of a level whose every round passed the gate; **range** is min–max RPS over the rounds at the peak level, where latency (merged HDR histograms), server CPU per request (median) and RSS (largest) are taken too; **÷ %s** is peak RPS over %s's peak RPS in this run, with the min–max of the per-round ratio (rounds are interleaved).\n\n", ref, ref)
	}
	b.printf("%s\n\n", rankingText(t.Ranking))
	b.printf("%s\n\n", memoryLegend)
	fortunes := t.Test.Type == "fortunes"
	var header []string
	var align []texttab.Align
	col := func(name string, a texttab.Align) { header, align = append(header, name), append(align, a) }
	if t.Merged {
		col("Run", texttab.Left)
	}
	col("Framework", texttab.Left)
	col("Variant", texttab.Left)
	col("Runtime", texttab.Left)
	col("Peak RPS", texttab.Right)
	col("Rank", texttab.Right)
	col("÷ "+ref, texttab.Right)
	col("Connections", texttab.Right)
	col("Pipeline", texttab.Right)
	col("p50 ms", texttab.Right)
	col("p99 ms", texttab.Right)
	col("CPU ms/req", texttab.Right)
	col("RSS MB", texttab.Right)
	for _, name := range MemoryColumns {
		col(name, texttab.Right)
	}
	if fortunes {
		col("Page bytes", texttab.Right)
	}
	col("Verification", texttab.Left)
	col("Range (min–max)", texttab.Right)
	col("Rounds", texttab.Right)
	dash := "—"
	var rows [][]string
	var notes []string
	for _, r := range t.Rows {
		var line []string
		if t.Merged {
			line = append(line, r.Run)
		}
		line = append(line, r.Framework, r.Variant, r.Runtime)
		if r.OK {
			line = append(line, withBound(r, texttab.Thousands(r.PeakRPS), texttab.Thousands), rankCell(r), ratioCell(r),
				strconv.Itoa(r.Connections), strconv.Itoa(r.Pipeline), msf(r.P50ms), msf(r.P99ms),
				fmt.Sprintf("%.3f", r.CPUms), mb(r.RSSBytes))
		} else {
			line = append(line, withBound(r, dash, texttab.Thousands), dash, dash, dash, dash, dash, dash, dash, dash)
		}
		line = append(line, r.Memory.cells(r.OK)...)
		if fortunes {
			page := dash
			if r.PageBytes > 0 {
				page = strconv.Itoa(r.PageBytes)
			}
			line = append(line, page)
		}
		line = append(line, string(r.Verification))
		if r.OK {
			line = append(line, texttab.Thousands(r.MinRPS)+"–"+texttab.Thousands(r.MaxRPS), strconv.Itoa(r.Rounds))
		} else {
			line = append(line, boundRange(r, texttab.Thousands), dash)
		}
		rows = append(rows, line)
		who := r.Variant
		if t.Merged {
			who += ", run " + r.Run
		}
		for _, n := range r.Notes {
			notes = append(notes, fmt.Sprintf("- %s (%s): %s", inline(r.Framework), inline(who), noteText(n)))
		}
	}
	siteTable(b, header, rows, align)
	if header, lines, align := levelTable(t.Rows, t.Merged, msf); header != nil {
		b.printf("%s\n\n", levelLegend)
		siteTable(b, header, lines, align)
	}
	if t.PerN != nil {
		perN(b, t)
	}
	if len(t.Rate) > 0 {
		notes = append(notes, rateSection(b, t)...)
	}
	for _, n := range setLeaks(s, t.Test.Name) {
		notes = append(notes, "- "+n)
	}
	if len(notes) > 0 {
		b.printf("Notes:\n\n%s\n", strings.Join(notes, "\n"))
	}
	return b.err
}

// times writes a ratio as "1.06×" ("0.036×" under 0.1); "—" for 0 (no
// reference).
func times(v float64) string {
	if v == 0 {
		return "—"
	}
	return ratioNum(v) + "×"
}

// chartTitle is a test chart's title and its image's alt text.
func chartTitle(t TestTable) string {
	name := t.Test.Name
	if t.N > 0 {
		name += fmt.Sprintf(", N=%d", t.N)
	}
	if t.Merged {
		return fmt.Sprintf("%s: peak RPS ÷ %s of the same run", name, reference())
	}
	return name + ": peak RPS"
}

// chartAxis is the bar chart's value-axis title with its unit.
func chartAxis(t TestTable) string {
	if t.Merged {
		return "× " + reference() + " peak RPS (same run)"
	}
	return "peak RPS (requests/s)"
}

// chartBars are a test's bars in table order, rank 1 (ties included)
// highlighted, each coloured by its variant: peak RPS per variant with its
// min–max over rounds (a merged Set: ratio to its run's reference with the
// per-round ratio's min–max), labelled with the run when a variant is in
// several.
func chartBars(t TestTable) []chart.Bar {
	count := map[string]int{}
	for _, r := range t.Rows {
		count[r.ID.String()]++
	}
	var bars []chart.Bar
	for _, r := range t.Rows {
		label := r.ID.String()
		if count[label] > 1 {
			label += " (" + r.Run + ")"
		}
		switch {
		case !r.OK && r.Bound != nil && !t.Merged:
			bars = append(bars, chart.Bar{Label: label, Key: r.ID.String(), Value: boundLabel(*r.Bound, texttab.Thousands), X: r.Bound.RPS, Lo: r.Bound.MinRPS, Hi: r.Bound.MaxRPS})
		case !r.OK:
		case t.Merged && r.RatioToRef > 0:
			lo, hi := 0.0, 0.0
			if 0 < r.RatioLo && r.RatioLo <= r.RatioHi {
				lo, hi = r.RatioLo, r.RatioHi
			}
			bars = append(bars, chart.Bar{Label: label, Key: r.ID.String(), Value: times(r.RatioToRef), X: r.RatioToRef, Lo: lo, Hi: hi, Highlight: r.Rank == 1})
		case !t.Merged:
			lo, hi := rpsRange(r)
			value := texttab.Thousands(r.PeakRPS)
			if r.Bound != nil {
				value += "; " + boundLabel(*r.Bound, texttab.Thousands)
			}
			bars = append(bars, chart.Bar{Label: label, Key: r.ID.String(), Value: value, X: r.PeakRPS, Lo: lo, Hi: hi, Highlight: r.Rank == 1})
		}
	}
	return bars
}

// siteTable writes a markdown table whose cells are made safe as inline
// markdown for GitHub and Jekyll (inline), followed by a blank line.
func siteTable(b *builder, header []string, rows [][]string, align []texttab.Align) {
	safe := make([][]string, len(rows))
	for i, r := range rows {
		safe[i] = make([]string, len(r))
		for j, c := range r {
			safe[i][j] = inline(c)
		}
	}
	b.table(header, safe, align)
	b.printf("\n")
}

// inline escapes "&", "<" and ">" as entities outside code spans, so a
// reason quoting markup reads as text; code spans are left as they are.
func inline(s string) string {
	parts := strings.Split(s, "`")
	for i := range parts {
		// Even parts are outside code spans; after an unclosed backtick
		// (an odd last part) the rest is not a code span either.
		if i%2 == 0 || i == len(parts)-1 {
			parts[i] = htmlText.Replace(parts[i])
		}
	}
	return strings.Join(parts, "`")
}

// noteText is a note as one markdown list item: inline, its line breaks
// (a server log's last lines) joined with " / " so the list stays a list.
func noteText(s string) string {
	return inline(strings.ReplaceAll(strings.TrimRight(strings.ReplaceAll(s, "\r\n", "\n"), "\n"), "\n", " / "))
}

var htmlText = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// linkText escapes the brackets that would end a link's or image's text.
func linkText(s string) string {
	return strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`).Replace(inline(s))
}

// perN writes a queries or updates test's "Peak RPS by N" table: a line per
// variant (and run) in the headline's order, a cell per N with its min–max
// over rounds.
func perN(b *builder, t TestTable) {
	b.printf("Peak RPS by N (min–max over the rounds at each N's peak level):\n\n")
	var header []string
	var align []texttab.Align
	if t.Merged {
		header, align = append(header, "Run"), append(align, texttab.Left)
	}
	header = append(header, "Framework", "Variant")
	align = append(align, texttab.Left, texttab.Left)
	for _, sz := range t.PerN {
		header = append(header, fmt.Sprintf("N = %d", sz.N))
		align = append(align, texttab.Right)
	}
	var rows [][]string
	for _, r := range t.Rows {
		var line []string
		if t.Merged {
			line = append(line, r.Run)
		}
		line = append(line, r.Framework, r.Variant)
		for _, sz := range t.PerN {
			cell := "—"
			for _, rn := range sz.Rows {
				if rn.Run == r.Run && rn.ID == r.ID && (rn.OK || rn.Bound != nil) {
					cell = withBound(rn, peakCell(rn, texttab.Thousands), texttab.Thousands)
				}
			}
			line = append(line, cell)
		}
		rows = append(rows, line)
	}
	siteTable(b, header, rows, align)
}

// rateSection writes a test's constant-rate table (wrk2's method: latency
// from each request's intended send time, corrected for coordinated
// omission), each cell the min–max over rounds, and returns its notes.
func rateSection(b *builder, t TestTable) []string {
	b.printf("At a constant %g requests/s over %s (latency from each request's intended send time: corrected for coordinated omission), each cell the range over the rounds (min–max; one figure when they agree):\n\n",
		t.Test.Rate, words.Plural(t.Test.RateConnections, "connection"))
	var header []string
	var align []texttab.Align
	if t.Merged {
		header, align = append(header, "Run"), append(align, texttab.Left)
	}
	header = append(header, "Framework", "Variant", "Achieved RPS", "p50 ms", "p99 ms", "CPU ms/req", "Rounds")
	align = append(align, texttab.Left, texttab.Left, texttab.Right, texttab.Right, texttab.Right, texttab.Right, texttab.Right)
	var rows [][]string
	var notes []string
	for _, r := range t.Rate {
		var line []string
		who := r.Variant
		if t.Merged {
			line = append(line, r.Run)
			who += ", run " + r.Run
		}
		line = append(line, r.Framework, r.Variant, spanOf(r.Achieved, texttab.Thousands), spanOf(r.P50, sig), spanOf(r.P99, sig), spanOf(r.CPU, sig), strconv.Itoa(r.Rounds))
		rows = append(rows, line)
		switch {
		case r.Why != "":
			notes = append(notes, fmt.Sprintf("- %s (%s): %s", inline(r.Framework), inline(who), noteText("constant rate: "+r.Why)))
		case r.Achieved.Min < 0.95*t.Test.Rate:
			notes = append(notes, fmt.Sprintf("- %s (%s): constant rate: a round sustained only %s of the %g requests/s asked for: its latency grows with the backlog", inline(r.Framework), inline(who), texttab.Thousands(r.Achieved.Min), t.Test.Rate))
		}
	}
	siteTable(b, header, rows, align)
	return notes
}

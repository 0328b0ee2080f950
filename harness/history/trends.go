package history

// The trend pages: index.md and two charts per test and N over the nights
// (ratio to go-stdlib, p99), the way TechEmpower's continuous runs show
// their timeline.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tfbench/tfbench/harness/chart"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/report"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/texttab"
	"github.com/tfbench/tfbench/internal/words"
)

// Trend page limits: the charts show the last ChartNights nights, the
// tables the last TableNights.
const (
	ChartNights = 90
	TableNights = 7
)

// IndexFile is the trend pages' index.
const IndexFile = "index.md"

// testAt is what a trend chart shows: one test at one N, every variant's
// row on it a line (a row itself is a model.RowKey).
type testAt struct {
	Test string
	N    int
}

func (k testAt) slug() string {
	if k.N > 0 {
		return fmt.Sprintf("%s-%d", report.Slug(k.Test), k.N)
	}
	return report.Slug(k.Test)
}

// methodBreak is a night whose method version or suite differs from the
// night before: figures on either side do not compare (a change point is
// another thing: a change of level within one method). Label is the chart
// mark's short text, e.g. "method v7", "new suite".
type methodBreak struct {
	Index             int // into the nights shown
	Date, What, Label string
}

// Trends renders h's trend pages into dir: index.md and per test and N
// <slug>-ratio.svg (each variant's ratio to go-stdlib) and <slug>-p99.svg
// (p99 at the peak, go-stdlib too), change points ringed; then, when h
// has a night, changes.json, changes.md and per regression
// regressions/<id>.md and .svg (including a published
// regressions/<id>/bisect.md). All are made before each file is written
// atomically; it returns the paths written, index first.
func Trends(dir string, h *History) ([]string, error) {
	type file struct {
		name string
		data []byte
	}
	nights := h.Nights[max(0, len(h.Nights)-ChartNights):]
	keys := testsAt(nights)
	slugs := map[string]testAt{}
	for _, k := range keys {
		if other, ok := slugs[k.slug()]; ok {
			return nil, fmt.Errorf("trends: %s and %s would both be chart %s-ratio.svg", model.Label(other.Test, other.N), model.Label(k.Test, k.N), k.slug())
		}
		slugs[k.slug()] = k
	}
	breaks := breaksOf(nights)
	cps := Changes(h)
	ids := map[string]ChangePoint{}
	for _, c := range cps {
		if o, ok := ids[c.ID]; ok {
			return nil, fmt.Errorf("trends: %s %s and %s %s would both be change %s", o.Row(), model.Label(o.Test, o.N), c.Row(), model.Label(c.Test, c.N), c.ID)
		}
		ids[c.ID] = c
	}
	shown := map[string]int{} // a shown night's index by date
	for i, n := range nights {
		shown[n.Date] = i
	}
	var files []file
	var page bytes.Buffer
	b := &page
	fmt.Fprintf(b, "# tfbench nightly trends\n\n")
	if len(nights) == 0 {
		fmt.Fprintf(b, "No nights yet: the history is empty.\n")
		files = append(files, file{IndexFile, page.Bytes()})
	} else {
		fmt.Fprintf(b, "%s from %s to %s (the history holds %d; the charts show the last %d at most, the tables the last %d). ",
			words.Plural(len(nights), "night"), nights[0].Date, nights[len(nights)-1].Date, len(h.Nights), ChartNights, TableNights)
		fmt.Fprintf(b, "Per test, two charts over the nights: each variant's peak RPS divided by %s's in the same run and round, the median over rounds "+
			"(%s runs beside every variant on the same runner, so the ratio holds from one runner to the next), and p99 latency at the peak level in ms. "+
			"A night without a row is a gap in its line, not a zero.\n\n", model.Reference.Framework, model.Reference.Framework)
		worse := 0
		for _, c := range cps {
			if c.Worse {
				worse++
			}
		}
		fmt.Fprintf(b, "**Change points** over the whole history: %s, %s, newest first on the [changes page](%s). "+
			"Each chart rings those of its nights at the first night of the new level.\n\n", words.Plural(len(cps), "change point"), words.Plural(worse, "regression"), ChangesPage)
		if len(breaks) > 0 {
			fmt.Fprintf(b, "**The method or suite changed** (a dashed line in every chart): %s. Figures on either side of it do not compare.\n\n", breakText(breaks))
		}
		for _, k := range keys {
			label := model.Label(k.Test, k.N)
			fmt.Fprintf(b, "## %s\n\n", label)
			ratioSeries, p99Series := series(nights, k)
			labels := make([]string, len(nights))
			for i, n := range nights {
				labels[i] = n.Date
			}
			var marks []chart.Mark
			for _, c := range breaks {
				marks = append(marks, chart.Mark{Before: c.Index, Label: c.Label})
			}
			var here []ChangePoint // this chart's change points within the nights shown
			for _, c := range cps {
				if _, ok := shown[c.After.Date]; ok && c.Test == k.Test && c.N == k.N {
					here = append(here, c)
				}
			}
			for _, c := range []struct {
				suffix, title, y string
				s                []chart.TimeSeries
			}{
				{"ratio", label + ": peak RPS ÷ " + model.Reference.Framework + " by night", "peak RPS ÷ " + model.Reference.Framework, ratioSeries},
				{"p99", label + ": p99 at the peak by night", "p99 latency (ms)", p99Series},
			} {
				if len(c.s) == 0 {
					continue
				}
				var rings []chart.Ring
				for _, cp := range here {
					i := slices.IndexFunc(c.s, func(s chart.TimeSeries) bool { return s.Name == cp.Row().String() })
					if cp.Figure == c.suffix && i >= 0 {
						rings = append(rings, chart.Ring{Series: i, At: shown[cp.After.Date], Label: cp.Row().String() + " " + signed(cp.Size)})
					}
				}
				var svg bytes.Buffer
				if err := chart.Trend(&svg, chart.Timeline{Title: c.title, YTitle: c.y, Labels: labels, Marks: marks, Rings: rings, Series: c.s}); err != nil {
					return nil, err
				}
				name := k.slug() + "-" + c.suffix + ".svg"
				files = append(files, file{name, svg.Bytes()})
				fmt.Fprintf(b, "![%s](%s)\n\n", altText.Replace(c.title), name)
			}
			if len(here) > 0 {
				var parts []string
				for _, c := range here {
					part := fmt.Sprintf("%s %s %s from %s", c.Row(), figureName[c.Figure], signed(c.Size), c.After.Date)
					if c.Worse {
						part += fmt.Sprintf(" ([regression](%s/%s.md))", RegressionsDir, c.ID)
					}
					parts = append(parts, part)
				}
				fmt.Fprintf(b, "Change points (ringed; peak RPS has no chart): %s.\n\n", strings.Join(parts, "; "))
			}
			for _, c := range breaks {
				fmt.Fprintf(b, "Dashed line \"%s\" before %s: %s; figures either side do not compare, and no line is drawn across it.\n\n", c.Label, c.Date, c.What)
			}
			if err := table(b, nights[max(0, len(nights)-TableNights):], k); err != nil {
				return nil, err
			}
		}
		last := nights[len(nights)-1]
		fmt.Fprintf(b, "## The last night\n\n")
		fmt.Fprintf(b, "%s: method version %d, suite `%s` (sha256 %s)", last.Date, last.MethodVersion, last.Suite.Name, words.Commit(last.Suite.Hash))
		if last.Commit != "" {
			fmt.Fprintf(b, ", commit `%s`", words.Commit(last.Commit))
		}
		fmt.Fprintf(b, ".\n\n")
		var rows [][]string
		for _, r := range last.Runs {
			rows = append(rows, []string{r.Label, "`" + r.RunID + "`", words.OrDash(r.Shard),
				fmt.Sprintf("%s, %d logical CPUs", words.OrDash(r.Host.CPUModel), r.Host.LogicalCPUs), words.OrDash(r.Host.Hostname)})
		}
		left := []texttab.Align{texttab.Left, texttab.Left, texttab.Left, texttab.Left, texttab.Left}
		if err := texttab.Markdown(b, texttab.Table{Header: []string{"Run", "Run ID", "Shard", "Machine", "Host name"}, Align: left, Rows: rows}); err != nil {
			return nil, err
		}
		files = append([]file{{IndexFile, page.Bytes()}}, files...)
		data, err := json.MarshalIndent(changesFile{Schema: SchemaVersion, Changes: orEmpty(cps)}, "", " ")
		if err != nil {
			return nil, err
		}
		files = append(files, file{ChangesFile, append(data, '\n')})
		md, err := changesPage(h.Nights, cps)
		if err != nil {
			return nil, err
		}
		files = append(files, file{ChangesPage, md})
		for _, c := range cps {
			if !c.Worse {
				continue
			}
			md, svg, err := regressionPage(dir, h, c)
			if err != nil {
				return nil, fmt.Errorf("trends: regression %s: %w", c.ID, err)
			}
			files = append(files, file{filepath.Join(RegressionsDir, c.ID+".md"), md}, file{filepath.Join(RegressionsDir, c.ID+".svg"), svg})
		}
	}
	var written []string
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := results.WriteFileAtomic(p, f.data); err != nil {
			return written, fmt.Errorf("trends: write %s: %w", p, err)
		}
		written = append(written, p)
	}
	return written, nil
}

// altText escapes what would end an image's alt text early.
var altText = strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`)

// testsAt are the tests and Ns of nights: the last night's in its order,
// then those only older nights have, newest first.
func testsAt(nights []Night) []testAt {
	var keys []testAt
	for i := len(nights) - 1; i >= 0; i-- {
		for _, r := range nights[i].Rows {
			if k := (testAt{r.Test, r.N}); !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	return keys
}

// series returns k's lines over nights, one per variant sorted by name:
// ratios (the reference left out) and p99; NaN where a night has no row.
func series(nights []Night, k testAt) (ratios, p99s []chart.TimeSeries) {
	var ids []model.ID
	for _, n := range nights {
		for _, r := range n.Rows {
			if r.Test == k.Test && r.N == k.N && !slices.Contains(ids, r.ID) {
				ids = append(ids, r.ID)
			}
		}
	}
	slices.SortFunc(ids, func(a, b model.ID) int { return strings.Compare(a.String(), b.String()) })
	for _, id := range ids {
		rs := chart.TimeSeries{Name: id.String(), Key: id.String(), Values: make([]float64, len(nights))}
		ps := chart.TimeSeries{Name: id.String(), Key: id.String(), Values: make([]float64, len(nights))}
		anyRatio := false
		for i, n := range nights {
			rs.Values[i], ps.Values[i] = math.NaN(), math.NaN()
			if r, ok := n.row(id, k); ok {
				ps.Values[i] = r.MedianP99
				if r.MedianRatio != nil {
					rs.Values[i], anyRatio = *r.MedianRatio, true
				}
			}
		}
		if anyRatio {
			ratios = append(ratios, rs)
		}
		p99s = append(p99s, ps)
	}
	return ratios, p99s
}

func (n Night) row(id model.ID, k testAt) (Row, bool) {
	for _, r := range n.Rows {
		if r.ID == id && r.Test == k.Test && r.N == k.N {
			return r, true
		}
	}
	return Row{}, false
}

// table writes k's figures over nights: a line per variant, a column per
// night, each cell the ratio and p99 ("0.040× · 20.0 ms"), "—" without a
// row.
func table(b *bytes.Buffer, nights []Night, k testAt) error {
	_, p99s := series(nights, k)
	header := []string{"Variant"}
	align := []texttab.Align{texttab.Left}
	for _, n := range nights {
		header, align = append(header, n.Date), append(align, texttab.Right)
	}
	var rows [][]string
	for _, s := range p99s {
		id := model.MustID(s.Name)
		line := []string{s.Name}
		for _, n := range nights {
			r, ok := n.row(id, k)
			switch {
			case !ok:
				line = append(line, "—")
			case r.MedianRatio != nil:
				line = append(line, fmt.Sprintf("%.3f× · %s", *r.MedianRatio, ms(r.MedianP99)))
			default:
				line = append(line, "— · "+ms(r.MedianP99))
			}
		}
		rows = append(rows, line)
	}
	if err := texttab.Markdown(b, texttab.Table{Header: header, Align: align, Rows: rows}); err != nil {
		return err
	}
	fmt.Fprintf(b, "\nEach cell: the ratio to %s · p99 at the peak; %s has no ratio of its own, — alone: no row that night.\n\n", model.Reference.Framework, model.Reference.Framework)
	return nil
}

// breaksOf lists the nights whose method version or suite hash differs
// from the night before.
func breaksOf(nights []Night) []methodBreak {
	var out []methodBreak
	for i := 1; i < len(nights); i++ {
		a, b := nights[i-1], nights[i]
		var what, label []string
		if a.MethodVersion != b.MethodVersion {
			what = append(what, fmt.Sprintf("method version %d → %d", a.MethodVersion, b.MethodVersion))
			label = append(label, fmt.Sprintf("method v%d", b.MethodVersion))
		}
		if a.Suite.Hash != b.Suite.Hash {
			what = append(what, fmt.Sprintf("suite `%s` sha256 %s → `%s` sha256 %s", a.Suite.Name, words.Commit(a.Suite.Hash), b.Suite.Name, words.Commit(b.Suite.Hash)))
			label = append(label, "new suite")
		}
		if len(what) > 0 {
			out = append(out, methodBreak{Index: i, Date: b.Date, What: strings.Join(what, ", "), Label: strings.Join(label, ", ")})
		}
	}
	return out
}

func breakText(cs []methodBreak) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, c.Date+": "+c.What)
	}
	return strings.Join(parts, "; ")
}

// ms writes a p99 in ms: two decimals below 10 ms, one from there.
func ms(v float64) string {
	if v >= 10 {
		return fmt.Sprintf("%.1f ms", v)
	}
	return fmt.Sprintf("%.2f ms", v)
}

package history

// The change-point pages of the trends folder: changes.md (newest first)
// and, per regression, regressions/<id>.md with its own chart.

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/tfbench/tfbench/harness/changes"
	"github.com/tfbench/tfbench/harness/chart"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/texttab"
	"github.com/tfbench/tfbench/internal/words"
)

// Files of the change-point pages, relative to the trends folder: the
// changes page, and per regression <id>.md, <id>.svg and the folder
// <id>/ where the bisect workflow publishes bisect.md (and diff.folded).
const (
	ChangesPage    = "changes.md"
	RegressionsDir = "regressions"
	BisectFile     = "bisect.md"
)

// figureName is a figure as a sentence names it; figureTitle as a chart's
// Y axis does.
var (
	figureName  = map[string]string{FigureRatio: "ratio to " + model.Reference.Framework, FigureRPS: "peak RPS", FigureP99: "p99 at the peak"}
	figureTitle = map[string]string{FigureRatio: "peak RPS ÷ " + model.Reference.Framework, FigureRPS: "peak RPS", FigureP99: "p99 latency (ms)"}
)

// signed writes a share as a signed percentage with one decimal, a true
// minus sign: "−15.2%", "+4.0%".
func signed(v float64) string {
	return strings.Replace(fmt.Sprintf("%+.1f%%", 100*v), "-", "−", 1)
}

// shortSHA is a commit's first 7 hex digits, "?" when not recorded.
func shortSHA(c string) string {
	if c == "" {
		return "?"
	}
	return c[:min(7, len(c))]
}

func rowLabel(c ChangePoint) string {
	return c.Row().String() + " · " + model.Label(c.Test, c.N)
}

// changesPage writes changes.md: every change point of cps (newest first)
// in a table, a regression linked to its page.
func changesPage(nights []Night, cps []ChangePoint) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# tfbench change points\n\n")
	worse := 0
	for _, c := range cps {
		if c.Worse {
			worse++
		}
	}
	fmt.Fprintf(&b, "Changes of level in the nightly rows over %s", words.Plural(len(nights), "night"))
	if len(nights) > 0 {
		fmt.Fprintf(&b, " (%s to %s)", nights[0].Date, nights[len(nights)-1].Date)
	}
	fmt.Fprintf(&b, ", newest first: %s, %s. Back to the [trends](%s).\n\n", words.Plural(len(cps), "change point"), words.Plural(worse, "regression"), IndexFile)
	fmt.Fprintf(&b, "Each row's ratio to %s, peak RPS and p99 are searched night by night with ED-PELT (nonparametric, on the log of the figure, "+
		"segments of %d nights at least), and each candidate is kept when a Mann–Whitney test of up to %d nights either side gives p < %g and "+
		"the medians differ by %.0f%% or more; the interval is a bootstrap of the ratio of medians. A change is seen %d nights after it at the earliest. "+
		"The ratio is the figure to follow: raw RPS and p99 move with the runner too. Nights measured by another method or suite are searched apart.\n\n",
		model.Reference.Framework, changes.DefaultMinSegment, changes.DefaultWindow, changes.DefaultAlpha, 100*changes.DefaultMinChange, changes.MinAfter(changes.Options{}))
	if len(cps) == 0 {
		fmt.Fprintf(&b, "No change points.\n")
		return b.Bytes(), nil
	}
	var rows [][]string
	for _, c := range cps {
		page := "—"
		if c.Worse {
			page = fmt.Sprintf("[regression](%s/%s.md)", RegressionsDir, c.ID)
		}
		rows = append(rows, []string{c.After.Date, rowLabel(c), figureName[c.Figure],
			fmt.Sprintf("%s (%s to %s)", signed(c.Size), signed(c.Lo), signed(c.Hi)),
			fmt.Sprintf("%d / %d", c.NightsBefore, c.NightsAfter),
			fmt.Sprintf("`%s..%s`", shortSHA(c.Before.Commit), shortSHA(c.After.Commit)), page})
	}
	l, r := texttab.Left, texttab.Right
	if err := texttab.Markdown(&b, texttab.Table{
		Header: []string{"After night", "Row", "Figure", "Change (95% interval)", "Nights before / after", "Commits", "Page"},
		Align:  []texttab.Align{l, l, l, r, r, l, l}, Rows: rows}); err != nil {
		return nil, err
	}
	fmt.Fprintf(&b, "\nChange: median of the nights after ÷ median of the nights before − 1; for p99 a rise is the regression. "+
		"Commits: the last night before the change and the first after it (`git log BEFORE..AFTER` lists the suspects).\n")
	return b.Bytes(), nil
}

// regressionPage writes regressions/<id>.md and <id>.svg of c: the change
// in words, its row's chart over its stretch of nights, the bisect the
// workflow published into dir (the trends folder), and the commands to
// reproduce it.
func regressionPage(dir string, h *History, c ChangePoint) (md, svg []byte, err error) {
	nights, at := regressionNights(h, c)
	values := make([]float64, len(nights))
	labels := make([]string, len(nights))
	k := testAt{c.Test, c.N}
	for i, n := range nights {
		labels[i], values[i] = n.Date, math.NaN()
		if r, ok := n.row(c.Row(), k); ok {
			if v, ok := figure(r, c.Figure); ok {
				values[i] = v
			}
		}
	}
	label := model.Label(c.Test, c.N)
	title := fmt.Sprintf("%s %s: %s by night", c.Row(), label, figureName[c.Figure])
	var s bytes.Buffer
	if err := chart.Trend(&s, chart.Timeline{Title: title, YTitle: figureTitle[c.Figure], Labels: labels,
		Rings:  []chart.Ring{{At: at, Label: signed(c.Size)}},
		Series: []chart.TimeSeries{{Name: c.Row().String(), Key: c.Row().String(), Values: values}}}); err != nil {
		return nil, nil, err
	}

	var b bytes.Buffer
	verb := "fell"
	if c.Size > 0 {
		verb = "rose"
	}
	fmt.Fprintf(&b, "# Regression: %s, %s, %s %s\n\n", c.Row(), label, figureName[c.Figure], signed(c.Size))
	fmt.Fprintf(&b, "From %s%s on, %s's %s on %s %s %.1f%% (95%% interval %.1f%% to %.1f%%) from its level up to %s%s: "+
		"the median of %d nights after against %d before, Mann–Whitney p = %.3g.",
		c.After.Date, commitText(c.After.Commit), c.Row(), figureName[c.Figure], label, verb, math.Abs(100*c.Size),
		math.Min(math.Abs(100*c.Lo), math.Abs(100*c.Hi)), math.Max(math.Abs(100*c.Lo), math.Abs(100*c.Hi)),
		c.Before.Date, commitText(c.Before.Commit), c.NightsAfter, c.NightsBefore, c.P)
	if c.Before.Commit != "" && c.After.Commit != "" {
		fmt.Fprintf(&b, " The suspects are the commits `%s..%s`.", shortSHA(c.Before.Commit), shortSHA(c.After.Commit))
	}
	fmt.Fprintf(&b, " All change points: [changes](../%s).\n\n", ChangesPage)
	fmt.Fprintf(&b, "![%s](%s.svg)\n\n", altText.Replace(title), c.ID)

	fmt.Fprintf(&b, "## Bisect\n\n")
	bisect, err := os.ReadFile(filepath.Join(dir, RegressionsDir, c.ID, BisectFile))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if c.Figure == FigureRatio {
			fmt.Fprintf(&b, "No bisect has run yet. The nightly starts one for a new regression of the ratio; "+
				"its result (the step table, the first bad commit and the profile diff) appears here.\n\n")
		} else {
			fmt.Fprintf(&b, "No bisect has run yet: the nightly bisects regressions of the ratio only (raw RPS and p99 move with the runner too). "+
				"To bisect this one, run the commands below; a bisect published for it appears here.\n\n")
		}
	case err != nil:
		return nil, nil, err
	default:
		b.Write(demote(bisect))
		if !bytes.HasSuffix(bisect, []byte("\n")) {
			b.WriteByte('\n')
		}
		if _, err := os.Stat(filepath.Join(dir, RegressionsDir, c.ID, "diff.folded")); err == nil {
			fmt.Fprintf(&b, "\nThe differential folded stacks: [diff.folded](%s/diff.folded).\n", c.ID)
		}
		b.WriteByte('\n')
	}

	fmt.Fprintf(&b, "## Reproduce it locally\n\n")
	if c.Before.Commit == "" || c.After.Commit == "" {
		fmt.Fprintf(&b, "The nights did not record their commits: there is no range to bisect.\n")
		return b.Bytes(), s.Bytes(), nil
	}
	adapter := c.Framework + ":" + c.Variant
	n, fn := "", ""
	if c.N > 0 {
		n, fn = fmt.Sprintf(" --n %d", c.N), fmt.Sprintf(" -f n=%d", c.N)
	}
	good, bad := c.Before.Commit, c.After.Commit
	fmt.Fprintf(&b, "The adapter's commits in the range, a bisect on this machine, and the same bisect on GitHub Actions:\n\n```sh\n")
	fmt.Fprintf(&b, "git log --oneline %s..%s -- frameworks/%s\n", good, bad, c.Framework)
	fmt.Fprintf(&b, "go tool task bisect -- --good %s --bad %s --adapter %s --test %s%s\n", good, bad, adapter, c.Test, n)
	fmt.Fprintf(&b, "gh workflow run bisect.yml -f good=%s -f bad=%s -f adapter=%s -f test=%s%s -f id=%s\n", good, bad, adapter, c.Test, fn, c.ID)
	fmt.Fprintf(&b, "```\n")
	return b.Bytes(), s.Bytes(), nil
}

func commitText(c string) string {
	if c == "" {
		return ""
	}
	return fmt.Sprintf(" (commit `%s`)", shortSHA(c))
}

// regressionNights are the nights c's chart shows: those of its stretch
// (between method or suite breaks), ChartNights at most, the change with
// up to 30 nights after it; at is the change's night among them.
func regressionNights(h *History, c ChangePoint) (nights []Night, at int) {
	after := 0
	for i, n := range h.Nights {
		if n.Date == c.After.Date {
			after = i
		}
	}
	from, to := 0, len(h.Nights)
	for _, b := range breaksOf(h.Nights) {
		if b.Index <= after {
			from = b.Index
		} else {
			to = min(to, b.Index)
		}
	}
	end := min(to, after+30)
	start := max(from, end-ChartNights)
	end = min(to, start+ChartNights)
	return h.Nights[start:end], after - start
}

// demote moves a markdown text's headings two levels down (a page's "#"
// becomes "###", at most "######"), outside fenced code, so an included
// page sits under its section.
func demote(text []byte) []byte {
	var out bytes.Buffer
	fence := ""
	for _, line := range strings.SplitAfter(string(text), "\n") {
		t := strings.TrimLeft(line, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			fence = t[:3]
		case strings.HasPrefix(t, "#"):
			level := len(t) - len(strings.TrimLeft(t, "#"))
			if level <= 6 && (len(t) == level || t[level] == ' ' || t[level] == '\n') {
				line = strings.Repeat("#", min(6, level+2)) + t[level:]
			}
		}
		out.WriteString(line)
	}
	return out.Bytes()
}

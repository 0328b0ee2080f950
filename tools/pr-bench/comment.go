package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tfbench/tfbench/harness/compare"
)

// Marker opens the sticky comment; .ci/pr-comment finds the comment to
// update by it.
const Marker = "<!-- tfbench-pr-bench -->"

const defaultTitle = "tfbench: benchmark of this pull request"

// Check statuses written to OUT/exit.
const (
	exitPass   = 0 // no row slower past the threshold
	exitSlower = 1 // a row is slower and fell by at least fail_slower_than
	exitError  = 2 // a measurement failed: no verdict
)

// Job is one measurement of the plan and its comparison.
type Job struct {
	// Title names the measurement: "Adapter node-http (tfbench ab, base
	// build vs head build)".
	Title string
	// Table is compare's table (its --json decoded); Markdown is compare's
	// markdown of it (its --out). Both empty when Err is set.
	Table    *compare.Table
	Markdown string
	// Note says why nothing was measured (an adapter new in head); Err
	// why the measurement failed.
	Note string
	Err  string
}

// Comment is everything the sticky comment shows.
type Comment struct {
	Title      string // the heading under the marker (defaultTitle when empty)
	Base, Head string // "origin/main (1a2b3c4)"
	Plan       Plan
	Jobs       []Job
	Config     Config
	ConfigPath string
	Rounds     int
	ReportURL  string
}

// Failing names the rows past the check's threshold: verdict slower and a
// median change of −FailSlower or less ("go-stdlib/default json -12.3%").
func (c Comment) Failing() []string {
	var out []string
	for _, j := range c.Jobs {
		if j.Table == nil {
			continue
		}
		for _, r := range j.Table.Rows {
			if r.Verdict == compare.Slower && -r.Change >= c.Config.FailSlower {
				out = append(out, fmt.Sprintf("%s %s %+.1f%%", r.ID, testLabel(r.Test, r.N), r.Change*100))
			}
		}
	}
	return out
}

// Exit is the check's status (exitPass, exitSlower, exitError).
func (c Comment) Exit() int {
	for _, j := range c.Jobs {
		if j.Err != "" {
			return exitError
		}
	}
	if len(c.Failing()) > 0 {
		return exitSlower
	}
	return exitPass
}

// JobsJSON is the comparisons as JSON: the check's status, the refs, and
// per job its title, note or error and compare's table.
func (c Comment) JobsJSON() ([]byte, error) {
	type job struct {
		Title string         `json:"title"`
		Note  string         `json:"note,omitempty"`
		Error string         `json:"error,omitempty"`
		Table *compare.Table `json:"table,omitempty"`
	}
	out := struct {
		Base    string   `json:"base"`
		Head    string   `json:"head"`
		Exit    int      `json:"exit"`
		Failing []string `json:"failing"`
		Rounds  int      `json:"rounds"`
		Jobs    []job    `json:"jobs"`
	}{Base: c.Base, Head: c.Head, Exit: c.Exit(), Failing: append([]string{}, c.Failing()...), Rounds: c.Rounds, Jobs: []job{}}
	for _, j := range c.Jobs {
		out.Jobs = append(out.Jobs, job{j.Title, j.Note, j.Err, j.Table})
	}
	data, err := json.MarshalIndent(out, "", " ")
	return append(data, '\n'), err
}

// Markdown renders the comment: marker, title, one summary line, the
// check's rule and outcome, each job's compare table (compare's own
// markdown, headings moved under the job's), the link to the full report.
func (c Comment) Markdown() string {
	var b strings.Builder
	title := c.Title
	if title == "" {
		title = defaultTitle
	}
	fmt.Fprintf(&b, "%s\n## %s\n\n", Marker, title)
	if len(c.Jobs) == 0 {
		fmt.Fprintf(&b, "Nothing measured: this pull request changes no adapter (frameworks/), harness, CLI, module or suite file; base %s, head %s.\n", c.Base, c.Head)
		c.unmeasured(&b)
		c.link(&b)
		return b.String()
	}
	counts := map[compare.Verdict]int{}
	for _, j := range c.Jobs {
		if j.Table != nil {
			for _, r := range j.Table.Rows {
				counts[r.Verdict]++
			}
		}
	}
	fmt.Fprintf(&b, "**%d faster, %d slower, %d same, %d unknown** — base %s vs head %s, %d interleaved rounds a side on one runner.\n\n",
		counts[compare.Faster], counts[compare.Slower], counts[compare.Same], counts[compare.Unknown], c.Base, c.Head, c.Rounds)
	rule := fmt.Sprintf("The check fails when a row is slower (p (Holm) < α = %g and a change of at least %s) by %s or more (`fail_slower_than` in `%s`)",
		c.Config.Alpha, pctText(c.Config.MinChange), pctText(c.Config.FailSlower), c.ConfigPath)
	switch c.Exit() {
	case exitError:
		fmt.Fprintf(&b, "%s. **Check: failed, no verdict**: a measurement did not complete (below).\n", rule)
	case exitSlower:
		fmt.Fprintf(&b, "%s. **Check: failed**: %s.\n", rule, strings.Join(c.Failing(), "; "))
	default:
		fmt.Fprintf(&b, "%s. Check: passed.\n", rule)
	}
	for _, j := range c.Jobs {
		fmt.Fprintf(&b, "\n### %s\n\n", j.Title)
		switch {
		case j.Err != "":
			fmt.Fprintf(&b, "**Not measured**:\n\n```\n%s\n```\n", strings.TrimSpace(j.Err))
			continue
		case j.Note != "":
			fmt.Fprintf(&b, "%s\n", j.Note)
			continue
		}
		b.WriteString(demote(j.Markdown))
	}
	c.unmeasured(&b)
	c.link(&b)
	return b.String()
}

// unmeasured lists the changed paths no measurement covers (at most 10).
func (c Comment) unmeasured(b *strings.Builder) {
	u := c.Plan.Unmeasured
	if len(u) == 0 {
		return
	}
	fmt.Fprintf(b, "\nNot measured (%d changed paths outside adapters and the harness): ", len(u))
	for i, p := range u {
		if i == 10 {
			fmt.Fprintf(b, ", and %d more", len(u)-10)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(b, "`%s`", p)
	}
	b.WriteString(".\n")
}

func (c Comment) link(b *strings.Builder) {
	if c.ReportURL != "" {
		fmt.Fprintf(b, "\nFull report (compare tables and JSON, results of every round, logs): %s\n", c.ReportURL)
	}
}

// demote drops compare's title line ("# tfbench …", the job's heading
// replaces it) and moves its other headings under the job's ("## Notes" →
// "#### Notes").
func demote(md string) string {
	lines := strings.Split(strings.TrimRight(md, "\n"), "\n")
	var out []string
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "# "):
			if i+1 < len(lines) && lines[i+1] == "" {
				lines[i+1] = "\x00" // its blank line too
			}
			continue
		case l == "\x00":
			continue
		case strings.HasPrefix(l, "#"):
			l = "##" + l
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n") + "\n"
}

// testLabel is "json", or "queries (N=20)" for a test with an N.
func testLabel(test string, n int) string {
	if n > 0 {
		return fmt.Sprintf("%s (N=%d)", test, n)
	}
	return test
}

// pctText writes a share as a percentage: 0.1 → "10%".
func pctText(x float64) string { return fmt.Sprintf("%.4g%%", x*100) }

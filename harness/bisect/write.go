package bisect

// bisect.md and bisect.json: rendered from a Result and replaced
// atomically after every step, so nothing measured is lost.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/texttab"
)

// Files in the output folder.
const (
	MarkdownFile = "bisect.md"
	JSONFile     = "bisect.json"
)

// Write replaces dir/bisect.md and dir/bisect.json with r (atomically,
// each file whole or as before).
func Write(dir string, r *Result) error {
	var md bytes.Buffer
	if err := Markdown(&md, r); err != nil {
		return err
	}
	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := results.WriteFileAtomic(filepath.Join(dir, JSONFile), append(js, '\n')); err != nil {
		return err
	}
	return results.WriteFileAtomic(filepath.Join(dir, MarkdownFile), md.Bytes())
}

// StepTable is the step table: step, commit (short SHA and subject),
// adapter files the commit changed, rounds, verdict, ratio new/base of the
// median RPS, the rank test's p, the run ID.
func StepTable(r *Result) texttab.Table {
	var t texttab.Table
	t.Col("step", texttab.Right)
	t.Col("commit", texttab.Left)
	t.Col("adapter files", texttab.Right)
	t.Col("rounds", texttab.Right)
	t.Col("verdict", texttab.Left)
	t.Col("ratio new/base", texttab.Right)
	t.Col("p", texttab.Right)
	t.Col("run", texttab.Left)
	for _, s := range r.Steps {
		step := strconv.Itoa(s.Step)
		switch {
		case s.Profile:
			step = "profile"
		case s.Retry:
			step += " (retry)"
		}
		verdict := string(s.Verdict)
		switch {
		case s.Profile:
		case s.Bad == nil:
			verdict += ": no verdict"
		case s.Step == 0 && *s.Bad:
			verdict += ": confirmed"
		case *s.Bad:
			verdict += ": bad"
		default:
			verdict += ": good"
		}
		ratio, p := "–", "–"
		if s.Ratio > 0 {
			ratio = fmt.Sprintf("%.3f", s.Ratio)
		}
		if s.P > 0 {
			p = pText(s.P)
		}
		t.Row(step, s.Commit.Label(), strconv.Itoa(s.Files), strconv.Itoa(s.Rounds), verdict, ratio, p, s.RunID)
	}
	return t
}

// pText formats a p-value with 2 significant digits.
func pText(p float64) string { return strconv.FormatFloat(p, 'g', 2, 64) }

// Markdown writes r as bisect.md: title, range, the step table, the
// verdict paragraph (with a dependency bump's packages), the profile diff
// and the commands that reproduce it.
func Markdown(w io.Writer, r *Result) error {
	var b strings.Builder
	test := r.testName()
	fmt.Fprintf(&b, "# tfbench bisect: %s on %s\n\n", r.Adapter, test)
	fmt.Fprintf(&b, "Range: GOOD `%s` %s (%s) .. BAD `%s` %s (%s): %d commits, %d of them change %s.\n\n",
		r.Good.Short, r.Good.Subject, day(r.Good), r.Bad.Short, r.Bad.Subject, day(r.Bad), r.Commits, len(r.Candidates), strings.Join(r.Paths, ", "))
	fmt.Fprintf(&b, "Each step: tfbench ab of GOOD's build (base) against the commit's (new), suite %s, %d interleaved rounds (twice that on a retry), basis rps, α %g, minimum change %s; slower is bad, anything else good.\n\n",
		r.Suite, r.Rounds, r.Options.Alpha, strconv.FormatFloat(r.Options.MinChange*100, 'g', 4, 64)+"%")
	status := r.Status
	if status == Running {
		status = "running (this file is rewritten after every step)"
	}
	fmt.Fprintf(&b, "Status: **%s**.\n\n## Steps\n\n", status)
	if len(r.Steps) == 0 {
		b.WriteString("No step measured.\n")
	} else if err := texttab.Markdown(&b, StepTable(r)); err != nil {
		return err
	}
	b.WriteString("\n## Result\n\n")
	if r.Message == "" {
		b.WriteString("Not yet decided.\n")
	} else {
		b.WriteString(r.Message + "\n")
	}
	if r.Bump != nil {
		fmt.Fprintf(&b, "\nIt is **a dependency bump**: every adapter file it changed is a lockfile or manifest (%s). Versions that moved:\n\n", strings.Join(r.Bump.Files, ", "))
		if len(r.Bump.Moves) == 0 {
			b.WriteString("none (the files changed otherwise: hashes, resolved URLs, order).\n")
		} else {
			var t texttab.Table
			t.Col("file", texttab.Left)
			t.Col("package", texttab.Left)
			t.Col("before", texttab.Left)
			t.Col("after", texttab.Left)
			for _, m := range r.Bump.Moves {
				t.Row(m.File, m.Package, orNone(m.Before), orNone(m.After))
			}
			if err := texttab.Markdown(&b, t); err != nil {
				return err
			}
		}
	}
	if r.Profile != "" || r.ProfileError != "" {
		b.WriteString("\n## Profile diff\n\n")
		if r.Profile != "" {
			b.WriteString(hardBreaks(r.Profile))
		}
		if r.ProfileError != "" {
			fmt.Fprintf(&b, "No profile diff: %s\n", r.ProfileError)
		}
	}
	if len(r.Commands) > 0 {
		b.WriteString("\n## Reproduce\n\n```sh\n")
		for _, c := range r.Commands {
			b.WriteString(c + "\n")
		}
		b.WriteString("```\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func day(c Commit) string {
	if c.Date.IsZero() {
		return "?"
	}
	return c.Date.UTC().Format("2006-01-02")
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// hardBreaks ends each plain line of text (not a table row, not followed
// by a blank line) with a markdown hard line break, so that the profile
// diff's header lines stay one a line.
func hardBreaks(text string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i, l := range lines {
		if l != "" && !strings.HasPrefix(l, "|") && i+1 < len(lines) && lines[i+1] != "" {
			lines[i] = l + "  "
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// Text writes r's summary for a terminal: the step table, the verdict
// paragraph, a dependency bump's packages, the profile diff (or why there
// is none) and the files written.
func Text(w io.Writer, r *Result) error {
	fmt.Fprintln(w)
	if err := texttab.Markdown(w, StepTable(r)); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s\n", r.Message)
	if r.Bump != nil {
		fmt.Fprintf(w, "A dependency bump (%s):\n", strings.Join(r.Bump.Files, ", "))
		for _, m := range r.Bump.Moves {
			fmt.Fprintf(w, "  %s %s: %s → %s\n", m.File, m.Package, orNone(m.Before), orNone(m.After))
		}
	}
	if r.Profile != "" {
		fmt.Fprintf(w, "\nProfile diff, %s (A) against %s (B):\n\n%s\n", r.Parent.Short, r.Culprit.Short, strings.TrimRight(r.Profile, "\n"))
	}
	if r.ProfileError != "" {
		fmt.Fprintf(w, "\nNo profile diff: %s\n", r.ProfileError)
	}
	files := MarkdownFile + ", " + JSONFile
	if r.Profile != "" {
		files += ", " + FoldedFile
	}
	_, err := fmt.Fprintf(w, "\nwrote %s in %s\n", files, r.Out)
	return err
}

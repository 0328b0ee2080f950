// Command bisect-dispatch starts the bisect workflow (.github/workflows/bisect.yml)
// for each new regression in FILE, the JSON `tfbench history --new-changes FILE`
// writes on the nightly's publish: one `gh workflow run bisect.yml` a change,
// at most --max (5) a night, the largest slowdowns first; the rest are listed
// with the command that starts them by hand (docs/ci.md, Bisecting a change point).
//
//	go run ./tools/bisect-dispatch [--max 5] FILE
//
// The ref is GITHUB_REF_NAME (the workflow's branch; unset, gh takes the
// default branch). Exit status 0 when every dispatch it tried started, 1
// when gh failed, 2 on bad usage or an unreadable FILE (nothing started).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tfbench/tfbench/harness/history"
)

// Workflow is the workflow file gh starts (.github/workflows/bisect.yml).
const Workflow = "bisect.yml"

// DefaultMax caps the bisects a night starts: each takes a runner for up
// to bisect.yml's 180 minutes, and a night that moves many rows at once
// (a runner or dataset change) should not queue one per row.
const DefaultMax = 5

// Change is one change point of the file (history.ChangePoint): Size, Lo
// and Hi are fractions (−0.12 is 12% lower), N is 0 for a test without one.
type Change = history.ChangePoint

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

const usage = "usage: bisect-dispatch [--max N] NEW-CHANGES.json"

// run is the command on args (without the program name); it returns the
// exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bisect-dispatch", flag.ContinueOnError)
	fs.SetOutput(stderr)
	limit := fs.Int("max", DefaultMax, "bisects to start at most (the others are listed, not started)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 || *limit < 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	path := fs.Arg(0)
	changes, err := read(path)
	if err != nil {
		fmt.Fprintln(stderr, "bisect-dispatch:", err)
		return 2
	}
	if len(changes) == 0 {
		fmt.Fprintf(stdout, "bisect-dispatch: no new regressions in %s: no bisect started\n", path)
		return 0
	}
	// The largest slowdowns first; ties keep the file's order (newest first).
	order := slices.Clone(changes)
	slices.SortStableFunc(order, func(a, b Change) int {
		return -cmpFloat(math.Abs(a.Size), math.Abs(b.Size))
	})
	ref := os.Getenv("GITHUB_REF_NAME")
	if *limit > 0 {
		if _, err := exec.LookPath("gh"); err != nil {
			fmt.Fprintf(stderr, "bisect-dispatch: %v (GitHub's CLI, on every GitHub runner: cli.github.com)\n", err)
			return 1
		}
	}
	started, failed := 0, 0
	for _, c := range order {
		if c.Before.Commit == c.After.Commit {
			fmt.Fprintf(stdout, "bisect-dispatch: not started: %s: the nights before and after (%s, %s) both measured %s: nothing to bisect (the change is outside the code: the runner, the network or the dataset)\n",
				c.ID, c.Before.Date, c.After.Date, short(c.Before.Commit))
			continue
		}
		argv := ghArgs(c, ref)
		if started+failed >= *limit {
			fmt.Fprintf(stdout, "bisect-dispatch: not started (over the cap of %d a night): %s: %s; by hand: gh %s\n",
				*limit, c.ID, describe(c), shellJoin(argv))
			continue
		}
		var out bytes.Buffer
		cmd := exec.Command("gh", argv...)
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			failed++
			stderr.Write(out.Bytes())
			fmt.Fprintf(stderr, "bisect-dispatch: gh workflow run %s for %s failed: %v\n", Workflow, c.ID, err)
			continue
		}
		started++
		fmt.Fprintf(stdout, "bisect-dispatch: started %s for %s: %s\n", Workflow, c.ID, describe(c))
	}
	fmt.Fprintf(stdout, "bisect-dispatch: %d new regressions, %d bisects started (at most %d a night)", len(changes), started, *limit)
	if failed > 0 {
		fmt.Fprintf(stdout, ", %d failed to start", failed)
	}
	fmt.Fprintln(stdout)
	if failed > 0 {
		return 1
	}
	return 0
}

// read loads and checks FILE (history.ReadChanges: schema 1), each change
// with the keys the dispatch passes on (errors name the file, the change
// and the key).
func read(path string) ([]Change, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("%w (.ci/publish-pages writes it with tfbench history --new-changes)", err)
	}
	changes, err := history.ReadChanges(path)
	if err != nil {
		return nil, err
	}
	for i, c := range changes {
		for _, kv := range [][2]string{{"id", c.ID}, {"framework", c.Framework}, {"variant", c.Variant}, {"test", c.Test}, {"before.commit", c.Before.Commit}, {"after.commit", c.After.Commit}} {
			if kv[1] == "" {
				return nil, fmt.Errorf("%s: changes[%d] (id %q): no %s", path, i, c.ID, kv[0])
			}
		}
		if !slug.MatchString(c.ID) {
			return nil, fmt.Errorf("%s: changes[%d]: id %q is not a slug (letters, digits, '.', '_', '-')", path, i, c.ID)
		}
		if c.N < 0 {
			return nil, fmt.Errorf("%s: changes[%d] (id %q): n %d is negative", path, i, c.ID, c.N)
		}
	}
	return changes, nil
}

// slug is what an ID may hold: it names a folder on the site
// (nightly/trends/regressions/<id>/), as .ci/publish-bisect checks too.
var slug = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// ghArgs is gh's argv (without "gh") that starts bisect.yml for c: the
// night before is good, the night after bad, the adapter is
// framework:variant, n only for a test with one.
func ghArgs(c Change, ref string) []string {
	a := []string{"workflow", "run", Workflow}
	if ref != "" {
		a = append(a, "--ref", ref)
	}
	a = append(a, "-f", "good="+c.Before.Commit, "-f", "bad="+c.After.Commit,
		"-f", "adapter="+c.Framework+":"+c.Variant, "-f", "test="+c.Test)
	if c.N > 0 {
		a = append(a, "-f", "n="+strconv.Itoa(c.N))
	}
	return append(a, "-f", "id="+c.ID)
}

// describe is c in one line: row, figure, size with its interval and the
// commit range.
func describe(c Change) string {
	row := c.Framework + ":" + c.Variant + " " + c.Test
	if c.N > 0 {
		row += " n=" + strconv.Itoa(c.N)
	}
	figure := c.Figure
	if figure == "" {
		figure = "ratio"
	}
	return fmt.Sprintf("%s, %s %s [%s, %s], %s..%s (%s..%s)", row, figure, pct(c.Size), pct(c.Lo), pct(c.Hi),
		short(c.Before.Commit), short(c.After.Commit), c.Before.Date, c.After.Date)
}

func pct(f float64) string { return fmt.Sprintf("%+.1f%%", 100*f) }

func short(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// shellJoin quotes args for a POSIX shell, so a listed command can be pasted.
func shellJoin(args []string) string {
	plain := regexp.MustCompile(`^[A-Za-z0-9_./:=@%+,-]+$`)
	q := make([]string, len(args))
	for i, a := range args {
		if plain.MatchString(a) {
			q[i] = a
		} else {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}

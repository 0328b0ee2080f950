package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tfbench/tfbench/harness/history"
)

// files is a repeatable flag: each use adds one path.
type files []string

func (f *files) String() string { return strings.Join(*f, ",") }
func (f *files) Set(v string) error {
	*f = append(*f, v)
	return nil
}

func historyCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("history", "history --add RESULTS.json [--add ...] --history FILE --date YYYY-MM-DD [--commit SHA] --out DIR [--new-changes FILE]", stderr)
	var add files
	fs.Var(&add, "add", "tonight's results file, plain or merged (repeat for several: they are merged as tfbench merge does)")
	path := fs.String("history", "", "the history file to append tonight to (required; missing: a new history)")
	date := fs.String("date", "", "tonight's date, UTC YYYY-MM-DD (required; a night of that date is replaced)")
	commit := fs.String("commit", "", "the commit tonight measured (git rev-parse HEAD)")
	out := fs.String("out", "", "the folder whose trends/ gets the trend pages: index.md, two charts per test, changes.json, changes.md and regressions/ (required)")
	newChanges := fs.String("new-changes", "", "write to FILE, as JSON, the regressions of the ratio that the previous trends/changes.json did not hold (the nightly bisects each; none when there was no changes.json)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if len(add) == 0 || *path == "" || *date == "" || *out == "" {
		fmt.Fprintln(stderr, "history needs --add, --history, --date and --out")
		fs.Usage()
		return errUsage
	}
	h, err := history.Load(*path)
	if err != nil {
		return err
	}
	night, err := history.From(add, *date, *commit)
	if err != nil {
		return err
	}
	h = history.Append(h, night)
	dir := filepath.Join(*out, "trends")
	changesPath := filepath.Join(dir, history.ChangesFile)
	var prev []history.ChangePoint
	first := false // no changes.json yet: this publish starts the list
	if *newChanges != "" {
		// Read before Trends replaces it.
		if _, err := os.Stat(changesPath); errors.Is(err, os.ErrNotExist) {
			first = true
		} else if prev, err = history.ReadChanges(changesPath); err != nil {
			return err
		}
	}
	written, err := history.Trends(dir, h)
	if err != nil {
		return err
	}
	if err := history.Write(*path, h); err != nil {
		return err
	}
	nights := "nights"
	if len(h.Nights) == 1 {
		nights = "night"
	}
	fmt.Fprintf(stdout, "wrote %s: %d %s, %s with %d rows\n", *path, len(h.Nights), nights, *date, len(night.Rows))
	charts := 0
	for _, p := range written {
		if filepath.Dir(p) == dir && filepath.Ext(p) == ".svg" {
			charts++
		}
	}
	fmt.Fprintf(stdout, "wrote %s and %d charts\n", written[0], charts)
	cps, err := history.ReadChanges(changesPath)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %s\n", filepath.Join(dir, history.ChangesPage), changeCount(cps))
	if *newChanges == "" {
		return nil
	}
	var fresh []history.ChangePoint
	if !first {
		fresh = history.NewRegressions(prev, cps)
	}
	if err := history.WriteChanges(*newChanges, fresh); err != nil {
		return err
	}
	var ids []string
	for _, c := range fresh {
		ids = append(ids, c.ID)
	}
	line := fmt.Sprintf("%s, %d new", changeCount(cps), len(fresh))
	if first {
		line += " (" + changesPath + " did not exist: this publish starts the list, and none counts as new)"
	}
	if len(ids) > 0 {
		line += ": " + strings.Join(ids, ", ")
	}
	fmt.Fprintf(stdout, "wrote %s: %s\n", *newChanges, line)
	return nil
}

// changeCount is "N change points (M regressions)".
func changeCount(cps []history.ChangePoint) string {
	worse := 0
	for _, c := range cps {
		if c.Worse {
			worse++
		}
	}
	return fmt.Sprintf("%s (%s)", count(len(cps), "change point"), count(worse, "regression"))
}

func count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

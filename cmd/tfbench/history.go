package main

import (
	"context"
	"fmt"
	"io"
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
	fs := newFlags("history", "history --add RESULTS.json [--add ...] --history FILE --date YYYY-MM-DD [--commit SHA] --out DIR", stderr)
	var add files
	fs.Var(&add, "add", "tonight's results file, plain or merged (repeat for several: they are merged as tfbench merge does)")
	path := fs.String("history", "", "the history file to append tonight to (required; missing: a new history)")
	date := fs.String("date", "", "tonight's date, UTC YYYY-MM-DD (required; a night of that date is replaced)")
	commit := fs.String("commit", "", "the commit tonight measured (git rev-parse HEAD)")
	out := fs.String("out", "", "the folder whose trends/ gets the trend pages: index.md and two charts per test (required)")
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
	written, err := history.Trends(filepath.Join(*out, "trends"), h)
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
	fmt.Fprintf(stdout, "wrote %s and %d charts\n", written[0], len(written)-1)
	return nil
}

package main

import (
	"context"
	"fmt"
	"io"

	"github.com/tfbench/tfbench/harness/results"
)

// sourceCmd prints the commit a results file was measured at (its
// results.Source, every run's of a merged file): "COMMIT", or "COMMIT
// dirty" for a tree with uncommitted changes; nothing, and why on stderr,
// when it records none. Runs of different sources are an error.
func sourceCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("source", "source FILE\n\n"+
		"Prints the repository commit the run in FILE (a results.json, or every run of a merged file) was measured at,\n"+
		"followed by \" dirty\" when its tree had uncommitted or untracked files; nothing, saying so on stderr, when FILE records none.\n"+
		"Exit 1 when FILE's runs come from different sources or FILE cannot be read.", stderr)
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		fmt.Fprintln(stderr, "source needs one FILE")
		fs.Usage()
		return errUsage
	}
	s, err := results.ReadSet(files[0])
	if err != nil {
		return err
	}
	src, err := s.Source()
	switch {
	case err != nil:
		return fmt.Errorf("%s: %w: no one source commit", files[0], err)
	case src == nil:
		fmt.Fprintf(stderr, "tfbench source: %s records no source commit (measured outside a git checkout, or by a tfbench before source was recorded)\n", files[0])
	case src.Dirty:
		fmt.Fprintf(stdout, "%s dirty\n", src.Commit)
	default:
		fmt.Fprintln(stdout, src.Commit)
	}
	return nil
}

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/tfbench/tfbench/harness/profile"
	"github.com/tfbench/tfbench/harness/results"
)

func profileCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("profile", "profile [--top N] [--each] [--folded FILE] FILE...\n"+
		"       tfbench profile --diff A B [--test T] [--top N] [--folded FILE]\n\n"+
		"FILE is a Node .cpuprofile or a pprof CPU profile (Go), e.g. from a run's profiles/ folder (bench --profile).\n"+
		"Several files are summed into one report (a test's Node processes, say); --each prints one per file.\n\n"+
		"--diff compares two profiled runs per request: A and B are RUN[#FRAMEWORK/VARIANT], RUN a run folder or\n"+
		"its results.json (bench or ab --profile); #... picks the variant when the run profiled several\n"+
		"(an ab run: #NAME/VARIANT@base and #NAME/VARIANT@new), --test the test when it profiled several.", stderr)
	top := fs.Int("top", 20, "rows of each table: the top N functions and areas by self time, or by change with --diff (0: all)")
	each := fs.Bool("each", false, "one report per file instead of one summed over all")
	diff := fs.Bool("diff", false, "compare two runs' profiles, A B, in ms of self time per request")
	test := fs.String("test", "", "with --diff: the test whose profiles to compare, when a run profiled several")
	folded := fs.String("folded", "", "also write folded stacks to `FILE`: with --diff differential (\"stack A B\", ns per request, flamegraph.pl), else plain (\"stack N\", ns, speedscope)")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	usage := func(msg string) error {
		fmt.Fprintln(stderr, msg)
		fs.Usage()
		return errUsage
	}
	switch {
	case *top < 0:
		return usage(fmt.Sprintf("--top %d: want 0 (all) or more", *top))
	case *diff && len(files) != 2:
		return usage(fmt.Sprintf("profile --diff needs two runs, A B; got %d", len(files)))
	case *diff && *each:
		return usage("--each does not go with --diff")
	case !*diff && *test != "":
		return usage("--test goes with --diff")
	case len(files) == 0:
		return usage("profile needs at least one FILE")
	}
	if *diff {
		return profileDiffCmd(files[0], files[1], *test, *top, *folded, stdout)
	}
	var ps []*profile.Profile
	for _, f := range files {
		p, err := profile.Read(f)
		if err != nil {
			return err
		}
		ps = append(ps, p)
	}
	sum := profile.Sum(ps...)
	if !*each {
		ps = []*profile.Profile{sum}
	}
	for i, p := range ps {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if err := profile.Write(stdout, p, *top); err != nil {
			return err
		}
	}
	if *folded != "" {
		var b bytes.Buffer
		if err := profile.WriteFolded(&b, sum, 0); err != nil {
			return err
		}
		if err := results.WriteFileAtomic(*folded, b.Bytes()); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\nfolded stacks (ns of self time): %s\n", *folded)
	}
	return nil
}

// profileDiffCmd is profile --diff A B: profile.DiffRuns printed, and its
// differential folded stacks written to folded unless "".
func profileDiffCmd(a, b, test string, top int, folded string, stdout io.Writer) error {
	sa, err := profile.ParseSelector(a)
	if err != nil {
		return err
	}
	sb, err := profile.ParseSelector(b)
	if err != nil {
		return err
	}
	d, err := profile.DiffRuns(sa, sb, test)
	if err != nil {
		return err
	}
	if err := profile.WriteDiff(stdout, d, top); err != nil {
		return err
	}
	if folded == "" {
		return nil
	}
	if err := d.WriteFolded(folded); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\ndifferential folded stacks (stack A B, ns per request): %s\n", folded)
	return nil
}

package main

import (
	"context"
	"fmt"
	"io"

	"github.com/tfbench/tfbench/harness/profile"
)

func profileCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("profile", "profile [--top N] [--each] FILE...\n\n"+
		"FILE is a Node .cpuprofile or a pprof CPU profile (Go), e.g. from a run's profiles/ folder (bench --profile).\n"+
		"Several files are summed into one report (a test's Node processes, say); --each prints one per file.", stderr)
	top := fs.Int("top", 20, "rows of each table: the top N functions and areas by self time (0: all)")
	each := fs.Bool("each", false, "one report per file instead of one summed over all")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 || *top < 0 {
		if *top < 0 {
			fmt.Fprintf(stderr, "--top %d: want 0 (all) or more\n", *top)
		} else {
			fmt.Fprintln(stderr, "profile needs at least one FILE")
		}
		fs.Usage()
		return errUsage
	}
	var ps []*profile.Profile
	for _, f := range files {
		p, err := profile.Read(f)
		if err != nil {
			return err
		}
		ps = append(ps, p)
	}
	if !*each {
		ps = []*profile.Profile{profile.Sum(ps...)}
	}
	for i, p := range ps {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if err := profile.Write(stdout, p, *top); err != nil {
			return err
		}
	}
	return nil
}

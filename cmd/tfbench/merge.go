package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/run"
)

func mergeCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("merge", "merge [--out FILE] [--labels LIST] [--expect all|LIST [--frameworks-dir DIR]] FILE...", stderr)
	out := fs.String("out", "", "merged results file to write (required without --expect)")
	expect := fs.String("expect", "", "exit 1 unless every expected framework variant has measured figures in the merged results: all (every variant bench runs by default from --frameworks-dir) or a comma-separated list as bench --frameworks takes (NAME, NAME:VARIANT)")
	dir := fs.String("frameworks-dir", "frameworks", "folder holding one adapter per subfolder (for --expect)")
	labels := fs.String("labels", "", "comma-separated labels, one per file given, naming each run in reports (default: each file's base name without .json, or its run ID for a results.json; runs of a merged input keep theirs)")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	names := list(*labels)
	switch {
	case (*out == "" && *expect == "") || len(files) == 0:
		fmt.Fprintln(stderr, "merge needs --out or --expect, and at least one results file")
		fs.Usage()
		return errUsage
	case len(names) > 0 && len(names) != len(files):
		fmt.Fprintf(stderr, "--labels names %d runs, %d files given\n", len(names), len(files))
		return errUsage
	}
	var expected []model.ID
	if *expect != "" {
		specs, err := framework.Discover(*dir)
		if err != nil {
			return err
		}
		var items []string
		if *expect != "all" {
			items = list(*expect)
		}
		targets, err := run.Select(specs, items, *dir)
		if err != nil {
			return fmt.Errorf("--expect: %w", err)
		}
		for _, tg := range targets {
			expected = append(expected, tg.ID())
		}
	}
	var runs []results.Run
	from := map[string]string{} // label → file
	for i, path := range files {
		s, err := results.ReadSet(path)
		if err != nil {
			return err
		}
		if f, ok := s.Single(); ok {
			label := results.LabelOf(path)
			if label == "results" { // .tfbench/runs/<run-id>/results.json
				label = f.RunID
			}
			if len(names) > 0 {
				label = names[i]
			}
			if other, ok := from[label]; ok {
				return fmt.Errorf("%s and %s both get the label %q: name the runs with --labels", other, path, label)
			}
			from[label] = path
			runs = append(runs, results.Run{Label: label, File: f})
			continue
		}
		runs = append(runs, s.Runs...)
	}
	set, err := results.Merge(runs)
	if err != nil {
		return err
	}
	if *out != "" {
		if err := results.WriteSet(*out, set); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s: %d run%s\n", *out, len(set.Runs), map[bool]string{true: "s"}[len(set.Runs) != 1])
	} else {
		fmt.Fprintf(stdout, "merged %d run%s\n", len(set.Runs), map[bool]string{true: "s"}[len(set.Runs) != 1])
	}
	for _, r := range set.Runs {
		shard := ""
		if r.File.Shard != "" {
			shard = ", shard " + r.File.Shard
		}
		fmt.Fprintf(stdout, "  %s: run %s on %s%s, %d samples\n", r.Label, r.File.RunID, r.File.Host.Hostname, shard, len(r.File.Samples))
	}
	// Each run keeps its own source; the merged results have one only when
	// every run records the same (results.Set.Source).
	if src, err := set.Source(); err != nil {
		fmt.Fprintf(stderr, "tfbench merge: %v: each run keeps its own, and the merged results name no one source commit (tfbench source and nightly:ab find none)\n", err)
	} else if src != nil {
		fmt.Fprintf(stdout, "  source: commit %s in every run\n", src)
	}
	if missing := set.MissingShards(); len(missing) > 0 {
		what := "shard " + missing[0] + " is"
		if len(missing) > 1 {
			what = "shards " + strings.Join(missing, ", ") + " are"
		}
		into := *out
		if into == "" {
			into = "the merged results"
		}
		fmt.Fprintf(stderr, "tfbench merge: %s missing: their framework variants are not in %s\n", what, into)
	}
	if missing := set.Unmeasured(expected); len(missing) > 0 {
		for _, u := range missing {
			fmt.Fprintf(stderr, "tfbench merge: %s\n", u)
		}
		return fmt.Errorf("%d of %d expected framework variants have no measured figures", len(missing), len(expected))
	}
	return nil
}

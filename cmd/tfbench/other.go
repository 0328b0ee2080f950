package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tfbench/tfbench/dataset"
	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/report"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/run"
	"github.com/tfbench/tfbench/harness/texttab"
)

func datasetCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("dataset", "dataset [--out FILE] [--force]", stderr)
	out := fs.String("out", run.DatasetPath(".tfbench"), "SQLite file to write")
	force := fs.Bool("force", false, "generate again even if the file exists")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *force {
		if err := dataset.Generate(*out); err != nil {
			return err
		}
	} else if _, err := dataset.Ensure(*out); err != nil {
		return err
	}
	hash, err := dataset.ContentHash(*out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: World %d rows, Fortune %d rows, content sha256 %s\n", *out, dataset.WorldRows, len(dataset.Fortunes), hash)
	return nil
}

func reportCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("report", "report [--results FILE] [--out FILE.md | --out DIR/]", stderr)
	in := fs.String("results", run.LatestResults(".tfbench"), "results.json or merged results file to render (the default is the newest bench run)")
	out := fs.String("out", "", "markdown file to write; a directory (ending in / or existing) gets a docs site: index.md, a page and an SVG chart per test, results.csv (default: markdown on standard output)")
	if err := parse(fs, args); err != nil {
		return err
	}
	s, err := results.ReadSet(*in)
	if err != nil {
		return err
	}
	site := strings.HasSuffix(*out, "/") || strings.HasSuffix(*out, string(filepath.Separator))
	if info, err := os.Stat(*out); err == nil && info.IsDir() {
		site = true
	}
	if *out != "" && site {
		paths, err := report.Site(*out, s)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %d files to %s (%s)\n", len(paths), *out, report.IndexFile)
		return nil
	}
	f, ok := s.Single()
	if !ok {
		return fmt.Errorf("%s holds %d merged runs: render it as a site with --out DIR/", *in, len(s.Runs))
	}
	if *out == "" {
		return report.Markdown(stdout, f)
	}
	if err := writeReport(f, *out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	return nil
}

func frameworksCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("frameworks", "frameworks [--frameworks-dir DIR]", stderr)
	dir := fs.String("frameworks-dir", "frameworks", "folder holding one adapter per subfolder")
	if err := parse(fs, args); err != nil {
		return err
	}
	specs, err := framework.Discover(*dir)
	if err != nil {
		return err
	}
	t := texttab.Table{Header: []string{"NAME", "RUNTIME", "VARIANTS", "VERSIONS", "DESCRIPTION"}}
	for _, s := range specs {
		var vs, ps []string
		for _, v := range s.Variants {
			name := v.Name
			if v.ByName {
				name += " (by name)" // not in a default run: NAME:VARIANT, NAME:* or tfbench ab
			}
			vs = append(vs, name)
		}
		for _, p := range s.Versions {
			ps = append(ps, p.String())
		}
		t.Row(s.Name, s.Runtime, strings.Join(vs, ","), strings.Join(ps, ", "), s.Description)
	}
	if len(specs) == 0 {
		fmt.Fprintf(stderr, "no framework.yaml under %s\n", *dir)
		return nil
	}
	return texttab.Text(stdout, t)
}

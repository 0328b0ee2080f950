package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/tfbench/tfbench/harness/ab"
	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/suite"
)

func abCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c common
	fs := newFlags("ab", "ab [--suite FILE] [--tests LIST] [--rounds N] [--new-dir DIR] [--require-identical] [--profile] [--frameworks-dir DIR] [--work DIR] [--alpha 0.05] [--min-change 5%] [--seed N] [--keep] [--json FILE] [--out FILE.md] [--server-host [USER@]HOST[:PORT] | --server-cmd CMD] [--server-addr ADDR] [--machines FILE] BASE [NEW]\n\n"+
		"BASE is NAME or NAME:VARIANT; NEW is another VARIANT (or NAME:VARIANT), or, with --new-dir, omitted\n"+
		"(the same variant of the adapter copy in DIR: two builds)", stderr)
	fs.StringVar(&c.suite, "suite", "suites/nightly.yaml", "suite file")
	fs.StringVar(&c.tests, "tests", "", "comma-separated test names from the suite (default: all)")
	fs.StringVar(&c.dir, "frameworks-dir", "frameworks", "folder holding one adapter per subfolder")
	fs.StringVar(&c.work, "work", ".tfbench", "scratch folder: dataset, builds, runs/<run-id>/ (results.json, logs)")
	fs.BoolVar(&c.keep, "keep", false, "keep each framework's database copy after its round")
	fs.Int64Var(&c.seed, "seed", 0, "seed of the per-round order of the two targets (default: from the clock; recorded in results.json)")
	fs.IntVar(&c.rounds, "rounds", 0, fmt.Sprintf("interleaved rounds, at least %d (default: the suite's)", compare.MinRounds))
	fs.BoolVar(&c.profile, "profile", false, profileUsage)
	c.remote.register(fs)
	newDir := fs.String("new-dir", "", "another source tree of BASE's adapter (a copy holding the change, named like the adapter): measure two builds")
	require := fs.Bool("require-identical", false, "exit 3 before measuring when a test's response differs between BASE and NEW after masking (default: a warning)")
	cf := compareFlags(fs, false)
	c.command = append([]string{"tfbench", "ab"}, args...)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 1 || len(pos) > 2 {
		fmt.Fprintf(stderr, "ab needs BASE and NEW (or BASE and --new-dir); got %d arguments\n", len(pos))
		fs.Usage()
		return errUsage
	}
	o, err := cf.options()
	if err != nil {
		fmt.Fprintln(stderr, err)
		fs.Usage()
		return errUsage
	}
	s, err := suite.Load(c.suite)
	if err != nil {
		return err
	}
	tests, err := s.Select(list(c.tests))
	if err != nil {
		return err
	}
	specs, err := framework.Discover(c.dir)
	if err != nil {
		return err
	}
	var second string
	if len(pos) == 2 {
		second = pos[1]
	}
	base, next, err := ab.Targets(specs, c.dir, pos[0], second, *newDir)
	if err != nil {
		return err
	}
	line := progressLine(stdout)
	cfg := ab.Config{Base: base, New: next, Compare: o, RequireIdentical: *require, Out: stderr}
	cfg.Run.Suite, cfg.Run.Tests, cfg.Run.WorkDir, cfg.Run.Keep, cfg.Run.Seed, cfg.Run.Rounds = s, tests, c.work, c.keep, c.seed, c.rounds
	cfg.Run.Profile = c.profile
	cfg.Run.Log, cfg.Run.Progress, cfg.Run.Command = line, line.Step, c.command
	client, err := c.remote.connect(ctx, line)
	if err != nil {
		return err
	}
	if client != nil {
		cfg.Run.ServerHost = client
	}
	f, path, t, err := ab.Run(ctx, cfg)
	if client != nil {
		err = errors.Join(err, client.Close())
	}
	line.Done()
	if f != nil {
		md := filepath.Join(filepath.Dir(path), "report.md")
		if werr := writeReport(f, md); werr != nil && err == nil {
			err = werr
		}
		fmt.Fprintf(stdout, "results: %s\nreport:  %s\n", path, md)
		profilesLine(stdout, f, path)
	}
	if err != nil {
		if ctx.Err() != nil && path != "" {
			return fmt.Errorf("interrupted; the samples measured so far are in %s", path)
		}
		if errors.Is(err, ab.ErrDiffers) {
			return fmt.Errorf("--require-identical: %w", err)
		}
		return err
	}
	if err := writeCompare(t, *cf.out, *cf.json, stdout); err != nil {
		return err
	}
	return t.Regression()
}

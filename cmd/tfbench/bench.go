package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/progress"
	"github.com/tfbench/tfbench/harness/report"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/run"
	"github.com/tfbench/tfbench/harness/suite"
)

// common are the flags bench and verify share.
type common struct {
	command                             []string // the command line, recorded in results.json
	suite, frameworks, tests, dir, work string
	keep, profile                       bool
	seed                                int64
	rounds                              int // 0 = the suite's
	remote                              remote
}

// profileUsage is the --profile flag's help, bench's and ab's.
const profileUsage = "add one profiled round after the measured ones, never counted: a CPU profile per framework variant and test in runs/<run-id>/profiles/ (read them with tfbench profile; docs/profiles.md)"

func (c *common) register(fs *flag.FlagSet, defaultSuite string, measuring bool) {
	fs.StringVar(&c.suite, "suite", defaultSuite, "suite file")
	fs.StringVar(&c.frameworks, "frameworks", "", "comma-separated frameworks to run: NAME (its variants but by_name ones), NAME:VARIANT, or NAME:* (every variant) (default: all in --frameworks-dir but by_name variants)")
	fs.StringVar(&c.tests, "tests", "", "comma-separated test names from the suite (default: all)")
	fs.StringVar(&c.dir, "frameworks-dir", "frameworks", "folder holding one adapter per subfolder")
	fs.StringVar(&c.work, "work", ".tfbench", "scratch folder: dataset, builds, runs/<run-id>/ (results.json, logs)")
	c.remote.register(fs)
	if measuring {
		fs.BoolVar(&c.keep, "keep", false, "keep each framework's database copy after its round")
		fs.Int64Var(&c.seed, "seed", 0, "seed of the per-round framework shuffle (default: from the clock; recorded in results.json)")
		fs.IntVar(&c.rounds, "rounds", 0, "rounds: how many times every level is measured, frameworks shuffled per round (default: the suite's; recorded in results.json)")
		fs.BoolVar(&c.profile, "profile", false, profileUsage)
	}
}

// config loads the suite and frameworks the flags name.
func (c *common) config(log io.Writer) (run.Config, error) {
	s, err := suite.Load(c.suite)
	if err != nil {
		return run.Config{}, err
	}
	tests, err := s.Select(list(c.tests))
	if err != nil {
		return run.Config{}, err
	}
	specs, err := framework.Discover(c.dir)
	if err != nil {
		return run.Config{}, err
	}
	targets, err := run.Select(specs, list(c.frameworks), c.dir)
	if err != nil {
		return run.Config{}, err
	}
	return run.Config{Suite: s, Tests: tests, Targets: targets, WorkDir: c.work, Keep: c.keep, Seed: c.seed, Rounds: c.rounds, Profile: c.profile, Log: log, Command: c.command}, nil
}

func benchCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c common
	fs := newFlags("bench", "bench [--suite FILE] [--frameworks LIST] [--tests LIST] [--frameworks-dir DIR] [--work DIR] [--report FILE] [--copy-results FILE] [--rounds N] [--keep] [--seed N] [--profile] [--server-host [USER@]HOST[:PORT] | --server-cmd CMD] [--server-addr ADDR] [--machines FILE] [--shard I/N]", stderr)
	c.register(fs, "suites/tfb.yaml", true)
	var shard shardFlag
	shard.register(fs)
	c.command = append([]string{"tfbench", "bench"}, args...)
	reportPath := fs.String("report", "", "also write the markdown report to this file once the run is complete (it is always written beside results.json)")
	copyResults := fs.String("copy-results", "", "also copy results.json to this file once the run is complete")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := shard.parse(); err != nil {
		return err
	}
	line := progressLine(stdout)
	cfg, err := c.config(line)
	if err != nil {
		return err
	}
	if err := shard.apply(&cfg, c.dir, line); err != nil {
		return err
	}
	cfg.Progress = line.Step
	client, err := c.remote.connect(ctx, line)
	if err != nil {
		return err
	}
	if client != nil {
		cfg.ServerHost = client
	}
	f, path, err := run.Bench(ctx, cfg)
	if client != nil {
		err = errors.Join(err, client.Close())
	}
	line.Done()
	if f != nil {
		md := filepath.Join(filepath.Dir(path), "report.md")
		began := time.Now()
		werr := writeReport(f, md)
		if werr == nil && f.Time != nil {
			// The report's time joins where the time went (results.Time).
			f.Time.Report = time.Since(began).Seconds()
			f.Time.Total += f.Time.Report
			werr = results.Write(path, f)
		}
		if werr != nil && err == nil {
			err = werr
		}
		fmt.Fprintf(stdout, "results: %s\nreport:  %s\n", path, md)
		profilesLine(stdout, f, path)
		if werr := publish(stdout, f, path, err, *copyResults, *reportPath); werr != nil && err == nil {
			err = werr
		}
		summarize(stdout, f)
	}
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("interrupted; the samples measured so far are in %s", path)
	}
	return err
}

// publish copies a complete run's results.json to copyResults and writes
// its report to reportPath (each when not empty, atomically) and says so on
// w. A run that did not complete, or ended with runErr, replaces neither
// file: they may be published ones (go tool task bench: reports/latest.json
// and .md), and w says so and where the run's files are.
func publish(w io.Writer, f *results.File, path string, runErr error, copyResults, reportPath string) error {
	var dests []string
	for _, p := range []string{reportPath, copyResults} {
		if p != "" {
			dests = append(dests, p)
		}
	}
	if len(dests) == 0 {
		return nil
	}
	if runErr != nil || f.Status != results.Complete {
		why := "the run did not complete (status " + f.Status + ")"
		if f.Status == results.Complete {
			why = "the run ended with an error"
		}
		fmt.Fprintf(w, "%s: %s not replaced; this run's results and report are in %s\n", why, strings.Join(dests, " and "), filepath.Dir(path))
		return nil
	}
	if copyResults != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := results.WriteFileAtomic(copyResults, data); err != nil {
			return err
		}
		fmt.Fprintf(w, "results copied to %s\n", copyResults)
	}
	if reportPath != "" {
		if err := writeReport(f, reportPath); err != nil {
			return err
		}
		fmt.Fprintf(w, "report copied to %s\n", reportPath)
	}
	return nil
}

// profilesLine says where a --profile run's profiles are, when it has any.
func profilesLine(w io.Writer, f *results.File, path string) {
	n := 0
	for _, p := range f.Profiles {
		n += len(p.Files)
	}
	if n > 0 {
		fmt.Fprintf(w, "profiles: %d files in %s (tfbench profile FILE...)\n", n, filepath.Join(filepath.Dir(path), "profiles"))
	}
}

// progressLine shows the run's log lines and progress on w: a live line on
// a terminal, plain lines otherwise (progress.ForFile); any other writer
// than a file gets plain lines.
func progressLine(w io.Writer) *progress.Line {
	if f, ok := w.(*os.File); ok {
		return progress.ForFile(f)
	}
	return progress.New(w, false, 0)
}

// writeReport renders f as markdown to each non-empty path, atomically.
func writeReport(f *results.File, paths ...string) error {
	var b strings.Builder
	if err := report.Markdown(&b, f); err != nil {
		return err
	}
	for _, p := range paths {
		if p == "" {
			continue
		}
		if err := results.WriteFileAtomic(p, []byte(b.String())); err != nil {
			return err
		}
	}
	return nil
}

// summarize prints the run's wall time, sample and gate-failure counts,
// the verdicts that were not a pass (and frameworks that failed to build or
// start) and report.BestPerTest (peak RPS, median over rounds).
func summarize(w io.Writer, f *results.File) {
	var failedGate int
	for _, s := range f.Samples {
		if !s.Gate.Passed {
			failedGate++
		}
	}
	var notPass []string
	for _, v := range f.Verifications {
		if v.Status != model.Pass {
			notPass = append(notPass, fmt.Sprintf("  %s %s: %s", v.ID, v.Test, v.Status))
		}
	}
	for _, fw := range f.Frameworks {
		if fw.Error != "" {
			notPass = append(notPass, fmt.Sprintf("  %s: %s", fw.ID(), fw.Error))
		}
	}
	if f.Time != nil {
		fmt.Fprintln(w, timeLine(f.Time))
	}
	if !f.Finished.IsZero() {
		fmt.Fprintf(w, "wall time %s; ", f.Finished.Sub(f.Started).Round(time.Second))
	}
	fmt.Fprintf(w, "%d samples, %d failed the gate; %d verification verdicts, %d not a pass\n", len(f.Samples), failedGate, len(f.Verifications), len(notPass))
	for _, l := range notPass {
		fmt.Fprintln(w, l)
	}
	best := report.BestPerTest(f)
	if len(best) == 0 {
		return
	}
	fmt.Fprintln(w, "best per test (peak RPS, median over rounds):")
	for _, l := range best {
		fmt.Fprintln(w, "  "+l)
	}
}

func verifyCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c common
	fs := newFlags("verify", "verify [--suite FILE] [--frameworks LIST] [--tests LIST] [--frameworks-dir DIR] [--work DIR] [--server-host [USER@]HOST[:PORT] | --server-cmd CMD] [--server-addr ADDR] [--machines FILE]", stderr)
	c.register(fs, "suites/tfb.yaml", false)
	c.command = append([]string{"tfbench", "verify"}, args...)
	if err := parse(fs, args); err != nil {
		return err
	}
	cfg, err := c.config(stderr) // progress (builds, starts) on stderr; verdicts on stdout
	if err != nil {
		return err
	}
	client, err := c.remote.connect(ctx, stderr)
	if err != nil {
		return err
	}
	if client != nil {
		cfg.ServerHost = client
	}
	fws, vs, path, err := run.Verify(ctx, cfg)
	if client != nil {
		err = errors.Join(err, client.Close())
	}
	if err != nil {
		return err
	}
	failed := 0
	for _, fw := range fws {
		if fw.Error != "" {
			fmt.Fprintf(stdout, "%s: %s\n", fw.ID(), fw.Error)
			failed++
		}
	}
	for _, v := range vs {
		fmt.Fprintf(stdout, "%s %-10s %s\n", v.ID, v.Test, v.Status)
		for _, why := range v.Reasons {
			fmt.Fprintf(stdout, "    %s\n", why)
		}
		if v.Status == model.Fail {
			failed++
		}
	}
	fmt.Fprintf(stdout, "verdicts recorded in %s\n", path)
	if failed > 0 {
		return fmt.Errorf("%d verdicts failed", failed)
	}
	return nil
}

// timeLine says where a run's time went (results.Time), m:ss each: "time:
// builds 4:02 (runtime installs 0:03), server starts 1:10, ..., total 31:12".
func timeLine(t *results.Time) string {
	c := func(s float64) string { return progress.Clock(time.Duration(s * float64(time.Second))) }
	return fmt.Sprintf("time: builds %s (runtime installs %s), server starts and stops %s, verification %s, warmups %s, measured windows %s, pauses %s, report %s; total %s",
		c(t.Builds), c(t.RuntimeInstalls), c(t.ServerStarts), c(t.Verification), c(t.Warmups), c(t.Windows), c(t.Pauses), c(t.Report), c(t.Total))
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/tfbench/tfbench/harness/bisect"
	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/suite"
)

// errNoCulprit is wrapped by bisect's error when it ends without naming a
// first bad commit (BAD not slower, the adapter unchanged, no verdict):
// exit status 2, as distinct from 1 (an error).
var errNoCulprit = errors.New("no first bad commit")

func bisectCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bisect", "bisect --good SHA --bad SHA --adapter NAME[:VARIANT] --test T [--n N] [--suite FILE] [--rounds R] [--alpha 0.01] [--min-change 5%] [--repo DIR] [--work DIR] [--out DIR] [--no-profile]\n\n"+
		"Finds the first commit of GOOD..BAD whose build of the adapter is slower than GOOD's on the test: each step\n"+
		"is tfbench ab of GOOD's frameworks/NAME against a midpoint's (docs/bisect.md). Exit 0: first bad commit named;\n"+
		"2: nothing to bisect or no verdict; 1: an error", stderr)
	good := fs.String("good", "", "a commit whose adapter is fast (required)")
	bad := fs.String("bad", "", "a later commit whose adapter is slower on the test (required)")
	adapterFlag := fs.String("adapter", "", "NAME or NAME:VARIANT (NAME alone: its default variant) of the adapter in frameworks/NAME (required)")
	test := fs.String("test", "", "the suite test to measure (required)")
	n := fs.Int("n", 0, "the test's N to measure (queries, updates or page rows; default: the test's headline N)")
	suitePath := fs.String("suite", "suites/nightly.yaml", "suite file (this checkout's: head's tfbench and suite measure every commit)")
	rounds := fs.Int("rounds", 0, fmt.Sprintf("interleaved rounds a step, at least %d (default: the suite's); a step without a verdict is retried once with twice as many", compare.MinRounds))
	alpha := fs.Float64("alpha", bisect.DefaultAlpha, "significance level of each step's rank test")
	minChange := share(compare.DefaultOptions().MinChange)
	fs.Var(&minChange, "min-change", "smallest change of the median RPS that is slower, a percentage (5%) or a share (0.05)")
	repo := fs.String("repo", ".", "the git repository holding GOOD and BAD")
	work := fs.String("work", ".tfbench", "scratch folder: dataset, builds, runs/<run-id>/ of every step")
	out := fs.String("out", "", "folder for bisect.md, bisect.json, diff.folded and the commits' trees (default WORK/bisect/<good7>-<bad7>-<adapter>-<test>)")
	noProfile := fs.Bool("no-profile", false, "skip the last step: the culprit's parent against the culprit with --profile, and its profile diff")
	command := append([]string{"tfbench", "bisect"}, args...)
	if err := parse(fs, args); err != nil {
		return err
	}
	var missing []string
	for _, f := range []struct {
		name string
		v    *string
	}{{"--good", good}, {"--bad", bad}, {"--adapter", adapterFlag}, {"--test", test}} {
		if *f.v == "" {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 || !(*alpha > 0 && *alpha < 1) || *n < 0 {
		switch {
		case len(missing) > 0:
			fmt.Fprintf(stderr, "bisect needs %s\n", strings.Join(missing, ", "))
		case *n < 0:
			fmt.Fprintf(stderr, "--n %d: want an N ≥ 1\n", *n)
		default:
			fmt.Fprintf(stderr, "--alpha %g: want 0 < α < 1\n", *alpha)
		}
		fs.Usage()
		return errUsage
	}
	s, err := suite.Load(*suitePath)
	if err != nil {
		return err
	}
	tests, err := s.Select([]string{*test})
	if err != nil {
		return err
	}
	t := tests[0]
	if *n > 0 {
		if !slices.Contains(t.Queries, *n) {
			return fmt.Errorf("%s: test %s has no N=%d (its N: %s)", *suitePath, t.Name, *n, intList(t.Queries))
		}
		t.Queries = []int{*n}
	}
	nRounds := *rounds
	if nRounds == 0 {
		nRounds = s.Rounds
	}
	o := compare.DefaultOptions()
	o.Alpha, o.MinChange = *alpha, float64(minChange)
	line := progressLine(stdout)
	r, err := bisect.Run(ctx, bisect.Config{Repo: *repo, Good: *good, Bad: *bad, Adapter: *adapterFlag,
		Suite: s, SuitePath: *suitePath, Test: t, Rounds: nRounds, Compare: o, Work: *work, Out: *out,
		Profile: !*noProfile, Command: command, Log: line, Equivalence: stderr, Progress: line.Step})
	line.Done()
	if err != nil {
		return err
	}
	if err := bisect.Text(stdout, r); err != nil {
		return err
	}
	if r.Status != bisect.Found {
		return fmt.Errorf("%w (%s): %s", errNoCulprit, r.Status, r.Message)
	}
	return nil
}

func intList(ns []int) string {
	var s []string
	for _, n := range ns {
		s = append(s, strconv.Itoa(n))
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/tfbench/tfbench/harness/ab"
	"github.com/tfbench/tfbench/harness/bisect"
	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/profile"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/texttab"
)

// errNoCulprit is wrapped by bisect's error when it ends without naming a
// first bad commit (BAD not slower, the adapter unchanged, no verdict):
// exit status 2, as distinct from 1 (an error).
var errNoCulprit = errors.New("no first bad commit")

// bisectDefaultAlpha is bisect's α per step: lower than compare's 0.05
// because a wrong step sends the search the wrong way for good; 5 rounds
// a side reach it (2/252 = 0.0079).
const bisectDefaultAlpha = 0.01

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
	alpha := fs.Float64("alpha", bisectDefaultAlpha, "significance level of each step's rank test")
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
	name, _, _ := strings.Cut(*adapterFlag, ":")
	paths := []string{"frameworks/" + name}

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
	if nRounds < compare.MinRounds {
		return fmt.Errorf("bisect needs at least %d interleaved rounds a step, got %d (set --rounds)", compare.MinRounds, nRounds)
	}
	o := compare.DefaultOptions()
	o.Alpha, o.MinChange = *alpha, float64(minChange)

	g := bisect.Git{Dir: *repo}
	gc, list, err := g.Range(ctx, *good, *bad, paths)
	if err != nil {
		return err
	}
	badC := list[len(list)-1]
	for _, end := range []struct {
		name string
		c    bisect.Commit
	}{{"GOOD", gc}, {"BAD", badC}} {
		if end.c.Key == "" {
			return fmt.Errorf("%s has no %s at %s %s: both ends need the adapter", *repo, paths[0], end.name, end.c.Short)
		}
	}
	if *out == "" {
		*out = filepath.Join(*work, "bisect", fmt.Sprintf("%.7s-%.7s-%s-%s", gc.SHA, badC.SHA, strings.ReplaceAll(*adapterFlag, ":", "-"), t.Name))
	}
	testN := t.Headline()
	r := bisect.New(*adapterFlag, t.Name, testN, paths, gc, list)
	r.Suite, r.Options = *suitePath, o
	b := &bisector{g: g, out: *out, adapter: *adapterFlag, name: name, suite: s, test: t, work: *work,
		compare: o, command: command, stdout: stdout, stderr: stderr, good: gc}
	r.Commands = b.commands(r, *suitePath, nRounds)
	fmt.Fprintf(stdout, "bisect %s on %s: %d commits in %s..%s, %d change %s; writing %s\n",
		*adapterFlag, t.Name, len(list), gc.Short, badC.Short, len(r.Candidates), paths[0], filepath.Join(*out, bisect.MarkdownFile))
	update := func(r *bisect.Result) error { return bisect.Write(*out, r) }
	if err := bisect.Search(ctx, r, nRounds, b.measure, update); err != nil {
		if ctx.Err() != nil {
			r.Status, r.Message = bisect.Interrupted, "Interrupted: "+r.Message
			return errors.Join(fmt.Errorf("interrupted; the steps measured so far are in %s", filepath.Join(*out, bisect.MarkdownFile)), update(r))
		}
		return err
	}
	if r.Status == bisect.Found {
		bump, err := bisect.DependencyBump(ctx, g, r.Parent.SHA, r.Culprit.SHA, r.Culprit.Files)
		if err != nil {
			return err
		}
		r.Bump = bump
		r.Commands = b.commands(r, *suitePath, nRounds)
		if !*noProfile {
			if err := b.profile(ctx, r, nRounds); err != nil {
				return errors.Join(err, update(r))
			}
		}
		if err := update(r); err != nil {
			return err
		}
	}
	fmt.Fprintln(stdout)
	if err := texttab.Markdown(stdout, bisect.StepTable(r)); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n%s\n", r.Message)
	if r.Bump != nil {
		fmt.Fprintf(stdout, "A dependency bump (%s):\n", strings.Join(r.Bump.Files, ", "))
		for _, m := range r.Bump.Moves {
			fmt.Fprintf(stdout, "  %s %s: %s → %s\n", m.File, m.Package, noneIfEmpty(m.Before), noneIfEmpty(m.After))
		}
	}
	if r.Profile != "" {
		fmt.Fprintf(stdout, "\nProfile diff, %s (A) against %s (B):\n\n%s\n", r.Parent.Short, r.Culprit.Short, strings.TrimRight(r.Profile, "\n"))
	}
	if r.ProfileError != "" {
		fmt.Fprintf(stdout, "\nNo profile diff: %s\n", r.ProfileError)
	}
	fmt.Fprintf(stdout, "\nbisect: %s\n", filepath.Join(*out, bisect.MarkdownFile))
	if r.Status != bisect.Found {
		return fmt.Errorf("%w (%s): %s", errNoCulprit, r.Status, r.Message)
	}
	return nil
}

// bisector measures the steps: each commit's adapter extracted under
// OUT/trees/<short>/, A/B'd by ab.Run against GOOD's.
type bisector struct {
	g              bisect.Git
	out            string
	adapter, name  string
	suite          *suite.Suite
	test           suite.Test
	work           string
	compare        compare.Options
	command        []string
	stdout, stderr io.Writer
	good           bisect.Commit
}

// tree extracts c's adapter and returns its frameworks folder.
func (b *bisector) tree(ctx context.Context, c bisect.Commit) (string, error) {
	dir := filepath.Join(b.out, "trees", c.Short)
	if err := b.g.Extract(ctx, c.SHA, []string{"frameworks/" + b.name}, dir); err != nil {
		return "", err
	}
	return filepath.Join(dir, "frameworks"), nil
}

// abRun is one step's run: its folder and the two sides' IDs in it.
type abRun struct {
	dir       string
	base, new model.ID
}

// ab A/Bs base's tree against next's in rounds rounds (profiled when
// profile), and returns the test's row as an Outcome and the run.
func (b *bisector) ab(ctx context.Context, base, next bisect.Commit, rounds int, profile bool) (bisect.Outcome, abRun, error) {
	baseDir, err := b.tree(ctx, base)
	if err != nil {
		return bisect.Outcome{}, abRun{}, err
	}
	nextDir, err := b.tree(ctx, next)
	if err != nil {
		return bisect.Outcome{}, abRun{}, err
	}
	specs, err := framework.Discover(baseDir)
	if err != nil {
		return bisect.Outcome{}, abRun{}, err
	}
	bt, nt, err := ab.Targets(specs, baseDir, b.adapter, "", filepath.Join(nextDir, b.name))
	if err != nil {
		return bisect.Outcome{}, abRun{}, err
	}
	line := progressLine(b.stdout)
	cfg := ab.Config{Base: bt, New: nt, Compare: b.compare, Out: b.stderr}
	cfg.Run.Suite, cfg.Run.Tests, cfg.Run.WorkDir, cfg.Run.Rounds = b.suite, []suite.Test{b.test}, b.work, rounds
	cfg.Run.Profile = profile
	cfg.Run.Log, cfg.Run.Progress, cfg.Run.Command = line, line.Step, b.command
	f, path, t, err := ab.Run(ctx, cfg)
	line.Done()
	if err != nil {
		return bisect.Outcome{}, abRun{}, err
	}
	for _, row := range t.Rows {
		if row.Test == b.test.Name {
			ar := abRun{dir: filepath.Dir(path), base: model.ID{Framework: bt.Spec.Name, Variant: bt.VariantName()}, new: model.ID{Framework: nt.Spec.Name, Variant: nt.VariantName()}}
			return bisect.Outcome{Verdict: row.Verdict, Ratio: row.Ratio, P: row.P, RunID: f.RunID, Why: row.Why}, ar, nil
		}
	}
	return bisect.Outcome{}, abRun{}, fmt.Errorf("run %s: no row of %s %s in the comparison", f.RunID, bt.ID(), b.test.Name)
}

// measure is bisect.Search's Measure: GOOD's tree against c's.
func (b *bisector) measure(ctx context.Context, c bisect.Commit, rounds int) (bisect.Outcome, error) {
	fmt.Fprintf(b.stdout, "step: %s against GOOD, %d rounds\n", c.Label(), rounds)
	out, _, err := b.ab(ctx, b.good, c, rounds, false)
	if err == nil {
		fmt.Fprintf(b.stdout, "step: %s: %s, ratio %.3f, p %s (run %s)\n", c.Short, out.Verdict, out.Ratio, strconv.FormatFloat(out.P, 'g', 2, 64), out.RunID)
	}
	return out, err
}

// profile runs the last step: the culprit's parent tree against the
// culprit's with --profile, then the profile diff of its two sides into
// r.Profile and OUT/diff.folded. A failure other than an interrupt is
// r.ProfileError: the culprit is named all the same.
func (b *bisector) profile(ctx context.Context, r *bisect.Result, rounds int) error {
	fmt.Fprintf(b.stdout, "profile: %s against %s, %d rounds with --profile\n", r.Culprit.Label(), r.Parent.Short, rounds)
	out, ar, err := b.ab(ctx, *r.Parent, *r.Culprit, rounds, true)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("profiled step: %w", err)
		}
		r.ProfileError = "the profiled step failed: " + err.Error() // the culprit stands
		return nil
	}
	k := 0
	if len(r.Steps) > 0 {
		k = r.Steps[len(r.Steps)-1].Step + 1
	}
	r.Steps = append(r.Steps, bisect.Step{Step: k, Commit: *r.Culprit, Files: len(r.Culprit.Files), Rounds: rounds, Outcome: out, Profile: true})
	if out.Verdict != compare.Slower {
		r.Message += fmt.Sprintf(" But the profiled step found %s %s against its parent %s (ratio %.3f), not slower: a step may have been wrong (noise, or a change near --min-change); re-run with more rounds.",
			r.Culprit.Short, out.Verdict, r.Parent.Short, out.Ratio)
	}
	r.Commands = append(r.Commands, fmt.Sprintf("tfbench profile --diff %s %s --test %s", profile.RunSelector(ar.dir, ar.base), profile.RunSelector(ar.dir, ar.new), b.test.Name))
	md, err := profileDiff(ar.dir, ar.base, ar.new, b.test.Name, filepath.Join(b.out, "diff.folded"))
	if err != nil {
		r.ProfileError = err.Error()
		return nil
	}
	r.Profile = md
	return nil
}

// profileDiffTop is how many areas and functions the bisect's profile
// diff lists.
const profileDiffTop = 10

// profileDiff is the profile diff of a profiled ab run's two sides on test
// (profile.DiffRuns: self time per request by area and by function, the
// top profileDiffTop), and their differential folded stacks written to
// folded (flamegraph.pl's difffolded format).
func profileDiff(runDir string, base, new model.ID, test, folded string) (string, error) {
	d, err := profile.DiffRuns(profile.RunSelector(runDir, base), profile.RunSelector(runDir, new), test)
	if err != nil {
		return "", err
	}
	var md bytes.Buffer
	if err := profile.WriteDiff(&md, d, profileDiffTop); err != nil {
		return "", err
	}
	var fb bytes.Buffer
	if err := profile.WriteFoldedDiff(&fb, d.A.Profile, d.B.Profile, d.A.Requests, d.B.Requests); err != nil {
		return "", err
	}
	if err := results.WriteFileAtomic(folded, fb.Bytes()); err != nil {
		return "", err
	}
	return md.String(), nil
}

// commands are the commands that reproduce r: the bisect itself, the
// range's adapter log and, once found, the culprit's diff and its A/B.
func (b *bisector) commands(r *bisect.Result, suitePath string, rounds int) []string {
	id := fmt.Sprintf("--adapter %s --test %s", b.adapter, b.test.Name)
	if r.N > 0 && len(b.test.Queries) == 1 {
		id += fmt.Sprintf(" --n %d", r.N)
	}
	cmds := []string{
		fmt.Sprintf("git log --oneline %s..%s -- %s", r.Good.Short, r.Bad.Short, strings.Join(r.Paths, " ")),
		fmt.Sprintf("tfbench bisect --good %s --bad %s %s --suite %s --rounds %d", r.Good.Short, r.Bad.Short, id, suitePath, rounds),
	}
	if r.Culprit != nil {
		trees := filepath.Join(b.out, "trees")
		cmds = append(cmds,
			fmt.Sprintf("git show %s -- %s", r.Culprit.Short, strings.Join(r.Paths, " ")),
			fmt.Sprintf("tfbench ab --suite %s --tests %s --rounds %d --frameworks-dir %s --new-dir %s --profile %s",
				suitePath, b.test.Name, rounds, filepath.Join(trees, r.Parent.Short, "frameworks"), filepath.Join(trees, r.Culprit.Short, "frameworks", b.name), b.adapter))
	}
	return cmds
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

func noneIfEmpty(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

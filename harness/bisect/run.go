package bisect

// Run: a whole bisect in production. Each commit's adapter is extracted
// under OUT/trees/<short>/ and every step is tfbench ab (harness/ab) of
// GOOD's build against the commit's; the last step profiles the culprit
// against its parent and diffs the two profiles (harness/profile).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tfbench/tfbench/harness/ab"
	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/profile"
	"github.com/tfbench/tfbench/harness/progress"
	"github.com/tfbench/tfbench/harness/run"
	"github.com/tfbench/tfbench/harness/suite"
)

// DefaultAlpha is a step's α: lower than compare's 0.05 because a wrong
// step sends the search the wrong way for good; 5 rounds a side reach it
// (2/252 = 0.0079).
const DefaultAlpha = 0.01

// DiffTop is how many areas and functions the profile diff lists.
const DiffTop = 10

// FoldedFile is the differential folded stacks of the profiled step
// (flamegraph.pl's difffolded format), in the output folder.
const FoldedFile = "diff.folded"

// Config is one bisect. Test is the suite's test, its Queries narrowed to
// the one N measured; Rounds the rounds of a step (a retry has twice as
// many); Out the output folder ("": WORK/bisect/<good7>-<bad7>-<adapter>-<test>).
// Log gets one line per step (and the runs' progress); Progress, when set,
// is each run's progress step; Equivalence gets ab's byte-equivalence lines.
type Config struct {
	Repo, Good, Bad  string
	Adapter          string // NAME or NAME:VARIANT
	Suite            *suite.Suite
	SuitePath        string
	Test             suite.Test
	Rounds           int
	Compare          compare.Options
	Work, Out        string
	Profile          bool
	Command          []string
	Log, Equivalence io.Writer
	Progress         func(progress.Step)
}

// Run bisects c: the range, the search (Search), the dependency bump of a
// culprit, then (with c.Profile) the profiled step and its diff, writing
// bisect.md and bisect.json into r.Out after every step. The Result is
// returned as far as it went; on an interrupt its Status is Interrupted
// and the error says where the steps are.
func Run(ctx context.Context, c Config) (*Result, error) {
	if c.Rounds < compare.MinRounds {
		return nil, fmt.Errorf("bisect needs at least %d interleaved rounds a step, got %d (set --rounds)", compare.MinRounds, c.Rounds)
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
	name, _, _ := strings.Cut(c.Adapter, ":")
	paths := []string{"frameworks/" + name}
	g := Git{Dir: c.Repo}
	good, list, err := g.Range(ctx, c.Good, c.Bad, paths)
	if err != nil {
		return nil, err
	}
	bad := list[len(list)-1]
	for _, end := range []struct {
		name string
		c    Commit
	}{{"GOOD", good}, {"BAD", bad}} {
		if end.c.Key == "" {
			return nil, fmt.Errorf("%s has no %s at %s %s: both ends need the adapter", c.Repo, paths[0], end.name, end.c.Short)
		}
	}
	if c.Out == "" {
		c.Out = filepath.Join(c.Work, "bisect", fmt.Sprintf("%.7s-%.7s-%s-%s", good.SHA, bad.SHA, strings.ReplaceAll(c.Adapter, ":", "-"), c.Test.Name))
	}
	r := New(c.Adapter, c.Test.Name, c.Test.Headline(), paths, good, list)
	r.Suite, r.Options, r.Out = c.SuitePath, c.Compare, c.Out
	b := &runner{c: c, g: g, name: name}
	// The adapter and its variant at both ends, before anything is measured.
	if len(r.Candidates) > 0 && bad.Key != good.Key {
		if _, _, err := b.targets(ctx, good, bad); err != nil {
			return nil, fmt.Errorf("GOOD %s and BAD %s: %w", good.Short, bad.Short, err)
		}
	}
	r.Commands = b.commands(r)
	fmt.Fprintf(c.Log, "bisect %s on %s: %d commits in %s..%s, %d change %s; writing %s\n",
		c.Adapter, c.Test.Name, len(list), good.Short, bad.Short, len(r.Candidates), paths[0], filepath.Join(c.Out, MarkdownFile))
	update := func(r *Result) error { return Write(c.Out, r) }
	if err := Search(ctx, r, c.Rounds, b.measure(good), update); err != nil {
		if ctx.Err() != nil {
			r.Status, r.Message = Interrupted, "Interrupted: "+r.Message
			return r, errors.Join(fmt.Errorf("interrupted; the steps measured so far are in %s", filepath.Join(c.Out, MarkdownFile)), update(r))
		}
		return r, err
	}
	if r.Status != Found {
		return r, nil
	}
	if r.Bump, err = DependencyBump(ctx, g, r.Parent.SHA, r.Culprit.SHA, r.Culprit.Files); err != nil {
		return r, err
	}
	r.Commands = b.commands(r)
	if c.Profile {
		if err := b.profile(ctx, r); err != nil {
			return r, errors.Join(err, update(r))
		}
	}
	return r, update(r)
}

// runner measures the steps of one Run.
type runner struct {
	c    Config
	g    Git
	name string // the adapter's folder name
}

// tree extracts commit's adapter and returns its frameworks folder.
func (b *runner) tree(ctx context.Context, out string, c Commit) (string, error) {
	dir := filepath.Join(out, "trees", c.Short)
	if err := b.g.Extract(ctx, c.SHA, []string{"frameworks/" + b.name}, dir); err != nil {
		return "", err
	}
	return filepath.Join(dir, "frameworks"), nil
}

// targets extracts base's and next's adapter and resolves the adapter (and
// its variant) in each: ab's two builds.
func (b *runner) targets(ctx context.Context, base, next Commit) (run.Target, run.Target, error) {
	baseDir, err := b.tree(ctx, b.c.Out, base)
	if err != nil {
		return run.Target{}, run.Target{}, err
	}
	nextDir, err := b.tree(ctx, b.c.Out, next)
	if err != nil {
		return run.Target{}, run.Target{}, err
	}
	specs, err := framework.Discover(baseDir)
	if err != nil {
		return run.Target{}, run.Target{}, err
	}
	return ab.Targets(specs, baseDir, b.c.Adapter, "", filepath.Join(nextDir, b.name))
}

// abRun is one step's run: its folder and the two sides' IDs in it.
type abRun struct {
	dir       string
	base, new model.ID
}

// ab A/Bs base's tree against next's in rounds rounds (profiled when
// profiled), and returns the test's row as an Outcome and the run.
func (b *runner) ab(ctx context.Context, base, next Commit, rounds int, profiled bool) (Outcome, abRun, error) {
	bt, nt, err := b.targets(ctx, base, next)
	if err != nil {
		return Outcome{}, abRun{}, err
	}
	cfg := ab.Config{Base: bt, New: nt, Compare: b.c.Compare, Out: b.c.Equivalence}
	cfg.Run.Suite, cfg.Run.Tests, cfg.Run.WorkDir, cfg.Run.Rounds = b.c.Suite, []suite.Test{b.c.Test}, b.c.Work, rounds
	cfg.Run.Profile = profiled
	cfg.Run.Log, cfg.Run.Progress, cfg.Run.Command = b.c.Log, b.c.Progress, b.c.Command
	f, path, t, err := ab.Run(ctx, cfg)
	if err != nil {
		return Outcome{}, abRun{}, err
	}
	for _, row := range t.Rows {
		if row.Test == b.c.Test.Name {
			ar := abRun{dir: filepath.Dir(path), base: bt.ID(), new: nt.ID()}
			return Outcome{Verdict: row.Verdict, Ratio: row.Ratio, P: row.P, RunID: f.RunID, Why: row.Why}, ar, nil
		}
	}
	return Outcome{}, abRun{}, fmt.Errorf("run %s: no row of %s %s in the comparison", f.RunID, bt.ID(), b.c.Test.Name)
}

// measure is Search's Measure: good's tree against c's.
func (b *runner) measure(good Commit) Measure {
	return func(ctx context.Context, c Commit, rounds int) (Outcome, error) {
		fmt.Fprintf(b.c.Log, "step: %s against GOOD, %d rounds\n", c.Label(), rounds)
		out, _, err := b.ab(ctx, good, c, rounds, false)
		if err == nil {
			fmt.Fprintf(b.c.Log, "step: %s: %s, ratio %.3f, p %s (run %s)\n", c.Short, out.Verdict, out.Ratio, pText(out.P), out.RunID)
		}
		return out, err
	}
}

// profile runs the last step: the culprit's parent tree against the
// culprit's with --profile, then the profile diff of its two sides into
// r.Profile and OUT/diff.folded. A failure other than an interrupt is
// r.ProfileError: the culprit is named all the same.
func (b *runner) profile(ctx context.Context, r *Result) error {
	rounds := b.c.Rounds
	fmt.Fprintf(b.c.Log, "profile: %s against %s, %d rounds with --profile\n", r.Culprit.Label(), r.Parent.Short, rounds)
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
	r.Steps = append(r.Steps, Step{Step: k, Commit: *r.Culprit, Files: len(r.Culprit.Files), Rounds: rounds, Outcome: out, Profile: true})
	if out.Verdict != compare.Slower {
		r.Message += fmt.Sprintf(" But the profiled step found %s %s against its parent %s (ratio %.3f), not slower: a step may have been wrong (noise, or a change near --min-change); re-run with more rounds.",
			r.Culprit.Short, out.Verdict, r.Parent.Short, out.Ratio)
	}
	a, n := profile.RunSelector(ar.dir, ar.base), profile.RunSelector(ar.dir, ar.new)
	r.Commands = append(r.Commands, fmt.Sprintf("tfbench profile --diff %s %s --test %s", a, n, b.c.Test.Name))
	md, err := diff(a, n, b.c.Test.Name, filepath.Join(b.c.Out, FoldedFile))
	if err != nil {
		r.ProfileError = err.Error()
		return nil
	}
	r.Profile = md
	return nil
}

// diff is the profile diff of two profiled sides on test (self time per
// request by area and by function, the top DiffTop) as markdown, and their
// differential folded stacks written to folded.
func diff(a, b profile.Selector, test, folded string) (string, error) {
	d, err := profile.DiffRuns(a, b, test)
	if err != nil {
		return "", err
	}
	var md bytes.Buffer
	if err := profile.WriteDiff(&md, d, DiffTop); err != nil {
		return "", err
	}
	if err := d.WriteFolded(folded); err != nil {
		return "", err
	}
	return md.String(), nil
}

// commands are the commands that reproduce r: the bisect itself, the
// range's adapter log and, once found, the culprit's diff and its A/B.
func (b *runner) commands(r *Result) []string {
	id := fmt.Sprintf("--adapter %s --test %s", b.c.Adapter, b.c.Test.Name)
	if r.N > 0 && len(b.c.Test.Queries) == 1 {
		id += " --n " + strconv.Itoa(r.N)
	}
	cmds := []string{
		fmt.Sprintf("git log --oneline %s..%s -- %s", r.Good.Short, r.Bad.Short, strings.Join(r.Paths, " ")),
		fmt.Sprintf("tfbench bisect --good %s --bad %s %s --suite %s --rounds %d", r.Good.Short, r.Bad.Short, id, b.c.SuitePath, b.c.Rounds),
	}
	if r.Culprit != nil {
		trees := filepath.Join(b.c.Out, "trees")
		cmds = append(cmds,
			fmt.Sprintf("git show %s -- %s", r.Culprit.Short, strings.Join(r.Paths, " ")),
			fmt.Sprintf("tfbench ab --suite %s --tests %s --rounds %d --frameworks-dir %s --new-dir %s --profile %s",
				b.c.SuitePath, b.c.Test.Name, b.c.Rounds, filepath.Join(trees, r.Parent.Short, "frameworks"), filepath.Join(trees, r.Culprit.Short, "frameworks", b.name), b.c.Adapter))
	}
	return cmds
}

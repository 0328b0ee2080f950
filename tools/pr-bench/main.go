// Command pr-bench is the pull-request benchmark (docs/ci.md):
// it checks out BASE and HEAD as git worktrees, measures what the diff
// touches on this one machine with the two sides interleaved, and writes
// OUT/comment.md (the sticky comment's markdown, also printed) and OUT/exit
// (the check: 1 when a row is slower past .github/pr-bench.yaml's
// fail_slower_than, 2 when a measurement failed, else 0).
//
//	pr-bench --base REF [--head REF] [--out DIR] [--suite FILE] [--rounds N] [--config FILE] [--adapters LIST] [--harness] [--report-url URL] [--work DIR]
//
// A change under frameworks/X/ runs `tfbench ab X` (base's adapter vs
// head's, head's tfbench); a change to harness/, cmd/, internal/, dataset/,
// suites/, go.mod or go.sum runs base's tfbench and head's in alternating
// rounds on the same adapters and compares them (basis rps); anything else
// is not measured. --harness forces the harness mode (on --adapters or the
// config's), --adapters alone the ab mode on LIST, --shard I/N the ab mode
// on that slice of the adapters (nightly:ab). pr-bench exits 0 once OUT is
// written, 2 on bad flags, when BASE or HEAD cannot be resolved, or after an
// interrupt (OUT then says what was measured).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/run"
	"github.com/tfbench/tfbench/harness/suite"
)

const minRounds = compare.MinRounds

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(cli(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

type options struct {
	base, head, out, suite, config, adapters, reportURL, work string
	shard, title                                              string
	rounds                                                    int
	harness                                                   bool
}

func cli(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var o options
	fs := flag.NewFlagSet("pr-bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.base, "base", "", "base git ref (required), e.g. origin/main")
	fs.StringVar(&o.head, "head", "HEAD", "head git ref")
	fs.StringVar(&o.out, "out", ".tfbench/pr-bench", "folder for comment.md, exit, the compare tables and JSON, round results and logs")
	fs.StringVar(&o.suite, "suite", "suites/pr.yaml", "suite file, relative to the repository root (head's copy is used by both sides)")
	fs.IntVar(&o.rounds, "rounds", 0, fmt.Sprintf("interleaved rounds a side, at least %d (default: the config's, else the suite's)", minRounds))
	fs.StringVar(&o.config, "config", ".github/pr-bench.yaml", "threshold file (fail_slower_than, alpha, min_change, rounds, adapters)")
	fs.StringVar(&o.adapters, "adapters", "", "comma-separated adapters: with --harness the ones measured, alone the adapters compared by tfbench ab")
	fs.StringVar(&o.shard, "shard", "", "I/N: tfbench ab on the I-th of N slices of head's default variants but go-stdlib (bench --shard's cut; the nightly's nightly:ab)")
	fs.StringVar(&o.title, "title", defaultTitle, "the comment's title")
	fs.BoolVar(&o.harness, "harness", false, "measure base's tfbench against head's whatever changed")
	fs.StringVar(&o.reportURL, "report-url", "", "link to the full report in the comment (e.g. the workflow run)")
	fs.StringVar(&o.work, "work", "", "scratch folder for the worktrees and builds, removed at the end (default: a new temporary folder)")
	if err := fs.Parse(args); err != nil {
		return exitError
	}
	if o.base == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "pr-bench: --base REF is required and no arguments are taken")
		fs.Usage()
		return exitError
	}
	c, err := measure(ctx, o, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "pr-bench: %v\n", err)
		if c == nil {
			return exitError
		}
	}
	md := c.Markdown()
	if werr := writeOut(o.out, md, c); werr != nil {
		fmt.Fprintf(stderr, "pr-bench: %v\n", werr)
		return exitError
	}
	fmt.Fprint(stdout, md)
	fmt.Fprintf(stderr, "pr-bench: %s and %s written; check status %d\n",
		filepath.Join(o.out, "comment.md"), filepath.Join(o.out, "exit"), c.Exit())
	if ctx.Err() != nil {
		return exitError
	}
	return 0
}

// measure measures and returns the comment. An error with a nil Comment came
// before anything could be said about the pull request (flags, refs); with
// a Comment, the Comment names it.
func measure(ctx context.Context, o options, log io.Writer) (*Comment, error) {
	repo, err := git(ctx, ".", "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, err
	}
	cfgPath := o.config
	cfg, err := LoadConfig(filepath.Join(repo, cfgPath))
	if err != nil {
		return nil, err
	}
	baseSHA, err := git(ctx, repo, "rev-parse", "--verify", o.base+"^{commit}")
	if err != nil {
		return nil, err
	}
	headSHA, err := git(ctx, repo, "rev-parse", "--verify", o.head+"^{commit}")
	if err != nil {
		return nil, err
	}
	// The base measured is the merge base, what head's changes apply to:
	// on GitHub (head the merge commit) the base branch's tip, locally the
	// fork point when the base branch moved on.
	if baseSHA, err = git(ctx, repo, "merge-base", baseSHA, headSHA); err != nil {
		return nil, err
	}
	paths, err := changed(ctx, repo, baseSHA, headSHA)
	if err != nil {
		return nil, err
	}
	plan := Classify(paths)
	adapters := cfg.Adapters
	if o.adapters != "" {
		adapters = strings.Split(o.adapters, ",")
	}
	switch {
	case o.shard != "":
		items, err := shardItems(filepath.Join(repo, "frameworks"), o.shard)
		if err != nil {
			return nil, err
		}
		plan = Plan{Adapters: items}
	case o.harness:
		plan = Plan{Harness: true}
	case o.adapters != "":
		plan = Plan{Adapters: adapters}
	}
	c := &Comment{Title: o.title, Base: refText(o.base, baseSHA), Head: refText(o.head, headSHA), Plan: plan, Config: cfg,
		ConfigPath: cfgPath, ReportURL: o.reportURL}
	if !plan.Measures() {
		return c, nil
	}
	fail := func(err error) (*Comment, error) {
		c.Jobs = append(c.Jobs, Job{Title: "Setup", Err: err.Error()})
		return c, err
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return nil, err
	}
	for _, stale := range []string{"rounds", "logs"} {
		if err := os.RemoveAll(filepath.Join(o.out, stale)); err != nil {
			return nil, err
		}
	}
	work := o.work
	if work == "" {
		if work, err = os.MkdirTemp("", "pr-bench-"); err != nil {
			return fail(err)
		}
	} else if work, err = filepath.Abs(work); err != nil {
		return fail(err)
	}
	out, err := filepath.Abs(o.out)
	if err != nil {
		return fail(err)
	}
	b := &bench{repo: repo, work: work, out: out, baseSHA: baseSHA, headSHA: headSHA, cfg: cfg, log: log,
		baseDir: filepath.Join(work, "base"), headDir: filepath.Join(work, "head"),
		baseBin: filepath.Join(work, "bin", "base-tfbench"), headBin: filepath.Join(work, "bin", "head-tfbench")}
	defer func() {
		if err := b.cleanup(); err != nil {
			fmt.Fprintf(log, "pr-bench: cleanup: %v\n", err)
		}
	}()
	fmt.Fprintf(log, "pr-bench: base %s, head %s; worktrees and builds in %s\n", c.Base, c.Head, work)
	for _, s := range []struct{ dir, sha string }{{b.baseDir, baseSHA}, {b.headDir, headSHA}} {
		if err := b.checkout(ctx, s.dir, s.sha); err != nil {
			return fail(err)
		}
	}
	b.suite = filepath.Join(b.headDir, filepath.FromSlash(o.suite))
	s, err := suite.Load(b.suite)
	if err != nil {
		return fail(err)
	}
	b.rounds = firstNonZero(o.rounds, cfg.Rounds, s.Rounds)
	if b.rounds < minRounds {
		return fail(fmt.Errorf("%d rounds: compare needs at least %d a side (--rounds, rounds in %s, or the suite's)", b.rounds, minRounds, cfgPath))
	}
	c.Rounds = b.rounds
	fmt.Fprintf(log, "pr-bench: building tfbench of head%s\n", map[bool]string{true: " and base", false: ""}[plan.Harness])
	if err := build(ctx, b.headDir, b.headBin); err != nil {
		return fail(err)
	}
	if plan.Harness {
		if err := build(ctx, b.baseDir, b.baseBin); err != nil {
			return fail(err)
		}
		c.Jobs = append(c.Jobs, b.harness(ctx, adapters))
	}
	for _, name := range plan.Adapters {
		if ctx.Err() != nil {
			break
		}
		c.Jobs = append(c.Jobs, b.adapter(ctx, name))
	}
	if ctx.Err() != nil {
		return c, fmt.Errorf("interrupted: %w", ctx.Err())
	}
	return c, nil
}

// writeOut writes OUT/comment.md, OUT/compare.json (JobsJSON) and
// OUT/exit atomically.
func writeOut(dir, md string, c *Comment) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(dir, "comment.md"), []byte(md)); err != nil {
		return err
	}
	data, err := c.JobsJSON()
	if err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(dir, "compare.json"), data); err != nil {
		return err
	}
	return writeAtomic(filepath.Join(dir, "exit"), []byte(strconv.Itoa(c.Exit())+"\n"))
}

// shardItems are the NAME:VARIANT of shard I/N of the default variants in
// dir (bench --shard's cut, run.ShardTargets) without the reference, which
// every shard holds.
func shardItems(dir, shard string) ([]string, error) {
	s, err := model.ParseShard(shard)
	if err != nil {
		return nil, err
	}
	specs, err := framework.Discover(dir)
	if err != nil {
		return nil, err
	}
	all, err := run.Select(specs, nil, dir)
	if err != nil {
		return nil, err
	}
	targets, err := run.ShardTargets(s, all, specs, dir)
	if err != nil {
		return nil, err
	}
	var items []string
	for _, t := range targets {
		if id := t.ID(); id != model.Reference {
			items = append(items, id.Framework+":"+id.Variant)
		}
	}
	return items, nil
}

// refText is "origin/main (1a2b3c4d)", or the short SHA alone when ref is one.
func refText(ref, sha string) string {
	short := sha[:min(len(sha), 8)]
	if strings.HasPrefix(sha, ref) {
		return "`" + short + "`"
	}
	return fmt.Sprintf("`%s` (%s)", ref, short)
}

func firstNonZero(xs ...int) int {
	for _, x := range xs {
		if x != 0 {
			return x
		}
	}
	return 0
}

// Command publish is go tool task publish (docs/publishing.md): at one clean
// commit it runs the main suite, the SSR suite and the SSR extras suite,
// renders reports/ from those three runs alone (the main docs-site pages,
// ssr/, ssr-extra/, engine/ and one index naming the commit, date and runs)
// in a staging folder under .tfbench/publish/, and swaps that folder in for
// reports/ at the end, so that nothing else survives there. A dirty tree is
// refused before anything runs; a failed or interrupted step leaves
// reports/ as it was.
//
//	publish [--tfbench BIN] [--out DIR] [--work DIR] [--suite FILE] [--ssr-suite FILE] [--extra-suite FILE] [--frameworks LIST] [--main-run DIR --ssr-run DIR --extra-run DIR]
//
// --main-run, --ssr-run and --extra-run publish three complete runs already
// made (folders under .tfbench/runs/) instead of measuring: they must
// record the clean HEAD commit too. Exit status 0 once reports/ is replaced, 1 when it is not,
// 2 on bad usage.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tfbench/tfbench/harness/results"
)

func main() {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	p := &publisher{stdout: os.Stdout, stderr: os.Stderr}
	go p.forward(sigs)
	os.Exit(p.cli(os.Args[1:]))
}

// options are publish's flags (package doc).
type options struct {
	tfbench, out, work, suite, ssrSuite, extraSuite, frameworks, mainRun, ssrRun, extraRun string
}

// publisher runs one publish; it forwards the signals it gets to the
// command it is running (in a process group of its own, so that a
// terminal's Ctrl-C reaches it once) and remembers that it was stopped.
type publisher struct {
	stdout, stderr io.Writer
	now            func() time.Time // the index's date; time.Now when nil

	mu          sync.Mutex
	child       *os.Process
	interrupted bool
}

func (p *publisher) cli(args []string) int {
	var o options
	fs := flag.NewFlagSet("publish", flag.ContinueOnError)
	fs.SetOutput(p.stderr)
	fs.StringVar(&o.tfbench, "tfbench", ".tfbench/bin/tfbench", "where to build the tfbench CLI (go build ./cmd/tfbench)")
	fs.StringVar(&o.out, "out", "reports", "the folder to replace")
	fs.StringVar(&o.work, "work", ".tfbench", "tfbench's work folder: runs/ and publish/ (the staging folder)")
	fs.StringVar(&o.suite, "suite", "suites/tfb.yaml", "the main suite")
	fs.StringVar(&o.ssrSuite, "ssr-suite", "suites/ssr.yaml", "the SSR suite")
	fs.StringVar(&o.extraSuite, "extra-suite", "suites/ssr-extra.yaml", "the SSR extras suite (the streamed page, memory and GC), run after the SSR suite")
	fs.StringVar(&o.frameworks, "frameworks", "", "passed to every run's --frameworks (default: every default variant); the index then says the runs are a subset")
	fs.StringVar(&o.mainRun, "main-run", "", "publish this complete run folder of the main suite instead of measuring (with --ssr-run and --extra-run)")
	fs.StringVar(&o.ssrRun, "ssr-run", "", "publish this complete run folder of the SSR suite instead of measuring (with --main-run and --extra-run)")
	fs.StringVar(&o.extraRun, "extra-run", "", "publish this complete run folder of the SSR extras suite instead of measuring (with --main-run and --ssr-run)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || (o.mainRun == "") != (o.ssrRun == "") || (o.mainRun == "") != (o.extraRun == "") {
		fmt.Fprintln(p.stderr, "usage: publish [--tfbench BIN] [--out DIR] [--work DIR] [--suite FILE] [--ssr-suite FILE] [--extra-suite FILE] [--frameworks LIST] [--main-run DIR --ssr-run DIR --extra-run DIR]")
		return 2
	}
	if err := p.publish(o); err != nil {
		fmt.Fprintln(p.stderr, "publish:", err)
		return 1
	}
	return 0
}

// publish is the whole job (package doc).
func (p *publisher) publish(o options) error {
	head, err := cleanHead(".")
	if err != nil {
		return err
	}
	fmt.Fprintf(p.stdout, "publish: commit %s, clean; %s/ is replaced once the three runs completed and everything is rendered\n", head, strings.TrimSuffix(o.out, "/"))
	notReplaced := func(err error) error { return fmt.Errorf("%w: %s/ not replaced", err, strings.TrimSuffix(o.out, "/")) }

	if err := p.run("go", "build", "-o", o.tfbench, "./cmd/tfbench"); err != nil {
		return notReplaced(err)
	}
	dirs := []string{o.mainRun, o.ssrRun, o.extraRun} // main, SSR, SSR extras
	if o.mainRun == "" {
		for i, suite := range []string{o.suite, o.ssrSuite, o.extraSuite} {
			if dirs[i], err = p.bench(o, suite); err != nil {
				return notReplaced(err)
			}
		}
	}
	var runs []*results.File
	for _, dir := range dirs {
		f, err := checkRun(dir, head)
		if err != nil {
			return notReplaced(err)
		}
		runs = append(runs, f)
	}

	if err := os.MkdirAll(filepath.Join(o.work, "publish"), 0o755); err != nil {
		return notReplaced(err)
	}
	stage, err := os.MkdirTemp(filepath.Join(o.work, "publish"), "reports-")
	if err != nil {
		return notReplaced(err)
	}
	defer os.RemoveAll(stage) // after the swap it holds the old reports/
	if err := os.Chmod(stage, 0o755); err != nil {
		return notReplaced(err)
	}
	for i, sub := range []string{"", "ssr", "ssr-extra"} {
		dir := filepath.Join(stage, sub)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return notReplaced(err)
		}
		latest := filepath.Join(dir, "latest.json")
		if err := copyFile(filepath.Join(dirs[i], "results.json"), latest); err != nil {
			return notReplaced(err)
		}
		if err := p.run(o.tfbench, "report", "--results", latest, "--out", filepath.Join(dir, "latest.md")); err != nil {
			return notReplaced(err)
		}
		if err := p.run(o.tfbench, "report", "--results", latest, "--out", dir+string(filepath.Separator)); err != nil {
			return notReplaced(err)
		}
	}
	var page strings.Builder
	if err := p.runTo(&page, "go", "run", "./tools/engine-ratios", "--markdown", filepath.Join(stage, "latest.json"), filepath.Join(stage, "ssr", "latest.json")); err != nil {
		return notReplaced(err)
	}
	if err := writeFile(filepath.Join(stage, "engine", "index.md"), page.String()); err != nil {
		return notReplaced(err)
	}
	now := time.Now
	if p.now != nil {
		now = p.now
	}
	if err := addIndex(filepath.Join(stage, "index.md"), head, now().UTC(), runs[0], runs[1], runs[2]); err != nil {
		return notReplaced(err)
	}
	if p.stopped() {
		return notReplaced(errors.New("interrupted"))
	}
	if err := swap(stage, o.out); err != nil {
		return notReplaced(err)
	}
	fmt.Fprintf(p.stdout, "publish: %s/ replaced: runs %s (%s), %s (%s) and %s (%s) at commit %s; commit it with git add -A %s\n",
		strings.TrimSuffix(o.out, "/"), runs[0].RunID, runs[0].Suite.Name, runs[1].RunID, runs[1].Suite.Name, runs[2].RunID, runs[2].Suite.Name, head, o.out)
	return nil
}

// cleanHead is HEAD's commit in the work tree at dir, or an error when git
// status --porcelain lists anything (the notion of dirty results.Source
// records): reports/ comes from one commit.
func cleanHead(dir string) (string, error) {
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("not a git work tree with a commit (git %s: %v: %s)", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
		}
		return string(out), nil
	}
	status, err := git("status", "--porcelain")
	if err != nil {
		return "", err
	}
	if lines := strings.Split(strings.TrimRight(status, "\n"), "\n"); status != "" {
		more := ""
		if len(lines) > 5 {
			lines, more = lines[:5], fmt.Sprintf(" and %d more", len(lines)-5)
		}
		return "", fmt.Errorf("the work tree has uncommitted changes (%s%s): reports/ is published from one clean commit; commit or stash them first", strings.Join(lines, ", "), more)
	}
	head, err := git("rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(head), nil
}

// bench runs tfbench bench on suite (and --frameworks when set) and returns
// its run folder under work/runs: the one new folder whose results.json
// records this command line.
func (p *publisher) bench(o options, suite string) (string, error) {
	args := []string{"bench", "--suite", suite}
	if o.frameworks != "" {
		args = append(args, "--frameworks", o.frameworks)
	}
	runs := filepath.Join(o.work, "runs")
	before := map[string]bool{}
	if entries, err := os.ReadDir(runs); err == nil {
		for _, e := range entries {
			before[e.Name()] = true
		}
	}
	if err := p.run(o.tfbench, args...); err != nil {
		return "", err
	}
	entries, err := os.ReadDir(runs)
	if err != nil {
		return "", err
	}
	command := append([]string{"tfbench"}, args...)
	var found []string
	for _, e := range entries {
		if before[e.Name()] || !e.IsDir() {
			continue
		}
		dir := filepath.Join(runs, e.Name())
		if f, err := results.Read(filepath.Join(dir, "results.json")); err == nil && slices.Equal(f.Command, command) {
			found = append(found, dir)
		}
	}
	if len(found) != 1 {
		return "", fmt.Errorf("%d new runs of `%s` in %s, want 1", len(found), strings.Join(command, " "), runs)
	}
	return found[0], nil
}

// checkRun reads dir/results.json: a complete run measured at the clean
// commit head, else an error saying why.
func checkRun(dir, head string) (*results.File, error) {
	f, err := results.Read(filepath.Join(dir, "results.json"))
	if err != nil {
		return nil, err
	}
	switch {
	case f.Status != results.Complete:
		return nil, fmt.Errorf("run %s did not complete (status %s)", f.RunID, f.Status)
	case f.Source == nil:
		return nil, fmt.Errorf("run %s records no commit", f.RunID)
	case f.Source.Commit != head || f.Source.Dirty:
		return nil, fmt.Errorf("run %s was measured at %s, not at the clean commit %s", f.RunID, f.Source, head)
	}
	return f, nil
}

// addIndex puts the publication's block under the title and the provenance
// line (the page's first two paragraphs, which every page opens with) of
// the main site's index.md: the commit, the date, each of the three runs and
// links to the SSR, SSR extras and engine pages.
func addIndex(path, head string, date time.Time, main, ssr, extra *results.File) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	heading, rest, _ := strings.Cut(string(data), "\n\n")
	line, rest, _ := strings.Cut(rest, "\n")
	title := heading + "\n\n" + line
	runText := func(f *results.File) string {
		rounds := fmt.Sprintf("%d rounds", f.Suite.Rounds)
		if f.Suite.Rounds == 1 {
			rounds = "1 round"
		}
		return fmt.Sprintf("run `%s` (`%s`, %s, started %s)", f.RunID, strings.Join(f.Command, " "), rounds, f.Started.UTC().Format("2006-01-02 15:04 UTC"))
	}
	block := fmt.Sprintf(`
Published by `+"`go tool task publish`"+` on %s from commit `+"`%s`"+`; every file of this folder comes from these three runs of that commit:

- the main suite, %s: this page, one page per test, [latest.md](latest.md), [latest.json](latest.json), [results.csv](results.csv);
- the SSR suite, %s: [ssr/](ssr/index.md);
- the SSR extras (the streamed page, memory and GC per request), %s: [ssr-extra/](ssr-extra/index.md);
- the render engine against go-stdlib and node-http, from the main and SSR runs: [engine/](engine/index.md).
`, date.Format("2006-01-02"), head, runText(main), runText(ssr), runText(extra))
	return writeFile(path, title+"\n"+block+rest)
}

// run runs name args with its output on p's, in a process group of its
// own; an error says which command failed and how.
func (p *publisher) run(name string, args ...string) error {
	return p.runTo(p.stdout, name, args...)
}

// runTo is run with the command's standard output on stdout.
func (p *publisher) runTo(stdout io.Writer, name string, args ...string) error {
	if p.stopped() {
		return errors.New("interrupted")
	}
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = stdout, p.stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: %w", strings.Join(append([]string{name}, args...), " "), err)
	}
	p.mu.Lock()
	p.child = cmd.Process
	p.mu.Unlock()
	err := cmd.Wait()
	p.mu.Lock()
	p.child = nil
	p.mu.Unlock()
	if p.stopped() {
		return errors.New("interrupted")
	}
	if err != nil {
		return fmt.Errorf("`%s` failed: %w", strings.Join(append([]string{filepath.Base(name)}, args...), " "), err)
	}
	return nil
}

// forward sends each signal from sigs to the running command's process
// group (a second Ctrl-C stays a second one for tfbench bench).
func (p *publisher) forward(sigs <-chan os.Signal) {
	for s := range sigs {
		p.mu.Lock()
		p.interrupted = true
		if p.child != nil {
			syscall.Kill(-p.child.Pid, s.(syscall.Signal))
		}
		p.mu.Unlock()
	}
}

func (p *publisher) stopped() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.interrupted
}

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}

func writeFile(path, data string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(data), 0o644)
}

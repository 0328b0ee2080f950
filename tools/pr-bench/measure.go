package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
)

// bench is one pull request's measurement: base and head checked out as
// git worktrees under work, tfbench built from each, results under out.
type bench struct {
	repo, work, out  string
	baseSHA, headSHA string
	baseDir, headDir string // worktrees
	baseBin, headBin string // tfbench built from each
	suite            string // absolute path of the suite file (head's)
	rounds           int
	cfg              Config
	log              io.Writer // progress lines (stderr)
	worktrees        []string
}

// git runs git in dir and returns its trimmed standard output; an error
// carries git's standard error.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// changed lists the paths that differ between the merge base of base and
// head, and head (git diff --name-only BASE...HEAD).
func changed(ctx context.Context, repo, base, head string) ([]string, error) {
	out, err := git(ctx, repo, "diff", "--name-only", base+"..."+head)
	if err != nil || out == "" {
		return nil, err
	}
	return strings.Split(out, "\n"), nil
}

// checkout adds a detached worktree of sha at dir.
func (b *bench) checkout(ctx context.Context, dir, sha string) error {
	if _, err := git(ctx, b.repo, "worktree", "add", "--detach", dir, sha); err != nil {
		return err
	}
	b.worktrees = append(b.worktrees, dir)
	return nil
}

// cleanup removes the worktrees and the work folder; it runs on a fresh
// context so that it also runs after an interrupt.
func (b *bench) cleanup() error {
	var errs []error
	for _, dir := range b.worktrees {
		if _, err := git(context.Background(), b.repo, "worktree", "remove", "--force", dir); err != nil {
			errs = append(errs, err)
		}
	}
	if _, err := git(context.Background(), b.repo, "worktree", "prune"); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(append(errs, os.RemoveAll(b.work))...)
}

// build compiles tfbench from the worktree dir into bin.
func build(ctx context.Context, dir, bin string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/tfbench")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/tfbench in %s: %v\n%s", dir, err, out)
	}
	return nil
}

// tfbench runs bin with args in dir, its output into the log file; exit
// status 1 of ab and compare (a row slower) is not an error. An interrupt reaches tfbench as
// SIGINT so that it stops its servers before it exits.
func tfbench(ctx context.Context, dir, logPath, bin string, args ...string) error {
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		return err
	}
	logf, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer logf.Close()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGINT) }
	cmd.WaitDelay = 30 * time.Second
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 && args[0] != "bench" && ctx.Err() == nil {
		return nil // ab and compare: a row is slower
	}
	if ctx.Err() != nil {
		return fmt.Errorf("tfbench %s: interrupted (log: %s)", args[0], logPath)
	}
	if err != nil {
		return fmt.Errorf("tfbench %s: %v (log: %s)%s", args[0], err, logPath, tailOf(logPath))
	}
	return nil
}

// tailOf is the last lines of a log, indented, for an error message.
func tailOf(path string) string {
	data, err := os.ReadFile(path)
	if err != nil || len(data) == 0 {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	return ":\n    " + strings.Join(lines, "\n    ")
}

// readCompare reads compare's JSON and markdown written to OUT.
func readCompare(jsonPath, mdPath string) (*compare.Table, string, error) {
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		return nil, "", err
	}
	var t compare.Table
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, "", fmt.Errorf("%s: %v", jsonPath, err)
	}
	md, err := os.ReadFile(mdPath)
	if err != nil {
		return nil, "", err
	}
	return &t, string(md), nil
}

// adapter compares base's build of adapter item (NAME or NAME:VARIANT)
// with head's: tfbench ab (head's binary) with base's frameworks folder and
// --new-dir head's copy of the adapter.
func (b *bench) adapter(ctx context.Context, item string) Job {
	j := Job{Title: fmt.Sprintf("Adapter %s: base build vs head build (tfbench ab, interleaved)", item)}
	name, _, _ := model.CutSelector(item)
	file := strings.ReplaceAll(item, ":", "-")
	inBase := exists(filepath.Join(b.baseDir, "frameworks", name, "framework.yaml"))
	inHead := exists(filepath.Join(b.headDir, "frameworks", name, "framework.yaml"))
	switch {
	case !inHead:
		j.Note = fmt.Sprintf("frameworks/%s/framework.yaml is not in head: nothing to measure.", name)
		return j
	case !inBase:
		j.Note = fmt.Sprintf("frameworks/%s is new in this pull request: no base build to compare with.", name)
		return j
	}
	jsonPath := filepath.Join(b.out, "ab-"+file+".json")
	mdPath := filepath.Join(b.out, "ab-"+file+".md")
	work := filepath.Join(b.work, "ab-"+file)
	fmt.Fprintf(b.log, "pr-bench: tfbench ab %s (%d rounds, base and head builds interleaved)\n", item, b.rounds)
	args := []string{"ab", "--suite", b.suite, "--rounds", fmt.Sprint(b.rounds),
		"--alpha", fmt.Sprint(b.cfg.Alpha), "--min-change", fmt.Sprint(b.cfg.MinChange),
		"--frameworks-dir", filepath.Join(b.baseDir, "frameworks"), "--new-dir", filepath.Join(b.headDir, "frameworks", name),
		"--work", work, "--json", jsonPath, "--out", mdPath, item}
	if err := tfbench(ctx, b.headDir, filepath.Join(b.out, "logs", "ab-"+file+".log"), b.headBin, args...); err != nil {
		j.Err = err.Error()
		return j
	}
	if runs, _ := filepath.Glob(filepath.Join(work, "runs", "*", "results.json")); len(runs) > 0 {
		if err := copyFile(runs[len(runs)-1], filepath.Join(b.out, "ab-"+file+"-results.json")); err != nil {
			j.Err = err.Error()
			return j
		}
	}
	t, md, err := readCompare(jsonPath, mdPath)
	if err != nil {
		j.Err = err.Error()
		return j
	}
	j.Table, j.Markdown = t, md
	return j
}

// harness measures the adapters with base's tfbench and head's in
// alternating rounds (odd rounds base first, even rounds head first), one
// `bench --rounds 1` process a side and round, then joins each side's
// rounds into one run (JoinRounds) and compares them with basis rps.
func (b *bench) harness(ctx context.Context, adapters []string) Job {
	j := Job{Title: fmt.Sprintf("Harness: base tfbench vs head tfbench on %s (rounds interleaved)", strings.Join(adapters, ", "))}
	type side struct{ name, dir, bin string }
	sides := [2]side{{"base", b.baseDir, b.baseBin}, {"head", b.headDir, b.headBin}}
	files := map[string][]*results.File{}
	for i := 1; i <= b.rounds; i++ {
		order := sides
		if i%2 == 0 {
			order[0], order[1] = sides[1], sides[0]
		}
		for _, s := range order {
			fmt.Fprintf(b.log, "pr-bench: round %d/%d: %s tfbench bench on %s\n", i, b.rounds, s.name, strings.Join(adapters, ","))
			path := filepath.Join(b.out, "rounds", fmt.Sprintf("%s-%d.json", s.name, i))
			args := []string{"bench", "--suite", b.suite, "--frameworks", strings.Join(adapters, ","), "--rounds", "1",
				"--work", filepath.Join(b.work, s.name+"-work"), "--copy-results", path}
			if err := tfbench(ctx, s.dir, filepath.Join(b.out, "logs", fmt.Sprintf("%s-round-%d.log", s.name, i)), s.bin, args...); err != nil {
				j.Err = fmt.Sprintf("round %d, %s: %v", i, s.name, err)
				return j
			}
			f, err := results.Read(path)
			if err != nil {
				j.Err = err.Error()
				return j
			}
			files[s.name] = append(files[s.name], f)
		}
	}
	var paths []string
	for _, s := range sides {
		joined, err := JoinRounds(s.name, files[s.name])
		if err == nil {
			err = results.Write(filepath.Join(b.out, s.name+".json"), joined)
		}
		if err != nil {
			j.Err = err.Error()
			return j
		}
		paths = append(paths, s.name+".json") // compare runs in OUT: the table names base.json and head.json
	}
	jsonPath, mdPath := filepath.Join(b.out, "harness-compare.json"), filepath.Join(b.out, "harness-compare.md")
	args := []string{"compare", "--basis", "rps", "--alpha", fmt.Sprint(b.cfg.Alpha), "--min-change", fmt.Sprint(b.cfg.MinChange),
		"--json", jsonPath, "--out", mdPath, paths[0], paths[1]}
	if err := tfbench(ctx, b.out, filepath.Join(b.out, "logs", "compare.log"), b.headBin, args...); err != nil {
		j.Err = err.Error()
		return j
	}
	t, md, err := readCompare(jsonPath, mdPath)
	if err != nil {
		j.Err = err.Error()
		return j
	}
	j.Table, j.Markdown = t, md
	return j
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return writeAtomic(dst, data)
}

// writeAtomic writes data to path through a temporary file and a rename.
func writeAtomic(path string, data []byte) error { return results.WriteFileAtomic(path, data) }

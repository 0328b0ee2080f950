package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/internal/golden"
)

// gitRepo makes a git repository in a new temporary folder with one commit
// of files (path: content) and returns it; it skips without git.
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git on PATH: publish checks the tree with git")
	}
	dir := t.TempDir()
	for name, data := range files {
		if err := writeFile(filepath.Join(dir, name), data); err != nil {
			t.Fatal(err)
		}
	}
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "first")
	return dir
}

// git runs git args in dir, as a test identity, and returns its output.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=tfbench test", "-c", "user.email=test@tfbench.invalid", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestCleanHead: a clean tree gives HEAD's commit; an untracked or a
// modified file is refused naming it (git status --porcelain's lines, five
// at most); a folder without a commit is refused.
func TestCleanHead(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.txt": "a\n", "reports/index.md": "# old\n"})
	head := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
	if got, err := cleanHead(dir); got != head || err != nil {
		t.Errorf("clean tree: %q, %v; want %s, nil", got, err, head)
	}
	const tail = ": reports/ is published from one clean commit; commit or stash them first"
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x\n"), 0o644)
	if _, err := cleanHead(dir); err == nil || err.Error() != "the work tree has uncommitted changes (?? notes.txt)"+tail {
		t.Errorf("untracked file: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("b\n"), 0o644)
	for i := range 5 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("n%d.txt", i)), nil, 0o644)
	}
	if _, err := cleanHead(dir); err == nil || err.Error() != "the work tree has uncommitted changes ( M a.txt, ?? n0.txt, ?? n1.txt, ?? n2.txt, ?? n3.txt and 2 more)"+tail {
		t.Errorf("modified and untracked files: %v", err)
	}
	empty := t.TempDir()
	git(t, empty, "init", "-q")
	if _, err := cleanHead(empty); err == nil || !strings.HasPrefix(err.Error(), "not a git work tree with a commit (git rev-parse --verify HEAD^{commit}: exit status 128: ") {
		t.Errorf("no commit: %v", err)
	}
}

// TestDirtyRefused: publish in a dirty tree exits 1 with the exact message
// before anything runs: no build, no run, no staging folder, reports/ as
// it was.
func TestDirtyRefused(t *testing.T) {
	dir := gitRepo(t, map[string]string{"reports/index.md": "# old\n"})
	os.WriteFile(filepath.Join(dir, "scratch.txt"), []byte("x\n"), 0o644)
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	p := &publisher{stdout: &stdout, stderr: &stderr}
	code := p.cli([]string{"--tfbench", filepath.Join(dir, "no-such-tfbench")})
	want := "publish: the work tree has uncommitted changes (?? scratch.txt): reports/ is published from one clean commit; commit or stash them first\n"
	if code != 1 || stderr.String() != want || stdout.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q; want 1, nothing, %q", code, stdout.String(), stderr.String(), want)
	}
	if _, err := os.Stat(filepath.Join(dir, ".tfbench")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("publish made .tfbench/ in a dirty tree (%v): it ran something", err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "reports", "index.md")); string(got) != "# old\n" {
		t.Errorf("reports/index.md: %q", got)
	}
}

// TestUsage: stray arguments, or some but not all three of --main-run,
// --ssr-run and --extra-run, exit 2 with the usage line.
func TestUsage(t *testing.T) {
	const usage = "usage: publish [--tfbench BIN] [--out DIR] [--work DIR] [--suite FILE] [--ssr-suite FILE] [--extra-suite FILE] [--frameworks LIST] [--main-run DIR --ssr-run DIR --extra-run DIR]\n"
	for _, args := range [][]string{{"extra"}, {"--main-run", "x"}, {"--ssr-run", "y"}, {"--extra-run", "z"},
		{"--main-run", "x", "--ssr-run", "y"}, {"--main-run", "x", "--extra-run", "z"}, {"--ssr-run", "y", "--extra-run", "z"},
		{"--main-run", "x", "--ssr-run", "y", "--extra-run", "z", "stray"}} {
		var stdout, stderr bytes.Buffer
		p := &publisher{stdout: &stdout, stderr: &stderr}
		if code := p.cli(args); code != 2 || stderr.String() != usage {
			t.Errorf("%q: exit %d, stderr %q; want 2, the usage", args, code, stderr.String())
		}
	}
}

// TestCheckRun: a run is published only when complete and measured at the
// clean commit; each refusal says why.
func TestCheckRun(t *testing.T) {
	const head = "0123456789abcdef0123456789abcdef01234567"
	for _, c := range []struct {
		name   string
		status string
		source *results.Source
		want   string
	}{
		{"published", results.Complete, &results.Source{Commit: head}, ""},
		{"interrupted", results.Interrupted, &results.Source{Commit: head}, "run 20261210-080000 did not complete (status interrupted)"},
		{"no source", results.Complete, nil, "run 20261210-080000 records no commit"},
		{"dirty", results.Complete, &results.Source{Commit: head, Dirty: true, DiffSHA256: "ab"}, "run 20261210-080000 was measured at " + head + " (dirty), not at the clean commit " + head},
		{"other commit", results.Complete, &results.Source{Commit: "fedcba9876543210fedcba9876543210fedcba98"}, "run 20261210-080000 was measured at fedcba9876543210fedcba9876543210fedcba98, not at the clean commit " + head},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			f := &results.File{SchemaVersion: results.SchemaVersion, MethodVersion: results.MethodVersion, RunID: "20261210-080000", Status: c.status, Source: c.source}
			if err := results.Write(filepath.Join(dir, "results.json"), f); err != nil {
				t.Fatal(err)
			}
			got, err := checkRun(dir, head)
			if c.want == "" && (err != nil || got == nil || got.RunID != f.RunID) {
				t.Errorf("%v, %v; want the run", got, err)
			}
			if c.want != "" && (err == nil || err.Error() != c.want) {
				t.Errorf("error %v; want %q", err, c.want)
			}
		})
	}
}

// TestAddIndex: the publication's block goes under the title and the
// provenance line of the main site's index.md, the rest of the page
// unchanged (testdata/index.golden).
func TestAddIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.md")
	page := "# tfbench: tfb\n\nRun `20261210-080000`, 2026-12-10 08:00 UTC.\n\n| test | best |\n"
	writeFile(path, page)
	run := func(id, suite string, rounds int, started time.Time) *results.File {
		return &results.File{RunID: id, Command: []string{"tfbench", "bench", "--suite", "suites/" + suite + ".yaml"}, Started: started,
			Suite: results.Suite{Name: suite, Rounds: rounds}, Host: probe.Host{}}
	}
	main := run("20261210-080000", "tfb", 3, time.Date(2026, 12, 10, 8, 0, 0, 0, time.UTC))
	ssr := run("20261210-091500", "ssr", 3, time.Date(2026, 12, 10, 9, 15, 0, 0, time.UTC))
	extra := run("20261210-093900", "ssr-extra", 3, time.Date(2026, 12, 10, 9, 39, 0, 0, time.UTC))
	if err := addIndex(path, "0123456789abcdef0123456789abcdef01234567", time.Date(2026, 12, 10, 9, 58, 0, 0, time.UTC), main, ssr, extra); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	golden.Check(t, "index.golden", string(got))
	head := "# tfbench: tfb\n\nRun `20261210-080000`, 2026-12-10 08:00 UTC.\n"
	if !strings.HasPrefix(string(got), head+"\nPublished by") || !strings.HasSuffix(string(got), page[len(head):]) {
		t.Errorf("the block is not under the title and the provenance line, or the page changed:\n%s", got)
	}
}

// TestSwap: the staging folder replaces out whole (no old file survives,
// in sub-folders neither) and then holds the old files; the same by the
// two renames of a system without an atomic exchange; out missing is a
// plain rename.
func TestSwap(t *testing.T) {
	old := map[string]string{"index.md": "old\n", "ab/x/compare.md": "by hand\n", "engine/ratios.txt": "old\n"}
	fresh := map[string]string{"index.md": "new\n", "engine/index.md": "new\n"}
	check := func(t *testing.T, dir string, want map[string]string) {
		t.Helper()
		got := map[string]string{}
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(dir, path)
				data, _ := os.ReadFile(path)
				got[filepath.ToSlash(rel)] = string(data)
			}
			return err
		})
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s holds %v; want %v", dir, got, want)
		}
	}
	mk := func(t *testing.T, files map[string]string) string {
		dir := t.TempDir()
		for name, data := range files {
			writeFile(filepath.Join(dir, name), data)
		}
		return dir
	}
	for _, c := range []struct {
		name string
		swap func(stage, out string) error
	}{{"exchange", swap}, {"two renames", swapByRenames}} {
		t.Run(c.name, func(t *testing.T) {
			parent := mk(t, nil)
			out, stage := filepath.Join(parent, "reports"), filepath.Join(parent, "stage")
			os.Rename(mk(t, old), out)
			os.Rename(mk(t, fresh), stage)
			if err := c.swap(stage, out); err != nil {
				t.Fatal(err)
			}
			check(t, out, fresh)
			check(t, stage, old)
			if entries, _ := os.ReadDir(parent); len(entries) != 2 {
				t.Errorf("%s holds %d entries after the swap; want reports and stage", parent, len(entries))
			}
		})
	}
	t.Run("no out yet", func(t *testing.T) {
		parent := mk(t, nil)
		out, stage := filepath.Join(parent, "reports"), filepath.Join(parent, "stage")
		os.Rename(mk(t, fresh), stage)
		if err := swap(stage, out); err != nil {
			t.Fatal(err)
		}
		check(t, out, fresh)
		if _, err := os.Stat(stage); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("stage still there: %v", err)
		}
	})
}

// sortedKeys is m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// repo makes a git repository with the threshold file and two commits, the
// second changing docs/a.md; it returns its folder.
func repo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	write := func(name, text string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("init", "-q", "-b", "main")
	write(".github/pr-bench.yaml", "fail_slower_than: 10%\nrounds: 5\n")
	write("docs/a.md", "a\n")
	run("add", "-A")
	run("commit", "-qm", "base")
	write("docs/a.md", "b\n")
	run("commit", "-qam", "docs")
	return dir
}

// TestDocsOnly runs pr-bench on a docs-only change: nothing measured, the
// comment says so, the check passes.
func TestDocsOnly(t *testing.T) {
	dir := repo(t)
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	if code := cli(context.Background(), []string{"--base", "HEAD~1", "--out", "out"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	md, err := os.ReadFile("out/comment.md")
	if err != nil {
		t.Fatal(err)
	}
	if stdout.String() != string(md) {
		t.Errorf("stdout differs from comment.md:\n%s", stdout.String())
	}
	want := "<!-- tfbench-pr-bench -->\n## tfbench: benchmark of this pull request\n\nNothing measured: this pull request changes no adapter (frameworks/), harness, CLI, module or suite file; base `HEAD~1` ("
	if !strings.HasPrefix(string(md), want) || !strings.HasSuffix(string(md), "(1 changed paths outside adapters and the harness): `docs/a.md`.\n") {
		t.Errorf("comment.md:\n%s", md)
	}
	if exit, _ := os.ReadFile("out/exit"); string(exit) != "0\n" {
		t.Errorf("exit file %q, want 0", exit)
	}
}

// TestSetupFails forces the harness mode where head has no suite file: the
// comment names the error, the check says no verdict, and the worktrees
// and the work folder are gone.
func TestSetupFails(t *testing.T) {
	dir := repo(t)
	t.Chdir(dir)
	work := filepath.Join(t.TempDir(), "work")
	var stdout, stderr bytes.Buffer
	if code := cli(context.Background(), []string{"--base", "HEAD~1", "--out", "out", "--harness", "--work", work}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if exit, _ := os.ReadFile("out/exit"); string(exit) != "2\n" {
		t.Errorf("exit file %q, want 2", exit)
	}
	want := "### Setup\n\n**Not measured**:\n\n```\nopen " + filepath.Join(work, "head", "suites", "pr.yaml") + ": no such file or directory\n```\n"
	if !strings.Contains(stdout.String(), want) {
		t.Errorf("comment lacks %q:\n%s", want, stdout.String())
	}
	if _, err := os.Stat(work); !os.IsNotExist(err) {
		t.Errorf("work folder %s: %v, want it removed", work, err)
	}
	out, err := exec.Command("git", "worktree", "list").Output()
	if err != nil || strings.Count(string(out), "\n") != 1 {
		t.Errorf("git worktree list: %v\n%s", err, out)
	}
}

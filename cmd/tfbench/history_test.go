package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/history"
)

// TestHistoryCommand appends two nights (the second twice: a re-run
// replaces it) from harness/history's fixtures and checks the history and
// trend pages written; missing flags and a bad date are refused.
func TestHistoryCommand(t *testing.T) {
	dir := t.TempDir()
	path, out := filepath.Join(dir, "history.json"), filepath.Join(dir, "site")
	fixture := func(name string) string { return filepath.Join("..", "..", "harness", "history", "testdata", name) }
	run := func(args ...string) (string, string, int) {
		var stdout, stderr bytes.Buffer
		code := cli(context.Background(), append([]string{"history"}, args...), &stdout, &stderr)
		return stdout.String(), stderr.String(), code
	}
	stdout, stderr, code := run("--add", fixture("night1-shard1.json"), "--add", fixture("night1-shard2.json"),
		"--history", path, "--date", "2026-12-01", "--commit", "abc", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := "wrote " + path + ": 1 night, 2026-12-01 with 3 rows\nwrote " + filepath.Join(out, "trends", "index.md") + " and 2 charts\n"
	if stdout != want {
		t.Errorf("stdout %q\nwant %q", stdout, want)
	}
	for range 2 {
		if _, stderr, code := run("--add", fixture("night2-shard1.json"), "--history", path, "--date", "2026-12-02", "--out", out); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	}
	h, err := history.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Nights) != 2 || h.Nights[0].Date != "2026-12-01" || h.Nights[0].Commit != "abc" || h.Nights[1].Date != "2026-12-02" || len(h.Nights[1].Rows) != 2 {
		t.Errorf("history: %+v", h)
	}
	for _, name := range []string{"index.md", "json-ratio.svg", "json-p99.svg"} {
		if _, err := os.Stat(filepath.Join(out, "trends", name)); err != nil {
			t.Error(err)
		}
	}

	if _, stderr, code := run("--history", path, "--date", "2026-12-02", "--out", out); code != 2 || !strings.HasPrefix(stderr, "history needs --add, --history, --date and --out\nUsage: tfbench history") {
		t.Errorf("without --add: exit %d, %q", code, stderr)
	}
	if _, stderr, code := run("--add", fixture("night2-shard1.json"), "--history", path, "--date", "02/12/2026", "--out", out); code != 1 || stderr != "tfbench history: date \"02/12/2026\" is not YYYY-MM-DD\n" {
		t.Errorf("a bad date: exit %d, %q", code, stderr)
	}
	os.WriteFile(path, []byte("not json"), 0o644)
	if _, stderr, code := run("--add", fixture("night2-shard1.json"), "--history", path, "--date", "2026-12-03", "--out", out); code != 1 ||
		stderr != "tfbench history: "+path+": not a tfbench history file: invalid character 'o' in literal null (expecting 'u')\n" {
		t.Errorf("a bad history: exit %d, %q", code, stderr)
	}
}

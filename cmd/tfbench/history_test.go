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
	want := "wrote " + path + ": 1 night, 2026-12-01 with 3 rows\nwrote " + filepath.Join(out, "trends", "index.md") + " and 2 charts\n" +
		"wrote " + filepath.Join(out, "trends", "changes.md") + ": 0 change points (0 regressions)\n"
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
	for _, name := range []string{"index.md", "json-ratio.svg", "json-p99.svg", "changes.json", "changes.md"} {
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

// TestHistoryNewChanges appends a night to the step history fixture (40
// nights, node-http's json ratio 15% down from 2026-11-26): --new-changes
// lists none when no changes.json was published before (the list starts),
// that regression when the previous changes.json lacks it, none on a
// re-run that finds it there; a broken changes.json is an error naming it.
func TestHistoryNewChanges(t *testing.T) {
	dir := t.TempDir()
	path, out, fresh := filepath.Join(dir, "history.json"), filepath.Join(dir, "site"), filepath.Join(dir, "new-changes.json")
	fixture := func(name string) string { return filepath.Join("..", "..", "harness", "history", "testdata", name) }
	data, err := os.ReadFile(fixture("step-history.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	run := func() (string, string, int) {
		var stdout, stderr bytes.Buffer
		code := cli(context.Background(), []string{"history", "--add", fixture("night1-shard1.json"), "--history", path,
			"--date", "2026-12-11", "--commit", "abc", "--out", out, "--new-changes", fresh}, &stdout, &stderr)
		return stdout.String(), stderr.String(), code
	}
	const id = "2026-11-26-node-http-default-json-ratio"
	trends := filepath.Join(out, "trends")
	changesJSON := filepath.Join(trends, "changes.json")
	// The first publish with change points: no changes.json yet, so none is
	// new (an old history's changes are not tonight's).
	stdout, stderr, code := run()
	want := "wrote " + path + ": 41 nights, 2026-12-11 with 2 rows\nwrote " + filepath.Join(trends, "index.md") + " and 4 charts\n" +
		"wrote " + filepath.Join(trends, "changes.md") + ": 6 change points (3 regressions)\n" +
		"wrote " + fresh + ": 6 change points (3 regressions), 0 new (" + changesJSON + " did not exist: this publish starts the list, and none counts as new)\n"
	if code != 0 || stdout != want {
		t.Fatalf("exit %d, stdout %q\nwant %q\nstderr %s", code, stdout, want, stderr)
	}
	// The next publish, with node-http's change not in the previous file: new.
	all, err := history.ReadChanges(changesJSON)
	if err != nil || len(all) != 6 || all[0].ID != id {
		t.Fatalf("changes.json: %v, %+v", err, all)
	}
	if err := history.WriteChanges(changesJSON, all[1:]); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = run()
	if code != 0 || !strings.HasSuffix(stdout, "\nwrote "+fresh+": 6 change points (3 regressions), 1 new: "+id+"\n") {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	got, err := history.ReadChanges(fresh)
	if err != nil || len(got) != 1 || got[0].ID != id || got[0].Framework != "node-http" || got[0].Before.Commit != "1592b410321216d384753b5f4ba3b8c31b0e1b43" {
		t.Errorf("new changes: %+v, %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(trends, "regressions", id+".md")); err != nil {
		t.Error(err)
	}
	// A re-run: the previous changes.json holds it.
	stdout, stderr, code = run()
	if code != 0 || !strings.HasSuffix(stdout, "\nwrote "+fresh+": 6 change points (3 regressions), 0 new\n") {
		t.Errorf("a re-run: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	if data, _ := os.ReadFile(fresh); string(data) != "{\n \"schema\": 1,\n \"changes\": []\n}\n" {
		t.Errorf("new changes on a re-run:\n%s", data)
	}
	os.WriteFile(changesJSON, []byte("[]"), 0o644)
	if _, stderr, code := run(); code != 1 || !strings.HasPrefix(stderr, "tfbench history: "+filepath.Join(trends, "changes.json")+": not a tfbench changes file: ") {
		t.Errorf("a broken changes.json: exit %d, %q", code, stderr)
	}
}

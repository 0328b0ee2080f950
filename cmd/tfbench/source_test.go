package main

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/tfbench/tfbench/harness/results"
)

// TestSourceCommand: merge says the commit runs of one source share, and
// when they differ that the merged results name none; tfbench source
// prints a file's commit ("COMMIT dirty" for a dirty tree), nothing for a
// file that records none (saying so on stderr) and fails on runs of
// different sources.
func TestSourceCommand(t *testing.T) {
	const c1, c2 = "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d", "ffeeddccbbaa99887766554433221100ffeeddcc"
	dir := t.TempDir()
	withSource := func(path string, src *results.Source) string {
		t.Helper()
		f, err := results.Read(path)
		if err != nil {
			t.Fatal(err)
		}
		f.Source = src
		if err := results.Write(path, f); err != nil {
			t.Fatal(err)
		}
		return path
	}
	a := withSource(oneRun(t, dir, "nextjs", "runner-1", 2), &results.Source{Commit: c1})
	b := withSource(oneRun(t, dir, "astro", "runner-2", 2), &results.Source{Commit: c1})
	c := withSource(oneRun(t, dir, "qwik", "runner-3", 2), &results.Source{Commit: c2, Dirty: true})
	none := oneRun(t, dir, "solid", "runner-4", 2)
	run := func(args ...string) (int, string, string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := cli(context.Background(), args, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}

	same := filepath.Join(dir, "same.json")
	code, stdout, stderr := run("merge", "--out", same, a, b)
	if want := "wrote " + same + ": 2 runs\n  nextjs: run run-nextjs on runner-1, 2 samples\n  astro: run run-astro on runner-2, 2 samples\n  source: commit " + c1 + " in every run\n"; code != 0 || stdout != want || stderr != "" {
		t.Errorf("merge of one commit: exit %d, stdout %q, stderr %q; want stdout %q", code, stdout, stderr, want)
	}
	mixed := filepath.Join(dir, "mixed.json")
	code, stdout, stderr = run("merge", "--out", mixed, a, c, none)
	if want := "tfbench merge: runs from different sources: nextjs 1a2b3c4d5e6f, qwik ffeeddccbbaa (dirty), solid none: each run keeps its own, and the merged results name no one source commit (tfbench source and nightly:ab find none)\n"; code != 0 || stderr != want {
		t.Errorf("merge of three sources: exit %d, stderr %q; want %q", code, stderr, want)
	}

	for _, tc := range []struct {
		file           string
		code           int
		stdout, stderr string
	}{
		{same, 0, c1 + "\n", ""},
		{a, 0, c1 + "\n", ""},
		{c, 0, c2 + " dirty\n", ""},
		{none, 0, "", "tfbench source: " + none + " records no source commit (measured outside a git checkout, or by a tfbench before source was recorded)\n"},
		{mixed, 1, "", "tfbench source: " + mixed + ": runs from different sources: nextjs 1a2b3c4d5e6f, qwik ffeeddccbbaa (dirty), solid none: no one source commit\n"},
		{filepath.Join(dir, "missing.json"), 1, "", "tfbench source: open " + filepath.Join(dir, "missing.json") + ": no such file or directory\n"},
	} {
		if code, stdout, stderr := run("source", tc.file); code != tc.code || stdout != tc.stdout || stderr != tc.stderr {
			t.Errorf("tfbench source %s: exit %d, stdout %q, stderr %q; want %d, %q, %q", filepath.Base(tc.file), code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
		}
	}
	if code, _, _ := run("source", a, b); code != 2 {
		t.Errorf("tfbench source with two files: exit %d, want 2", code)
	}
}

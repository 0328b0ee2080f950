package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
)

// oneRun writes a results file in dir measuring go-stdlib and other on
// host, and returns its path.
func oneRun(t *testing.T, dir, other, host string, method int) string {
	t.Helper()
	f := &results.File{SchemaVersion: results.SchemaVersion, MethodVersion: method, RunID: "run-" + other, Status: results.Complete,
		Suite: results.Suite{Name: "nightly", Hash: "abc", Rounds: 1}}
	f.Host.Hostname = host
	for _, fw := range []string{"go-stdlib", other} {
		f.Frameworks = append(f.Frameworks, results.Framework{Name: fw, Variant: "default"})
		f.Samples = append(f.Samples, model.Sample{Key: model.Key{ID: model.ID{Framework: fw, Variant: "default"}, Test: "json", Connections: 16, Round: 1}, RPS: 1000})
	}
	path := filepath.Join(dir, other+".json")
	if err := results.Write(path, f); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestMergeCommand(t *testing.T) {
	dir := t.TempDir()
	a, b := oneRun(t, dir, "nextjs", "runner-1", 2), oneRun(t, dir, "astro", "runner-2", 2)
	out := filepath.Join(dir, "merged.json")
	var stdout, stderr bytes.Buffer
	if code := cli(context.Background(), []string{"merge", "--out", out, a, b}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := "wrote " + out + ": 2 runs\n  nextjs: run run-nextjs on runner-1, 2 samples\n  astro: run run-astro on runner-2, 2 samples\n"
	if stdout.String() != want {
		t.Errorf("stdout %q\nwant %q", stdout.String(), want)
	}
	s, err := results.ReadSet(out)
	if err != nil || len(s.Runs) != 2 || s.Runs[1].File.Host.Hostname != "runner-2" {
		t.Fatalf("merged file: %v %+v", err, s)
	}

	// A merged file merges again; labels given for plain files replace the base names.
	c := oneRun(t, dir, "qwik", "runner-3", 2)
	out2 := filepath.Join(dir, "all.json")
	stdout.Reset()
	if code := cli(context.Background(), []string{"merge", "--out", out2, "--labels", "merged,job-qwik", out, c}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	s, err = results.ReadSet(out2)
	if err != nil || len(s.Runs) != 3 || s.Runs[0].Label != "nextjs" || s.Runs[2].Label != "job-qwik" {
		t.Fatalf("merged again: %v %+v", err, s)
	}

	// Different methods: exit 1, the reason named, nothing written.
	old := oneRun(t, t.TempDir(), "react-router", "runner-4", 1)
	stderr.Reset()
	bad := filepath.Join(dir, "bad.json")
	if code := cli(context.Background(), []string{"merge", "--out", bad, a, old}, &stdout, &stderr); code != 1 ||
		!strings.Contains(stderr.String(), "nextjs: method version 2, react-router: method version 1") {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
	if _, err := results.ReadSet(bad); err == nil {
		t.Error("a refused merge wrote its output")
	}
	// Two run folders' results.json: labelled by run ID; the same label twice names --labels.
	d1, d2 := filepath.Join(dir, "r1"), filepath.Join(dir, "r2")
	for i, d := range []string{d1, d2} {
		f, _ := results.Read(a)
		if i == 1 {
			f, _ = results.Read(b)
		}
		results.Write(filepath.Join(d, "results.json"), f)
	}
	stdout.Reset()
	if code := cli(context.Background(), []string{"merge", "--out", filepath.Join(dir, "runs.json"), filepath.Join(d1, "results.json"), filepath.Join(d2, "results.json")}, &stdout, &stderr); code != 0 ||
		!strings.Contains(stdout.String(), "  run-nextjs: run run-nextjs") {
		t.Errorf("merging two run folders: exit %d: %s %s", code, stdout.String(), stderr.String())
	}
	stderr.Reset()
	if code := cli(context.Background(), []string{"merge", "--out", filepath.Join(dir, "x.json"), a, filepath.Join(d1, "..", "nextjs.json")}, &stdout, &stderr); code != 1 ||
		!strings.Contains(stderr.String(), `both get the label "nextjs": name the runs with --labels`) {
		t.Errorf("two files of one name: exit %d: %s", code, stderr.String())
	}
	if code := cli(context.Background(), []string{"merge", a}, &stdout, &stderr); code != 2 {
		t.Errorf("merge without --out: exit %d", code)
	}
}

// TestMergeExpect checks --expect against testdata/frameworks-shard
// (alpha/one, alpha/two, beta/default, go-stdlib/default): a shard that
// measured go-stdlib and alpha/one and recorded beta's failed build leaves
// alpha/two and beta missing, each named on stderr with its reason, exit 1;
// a list of measured variants passes, and --out may then be left out.
func TestMergeExpect(t *testing.T) {
	dir := t.TempDir()
	f := &results.File{SchemaVersion: results.SchemaVersion, MethodVersion: results.MethodVersion, RunID: "run-1", Status: results.Complete,
		Suite: results.Suite{Name: "nightly", Hash: "abc", Rounds: 1}, Shard: "1/2"}
	for _, id := range []model.ID{{Framework: "go-stdlib", Variant: "default"}, {Framework: "alpha", Variant: "one"}} {
		f.Frameworks = append(f.Frameworks, results.Framework{Name: id.Framework, Variant: id.Variant})
		f.Samples = append(f.Samples, model.Sample{Key: model.Key{ID: id, Test: "json", Connections: 16, Round: 1}, RPS: 1000, Gate: model.GateResult{Passed: true}})
	}
	f.Frameworks = append(f.Frameworks, results.Framework{Name: "beta", Variant: "default", Error: "build: exit status 1"})
	shard := filepath.Join(dir, "shard-1-of-2.json")
	if err := results.Write(shard, f); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "merged.json")
	var stdout, stderr bytes.Buffer
	args := []string{"merge", "--expect", "all", "--frameworks-dir", "testdata/frameworks-shard", "--out", out, shard}
	if code := cli(context.Background(), args, &stdout, &stderr); code != 1 {
		t.Errorf("--expect all: exit %d, want 1", code)
	}
	want := "tfbench merge: shard 2/2 is missing: their framework variants are not in " + out + "\n" +
		"tfbench merge: alpha/two: no measured figures in the merged results (no run holds it: its shard did not run, or it was not in the plan)\n" +
		"tfbench merge: beta/default: no measured figures in the merged results (build: exit status 1)\n" +
		"tfbench merge: 2 of 4 expected framework variants have no measured figures\n"
	if stderr.String() != want {
		t.Errorf("--expect all: stderr\n%s\nwant\n%s", stderr.String(), want)
	}
	if _, err := results.ReadSet(out); err != nil {
		t.Errorf("--expect all: the merged results, written before the check: %v", err)
	}

	stdout.Reset()
	stderr.Reset()
	if code := cli(context.Background(), []string{"merge", "--expect", "alpha:one,go-stdlib", "--frameworks-dir", "testdata/frameworks-shard", out}, &stdout, &stderr); code != 0 ||
		stdout.String() != "merged 1 run\n  merged: run run-1 on , shard 1/2, 2 samples\n" || stderr.String() != "tfbench merge: shard 2/2 is missing: their framework variants are not in the merged results\n" {
		t.Errorf("--expect of measured variants without --out: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	stderr.Reset()
	if code := cli(context.Background(), []string{"merge", "--expect", "gamma", "--frameworks-dir", "testdata/frameworks-shard", out}, &stdout, &stderr); code != 1 ||
		!strings.HasPrefix(stderr.String(), "tfbench merge: --expect: ") || !strings.Contains(stderr.String(), "gamma") {
		t.Errorf("--expect of an unknown framework: exit %d, stderr %q", code, stderr.String())
	}
}

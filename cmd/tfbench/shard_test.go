package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/report"
	"github.com/tfbench/tfbench/harness/results"
)

// TestBenchShardErrors holds --shard's errors as bench prints them: exit
// 1, one line on stderr, nothing run.
func TestBenchShardErrors(t *testing.T) {
	for _, c := range []struct {
		shard, frameworks, want string
	}{
		{"3", "", "tfbench bench: --shard 3: want I/N, e.g. 2/8\n"},
		{"0/2", "", "tfbench bench: --shard 0/2: I must be from 1 to 2\n"},
		{"4/3", "", "tfbench bench: --shard 4/3: I must be from 1 to 3\n"},
		{"1/4", "", "tfbench bench: --shard 1/4: 4 shards of 3 framework variants: N must be at most 3 (the reference go-stdlib/default is in every shard and not counted)\n"},
		{"1/1", "go-stdlib", "tfbench bench: --shard 1/1: no framework variant to shard besides the reference go-stdlib/default\n"},
	} {
		work := t.TempDir()
		args := []string{"bench", "--suite", "testdata/suites/shard.yaml", "--frameworks-dir", "testdata/frameworks-shard", "--work", work, "--shard", c.shard}
		if c.frameworks != "" {
			args = append(args, "--frameworks", c.frameworks)
		}
		var stdout, stderr bytes.Buffer
		if code := cli(context.Background(), args, &stdout, &stderr); code != 1 || stderr.String() != c.want {
			t.Errorf("--shard %s: exit %d, stderr %q; want exit 1, %q", c.shard, code, stderr.String(), c.want)
		}
		if _, err := os.Stat(filepath.Join(work, "runs")); !os.IsNotExist(err) {
			t.Errorf("--shard %s: a refused shard started a run: %v", c.shard, err)
		}
	}
}

// TestMergeShards: shards 1/3 and 3/3, each with its own go-stdlib, merge;
// merge names each run's shard and says on stderr which shard is missing.
func TestMergeShards(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i, other := range map[int]string{1: "astro", 3: "qwik"} {
		path := oneRun(t, dir, other, "runner", results.MethodVersion)
		f, err := results.Read(path)
		if err != nil {
			t.Fatal(err)
		}
		f.Shard = fmt.Sprintf("%d/3", i)
		shardPath := filepath.Join(dir, fmt.Sprintf("shard-%d-of-3.json", i))
		if err := results.Write(shardPath, f); err != nil {
			t.Fatal(err)
		}
		files = append(files, shardPath)
	}
	slices.Sort(files)
	out := filepath.Join(dir, "merged.json")
	var stdout, stderr bytes.Buffer
	if code := cli(context.Background(), append([]string{"merge", "--out", out}, files...), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := "wrote " + out + ": 2 runs\n  shard-1-of-3: run run-astro on runner, shard 1/3, 2 samples\n  shard-3-of-3: run run-qwik on runner, shard 3/3, 2 samples\n"
	if stdout.String() != want {
		t.Errorf("stdout %q\nwant %q", stdout.String(), want)
	}
	if want := "tfbench merge: shard 2/3 is missing: their framework variants are not in " + out + "\n"; stderr.String() != want {
		t.Errorf("stderr %q\nwant %q", stderr.String(), want)
	}
}

// tableShape is what must be equal between one run and its merged shards:
// per test (suite order) and headline N, the framework variants of its
// rows with their verdicts, and per variant the levels measured (test, N,
// connections, pipeline, rate, round). Figures differ run to run and are
// left out.
type tableShape struct {
	Tests  []string            // "json N=0", in table order
	Rows   map[string][]string // test → sorted "framework/variant verdict"
	Levels map[string][]string // framework/variant → sorted levels
	Pages  []string            // the site's pages and CSV file (charts depend on figures)
	CSV    string              // results.csv's header line
	Header map[string]string   // test → its page's table header, less a merged page's Run column
}

// shapeOf reads the shape of s's tables and of its site rendered in dir.
// A variant in several runs (the reference, one per shard) counts once;
// refRuns is how many runs measured the reference.
func shapeOf(t *testing.T, s *results.Set, dir string) (sh tableShape, refRuns int) {
	t.Helper()
	ts, err := report.Tables(s)
	if err != nil {
		t.Fatal(err)
	}
	sh.Rows, sh.Levels, sh.Header = map[string][]string{}, map[string][]string{}, map[string]string{}
	for _, tt := range ts {
		name := fmt.Sprintf("%s N=%d", tt.Test.Name, tt.N)
		sh.Tests = append(sh.Tests, name)
		for _, r := range tt.Rows {
			row := r.ID.String() + " " + string(r.Verification)
			if !slices.Contains(sh.Rows[name], row) {
				sh.Rows[name] = append(sh.Rows[name], row)
			}
		}
		slices.Sort(sh.Rows[name])
	}
	for _, r := range s.Runs {
		for _, fw := range r.File.Frameworks {
			if fw.ID() == model.Reference {
				refRuns++
			}
		}
		for _, smp := range r.File.Samples {
			k := smp.Framework + "/" + smp.Variant
			level := levelOf(smp.Key)
			if !slices.Contains(sh.Levels[k], level) {
				sh.Levels[k] = append(sh.Levels[k], level)
			}
		}
	}
	for k := range sh.Levels {
		slices.Sort(sh.Levels[k])
	}
	written, err := report.Site(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range written {
		if filepath.Ext(p) != ".svg" { // a chart exists only when a variant has a figure
			sh.Pages = append(sh.Pages, filepath.Base(p))
		}
	}
	slices.Sort(sh.Pages)
	csv, err := os.ReadFile(filepath.Join(dir, report.CSVFile))
	if err != nil {
		t.Fatal(err)
	}
	sh.CSV, _, _ = strings.Cut(string(csv), "\n")
	for _, tt := range ts {
		page, err := os.ReadFile(filepath.Join(dir, tt.Slug+".md"))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(page), "\n") {
			if strings.HasPrefix(line, "| Run ") {
				line = "|" + line[strings.Index(line[1:], "|")+2:]
			}
			if strings.HasPrefix(line, "| Framework ") {
				sh.Header[tt.Test.Name] = strings.Join(strings.Fields(line), " ")
			}
		}
	}
	return sh, refRuns
}

// levelOf names a sample's level and round: "json N=0 c=2 p=1 rate=0 round 1".
func levelOf(k model.Key) string {
	return fmt.Sprintf("%s N=%d c=%d p=%d rate=%g round %d", k.Test, k.N, k.Connections, k.Pipeline, k.Rate, k.Round)
}

// TestShardsMergeToOneRun is docs/shards.md's promise: "shards merge to the same tables
// as one run": bench on testdata/frameworks-shard (go-stdlib, alpha:one,
// alpha:two and beta, each the fault server: nothing to build) once whole
// and as --shard 1/2 and 2/2, the shards merged; the merged report has the
// same tests, the same framework variants with the same verdicts, the same
// levels measured, the same site pages and the same columns (a merged page
// adds Run), and go-stdlib once per shard. Figures are never compared: the
// machine is shared.
func TestShardsMergeToOneRun(t *testing.T) {
	if testing.Short() {
		t.Skip("three bench runs of the fault server, about a minute")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(envTestBinary, exe)
	work, out := t.TempDir(), t.TempDir()
	bench := func(name string, extra ...string) *results.File {
		t.Helper()
		path := filepath.Join(out, name+".json")
		args := append([]string{"bench", "--suite", "testdata/suites/shard.yaml", "--frameworks-dir", "testdata/frameworks-shard",
			"--work", work, "--copy-results", path}, extra...)
		var stdout, stderr bytes.Buffer
		if code := cli(context.Background(), args, &stdout, &stderr); code != 0 {
			t.Fatalf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", name, code, stdout.String(), stderr.String())
		}
		f, err := results.Read(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(extra) > 0 {
			var fws []string
			for _, fw := range f.Frameworks {
				fws = append(fws, fw.Name+"/"+fw.Variant)
			}
			want := map[string]string{
				"1/2": "shard 1/2: alpha/one, alpha/two and the reference go-stdlib/default\n",
				"2/2": "shard 2/2: beta/default and the reference go-stdlib/default\n",
			}[f.Shard]
			if want == "" || !strings.Contains(stdout.String(), want) {
				t.Errorf("%s: shard %q, stdout lacks %q:\n%s", name, f.Shard, want, stdout.String())
			}
			t.Logf("%s: %s", name, strings.Join(fws, ", "))
		}
		return f
	}
	whole := bench("whole")
	if whole.Shard != "" {
		t.Errorf("the whole run records shard %q", whole.Shard)
	}
	s1 := bench("shard-1-of-2", "--shard", "1/2")
	s2 := bench("shard-2-of-2", "--shard", "2/2")
	for _, c := range []struct {
		f          *results.File
		shard, fws string
	}{{s1, "1/2", "alpha/one alpha/two go-stdlib/default"}, {s2, "2/2", "beta/default go-stdlib/default"}} {
		var fws []string
		for _, fw := range c.f.Frameworks {
			fws = append(fws, fw.Name+"/"+fw.Variant)
		}
		slices.Sort(fws)
		if c.f.Shard != c.shard || strings.Join(fws, " ") != c.fws {
			t.Errorf("shard %q ran %v; want shard %s of %s", c.f.Shard, fws, c.shard, c.fws)
		}
	}

	merged := filepath.Join(out, "merged.json")
	var stdout, stderr bytes.Buffer
	if code := cli(context.Background(), []string{"merge", "--out", merged, filepath.Join(out, "shard-1-of-2.json"), filepath.Join(out, "shard-2-of-2.json")}, &stdout, &stderr); code != 0 || stderr.Len() > 0 {
		t.Fatalf("merge: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	set, err := results.ReadSet(merged)
	if err != nil {
		t.Fatal(err)
	}
	got, gotRef := shapeOf(t, set, t.TempDir())
	want, wantRef := shapeOf(t, &results.Set{Runs: []results.Run{{Label: whole.RunID, File: whole}}}, t.TempDir())
	if gotRef != 2 || wantRef != 1 {
		t.Errorf("go-stdlib in %d merged runs and %d whole runs; want one per shard (2) and 1", gotRef, wantRef)
	}
	if !slices.Equal(got.Tests, []string{"json N=0", "plaintext N=0"}) || len(want.Levels) != 4 || len(want.Levels["beta/default"]) != 4 {
		t.Errorf("the whole run's shape is not the suite's (json and plaintext, 4 variants, 2 levels each): %+v", want)
	}
	for _, c := range []struct {
		what      string
		got, want any
	}{
		{"tests", got.Tests, want.Tests},
		{"rows", got.Rows, want.Rows},
		{"levels", got.Levels, want.Levels},
		{"site pages", got.Pages, want.Pages},
		{"CSV header", got.CSV, want.CSV},
		{"page headers", got.Header, want.Header},
	} {
		if fmt.Sprint(c.got) != fmt.Sprint(c.want) {
			t.Errorf("%s differ:\nshards merged: %v\none run:       %v", c.what, c.got, c.want)
		}
	}
	if left := owned(t, os.Getpid()); len(left) > 0 {
		t.Errorf("servers outlived the runs: %v", left)
	}
}

package results

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/internal/runfixture"
)

// run makes a one-run file on host measuring go-stdlib and other, one json
// sample each.
func run(id, host, other string, method int, hash string) Run {
	f := &File{SchemaVersion: SchemaVersion, MethodVersion: method, RunID: id, Status: Complete,
		Suite: Suite{Name: "nightly", Hash: hash, Rounds: 1}, Host: probe.Host{Hostname: host}}
	for i, fw := range []string{"go-stdlib", other} {
		f.Frameworks = append(f.Frameworks, Framework{Name: fw, Variant: "default"})
		f.Samples = append(f.Samples, model.Sample{Key: model.Key{ID: model.ID{Framework: fw, Variant: "default"}, Test: "json", Connections: 16, Round: 1},
			RPS: float64(1000 * (i + 1))})
	}
	return Run{Label: other, File: f}
}

func TestMergeKeepsEachRunsReference(t *testing.T) {
	a, b := run("r-a", "host-a", "nextjs", 2, "h1"), run("r-b", "host-b", "astro", 2, "h1")
	s, err := Merge([]Run{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Runs) != 2 || s.MethodVersion() != 2 || s.SuiteHash() != "h1" {
		t.Fatalf("set %+v", s)
	}
	if r, ok := s.Owner(model.ID{Framework: "nextjs", Variant: "default"}); !ok || r.Label != "nextjs" || r.File.Host.Hostname != "host-a" {
		t.Errorf("owner of nextjs: %v %+v", ok, r)
	}
	if r, ok := s.Owner(model.ID{Framework: "astro", Variant: "default"}); !ok || r.Label != "astro" {
		t.Errorf("owner of astro: %v %+v", ok, r)
	}
	if r, ok := s.Owner(model.ID{Framework: "go-stdlib", Variant: "default"}); !ok || r.Label != "nextjs" {
		t.Errorf("owner of the reference: %v %+v", ok, r)
	}
	if _, ok := s.Owner(model.ID{Framework: "qwik", Variant: "default"}); ok {
		t.Error("qwik has an owner but no run measured it")
	}
	if _, ok := s.Single(); ok {
		t.Error("a set of two runs is single")
	}

	path := filepath.Join(t.TempDir(), "merged.json")
	if err := WriteSet(path, s); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSet(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Runs[0].File.Samples, a.File.Samples) || back.Runs[1].Label != "astro" || back.Runs[1].File.Host.Hostname != "host-b" {
		t.Errorf("round trip: %+v", back.Runs)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	// A merged file merges again with a third run; its labels stay.
	c := run("r-c", "host-c", "qwik", 2, "h1")
	all, err := Merge(append(back.Runs, c))
	if err != nil || len(all.Runs) != 3 || all.Runs[2].Label != "qwik" {
		t.Errorf("merging a merged set: %v %+v", err, all)
	}
}

func TestMergeRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		runs []Run
		want string
	}{
		{"method", []Run{run("1", "a", "nextjs", 1, "h"), run("2", "b", "astro", 2, "h")},
			"nextjs: method version 1, astro: method version 2: results measured by different methods never merge"},
		{"suite", []Run{run("1", "a", "nextjs", 2, "d26ace33aaaaaaaa"), run("2", "b", "astro", 2, "0123456789abcdef")},
			"nextjs: suite nightly (sha256 d26ace33aaaa), astro: suite nightly (sha256 0123456789ab): results of different suites never merge"},
		{"twice", []Run{run("1", "a", "nextjs", 2, "h"), func() Run { r := run("2", "b", "nextjs", 2, "h"); r.Label = "nextjs-2"; return r }()},
			"nextjs/default is measured in both nextjs and nextjs-2"},
		{"label", []Run{run("1", "a", "nextjs", 2, "h"), func() Run { r := run("2", "b", "astro", 2, "h"); r.Label = "nextjs"; return r }()},
			`two runs are labelled "nextjs"`},
		{"none", nil, "nothing to merge"},
	} {
		if _, err := Merge(tc.runs); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestReadSetOfOneRun: a plain results.json (the published run of
// internal/runfixture) reads as a set of one run labelled by its run ID;
// merged files without runs or with mixed method versions are refused.
func TestReadSetOfOneRun(t *testing.T) {
	s, err := ReadSet(runfixture.Results(t))
	if err != nil {
		t.Fatal(err)
	}
	f, ok := s.Single()
	if !ok || s.Runs[0].Label != f.RunID || f.RunID != "20261202-143809" || len(f.Samples) != 729 {
		t.Errorf("the published run as a set: %d runs, label %q, run %q, %d samples", len(s.Runs), s.Runs[0].Label, f.RunID, len(f.Samples))
	}
	path := filepath.Join(t.TempDir(), "m.json")
	os.WriteFile(path, []byte(`{"schema_version":1,"kind":"merged","runs":[]}`), 0o644)
	if _, err := ReadSet(path); err == nil || err.Error() != path+": merged results file has no runs" {
		t.Errorf("empty merged file: %v", err)
	}
	os.WriteFile(path, []byte(`{"schema_version":1,"kind":"merged","runs":[{"label":"a","results":{"schema_version":1,"method_version":1}},{"label":"b","results":{"schema_version":1,"method_version":2}}]}`), 0o644)
	if _, err := ReadSet(path); err == nil || !strings.Contains(err.Error(), "a: method version 1, b: method version 2") {
		t.Errorf("hand-mixed merged file: %v", err)
	}
}

func TestLabelOf(t *testing.T) {
	for in, want := range map[string]string{"ci/nextjs.json": "nextjs", "astro.json": "astro", `c:\r\qwik.json`: "qwik", "run": "run"} {
		if got := LabelOf(in); got != want {
			t.Errorf("LabelOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMissingShards(t *testing.T) {
	set := func(shards ...string) *Set {
		s := &Set{}
		for _, sh := range shards {
			s.Runs = append(s.Runs, Run{Label: sh, File: &File{Shard: sh}})
		}
		return s
	}
	for _, c := range []struct {
		shards []string
		want   []string
	}{
		{[]string{"", ""}, nil},
		{[]string{"1/3", "2/3", "3/3"}, nil},
		{[]string{"2/8", "", "1/8", "4/8", "5/8", "6/8", "8/8"}, []string{"3/8", "7/8"}},
		{[]string{"2/2", "1/3"}, []string{"1/2", "2/3", "3/3"}},
	} {
		if got := set(c.shards...).MissingShards(); !slices.Equal(got, c.want) {
			t.Errorf("shards %q: missing %q, want %q", c.shards, got, c.want)
		}
	}
}

// TestSetSource: runs of one clean commit give it, through a merged file
// and back (the JSON field "source"); none recorded gives nil; a dirty run,
// another commit or a run without one give no source and list every run's.
func TestSetSource(t *testing.T) {
	const c1, c2 = "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d", "ffeeddccbbaa99887766554433221100ffeeddcc"
	with := func(r Run, src *Source) Run { r.File.Source = src; return r }
	a, b := with(run("r-a", "h", "nextjs", 2, "h1"), &Source{Commit: c1}), with(run("r-b", "h", "astro", 2, "h1"), &Source{Commit: c1})
	s, err := Merge([]Run{a, b})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "merged.json")
	if err := WriteSet(path, s); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); strings.Count(string(data), `"source": {
     "commit": "`+c1+`",
     "dirty": false
    }`) != 2 {
		t.Errorf("the merged file does not hold each run's source:\n%s", data)
	}
	back, err := ReadSet(path)
	if err != nil {
		t.Fatal(err)
	}
	if src, err := back.Source(); err != nil || src == nil || *src != (Source{Commit: c1}) || src.String() != c1 {
		t.Errorf("source of two runs of one commit: %v, %v", src, err)
	}
	if src, err := (&Set{Runs: []Run{run("r-a", "h", "nextjs", 2, "h1"), run("r-b", "h", "astro", 2, "h1")}}).Source(); src != nil || err != nil {
		t.Errorf("no run records a source: %v, %v", src, err)
	}
	for _, c := range []struct {
		other *Source
		want  string
	}{
		{&Source{Commit: c2}, "runs from different sources: nextjs 1a2b3c4d5e6f, astro ffeeddccbbaa"},
		{&Source{Commit: c1, Dirty: true}, "runs from different sources: nextjs 1a2b3c4d5e6f, astro 1a2b3c4d5e6f (dirty)"},
		{nil, "runs from different sources: nextjs 1a2b3c4d5e6f, astro none"},
	} {
		s := &Set{Runs: []Run{a, with(run("r-b", "h", "astro", 2, "h1"), c.other)}}
		if src, err := s.Source(); src != nil || err == nil || err.Error() != c.want {
			t.Errorf("source of runs %v and %v: %v, %v; want the error %q", a.File.Source, c.other, src, err, c.want)
		}
	}
	if got := (Source{Commit: c2, Dirty: true}).String(); got != c2+" (dirty)" {
		t.Errorf("a dirty source reads %q", got)
	}
}

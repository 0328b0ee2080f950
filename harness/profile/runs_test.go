package profile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
)

// makeRun writes a run folder under dir/name: results.json with profiles
// and each profile file copied from harness/profile's testdata (from →
// relative path in the run).
func makeRun(t *testing.T, dir, name string, profiles []results.Profile, files map[string]string) string {
	t.Helper()
	run := filepath.Join(dir, name)
	for rel, from := range files {
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		to := filepath.Join(run, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := &results.File{SchemaVersion: results.SchemaVersion, RunID: name, Status: results.Complete, Profiles: profiles}
	if err := results.Write(filepath.Join(run, "results.json"), f); err != nil {
		t.Fatal(err)
	}
	return run
}

// abRun is an ab run that profiled node-http's default@base (diff-a, 4
// requests) and default@new (diff-b, 5) on json, and both on fortunes.
func abRun(t *testing.T, dir string) string {
	base, next := model.ID{Framework: "node-http", Variant: "default@base"}, model.ID{Framework: "node-http", Variant: "default@new"}
	return makeRun(t, dir, "ab", []results.Profile{
		{ID: base, Test: "json", Connections: 2, Seconds: 1, Requests: 4, Files: []string{"profiles/node-http/default@base/json.cpuprofile"}},
		{ID: next, Test: "json", Connections: 2, Seconds: 1, Requests: 5, Files: []string{"profiles/node-http/default@new/json.cpuprofile"}},
		{ID: base, Test: "fortunes", Connections: 2, Seconds: 1, Requests: 8, Files: []string{"profiles/node-http/default@base/fortunes.1.cpuprofile", "profiles/node-http/default@base/fortunes.2.cpuprofile"}},
		{ID: next, Test: "fortunes", Connections: 2, Seconds: 1, Error: "start failed: exit status 1"},
	}, map[string]string{
		"profiles/node-http/default@base/json.cpuprofile":       "testdata/diff-a.cpuprofile",
		"profiles/node-http/default@new/json.cpuprofile":        "testdata/diff-b.cpuprofile",
		"profiles/node-http/default@base/fortunes.1.cpuprofile": "testdata/diff-a.cpuprofile",
		"profiles/node-http/default@base/fortunes.2.cpuprofile": "testdata/diff-b.cpuprofile",
	})
}

// TestDiffRuns: the two sides of an ab run, picked by variant and test,
// diff as Diff does with the records' requests, labelled with their
// selectors; a run folder or its results.json; several files summed.
func TestDiffRuns(t *testing.T) {
	dir := t.TempDir()
	run := abRun(t, dir)
	d, err := DiffRuns(RunSelector(run, model.MustID("node-http/default@base")), Selector{Run: filepath.Join(run, "results.json"), Framework: "node-http", Variant: "default@new"}, "json")
	if err != nil {
		t.Fatal(err)
	}
	a, b := readDiffFixtures(t)
	want := Diff(a, b, 4, 5)
	var got, exp bytes.Buffer
	WriteDiff(&got, d, 0)
	want.A.Label, want.B.Label = run+"#node-http/default@base (node-http/default@base json)", run+"/results.json#node-http/default@new (node-http/default@new json)"
	WriteDiff(&exp, want, 0)
	exp2 := strings.ReplaceAll(exp.String(), "testdata/diff-a.cpuprofile", filepath.Join(run, "profiles/node-http/default@base/json.cpuprofile"))
	exp2 = strings.ReplaceAll(exp2, "testdata/diff-b.cpuprofile", filepath.Join(run, "profiles/node-http/default@new/json.cpuprofile"))
	if got.String() != exp2 {
		t.Errorf("DiffRuns\n%s\nwant\n%s", got.String(), exp2)
	}
	// Two files of one record are summed; the only test of a variant needs no test name.
	r, err := ReadRun(Selector{Run: run, Framework: "node-http", Variant: "default@base"}, "fortunes")
	if err != nil {
		t.Fatal(err)
	}
	if r.Profile.Total != a.Total+b.Total || len(r.Profile.Files) != 2 || r.Record.Requests != 8 || r.Results != filepath.Join(run, "results.json") {
		t.Errorf("fortunes: total %v, files %d, record %+v, results %s", r.Profile.Total, len(r.Profile.Files), r.Record, r.Results)
	}
}

// TestReadRunErrors pins the errors: each names the run's results.json
// and what is missing or ambiguous.
func TestReadRunErrors(t *testing.T) {
	dir := t.TempDir()
	run := abRun(t, dir)
	plain := makeRun(t, dir, "plain", nil, nil)
	old := makeRun(t, dir, "old", []results.Profile{{ID: model.MustID("go-stdlib/default"), Test: "db", Connections: 8, Seconds: 1.2, Files: []string{"profiles/go-stdlib/default/db.pprof"}}},
		map[string]string{"profiles/go-stdlib/default/db.pprof": "testdata/go.pprof"})
	gone := makeRun(t, dir, "gone", []results.Profile{{ID: model.MustID("go-stdlib/default"), Test: "db", Connections: 8, Seconds: 1.2, Requests: 10, Files: []string{"profiles/go-stdlib/default/db.pprof"}}}, nil)
	nofiles := makeRun(t, dir, "nofiles", []results.Profile{{ID: model.MustID("go-stdlib/default"), Test: "db", Connections: 8, Seconds: 1.2, Requests: 10}}, nil)
	res := filepath.Join(run, "results.json")
	for _, c := range []struct {
		sel  Selector
		test string
		want string
	}{
		{Selector{Run: run}, "json", res + ": profiled node-http/default@base, node-http/default@new: pick one with " + run + "#FRAMEWORK/VARIANT"},
		{Selector{Run: run, Framework: "node-http"}, "json", res + ": profiled node-http/default@base, node-http/default@new: pick one with " + run + "#FRAMEWORK/VARIANT"},
		{Selector{Run: run, Framework: "go-stdlib", Variant: "default"}, "", res + ": no profile of go-stdlib/default: it profiled node-http/default@base, node-http/default@new"},
		{Selector{Run: run, Framework: "node-http", Variant: "default@base"}, "", res + ": node-http/default@base profiled tests json, fortunes: pick one with --test"},
		{Selector{Run: run, Framework: "node-http", Variant: "default@base"}, "db", res + ": node-http/default@base has no profile of test db: it has json, fortunes"},
		{Selector{Run: run, Framework: "node-http", Variant: "default@new"}, "fortunes", res + ": node-http/default@new fortunes: no profile: start failed: exit status 1"},
		// A test whose profile failed is still a test to pick from.
		{Selector{Run: run, Framework: "node-http", Variant: "default@new"}, "", res + ": node-http/default@new profiled tests json, fortunes: pick one with --test"},
		{Selector{Run: plain}, "", filepath.Join(plain, "results.json") + ": no profiles (a run made without --profile)"},
		{Selector{Run: old}, "", filepath.Join(old, "results.json") + ": go-stdlib/default db: no requests recorded (a run made before tfbench recorded them): no per-request figures"},
		{Selector{Run: gone}, "", filepath.Join(gone, "results.json") + ": go-stdlib/default db: open " + filepath.Join(gone, "profiles/go-stdlib/default/db.pprof") + ": no such file or directory"},
		{Selector{Run: nofiles}, "", filepath.Join(nofiles, "results.json") + ": go-stdlib/default db: no profile files"},
		{Selector{Run: filepath.Join(dir, "missing")}, "", "stat " + filepath.Join(dir, "missing") + ": no such file or directory"},
	} {
		_, err := ReadRun(c.sel, c.test)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s --test %q: err %v\nwant %s", c.sel, c.test, err, c.want)
		}
	}
	// DiffRuns says the first side's error, then the second's.
	_, err := DiffRuns(Selector{Run: run, Framework: "node-http", Variant: "default@base"}, Selector{Run: old}, "json")
	if want := filepath.Join(old, "results.json") + ": go-stdlib/default has no profile of test json: it has db"; err == nil || err.Error() != want {
		t.Errorf("DiffRuns with an old run: %v, want %s", err, want)
	}
	_, err = DiffRuns(Selector{Run: old}, Selector{Run: run, Framework: "node-http", Variant: "default@base"}, "db")
	if want := filepath.Join(old, "results.json") + ": go-stdlib/default db: no requests recorded (a run made before tfbench recorded them): no per-request figures"; err == nil || err.Error() != want {
		t.Errorf("DiffRuns from an old run: %v, want %s", err, want)
	}
}

// TestParseSelector pins RUN[#FRAMEWORK[/VARIANT]] and its errors.
func TestParseSelector(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Selector
		err  string
	}{
		{".tfbench/runs/latest", Selector{Run: ".tfbench/runs/latest"}, ""},
		{"runs/x/results.json#node-http/default@new", Selector{Run: "runs/x/results.json", Framework: "node-http", Variant: "default@new"}, ""},
		{"runs/x#go-stdlib", Selector{Run: "runs/x", Framework: "go-stdlib"}, ""},
		{"#go-stdlib/default", Selector{}, `"#go-stdlib/default": want RUN[#FRAMEWORK/VARIANT], RUN a run folder or its results.json`},
		{"runs/x#/default", Selector{}, `"runs/x#/default": no framework after #: want RUN#FRAMEWORK/VARIANT`},
	} {
		got, err := ParseSelector(c.in)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: err %v, want %s", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want || got.String() != c.in {
			t.Errorf("%q: %+v (%q), %v; want %+v", c.in, got, got.String(), err, c.want)
		}
	}
}

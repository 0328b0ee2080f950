package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/internal/golden"
)

// fixtureArgs are the fixture runs: three one-round files of the old plan
// and one 5-round file of the new, go-stdlib and nextjs selected (the
// files also hold node-http/default, not selected, and a constant-rate
// sample, never a peak). go-stdlib json is steadier in new; its fortunes
// is wider in new; queries N=20 moved by more than its old range; queries
// N=1 peaks at 16 connections in old and 64 in new; nextjs fortunes has no
// peak in new (a failed round at each level), nextjs queries N=20 none in
// old.
var fixtureArgs = []string{
	"--old", "testdata/old-1.json,testdata/old-2.json,testdata/old-3.json",
	"--new", "testdata/new.json",
	"--frameworks", "go-stdlib,nextjs/default,engine:pool",
}

// TestPlanPrecisionGolden pins the report on the fixture runs
// (testdata/report.md.golden): the sides, the rule, the table with every
// flag, the cells without a peak and the summary.
func TestPlanPrecisionGolden(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(fixtureArgs, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("stderr %q, want none", stderr.String())
	}
	golden.Check(t, "report.md.golden", stdout.String())
}

// TestPlanPrecisionCells checks the fixture's flags cell by cell, apart
// from the golden file's text.
func TestPlanPrecisionCells(t *testing.T) {
	oldSide, err := readSide("old", strings.Split(fixtureArgs[1], ","))
	if err != nil {
		t.Fatal(err)
	}
	newSide, err := readSide("new", []string{"testdata/new.json"})
	if err != nil {
		t.Fatal(err)
	}
	sel, err := parseSelectors(fixtureArgs[5])
	if err != nil {
		t.Fatal(err)
	}
	a := analyse(oldSide, newSide, sel)
	type flags struct{ both, wider, moved, level bool }
	want := map[string]flags{
		"go-stdlib/default json":         {true, false, false, false},
		"go-stdlib/default fortunes":     {true, true, false, false},
		"go-stdlib/default queries N=1":  {true, false, false, true},
		"go-stdlib/default queries N=20": {true, false, true, false},
		"nextjs/default json":            {true, false, false, false},
		"nextjs/default fortunes":        {false, false, false, false},
		"nextjs/default queries N=20":    {false, false, false, false},
	}
	var got []string
	for _, c := range a.Cells {
		k := c.Key.String()
		got = append(got, k)
		w, ok := want[k]
		if !ok {
			t.Errorf("cell %s not expected", k)
			continue
		}
		if f := (flags{c.both(), c.Wider, c.Moved, c.Lv}); f != w {
			t.Errorf("%s: {both wider moved level} = %v, want %v", k, f, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("cells %q, want the %d of %v", got, len(want), want)
	}
	if len(a.Absent) != 1 || a.Absent[0] != (selector{"engine", "pool"}) {
		t.Errorf("absent %v, want engine/pool", a.Absent)
	}
}

// TestConcatRenumbers: three one-round files make rounds 1, 2 and 3, in
// file order; a file's rounds are its suite's, or its highest sample round.
func TestConcatRenumbers(t *testing.T) {
	var files []*results.File
	for _, p := range []string{"testdata/old-1.json", "testdata/old-2.json", "testdata/old-3.json"} {
		f, err := results.Read(p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	samples, rounds := concat(files)
	if rounds != 3 {
		t.Errorf("rounds = %d, want 3", rounds)
	}
	perFile := len(files[0].Samples)
	for i, s := range samples {
		if want := 1 + i/perFile; s.Round != want {
			t.Fatalf("sample %d (%s %s c=%d) round %d, want %d", i, s.ID, s.Test, s.Connections, s.Round, want)
		}
	}
	p, ok := model.PeaksOf(samples).At(model.Reference, "json", 0)
	if !ok || !p.OK || len(p.Level.Samples) != 3 || p.Level.Median != 50000 || p.Level.Min != 49000 || p.Level.Max != 51000 {
		t.Errorf("go-stdlib json peak %+v, want 64 connections over 3 rounds: median 50000, 49000–51000", p.Level)
	}

	// A 2-round file whose samples stop at round 1, then a file with a
	// sample in round 2 though its suite says 1 round.
	a := &results.File{Suite: results.Suite{Rounds: 2}, Samples: []model.Sample{{Key: model.Key{Round: 1}}}}
	b := &results.File{Suite: results.Suite{Rounds: 1}, Samples: []model.Sample{{Key: model.Key{Round: 1}}, {Key: model.Key{Round: 2}}}}
	c := &results.File{Suite: results.Suite{Rounds: 1}, Samples: []model.Sample{{Key: model.Key{Round: 1}}}}
	samples, rounds = concat([]*results.File{a, b, c})
	var got []int
	for _, s := range samples {
		got = append(got, s.Round)
	}
	if want := []int{1, 3, 4, 5}; !slices.Equal(got, want) || rounds != 5 {
		t.Errorf("rounds %v (%d in all), want %v (5)", got, rounds, want)
	}
}

// TestPlanPrecisionErrors pins the usage errors (exit 2) and the input
// errors (exit 1), each naming the flag and the file.
func TestPlanPrecisionErrors(t *testing.T) {
	const usage = "usage: plan-precision --old FILE[,FILE...] --new FILE[,FILE...] [--frameworks LIST]\n"
	for _, c := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no new", []string{"--old", "testdata/old-1.json"}, 2,
			"plan-precision: --old and --new are both required\n" + usage},
		{"argument", []string{"--old", "testdata/old-1.json", "--new", "testdata/new.json", "extra"}, 2,
			"plan-precision: unexpected argument \"extra\"\n" + usage},
		{"empty item", []string{"--old", "testdata/old-1.json,", "--new", "testdata/new.json"}, 2,
			"plan-precision: --old: empty item in \"testdata/old-1.json,\"\n" + usage},
		{"bad id", []string{"--old", "testdata/old-1.json", "--new", "testdata/new.json", "--frameworks", "go-stdlib/"}, 2,
			"plan-precision: --frameworks: \"go-stdlib/\" is not framework/variant\n" + usage},
		{"bad selector", []string{"--old", "testdata/old-1.json", "--new", "testdata/new.json", "--frameworks", "engine:"}, 2,
			"plan-precision: --frameworks: \"engine:\" is not NAME:VARIANT\n" + usage},
		{"missing", []string{"--old", "testdata/old-1.json,testdata/missing.json", "--new", "testdata/new.json"}, 1,
			"plan-precision: --old: open testdata/missing.json: no such file or directory\n"},
		{"not json", []string{"--old", "testdata/old-1.json", "--new", "testdata/broken.json"}, 1,
			"plan-precision: --new: testdata/broken.json: not a tfbench results file: unexpected end of JSON input\n"},
		{"not results", []string{"--old", "testdata/old-1.json", "--new", "testdata/report.md.golden"}, 1,
			"plan-precision: --new: testdata/report.md.golden: not a tfbench results file: invalid character '#' looking for beginning of value\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(c.args, &stdout, &stderr)
			if code != c.code || stderr.String() != c.stderr {
				t.Errorf("exit %d, stderr\n%s\nwant exit %d, stderr\n%s", code, stderr.String(), c.code, c.stderr)
			}
			if stdout.Len() > 0 {
				t.Errorf("stdout %q, want none", stdout.String())
			}
		})
	}
}

// TestPlanPrecisionFlags: an unknown flag is a usage error (2) saying so
// before the usage; --help prints the usage and is not an error.
func TestPlanPrecisionFlags(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--bogus"}, &stdout, &stderr); code != 2 || !strings.HasPrefix(stderr.String(), "flag provided but not defined: -bogus\nusage: plan-precision --old") {
		t.Errorf("--bogus: exit %d, stderr %q; want 2 naming the flag, then the usage", code, stderr.String())
	}
	stderr.Reset()
	if code := run([]string{"--help"}, &stdout, &stderr); code != 0 || !strings.HasPrefix(stderr.String(), "usage: plan-precision --old") {
		t.Errorf("--help: exit %d, stderr %q; want 0 and the usage", code, stderr.String())
	}
	if stdout.Len() > 0 {
		t.Errorf("stdout %q, want none", stdout.String())
	}
}

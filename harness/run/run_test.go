package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/suite"
)

func TestLinkLatestReplacesTheLink(t *testing.T) {
	runs := t.TempDir()
	for _, id := range []string{"20261129-100000", "20261129-110000"} {
		if err := os.MkdirAll(filepath.Join(runs, id), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := linkLatest(runs, id); err != nil {
			t.Fatal(err)
		}
		got, err := os.Readlink(filepath.Join(runs, "latest"))
		if err != nil || got != id {
			t.Fatalf("latest -> %q (%v), want %q", got, err, id)
		}
	}
	entries, _ := os.ReadDir(runs)
	if len(entries) != 3 {
		t.Errorf("runs holds %d entries, want the two runs and the link", len(entries))
	}
	if got := LatestResults("w"); got != filepath.Join("w", "runs", "latest", "results.json") {
		t.Errorf("LatestResults = %q", got)
	}
}

func TestBenchNeedsTargets(t *testing.T) {
	s := &suite.Suite{Name: "x", Rounds: 1}
	_, _, err := Bench(context.Background(), Config{Suite: s, WorkDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "no frameworks to run") {
		t.Errorf("err %v", err)
	}
}

func TestSelect(t *testing.T) {
	a := &framework.Spec{Name: "a", Variants: []framework.Variant{{Name: "pool"}, {Name: "serialized"}, {Name: "patched", ByName: true}}}
	b := &framework.Spec{Name: "b", Variants: []framework.Variant{{Name: "default"}}}
	specs := []*framework.Spec{a, b}
	names := func(ts []Target) string {
		var out []string
		for _, t := range ts {
			out = append(out, t.ID().String())
		}
		return strings.Join(out, ",")
	}
	cases := []struct {
		items []string
		want  string
		err   string
	}{
		{nil, "a/pool,a/serialized,b/default", ""},
		{[]string{"b", "a:serialized"}, "b/default,a/serialized", ""},
		{[]string{"a"}, "a/pool,a/serialized", ""},
		{[]string{"a:*", "b"}, "a/pool,a/serialized,a/patched,b/default", ""},
		{[]string{"a:patched"}, "a/patched", ""},
		{[]string{"c"}, "", `no framework "c" in frameworks (have a, b)`},
		{[]string{"a/pool"}, "", `no framework "a/pool" in frameworks: a variant is named NAME:VARIANT (a:pool)`},
		{[]string{"a:cluster"}, "", `framework a: no variant "cluster" (have: pool, serialized, patched)`},
	}
	for _, c := range cases {
		got, err := Select(specs, c.items, "frameworks")
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%v: err %v, want %q", c.items, err, c.err)
			}
			continue
		}
		if err != nil || names(got) != c.want {
			t.Errorf("%v: %s (%v), want %s", c.items, names(got), err, c.want)
		}
	}
}

// TestVerifyGoesOnAfterAFailedBuild runs Verify on an adapter whose build
// fails and on go-stdlib: the failure is recorded for that framework with
// the build's output, go-stdlib is built (outside its source folder),
// started and verified, and a second run reuses its build.
func TestVerifyGoesOnAfterAFailedBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds go-stdlib")
	}
	broken, err := framework.Load(filepath.Join("testdata", "frameworks", "broken", framework.FileName))
	if err != nil {
		t.Fatal(err)
	}
	gostd, err := framework.Load(filepath.Join("..", "..", "frameworks", "go-stdlib", framework.FileName))
	if err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load(filepath.Join("..", "..", "suites", "smoke.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tests, err := s.Select([]string{"json"})
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	var log strings.Builder
	cfg := Config{Suite: s, Tests: tests, WorkDir: work, Log: &log, dateRecheck: time.Millisecond, Targets: []Target{
		{Spec: broken, Variant: broken.Variants[0]}, {Spec: gostd, Variant: gostd.Variants[0]},
	}}
	fws, vs, _, err := Verify(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(fws) != 2 || fws[0].Name != "broken" || fws[1].Name != "go-stdlib" {
		t.Fatalf("frameworks %+v", fws)
	}
	for _, want := range []string{"build failed: framework broken: build", "exit status 3", "app.js:3: SyntaxError: Unexpected token"} {
		if !strings.Contains(fws[0].Error, want) {
			t.Errorf("broken's error %q lacks %q", fws[0].Error, want)
		}
	}
	if fws[1].Error != "" || len(fws[1].Build) != 64 || fws[1].VersionText() != "modernc.org/sqlite v1.62.0" {
		t.Errorf("go-stdlib: error %q, build %q, versions %q", fws[1].Error, fws[1].Build, fws[1].VersionText())
	}
	if len(vs) != 1 || vs[0].Framework != "go-stdlib" || vs[0].Status != "pass" {
		t.Errorf("verdicts %+v; want go-stdlib json pass only", vs)
	}
	if _, err := os.Stat(filepath.Join(work, "build", "go-stdlib", "go", "out", "server")); err != nil {
		t.Errorf("go-stdlib's build output: %v", err)
	}
	if _, err := os.Stat(filepath.Join(work, "build", "broken", "default", "build.json")); !os.IsNotExist(err) {
		t.Errorf("the failed build left a stamp: %v", err)
	}

	log.Reset()
	fws2, _, _, err := Verify(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "go-stdlib (go): cached build "+fws[1].Build[:12]) || fws2[1].Build != fws[1].Build {
		t.Errorf("second run did not reuse go-stdlib's build:\n%s", log.String())
	}
	if !strings.Contains(fws2[0].Error, "exit status 3") {
		t.Errorf("second run: broken's error %q; the failed build must be tried again", fws2[0].Error)
	}
}

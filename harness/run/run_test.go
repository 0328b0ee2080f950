package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	a := &framework.Spec{Name: "a", Variants: []framework.Variant{{Name: "pool"}, {Name: "serialized"}}}
	b := &framework.Spec{Name: "b", Variants: []framework.Variant{{Name: "default"}}}
	specs := []*framework.Spec{a, b}
	names := func(ts []Target) string {
		var out []string
		for _, t := range ts {
			out = append(out, t.Name())
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
		{[]string{"c"}, "", `no framework "c" in frameworks (have a, b)`},
		{[]string{"a:cluster"}, "", `framework a: no variant "cluster" (have: pool, serialized)`},
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

package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

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

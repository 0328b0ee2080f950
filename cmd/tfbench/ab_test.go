package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/results"
)

// slowedCopy copies frameworks/go-stdlib into dir/go-stdlib with a 2 ms
// sleep before every response: the deliberately slowed build of the A/B
// test (test-only; the adapter itself has no delay).
func slowedCopy(t *testing.T, dir string) string {
	t.Helper()
	from, to := "../../frameworks/go-stdlib", filepath.Join(dir, "go-stdlib")
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if rel == "main.go" {
			const at = `w.Header().Set("Server", serverName)`
			if !bytes.Contains(data, []byte(at)) {
				t.Fatalf("%s no longer has %s to slow down", p, at)
			}
			data = bytes.Replace(data, []byte(at), []byte("time.Sleep(2 * time.Millisecond)\n\t\t"+at), 1)
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return to
}

// TestABSlowedBuild is the A/B a framework author runs on a patch: go-stdlib
// against a copy slowed by 2 ms a request, 5 interleaved rounds of json at
// 8 connections (the copy cannot pass 4,000 requests/s). The verdict must
// be "slower" with the smallest p five rounds allow (2/252), and ab must
// exit 1.
func TestABSlowedBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs go-stdlib twice, 5 rounds")
	}
	work := t.TempDir()
	slow := slowedCopy(t, t.TempDir())
	jsonOut := filepath.Join(work, "ab.json")
	var stdout, stderr bytes.Buffer
	args := []string{"ab", "--suite", "testdata/ab.yaml", "--frameworks-dir", "../../frameworks", "--work", work,
		"--new-dir", slow, "--json", jsonOut, "go-stdlib"}
	code := cli(context.Background(), args, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (slower)\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stderr.String(), "tfbench ab: 1 of 1 rows slower than base: go-stdlib/default@new json") {
		t.Errorf("stderr %q", stderr.String())
	}
	data, err := os.ReadFile(jsonOut)
	if err != nil {
		t.Fatal(err)
	}
	var tab compare.Table
	if err := json.Unmarshal(data, &tab); err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 1 {
		t.Fatalf("%d rows, want 1 (json)", len(tab.Rows))
	}
	r := tab.Rows[0]
	if r.Verdict != compare.Slower || r.Test != "json" || r.Variant != "default@new" || len(r.Base.Rounds) != 5 || len(r.New.Rounds) != 5 {
		t.Errorf("row %+v", r)
	}
	if math.Abs(r.P-2.0/252) > 1e-12 || r.New.Peak > 4000 || r.Change > -0.5 {
		t.Errorf("p %g (want 2/252), new peak %.0f requests/s (2 ms × 8 connections caps it at 4,000), change %+.2f", r.P, r.New.Peak, r.Change)
	}
	if !strings.Contains(stdout.String(), "| slower") {
		t.Errorf("the markdown on stdout has no slower row:\n%s", stdout.String())
	}

	f, err := results.Read(filepath.Join(work, "runs", "latest", "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var variants []string
	rounds := map[string][]int{}
	for _, s := range f.Samples {
		rounds[s.Variant] = append(rounds[s.Variant], s.Round)
	}
	for _, fw := range f.Frameworks {
		variants = append(variants, fw.Variant)
		if fw.Error != "" {
			t.Errorf("%s: %s", fw.Variant, fw.Error)
		}
	}
	slices.Sort(variants)
	if !slices.Equal(variants, []string{"default@base", "default@new"}) || f.Suite.Rounds != 5 {
		t.Errorf("variants %v, rounds %d", variants, f.Suite.Rounds)
	}
	for v, rs := range rounds {
		if !slices.Equal(rs, []int{1, 2, 3, 4, 5}) {
			t.Errorf("%s measured in rounds %v", v, rs)
		}
	}
	if left := processesUnder(work); len(left) > 0 {
		t.Errorf("processes left: %v", left)
	}
}

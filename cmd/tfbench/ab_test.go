package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/results"
)

// slowedCopy copies frameworks/go-stdlib into dir/go-stdlib with a 20 ms
// sleep before every response: the deliberately slowed build of the A/B
// test (test-only; the adapter itself has no delay).
func slowedCopy(t *testing.T, dir string) string {
	t.Helper()
	return editedCopy(t, dir, `w.Header().Set("Server", serverName)`, "time.Sleep(20 * time.Millisecond)\n\t\t"+`w.Header().Set("Server", serverName)`)
}

// editedCopy copies frameworks/go-stdlib into dir/go-stdlib with the first
// at in main.go replaced by with, and returns that folder.
func editedCopy(t *testing.T, dir, at, with string) string {
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
			if !bytes.Contains(data, []byte(at)) {
				t.Fatalf("%s no longer has %s to change", p, at)
			}
			data = bytes.Replace(data, []byte(at), []byte(with), 1)
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return to
}

// TestABSlowedBuild is the A/B a framework author runs on a patch: go-stdlib
// against a copy slowed by 20 ms a request, 5 interleaved rounds of json at
// 1 connection. The sleep bounds the copy at 50 requests/s whatever the
// machine does, while go-stdlib answers in well under 20 ms even on a busy
// one, so every base round beats every new round: the verdict must be
// "slower" with the smallest p five rounds allow (2/252), and ab must
// exit 1. The copy answers the same bytes: json's byte-equivalence verdict
// is identical, on stderr, in results.json and in the comparison.
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
	if math.Abs(r.P-2.0/252) > 1e-12 || r.New.Peak > 50 || r.Change > -0.5 {
		t.Errorf("p %g (want 2/252), new peak %.0f requests/s (20 ms × 1 connection caps it at 50), change %+.2f", r.P, r.New.Peak, r.Change)
	}
	if !strings.Contains(stdout.String(), "| slower") {
		t.Errorf("the markdown on stdout has no slower row:\n%s", stdout.String())
	}
	// The slowed copy answers the same bytes: json is identical.
	identical := []results.Equivalence{{Test: "json", Path: "/json", Identical: true, Offset: -1}}
	if !strings.Contains(stderr.String(), "equivalence json: identical (0 masks applied)\n") || !reflect.DeepEqual(tab.Equivalence, identical) {
		t.Errorf("equivalence %+v; stderr %q", tab.Equivalence, stderr.String())
	}
	if !strings.Contains(stdout.String(), "Byte-equivalence: all 1 tests identical") {
		t.Errorf("the markdown on stdout has no equivalence line:\n%s", stdout.String())
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
	if !reflect.DeepEqual(f.Equivalence, identical) {
		t.Errorf("results.json equivalence %+v", f.Equivalence)
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

// TestABEquivalence: go-stdlib against a copy whose fortunes page has one
// attribute more (`<table class="f">`, which verification ignores). With
// --require-identical ab stops after the builds: exit 3, the first
// difference at byte 69 (the ">" after "<table"), nothing measured.
// Without it the difference is a warning: the run measures both tests and
// the comparison starts with the verdicts.
func TestABEquivalence(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs go-stdlib twice, 5 rounds")
	}
	work := t.TempDir()
	changed := editedCopy(t, t.TempDir(), "<body><table>", `<body><table class="f">`)
	const prefix = `<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table`
	k := len(prefix) // 69
	base := prefix[k-40:] + `><tr><th>id</th><th>message</th></tr><tr`
	nw := prefix[k-40:] + ` class="f"><tr><th>id</th><th>message</t`
	line := fmt.Sprintf("equivalence fortunes: differs at byte 69: base %q new %q\n", base, nw)
	want := []results.Equivalence{
		{Test: "json", Path: "/json", Identical: true, Offset: -1},
		{Test: "fortunes", Path: "/fortunes", Offset: 69, Base: base, New: nw},
	}
	args := []string{"ab", "--suite", "testdata/ab-equiv.yaml", "--frameworks-dir", "../../frameworks", "--work", work, "--new-dir", changed}

	var stdout, stderr bytes.Buffer
	code := cli(context.Background(), append(args, "--require-identical", "go-stdlib"), &stdout, &stderr)
	if code != 3 {
		t.Fatalf("--require-identical: exit %d, want 3\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	if want := "equivalence json: identical (0 masks applied)\n" + line + "tfbench ab: --require-identical: pages differ before measuring: fortunes at byte 69\n"; stderr.String() != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr.String(), want)
	}
	f, err := results.Read(filepath.Join(work, "runs", "latest", "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f.Equivalence, want) || len(f.Samples) != 0 || len(f.Verifications) != 0 || f.Status != results.Interrupted {
		t.Errorf("equivalence %+v, %d samples, %d verifications, status %s", f.Equivalence, len(f.Samples), len(f.Verifications), f.Status)
	}

	stdout.Reset()
	stderr.Reset()
	jsonOut := filepath.Join(work, "ab.json")
	code = cli(context.Background(), append(args, "--json", jsonOut, "go-stdlib"), &stdout, &stderr)
	if code != 0 && code != 1 { // 1: a row slower, which the machine may make so
		t.Fatalf("exit %d, want a verdict (0 or 1)\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	if !strings.HasPrefix(stderr.String(), "equivalence json: identical (0 masks applied)\n"+line) {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	data, err := os.ReadFile(jsonOut)
	if err != nil {
		t.Fatal(err)
	}
	var tab compare.Table
	if err := json.Unmarshal(data, &tab); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tab.Equivalence, want) || len(tab.Rows) != 2 {
		t.Errorf("comparison: equivalence %+v, %d rows", tab.Equivalence, len(tab.Rows))
	}
	for _, r := range tab.Rows {
		if len(r.Base.Rounds) != 5 || len(r.New.Rounds) != 5 {
			t.Errorf("%s: rounds %v / %v, want 5 each (the difference does not stop the run)", r.Test, r.Base.Rounds, r.New.Rounds)
		}
	}
	md := "**Byte-equivalence: 1 of 2 tests not identical**"
	if !strings.Contains(stdout.String(), md) || !strings.Contains(stdout.String(), "- fortunes `/fortunes`: **differs at byte 69**: base ") {
		t.Errorf("the markdown on stdout lacks the verdicts:\n%s", stdout.String())
	}
	if left := processesUnder(work); len(left) > 0 {
		t.Errorf("processes left: %v", left)
	}
}

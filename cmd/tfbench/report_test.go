package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/internal/runfixture"
)

// TestReportCommandFile: --out FILE writes the single markdown report,
// byte for byte the report bench wrote for the same run (the published run
// of internal/runfixture, never reports/, which a run replaces).
func TestReportCommandFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report.md")
	var stdout, stderr bytes.Buffer
	if code := cli(context.Background(), []string{"report", "--results", runfixture.Results(t), "--out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(runfixture.Report(t))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("report of %s differs from %s", runfixture.Results(t), runfixture.Report(t))
	}
	if stdout.String() != "wrote "+out+"\n" {
		t.Errorf("stdout %q", stdout.String())
	}
}

// TestReportCommandSite: --out DIR/ (or an existing directory) writes the
// site of the published run: index, a page and a chart per test, results.csv.
func TestReportCommandSite(t *testing.T) {
	want := []string{"db.md", "db.svg", "fortunes.md", "fortunes.svg", "index.md", "json.md", "json.svg", "plaintext.md", "plaintext.svg",
		"queries.md", "queries.svg", "results.csv", "updates.md", "updates.svg"}
	existing := t.TempDir()
	for _, out := range []string{filepath.Join(t.TempDir(), "site") + "/", existing} {
		var stdout, stderr bytes.Buffer
		if code := cli(context.Background(), []string{"report", "--results", runfixture.Results(t), "--out", out}, &stdout, &stderr); code != 0 {
			t.Fatalf("--out %s: exit %d: %s", out, code, stderr.String())
		}
		if stdout.String() != "wrote 14 files to "+out+" (index.md)\n" {
			t.Errorf("stdout %q", stdout.String())
		}
		entries, err := os.ReadDir(out)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if !slices.Equal(names, want) {
			t.Errorf("--out %s wrote %q, want %q", out, names, want)
		}
	}
}

// TestReportCommandMerged: a merged file (two runs cut from the published
// run) renders as a site with a Run column, and is refused as a single
// markdown file.
func TestReportCommandMerged(t *testing.T) {
	f, err := results.Read(runfixture.Results(t))
	if err != nil {
		t.Fatal(err)
	}
	only := func(names ...string) *results.File {
		g := *f
		g.Frameworks, g.Verifications, g.Samples = nil, nil, nil
		for _, fw := range f.Frameworks {
			if slices.Contains(names, fw.Name) {
				g.Frameworks = append(g.Frameworks, fw)
			}
		}
		for _, v := range f.Verifications {
			if slices.Contains(names, v.Framework) {
				g.Verifications = append(g.Verifications, v)
			}
		}
		for _, s := range f.Samples {
			if slices.Contains(names, s.Framework) {
				g.Samples = append(g.Samples, s)
			}
		}
		return &g
	}
	s, err := results.Merge([]results.Run{{Label: "nextjs", File: only("go-stdlib", "nextjs")}, {Label: "qwik", File: only("go-stdlib", "qwik")}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	merged := filepath.Join(dir, "merged.json")
	if err := results.WriteSet(merged, s); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := cli(context.Background(), []string{"report", "--results", merged, "--out", filepath.Join(dir, "site") + "/"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	page, err := os.ReadFile(filepath.Join(dir, "site", "fortunes.md"))
	if err != nil {
		t.Fatal(err)
	}
	// Both runs are the same machine's go-stdlib here: 20,049 each, tied
	// at 1.00× in every round; qwik's per-round ratios (0.16–0.21) are
	// below them: rank 3. The merged pages carry the constant-rate table.
	for _, want := range []string{"| Run    | Framework |", "| nextjs | go-stdlib | default |", "| qwik   | go-stdlib | default |",
		"| qwik   | qwik      | default | node 24.22.3 |    3,435 |    3 |   0.17× (0.16–0.21) |",
		"| qwik   | qwik      | default |          200 |  0.692–1.33 |  1.54–5.75 |  0.760–1.44 |      3 |"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("merged fortunes.md lacks %q:\n%s", want, page)
		}
	}
	stdout.Reset()
	stderr.Reset()
	code := cli(context.Background(), []string{"report", "--results", merged, "--out", filepath.Join(dir, "one.md")}, &stdout, &stderr)
	if want := merged + " holds 2 merged runs: render it as a site with --out DIR/"; code != 1 || !strings.Contains(stderr.String(), want) {
		t.Errorf("exit %d, stderr %q; want exit 1 and %q", code, stderr.String(), want)
	}
}

package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/results"
)

// Every report and site page opens with its title and then the provenance
// line (issue 35): single runs and merged sets, the site's index and each
// test's page, and the one-file report.
func TestEveryPageHasProvenance(t *testing.T) {
	f := tfbFixture(t)
	a := keep(siteFixture(t), 1, "go-stdlib", "node-http")
	a.RunID, a.Host.Hostname = "ra", "vm"
	a.Source = &results.Source{Commit: "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b"}
	b := keep(siteFixture(t), 2, "go-stdlib", "slow")
	b.RunID = "rb"
	merged, err := results.Merge([]results.Run{{Label: "ci-a", File: a}, {Label: "ci-b", File: b}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		set  *results.Set
		line string
	}{
		{"single", single(f), "Run `r1`, 2026-11-29 19:30 UTC, commit `2ba518a0c1d2` +dirty, machine Test CPU, 2 logical CPUs, kvm guest."},
		{"merged", merged, "2 runs merged: ci-a: run `ra`, 2026-11-29 19:30 UTC, commit `1a2b3c4d5e6f`, machine vm (Test CPU, 2 logical CPUs); ci-b: run `rb`, 2026-11-29 19:30 UTC, commit unknown, machine Test CPU, 2 logical CPUs."},
	} {
		if got := Provenance(c.set); got != c.line {
			t.Errorf("%s: Provenance\n got %s\nwant %s", c.name, got, c.line)
		}
		pages := 0
		for name, page := range site(t, c.set) {
			if !strings.HasSuffix(name, ".md") {
				continue
			}
			pages++
			title, rest, _ := strings.Cut(page, "\n\n")
			if !strings.HasPrefix(title, "# ") || !strings.HasPrefix(rest, c.line+"\n") {
				t.Errorf("%s: %s does not open with its title and %q:\n%.300s", c.name, name, c.line, page)
			}
		}
		if pages < 2 {
			t.Errorf("%s: %d pages, want the index and the test pages", c.name, pages)
		}
	}
	var report bytes.Buffer
	if err := Markdown(&report, f); err != nil {
		t.Fatal(err)
	}
	if _, rest, _ := strings.Cut(report.String(), "\n\n"); !strings.HasPrefix(rest, "Run `r1`, 2026-11-29 19:30 UTC, commit `2ba518a0c1d2` +dirty, machine Test CPU, 2 logical CPUs, kvm guest. Status: complete.\n") {
		t.Errorf("the report does not open with the provenance line:\n%.300s", report.String())
	}
}

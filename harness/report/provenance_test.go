package report

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/results"
)

// Every report and site page opens with its title and then the provenance
// line, and every peak it shows has its range (docs/publishing.md): single runs and
// merged sets, the site's index and each test's page, and the one-file
// report, of the TFB tests and of a page test.
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
			checkRanges(t, c.name+": "+name, page)
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
	checkRanges(t, "report", report.String())
	// A page test: its report and its site's pages.
	report.Reset()
	if err := Markdown(&report, pageFixture(t)); err != nil {
		t.Fatal(err)
	}
	checkRanges(t, "page report", report.String())
	for name, page := range site(t, single(pageFixture(t))) {
		if strings.HasSuffix(name, ".md") {
			checkRanges(t, "page site: "+name, page)
		}
	}
}

// TestCheckRanges: the checker finds a peak without its range.
func TestCheckRanges(t *testing.T) {
	for _, page := range []string{
		"| Framework | Peak RPS |\n|:--|--:|\n| a | 1,000 |\n",
		"| Framework | Peak RPS | Range (min–max) |\n|:--|--:|--:|\n| a | 1,000 | — |\n",
		"| Framework | N = 1 |\n|:--|--:|\n| a | 1,000 |\n",
		"| Framework | [json](json.md) |\n|:--|--:|\n| a | =1 · 1,000 |\n",
	} {
		rec := &recorder{TB: t}
		checkRanges(rec, "page", page)
		if !rec.failed {
			t.Errorf("no range missed in\n%s", page)
		}
	}
}

// recorder notes a failure instead of reporting it.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Helper()               {}

// checkRanges fails t for each peak RPS cell of page's markdown tables
// without its range: a "Peak RPS" column needs a "Range (min–max)" one
// with a value beside each figure; a cell of an "N = …" or test (summary)
// column must hold "(min–max)".
func checkRanges(t testing.TB, name, page string) {
	t.Helper()
	var header []string
	for _, line := range strings.Split(page, "\n") {
		if !strings.HasPrefix(line, "|") {
			header = nil
			continue
		}
		cells := splitRow(line)
		switch {
		case header == nil:
			header = cells
			continue
		case strings.HasPrefix(cells[0], ":-") || strings.HasPrefix(cells[0], "-"):
			continue
		}
		peak, rng := slices.Index(header, "Peak RPS"), slices.Index(header, "Range (min–max)")
		if peak >= 0 && cells[peak] != "—" && (rng < 0 || cells[rng] == "—" || cells[rng] == "") {
			t.Errorf("%s: a peak without its range: %s", name, line)
		}
		for i, h := range header {
			if (strings.HasPrefix(h, "N = ") || strings.HasSuffix(h, ".md)")) && cells[i] != "—" && !rangeCell.MatchString(cells[i]) {
				t.Errorf("%s: column %q has a figure without its range: %s", name, h, line)
			}
		}
	}
}

var rangeCell = regexp.MustCompile(`\([0-9.,]+–[0-9.,]+\)$`)

// splitRow splits a markdown table line into its trimmed cells ("\|" is
// no separator).
func splitRow(line string) []string {
	parts := strings.Split(strings.ReplaceAll(strings.Trim(line, "|"), `\|`, "\x00"), "|")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(strings.TrimSpace(p), "\x00", `\|`)
	}
	return parts
}

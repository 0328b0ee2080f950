package layoutcheck

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// module is the import path prefix of the repository's packages.
const module = "github.com/tfbench/tfbench/"

// bottom is the vocabulary every stage speaks: it sits below every row,
// wherever the table lists it.
const bottom = "harness/model"

// edge is one import of a harness package by another, both named by their
// table path ("harness/verify"; a subpackage counts as its table row's).
type edge struct{ from, to string }

// knownUpward are the imports of a later row the test accepts, each with why.
// Empty: add one only with its reason, and remove it once the import is gone
// (the test fails on an exception that no longer occurs).
var knownUpward = map[edge]string{}

// row is a harness package's place in the Layout table: its 1-based row and
// its line in docs/layout.md.
type row struct{ index, line int }

// rowPath finds a harness package's path in a table row's first cell.
var rowPath = regexp.MustCompile("`(harness/[a-z0-9]+)/`")

// layoutRows reads the order of the harness packages from the table of the
// "## Layout" section of md (docs/layout.md's text): the rows whose first
// cell names `harness/NAME/`. A package listed twice is an error.
func layoutRows(md string) (map[string]row, error) {
	rows := map[string]row{}
	in, index := false, 0
	for i, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## Layout"
			continue
		case !in || !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| ---") || strings.HasPrefix(line, "| path |"):
			continue
		}
		index++
		cell := strings.SplitN(line, "|", 3)[1]
		for _, m := range rowPath.FindAllStringSubmatch(cell, -1) {
			if r, ok := rows[m[1]]; ok {
				return nil, fmt.Errorf("docs/layout.md:%d lists %s again (first at line %d)", i+1, m[1], r.line)
			}
			rows[m[1]] = row{index, i + 1}
		}
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("docs/layout.md: no `harness/NAME/` rows in the table of its \"## Layout\" section")
	}
	return rows, nil
}

// tablePath is the Layout table's name of a harness package: its first two
// path elements ("harness/agent" for harness/agent/x), "" outside harness/.
func tablePath(pkg string) string {
	parts := strings.SplitN(pkg, "/", 3)
	if len(parts) < 2 || parts[0] != "harness" {
		return ""
	}
	return parts[0] + "/" + parts[1]
}

// upward checks each harness package's imports (package path relative to
// the module -> its imports, likewise) against rows: an import of a package
// listed further down, or of a package the table does not list, is a
// problem unless known holds it; an exception in known that no longer occurs
// is one too. The problems come sorted.
func upward(rows map[string]row, imports map[string][]string, known map[edge]string) []string {
	var problems []string
	seen := map[edge]bool{}
	unlisted := map[string]bool{}
	level := func(p string) int {
		if p == bottom {
			return 0 // below every row, wherever it is listed
		}
		return rows[p].index
	}
	rank := func(p string) (row, bool) {
		r, ok := rows[p]
		if !ok && !unlisted[p] {
			unlisted[p] = true
			problems = append(problems, fmt.Sprintf("%s is not in docs/layout.md's Layout table: add its row where it belongs in the flow", p))
		}
		return r, ok
	}
	for pkg, deps := range imports {
		from := tablePath(pkg)
		if from == "" {
			continue
		}
		fr, fok := rank(from)
		for _, d := range deps {
			to := tablePath(d)
			if to == "" || to == from {
				continue
			}
			tr, tok := rank(to)
			if !fok || !tok || level(to) <= level(from) {
				continue
			}
			e := edge{from, to}
			if _, ok := known[e]; ok {
				seen[e] = true
				continue
			}
			problems = append(problems, fmt.Sprintf("%s (row %d, docs/layout.md:%d) imports %s (row %d, docs/layout.md:%d), a later stage: move the shared part down, or the row up if it is a leaf both use",
				pkg, fr.index, fr.line, d, tr.index, tr.line))
		}
	}
	for e, why := range known {
		if !seen[e] {
			problems = append(problems, fmt.Sprintf("known exception %s -> %s (%s) no longer occurs: remove it from knownUpward", e.from, e.to, why))
		}
	}
	slices.Sort(problems)
	return slices.Compact(problems)
}

// leaves names each import of a harness package by a package under
// internal/, which holds only the leaves the harness shares (a developer
// tool's package lives under its tools/ folder).
func leaves(imports map[string][]string) []string {
	var problems []string
	for pkg, deps := range imports {
		if !strings.HasPrefix(pkg, "internal/") {
			continue
		}
		for _, d := range deps {
			if tablePath(d) != "" {
				problems = append(problems, fmt.Sprintf("%s imports %s: internal/ holds leaves only (docs/layout.md)", pkg, d))
			}
		}
	}
	slices.Sort(problems)
	return problems
}

// TestLayoutOrder: no harness package imports one that docs/layout.md's
// Layout table lists after it, and no internal/ package imports the harness.
// Only the packages' own imports count, not their tests', which may build
// fixtures from any stage.
func TestLayoutOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over the module")
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	root := strings.TrimSpace(string(out))
	md, err := os.ReadFile(filepath.Join(root, "docs", "layout.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := layoutRows(string(md))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 20 {
		t.Fatalf("docs/layout.md lists %d harness packages, want the whole pipeline (20 or more)", len(rows))
	}
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./harness/...", "./internal/...")
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err = cmd.Output()
	if err != nil {
		t.Fatalf("go list ./harness/... ./internal/...: %v", err)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		var deps []string
		for _, d := range f[1:] {
			if p, ok := strings.CutPrefix(d, module); ok {
				deps = append(deps, p)
			}
		}
		imports[strings.TrimPrefix(f[0], module)] = deps
	}
	if len(imports) < len(rows) {
		t.Fatalf("go list found %d harness packages, fewer than docs/layout.md's %d rows", len(imports), len(rows))
	}
	for _, p := range append(upward(rows, imports, knownUpward), leaves(imports)...) {
		t.Error(p)
	}
}

// fakeLayout is a small Layout table: model, a, then b with a subpackage
// named in another section that must not count.
const fakeLayout = "# Where things go\n\n## Where things go\n\n| path | what |\n| --- | --- |\n| `harness/zz/` | not the Layout section |\n\n" +
	"## Layout\n\nThe packages in order.\n\n| path | what |\n| --- | --- |\n" +
	"| `harness/model/` | the vocabulary |\n" +
	"| `harness/a/` | the first stage |\n" +
	"| `internal/x/` | a leaf, not harness |\n" +
	"| `harness/b/` | the second stage, reads `harness/a/` in its text |\n\n" +
	"## After\n\n| `harness/c/` | not the table |\n"

// TestLayoutRows: the order comes from the Layout section's table alone,
// counting every row, and a package listed twice is an error.
func TestLayoutRows(t *testing.T) {
	rows, err := layoutRows(fakeLayout)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]row{"harness/model": {1, 15}, "harness/a": {2, 16}, "harness/b": {4, 18}}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("layoutRows = %v, want %v", rows, want)
	}
	dup := strings.Replace(fakeLayout, "| `harness/b/` |", "| `harness/a/` |", 1)
	if _, err := layoutRows(dup); err == nil || err.Error() != "docs/layout.md:18 lists harness/a again (first at line 16)" {
		t.Errorf("layoutRows(a twice) = %v", err)
	}
	if _, err := layoutRows("## Layout\n\nno table\n"); err == nil {
		t.Error("layoutRows(no table): no error")
	}
}

// TestUpward: an import down the table passes; one up the table, one of an
// unlisted package and a stale exception are each named; model is the
// bottom; a known exception is accepted; internal/ importing harness is named.
func TestUpward(t *testing.T) {
	rows, err := layoutRows(fakeLayout)
	if err != nil {
		t.Fatal(err)
	}
	down := map[string][]string{"harness/b": {"harness/a", "harness/model", "internal/x"}, "harness/a/sub": {"harness/model", "harness/a"}}
	if p := upward(rows, down, nil); len(p) != 0 {
		t.Errorf("downward imports: %q, want none", p)
	}
	up := map[string][]string{"harness/a/sub": {"harness/b"}, "harness/model": {"harness/a"}}
	want := []string{
		"harness/a/sub (row 2, docs/layout.md:16) imports harness/b (row 4, docs/layout.md:18), a later stage: move the shared part down, or the row up if it is a leaf both use",
		"harness/model (row 1, docs/layout.md:15) imports harness/a (row 2, docs/layout.md:16), a later stage: move the shared part down, or the row up if it is a leaf both use",
	}
	if p := upward(rows, up, nil); !slices.Equal(p, want) {
		t.Errorf("upward imports:\n%q\nwant\n%q", p, want)
	}
	known := map[edge]string{{"harness/a", "harness/b"}: "a test of the exception list"}
	if p := upward(rows, up, known); !slices.Equal(p, want[1:]) {
		t.Errorf("with a known exception: %q, want %q", p, want[1:])
	}
	stale := map[edge]string{{"harness/b", "harness/model"}: "gone"}
	if p := upward(rows, down, stale); len(p) != 1 || p[0] != "known exception harness/b -> harness/model (gone) no longer occurs: remove it from knownUpward" {
		t.Errorf("stale exception: %q", p)
	}
	leaf := map[string][]string{"internal/x": {"internal/y", "harness/model/sub"}, "harness/a": {"internal/x"}}
	if p := leaves(leaf); len(p) != 1 || p[0] != "internal/x imports harness/model/sub: internal/ holds leaves only (docs/layout.md)" {
		t.Errorf("leaves = %q", p)
	}
	unlisted := map[string][]string{"harness/b": {"harness/c"}, "harness/d": {"harness/model"}}
	want = []string{
		"harness/c is not in docs/layout.md's Layout table: add its row where it belongs in the flow",
		"harness/d is not in docs/layout.md's Layout table: add its row where it belongs in the flow",
	}
	if p := upward(rows, unlisted, nil); !slices.Equal(p, want) {
		t.Errorf("unlisted packages: %q, want %q", p, want)
	}
}

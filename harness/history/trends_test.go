package history

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/internal/golden"
)

// threeNights is the history of three nights from testdata: night 1 both
// shards, night 2 without node-http's shard (a gap), night 3 measured by
// method version 1 (a change).
func threeNights(t *testing.T) *History {
	t.Helper()
	h := &History{Schema: SchemaVersion}
	for _, c := range []struct{ date, commit, file string }{
		{"2026-12-03", "3333333333333333333333333333333333333333", "night3-method1.json"},
		{"2026-12-01", "1111111111111111111111111111111111111111", "night1-merged.json"},
		{"2026-12-02", "", "night2-shard1.json"},
	} {
		n, err := From([]string{filepath.Join("testdata", c.file)}, c.date, c.commit)
		if err != nil {
			t.Fatal(err)
		}
		h = Append(h, n)
	}
	return h
}

// TestTrendsGolden pins trends/index.md of three nights and checks each
// chart is SVG naming its series: go-stdlib in the p99 chart alone; the
// nights have no change point.
func TestTrendsGolden(t *testing.T) {
	dir := t.TempDir()
	paths, err := Trends(dir, threeNights(t))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range paths {
		names = append(names, filepath.Base(p))
	}
	if want := []string{"index.md", "json-ratio.svg", "json-p99.svg", "changes.json", "changes.md"}; !slices.Equal(names, want) {
		t.Errorf("wrote %q, want %q", names, want)
	}
	index, err := os.ReadFile(filepath.Join(dir, "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "trends-index.md", string(index))
	// No change points in three nights: an empty list and a page that says so.
	if cps, err := ReadChanges(filepath.Join(dir, "changes.json")); err != nil || len(cps) != 0 {
		t.Errorf("changes.json: %v, %v; want none", cps, err)
	}
	if page, _ := os.ReadFile(filepath.Join(dir, "changes.md")); !strings.HasSuffix(string(page), "\n\nNo change points.\n") {
		t.Errorf("changes.md:\n%s", page)
	}
	for name, want := range map[string][]string{
		"json-ratio.svg": {"json: peak RPS ÷ go-stdlib by night", "nextjs/default", "node-http/default", "2026-12-01", "2026-12-03", "method v1"},
		"json-p99.svg":   {"json: p99 at the peak by night", "go-stdlib/default", "nextjs/default", "node-http/default", "method v1"},
	} {
		texts := svgTexts(t, filepath.Join(dir, name))
		for _, w := range want {
			if !slices.Contains(texts, w) {
				t.Errorf("%s has no text %q: %q", name, w, texts)
			}
		}
		if name == "json-ratio.svg" && slices.Contains(texts, "go-stdlib/default") {
			t.Errorf("%s has a go-stdlib line: its ratio to itself is 1", name)
		}
	}
}

// TestTrendsEmpty: no nights, an index that says so and no chart.
func TestTrendsEmpty(t *testing.T) {
	dir := t.TempDir()
	paths, err := Trends(dir, &History{Schema: SchemaVersion})
	if err != nil {
		t.Fatal(err)
	}
	index, _ := os.ReadFile(filepath.Join(dir, "index.md"))
	if len(paths) != 1 || string(index) != "# tfbench nightly trends\n\nNo nights yet: the history is empty.\n" {
		t.Errorf("wrote %q, index:\n%s", paths, index)
	}
}

// svgTexts parses an SVG file as XML and returns its <text> contents.
func svgTexts(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	var texts []string
	in := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s is not XML: %v", path, err)
		}
		switch x := tok.(type) {
		case xml.StartElement:
			in = x.Name.Local == "text"
		case xml.EndElement:
			in = false
		case xml.CharData:
			if in {
				texts = append(texts, strings.TrimSpace(string(x)))
			}
		}
	}
	if len(texts) == 0 {
		t.Fatalf("%s has no <text>", path)
	}
	return texts
}

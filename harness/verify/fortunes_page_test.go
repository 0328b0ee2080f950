package verify

import (
	"bytes"
	"slices"
	"testing"
)

// TestRenderStandardIsTheReferenceFile: the expected page built from the
// standard Fortune rows is byte for byte the embedded reference file, so
// the anti-caching check's generated pages and the plain check's embedded
// page come from one definition.
func TestRenderStandardIsTheReferenceFile(t *testing.T) {
	got := renderPage(pageRows())
	if !bytes.Equal(got, expectedFortunesHTML) {
		t.Fatalf("renderPage(pageRows()) differs from fortunes-expected.html:\n%s\nwant:\n%s", got, expectedFortunesHTML)
	}
	if len(expectedFortunesHTML) != 1227 {
		t.Errorf("fortunes-expected.html is %d bytes, want 1227 (docs/tfb-rules.md)", len(expectedFortunesHTML))
	}
	if !slices.Equal(scanPage(got).tokens, standardPage().tokens) {
		t.Error("normalised tokens of the rendered page differ from the reference file's")
	}
}

func TestPageRowsOrder(t *testing.T) {
	extra := fortune{ID: 13, Message: `<b>tfbench check 7f3a</b> & "q"`}
	var ids []int
	for _, f := range pageRows(extra) {
		ids = append(ids, f.ID)
	}
	// "<b" sorts before "<s" (the script row), both before upper-case
	// letters; lower-case "fortune" and the Japanese row come last.
	want := []int{13, 11, 4, 5, 2, 8, 0, 3, 7, 10, 6, 9, 1, 12}
	if !slices.Equal(ids, want) {
		t.Errorf("ids in page order %v, want %v", ids, want)
	}
}

func TestStandardPage(t *testing.T) {
	p := standardPage()
	if len(p.rows) != 13 {
		t.Fatalf("%d rows, want 13", len(p.rows))
	}
	if p.rows[0] != "11\x00<script>alert(\"This should not be displayed in a browser alert box.\");</script>" {
		t.Errorf("first row %q, want the decoded script row", p.rows[0])
	}
	if got := p.tokens[p.tableStart]; got != (token{tokStart, "table"}) {
		t.Errorf("table starts at %v", got)
	}
	if got := p.tokens[p.tableEnd-1]; got != (token{tokEnd, "table"}) {
		t.Errorf("table ends at %v", got)
	}
	// doctype, html, head, title, "Fortunes", /title, /head, body: 8 tokens
	// before the table; /body, /html after it.
	if p.tableStart != 8 || len(p.tokens)-p.tableEnd != 2 {
		t.Errorf("table at tokens %d..%d of %d, want 8..%d", p.tableStart, p.tableEnd, len(p.tokens), len(p.tokens)-2)
	}
}

package verify

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// tableStartCases are markup before (or instead of) a page's table, each
// with what scanTableStart must say: the offset of the table's content
// (-1: no table) or "unsure".
var tableStartCases = []struct {
	page   string
	off    int // -1: no table
	unsure bool
}{
	{"<table>", 7, false},
	{"<!DOCTYPE html><html><head><title>World</title></head><body><table><tr>", 67, false},
	{"<TABLE class=x id='t'>", 22, false},
	{"<table\n>", 8, false},
	{"<p title=\"<table>\"><table>", 26, false},
	{"<p title='a>b' data-x=<table><table>", 36, false}, // an unquoted value ends at ">"
	{"<div =x><table>", 15, false},
	{"<div a = \"1\" b c=d/><table>", 27, false},
	{"<!-- <table> --><table>", 23, false},
	{"<!--><table>", 12, false},
	{"<!---><table>", 13, false},
	{"<!-- a --!><table>", 18, false},
	{"<!-- a --!- b --><table>", 24, false},
	{"<!x <table>", -1, false},
	{"<!x><table>", 11, false},
	{"<?xml version=\"1.0\"?><table>", 28, false},
	{"</><table>", 10, false},
	{"</ x><table>", 12, false},
	{"</div a=\">\"><table>", 19, false},
	{"</table><table>", 15, false},
	{"<tablex><table>", 15, false},
	{"<<table>", 8, false},
	{"a < b <table>", 13, false},
	{"<script>var t = '<table>'</script><table>", 41, false},
	{"<SCRIPT>x</Script ><table>", 26, false},
	{"<script>x</scriptx></script><table>", 35, false},
	{"<script/><table></script><table>", 32, false},
	{"<script src=a.js async></script><table>", 39, false},
	{"<title><table></title><table>", 29, false},
	{"<textarea><table></textarea ><table>", 36, false},
	{"<style>a<b{}</style><table>", 27, false},
	{"<noscript><table></noscript><table>", 35, false},
	{"<p>no table</p>", -1, false},
	{"", -1, false},
	{"<", -1, false},
	{"<script>if (a <!-- b) {}</script><table>", 0, true}, // escaped script states
	{"<plaintext><table>", 0, true},
	{"<table/>", 0, true},
	{"<table a=b/>", 0, true},
	{"<script>x", 0, true},
	{"<p title=\"x", 0, true},
	{"<!-- x", 0, true},
	{"<!DOCTYPE html", 0, true},
	{"<ta", 0, true},
}

// TestScanTableStart checks scanTableStart's cases and that, on every case,
// every prefix of one and the page tests' pages, it agrees with the HTML
// tokenizer (tokenTableStart) whenever it is sure.
func TestScanTableStart(t *testing.T) {
	for _, c := range tableStartCases {
		off, found, sure := scanTableStart([]byte(c.page))
		switch {
		case sure == c.unsure:
			t.Errorf("%q: sure %v, want %v", c.page, sure, !c.unsure)
		case sure && c.off < 0 && found:
			t.Errorf("%q: a table at %d, want none", c.page, off)
		case sure && c.off >= 0 && (!found || off != c.off):
			t.Errorf("%q: table %v at %d, want at %d", c.page, found, off, c.off)
		}
	}
	pages := [][]byte{plainPage(worldRows(testWorld(3), 3), nil), refPageHTML(worldRows(testWorld(3), 3))}
	for _, c := range tableStartCases {
		pages = append(pages, []byte(c.page), []byte(c.page+"<tr><td>1</td></tr></table>"))
	}
	for _, dir := range []string{"testdata/fuzz/FuzzPage", "testdata/fuzz/FuzzFortunesPage"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			// A corpus file is "go test fuzz v1" then []byte("...").
			_, arg, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
			page, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(arg, "[]byte("), ")"))
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			pages = append(pages, []byte(page))
		}
	}
	for _, page := range pages {
		for n := range len(page) + 1 {
			agreeTableStart(t, page[:n])
		}
	}
}

// agreeTableStart fails t if scanTableStart is sure of page and the HTML
// tokenizer reads its first table start elsewhere.
func agreeTableStart(t *testing.T, page []byte) {
	t.Helper()
	off, found, sure := scanTableStart(page)
	if !sure {
		return
	}
	wantOff, wantFound := tokenTableStart(page)
	if found != wantFound || found && off != wantOff {
		t.Errorf("%q: scanTableStart says table %v at %d, the tokenizer %v at %d", page, found, off, wantFound, wantOff)
	}
}

func TestScanTableStartAllocs(t *testing.T) {
	page := refPageHTML(worldRows(testWorld(100), 100))
	if allocs := testing.AllocsPerRun(100, func() { scanTableStart(page) }); allocs != 0 {
		t.Errorf("scanTableStart allocates %.0f times, want 0", allocs)
	}
}

// FuzzTableStart: wherever scanTableStart is sure, the HTML tokenizer
// finds the same first table start (seeds: tableStartCases).
func FuzzTableStart(f *testing.F) {
	for _, c := range tableStartCases {
		f.Add([]byte(c.page))
	}
	f.Fuzz(agreeTableStart)
}

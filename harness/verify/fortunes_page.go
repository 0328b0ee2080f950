package verify

import (
	_ "embed"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// expectedFortunesHTML is the reference fortunes page of TFB-RULES.md
// (1,227 bytes): the 12 standard fortunes plus the id 0 row, sorted.
//
//go:embed fortunes-expected.html
var expectedFortunesHTML []byte

// fortune is one Fortune row.
type fortune struct {
	id      int
	message string
}

// standardFortunes is the Fortune table of the dataset (TFB-RULES.md, The
// dataset), by id.
var standardFortunes = []fortune{
	{1, "fortune: No such file or directory"},
	{2, "A computer scientist is someone who fixes things that aren't broken."},
	{3, "After enough decimal places, nobody gives a damn."},
	{4, "A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1"},
	{5, "A computer program does what you tell it to do, not what you want it to do."},
	{6, "Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen"},
	{7, "Any program that runs right is obsolete."},
	{8, "A list is only as strong as its weakest link. — Donald Knuth"},
	{9, "Feature: A bug with seniority."},
	{10, "Computers make very fast, very accurate mistakes."},
	{11, `<script>alert("This should not be displayed in a browser alert box.");</script>`},
	{12, "フレームワークのベンチマーク"},
}

// additionalFortune is the row every fortunes handler adds at request time
// (TFB rules, fortunes), with id 0.
var additionalFortune = fortune{0, "Additional fortune added at request time."}

// pageRows returns the rows a fortunes page must show for a Fortune table of
// the standard rows plus extra: those, the id 0 row, sorted by message in
// byte order (Go string order, not SQL collation or locale order).
func pageRows(extra ...fortune) []fortune {
	rows := slices.Concat(standardFortunes, []fortune{additionalFortune}, extra)
	slices.SortStableFunc(rows, func(a, b fortune) int { return strings.Compare(a.message, b.message) })
	return rows
}

// pageEscaper escapes text the way the reference page does.
var pageEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;")

// renderPage renders rows, in the given order, in the reference page's exact
// form; renderPage(pageRows()) is byte for byte fortunes-expected.html.
func renderPage(rows []fortune) []byte {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>")
	for _, f := range rows {
		b.WriteString("<tr><td>")
		b.WriteString(strconv.Itoa(f.id))
		b.WriteString("</td><td>")
		pageEscaper.WriteString(&b, f.message)
		b.WriteString("</td></tr>")
	}
	b.WriteString("</table></body></html>")
	return []byte(b.String())
}

// standardPage is the normalised expected page for the standard Fortune
// table, built once from the embedded reference file.
var standardPage = sync.OnceValue(func() *expectedPage {
	return newExpectedPage(expectedFortunesHTML)
})

package verify

import (
	_ "embed"

	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/tfbench/tfbench/dataset"
)

// expectedFortunesHTML is the reference fortunes page of docs/tfb-rules.md
// (1,227 bytes): the 12 standard fortunes plus the id 0 row, sorted.
//
//go:embed fortunes-expected.html
var expectedFortunesHTML []byte

// fortune is one Fortune row.
type fortune = dataset.Fortune

// standardFortunes is the Fortune table of the dataset (docs/tfb-rules.md, The
// dataset), by id.
var standardFortunes = dataset.Fortunes

// additionalFortune is the row every fortunes handler adds at request time
// (TFB rules, fortunes), with id 0.
var additionalFortune = fortune{ID: 0, Message: "Additional fortune added at request time."}

// pageRows returns the rows a fortunes page must show for a Fortune table of
// the standard rows plus extra: those, the id 0 row, sorted by message in
// byte order (Go string order, not SQL collation or locale order).
func pageRows(extra ...fortune) []fortune {
	rows := slices.Concat(standardFortunes, []fortune{additionalFortune}, extra)
	slices.SortStableFunc(rows, func(a, b fortune) int { return strings.Compare(a.Message, b.Message) })
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
		b.WriteString(strconv.Itoa(f.ID))
		b.WriteString("</td><td>")
		pageEscaper.WriteString(&b, f.Message)
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

package verify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tfbench/tfbench/harness/model"
)

// expectedPage is a normalised expected fortunes page.
type expectedPage struct {
	tokens []token
	// tableStart, tableEnd delimit the <table>...</table> tokens.
	tableStart, tableEnd int
	// rows are the table's data rows, cells joined by "\x00".
	rows []string
}

// newExpectedPage normalises a reference page. It panics if the page does
// not hold exactly one valid table: expected pages are built in this
// package, so that is a programming error.
func newExpectedPage(page []byte) *expectedPage {
	p := scanPage(page)
	start, end, ok := tableSpan(p.tokens)
	if len(p.problems) > 0 || !ok {
		panic(fmt.Sprintf("verify: bad expected fortunes page: problems %v, table found %v", p.problems, ok))
	}
	return &expectedPage{tokens: p.tokens, tableStart: start, tableEnd: end, rows: tableRows(p.tokens[start:end])}
}

// table returns the expected <table>...</table> tokens.
func (e *expectedPage) table() []token { return e.tokens[e.tableStart:e.tableEnd] }

// checkFortunesPage applies the fortunes body rule (TFB rules, fortunes):
// body's normalised tokens must equal exp's, else a fail naming the first
// difference; markup around an exact table only warns (with markupWarn).
func checkFortunesPage(r *Result, body []byte, exp *expectedPage, markupWarn bool) {
	if pageEquals(body, exp.tokens) {
		return
	}
	got := scanPage(body)
	for _, p := range got.problems {
		r.add(model.Fail, "%s", p)
	}
	if got.liveScript {
		r.add(model.Fail, "a live <script> element inside the table: messages must be HTML-escaped (TFB rules, fortunes: the <script> message escaped, never live)")
	}
	if slices.Equal(got.tokens, exp.tokens) {
		return
	}
	start, end, hasTable := tableSpan(got.tokens)
	switch {
	case hasTable && slices.Equal(got.tokens[start:end], exp.table()):
		if !markupWarn {
			return
		}
		r.add(model.Warn, "extra markup around the table, page %d bytes (TFB fails this; tfbench warns because the table itself is exact): %s",
			len(body), describeDiff(exp.tokens, got.tokens))
	case hasTable:
		gotTable := got.tokens[start:end]
		r.add(model.Fail, "the table differs from the expected one (TFB rules, fortunes): %s", describeDiff(exp.table(), gotTable))
		rows := tableRows(gotTable)
		if !slices.Equal(rows, exp.rows) && sameRows(rows, exp.rows) {
			r.add(model.Fail, "the rows are out of order: sort by message in byte order, in code and after adding the id 0 row, not by SQL ORDER BY or a locale compare (TFB rules, fortunes)")
		}
	default:
		r.add(model.Fail, "no <table> element; the page differs from the expected one (TFB rules, fortunes): %s", describeDiff(exp.tokens, got.tokens))
	}
}

// tableSpan returns the token range of the first <table> element, its end
// tag included (or to the end of the page if it is never closed).
func tableSpan(toks []token) (start, end int, ok bool) {
	depth := 0
	for i, t := range toks {
		if t.val != "table" || t.kind != tokStart && t.kind != tokEnd {
			continue
		}
		if t.kind == tokStart {
			if depth == 0 && !ok {
				start, ok = i, true
			}
			depth++
			continue
		}
		if depth > 0 {
			depth--
			if depth == 0 {
				return start, i + 1, true
			}
		}
	}
	return start, len(toks), ok
}

// tableRows returns the data rows (those without <th>) of table tokens,
// each row's cell texts joined by "\x00". Text in a cell left open when a
// <tr> starts belongs to no cell and is dropped.
func tableRows(toks []token) []string {
	var rows, cells []string
	header, inCell := false, false
	for _, t := range toks {
		switch {
		case t.kind == tokStart && t.val == "tr":
			cells, header, inCell = nil, false, false
		case t.kind == tokStart && t.val == "th":
			header = true
		case t.kind == tokStart && t.val == "td":
			cells, inCell = append(cells, ""), true
		case t.kind == tokEnd && t.val == "td":
			inCell = false
		case t.kind == tokText && inCell:
			cells[len(cells)-1] += t.val
		case t.kind == tokEnd && t.val == "tr" && !header:
			rows = append(rows, strings.Join(cells, "\x00"))
		}
	}
	return rows
}

// sameRows reports whether a and b hold the same rows in any order.
func sameRows(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// describeDiff words the first difference of got from exp with up to three
// tokens of context: `after <tr><td>: expected text "4", got </td>`.
func describeDiff(exp, got []token) string {
	i := 0
	for i < len(exp) && i < len(got) && exp[i] == got[i] {
		i++
	}
	var ctx strings.Builder
	for _, t := range got[max(0, i-3):i] {
		ctx.WriteString(t.String())
	}
	where := "at the start"
	if ctx.Len() > 0 {
		where = "after " + ctx.String()
	}
	return fmt.Sprintf("%s: expected %s, got %s", where, tokenOrEnd(exp, i), tokenOrEnd(got, i))
}

// tokenOrEnd renders toks[i], or "the end" past the last token.
func tokenOrEnd(toks []token, i int) string {
	if i < len(toks) {
		return toks[i].String()
	}
	return "the end"
}

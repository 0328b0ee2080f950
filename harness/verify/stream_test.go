package verify

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
)

// streamParts renders the K part tables of a stream page of n rows of w as
// strings (the contract's markup); row(k, id, html) may replace a row.
func streamParts(w World, n, k int, row func(k, id int, html string) string) []string {
	var parts []string
	for p := range k {
		lo, hi := partRange(p, n, k)
		var b strings.Builder
		fmt.Fprintf(&b, `<table class="part" data-part="%d"><tbody>`, p)
		for id := lo; id <= hi; id++ {
			h := fmt.Sprintf(`<tr class="row" data-id="%d"><td class="id">%d</td><td class="num">%d</td></tr>`, id, id, w[id-1])
			if row != nil {
				h = row(p, id, h)
			}
			b.WriteString(h)
		}
		b.WriteString("</tbody></table>")
		parts = append(parts, b.String())
	}
	return parts
}

// streamShell is a shell with a fallback per part.
func streamShell(k int) string {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><head><title>Stream</title></head><body><h1>World</h1>`)
	for p := range k {
		fmt.Fprintf(&b, `<p class="fallback" id="f%d">loading part %d</p>`, p, p)
	}
	return b.String()
}

// reactStream renders parts as React's streaming SSR sends them: each in a
// hidden div with a $RC script, text split by comments, a character
// reference in an id, and a script that mentions a table.
func reactStream(w World, n, k int) string {
	var b strings.Builder
	b.WriteString(streamShell(k))
	b.WriteString(`<script>var s = "<table class=\"part\" data-part=\"0\">";</script>`)
	parts := streamParts(w, n, k, func(_, id int, h string) string {
		if id == 2 {
			return strings.Replace(h, `<td class="id">2</td>`, `<td class="id"><!-- -->&#50;</td>`, 1)
		}
		return h
	})
	for p := k - 1; p >= 0; p-- { // React may resolve in any DOM order
		fmt.Fprintf(&b, `<div hidden id="S:%d">%s</div><script>$RC("B:%d","S:%d")</script>`, p, strings.Replace(parts[p], `class="part"`, `class="part" data-hk="x"`, 1), p, p)
	}
	b.WriteString("</body></html>")
	return b.String()
}

// reactSegments renders the page as React's RSC-fed streaming sends it when
// a part's rows were not all ready: part 3's table comes with its first row
// and a <template id="P:1"> placeholder, its other rows later in a hidden
// segment <table hidden><tbody id="S:1"> moved by $RS.
func reactSegments(w World, n, k int) string {
	parts := streamParts(w, n, k, nil)
	last := parts[k-1]
	cut := strings.Index(last, `<tr class="row" data-id="9"`)
	end := strings.Index(last, "</tbody>")
	head := last[:cut] + `<template id="P:1"></template>` + last[end:]
	seg := `<div hidden id="S:1"><table hidden><tbody id="S:1">` + last[cut:end] + `</tbody></table></div><script>$RS("S:1","P:1")</script>`
	return streamShell(k) + strings.Join(parts[:k-1], "") + head + seg + "</body></html>"
}

// reactSegmentsSwapped is reactSegments with the segment (rows 9 and 10)
// sent before part 3's table (row 8): part 3's rows out of id order in the
// body.
func reactSegmentsSwapped(w World, n, k int) string {
	parts := streamParts(w, n, k, nil)
	last := parts[k-1]
	cut := strings.Index(last, `<tr class="row" data-id="9"`)
	end := strings.Index(last, "</tbody>")
	seg := `<table hidden><tbody id="S:1">` + last[cut:end] + `</tbody></table>`
	head := last[:cut] + last[end:]
	return streamShell(k) + strings.Join(parts[:k-1], "") + seg + head + "</body></html>"
}

func streamHeader() http.Header {
	return http.Header{"Server": {"x"}, "Date": {"Mon, 02 Jan 2006 15:04:05 GMT"}, "Content-Type": {"text/html; charset=utf-8"}, "Transfer-Encoding": {"chunked"}}
}

// TestStreamRule: the stream body rule passes the contract's page and a
// React-style page (parts out of DOM order, comments, character references,
// a table inside a script), and fails each fault with a reason naming the
// part and the row.
func TestStreamRule(t *testing.T) {
	w := testWorld(100)
	plain := streamShell(4) + strings.Join(streamParts(w, 10, 4, nil), "") + "</body></html>"
	drop := func(k, id int, h string) string {
		if id == 5 {
			return ""
		}
		return h
	}
	swap := func(k, id int, h string) string {
		switch id {
		case 3:
			return strings.ReplaceAll(h, "3", "4")
		case 4:
			return strings.ReplaceAll(h, "4", "3")
		}
		return h
	}
	parts := streamParts(w, 10, 4, nil)
	for _, tc := range []struct {
		name string
		body string
		want []string
	}{
		{"plain", plain, nil},
		{"react", reactStream(w, 10, 4), nil},
		{"missing row", streamShell(4) + strings.Join(streamParts(w, 10, 4, drop), ""), []string{
			"part 1: 2 rows, want 3 (ids 3..5)"}},
		{"repeated part", streamShell(4) + parts[0] + parts[1] + parts[1] + parts[3], []string{
			"part 1: 2 tables, want 1 (want parts 0..3, each once)",
			"part 1: 6 rows, want 3 (ids 3..5)",
			"part 2 missing: rows 6..7 not sent (want parts 0..3, each once)"}},
		{"out of order", streamShell(4) + strings.Join(streamParts(w, 10, 4, swap), ""), []string{
			`part 1: row 3: id "4", want "3" (each part's rows in id order)`,
			`part 1: row 4: id "3", want "4" (each part's rows in id order)`}},
		{"wrong number", strings.Replace(plain, fmt.Sprintf(`<td class="num">%d</td>`, w[6]), `<td class="num">1</td>`, 1), []string{
			fmt.Sprintf(`part 2: row 7: randomNumber "1", want "%d" (World id 7)`, w[6])}},
		{"react segments", reactSegments(w, 10, 4), nil},
		{"bad index", strings.Replace(plain, `data-part="3"`, `data-part="three"`, 1), []string{
			`data-part "three" is not a part index 0..3 (stream rules)`,
			`part 3: no <table class="part" data-part="3"> (want parts 0..3, each once)`}},
		{"extra part", plain + `<table class="part" data-part="4"></table>`, []string{
			"part 4: not a part of 4 (want parts 0..3, each once)"}},
		{"row repeated", plain + `<tr class="row" data-id="1"><td>1</td></tr>`, []string{
			"part 0: 3 rows, want 2 (ids 1..2)"}},
		{"not an id", plain + `<tr class="row" data-id="11"><td>11</td></tr>`, []string{
			`a row's id "11" is not a World id 1..10 (stream rules)`}},
		{"segment out of order", reactSegmentsSwapped(w, 10, 4), []string{
			`part 3: row 8: id "9", want "8" (each part's rows in id order)`,
			`part 3: row 9: id "10", want "9" (each part's rows in id order)`,
			`part 3: row 10: id "8", want "10" (each part's rows in id order)`}},
		{"data-id", strings.Replace(plain, `data-id="9"`, `data-id="8"`, 1), []string{
			`part 3: row 9: data-id "8", want "9"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := StreamResponse(w, 10, 4, 200, streamHeader(), []byte(tc.body))
			if strings.Join(r.Reasons, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("reasons\n%s\nwant\n%s", strings.Join(r.Reasons, "\n"), strings.Join(tc.want, "\n"))
			}
			if want := model.Pass; len(tc.want) > 0 {
				if r.Status != model.Fail {
					t.Errorf("status %s, want fail", r.Status)
				}
			} else if r.Status != want {
				t.Errorf("status %s, want pass", r.Status)
			}
		})
	}
}

// TestStreamHeaders: a stream page with Content-Length (not streamed as it
// renders) or compressed fails with the rule named.
func TestStreamHeaders(t *testing.T) {
	w := testWorld(10)
	body := []byte(streamShell(2) + strings.Join(streamParts(w, 4, 2, nil), ""))
	h := streamHeader()
	h.Set("Content-Length", "1234")
	h.Set("Content-Encoding", "gzip")
	r := StreamResponse(w, 4, 2, 200, h, body)
	want := "Content-Encoding \"gzip\": the response is compressed (TFB rules, every response: no gzip)\n" +
		"Content-Length 1234: a stream page is sent chunked as it renders, without Content-Length (stream rules)"
	if r.Status != model.Fail || strings.Join(r.Reasons, "\n") != want {
		t.Errorf("%s %q", r.Status, r.Reasons)
	}
}

// TestExpectedStreamParts: K clamped to 1..16, 4 when missing or not a
// number, and to N when N is smaller.
func TestExpectedStreamParts(t *testing.T) {
	for _, c := range []struct {
		q     string
		rows  int
		parts int
	}{
		{"4", 1000, 4}, {"", 1000, 4}, {"foo", 1000, 4}, {"0", 1000, 1}, {"-2", 1000, 1},
		{"17", 1000, 16}, {"99999999999999999999", 1000, 16}, {"4", 3, 3}, {"16", 1, 1},
	} {
		if got := ExpectedStreamParts(paramInt(c.q, suite.DefaultParts), c.rows); got != c.parts {
			t.Errorf("ExpectedStreamParts(%q, %d) = %d, want %d", c.q, c.rows, got, c.parts)
		}
	}
	for _, c := range []struct{ k, n, parts, lo, hi int }{{0, 10, 4, 1, 2}, {1, 10, 4, 3, 5}, {3, 10, 4, 8, 10}, {0, 1, 1, 1, 1}, {2, 10000, 4, 5001, 7500}} {
		if lo, hi := partRange(c.k, c.n, c.parts); lo != c.lo || hi != c.hi {
			t.Errorf("partRange(%d, %d, %d) = %d..%d, want %d..%d", c.k, c.n, c.parts, lo, hi, c.lo, c.hi)
		}
	}
}

// BenchmarkStreamCheck measures the stream rule on a 10,000-row page in 4
// parts (the check every response gets under load).
func BenchmarkStreamCheck(b *testing.B) {
	w := testWorld(10000)
	body := []byte(streamShell(4) + strings.Join(streamParts(w, 10000, 4, nil), "") + "</body></html>")
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		r := pass()
		checkStream(&r, body, w, 10000, 4, model.Fail)
		if r.Status != model.Pass {
			b.Fatal(r.Reasons)
		}
	}
}

// TestStreamFast: the fast path passes the contract's exact markup with the
// same part ends the tokenizer finds, and leaves anything else (a script, a
// comment, a wrong number, an extra row) to the full rule.
func TestStreamFast(t *testing.T) {
	w := testWorld(100)
	plain := streamShell(4) + strings.Join(streamParts(w, 10, 4, nil), "") + "</body></html>"
	ends, ok := streamFast([]byte(plain), w, 10, 4)
	if !ok {
		t.Fatal("the contract's markup did not take the fast path")
	}
	r := pass()
	full := checkStreamTokens(&r, []byte(plain), w, 10, 4, model.Fail)
	if r.Status != model.Pass {
		t.Fatal(r.Reasons)
	}
	for k, end := range ends {
		if full.parts[k] == nil || full.parts[k].end != end {
			t.Errorf("part %d ends at %d, the tokenizer says %+v", k, end, full.parts[k])
		}
	}
	parts := streamParts(w, 10, 4, nil)
	for name, body := range map[string]string{
		"react":        reactStream(w, 10, 4),
		"comment":      strings.Replace(plain, "<h1>", "<!-- x --><h1>", 1),
		"in a script":  streamShell(4) + "<script>" + parts[0] + "</script>" + strings.Join(parts[1:], ""),
		"wrong number": strings.Replace(plain, fmt.Sprintf(`<td class="num">%d</td>`, w[0]), `<td class="num">0</td>`, 1),
		"extra row":    strings.Replace(plain, "<h1>", `<table><tr class="row"><td>1</td></tr></table><h1>`, 1),
		"in the title": strings.Replace(plain, "<title>Stream</title>", "<title>"+parts[0]+"</title>", 1),
	} {
		if _, ok := streamFast([]byte(body), w, 10, 4); ok {
			t.Errorf("%s: took the fast path", name)
		}
	}
}

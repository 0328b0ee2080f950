package verify

import (
	"slices"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
)

// refPage returns the reference page with each old replaced by new in turn.
func refPage(oldNew ...string) string {
	return strings.NewReplacer(oldNew...).Replace(string(expectedFortunesHTML))
}

func TestCheckFortunesPage(t *testing.T) {
	const (
		refRule = "(TFB rules, fortunes: send other characters as raw UTF-8)"
		order   = "the rows are out of order: sort by message in byte order, in code and after adding the id 0 row, not by SQL ORDER BY or a locale compare (TFB rules, fortunes)"
	)
	cases := []struct {
		name    string
		page    string
		want    model.Verdict
		reasons []string
	}{
		{"reference file", refPage(), model.Pass, nil},
		{"&#39; and &#34;", refPage("&apos;", "&#39;", "&quot;", "&#34;"), model.Pass, nil},
		{"&#x27; and &#x22;", refPage("&apos;", "&#x27;", "&quot;", "&#x22;"), model.Pass, nil},
		{"&#039; and &#034;", refPage("&apos;", "&#039;", "&quot;", "&#034;"), model.Pass, nil},
		{"raw ' and \" and >", refPage("&apos;", "'", "&quot;", `"`, "&gt;", ">"), model.Pass, nil},
		{"&mdash;", refPage("—", "&mdash;"), model.Pass, nil},
		{"&#43; &#47; &#40; &#41; as TFB accepts", refPage("e+67", "e&#43;67", "&lt;/script", "&lt;&#47;script", "alert(", "alert&#40;", "&quot;);", "&quot;&#41;;"), model.Pass, nil},
		{"indented, upper-case tags, attributes, thead, tbody, meta",
			refPage("<head>", "<HEAD>\n  <meta charset=utf-8>\n  ", "<table>", "\n<TABLE class=\"f\">\n<thead>", "</th></tr>", "</th></tr></thead><tbody>\n", "</table>", "</tbody></TABLE>\n", "</td></tr>", "</td></tr>\n  "),
			model.Pass, nil},
		{"React text comments in a cell", refPage("Feature: A bug", "Feature:<!-- --> A bug"), model.Pass, nil},
		{"&#8212;", refPage("—", "&#8212;"), model.Fail,
			[]string{"character reference &#8212; is not allowed: only &lt; &gt; &quot; &apos; &amp; &mdash; and the numeric forms of ' \" < > + / ( ) & " + refRule}},
		{"wrapper div", refPage("<table>", `<div id="root"><table>`, "</table>", "</table></div>"), model.Warn,
			[]string{"extra markup around the table, page 1248 bytes (TFB fails this; tfbench warns because the table itself is exact): after </title></head><body>: expected <table>, got <div>"}},
		{"only the table", refPage("<!DOCTYPE html><html><head><title>Fortunes</title></head><body>", "", "</body></html>", ""), model.Warn,
			[]string{"extra markup around the table, page 1150 bytes (TFB fails this; tfbench warns because the table itself is exact): at the start: expected <!doctype html>, got <table>"}},
		{"a second table after the right one", refPage("</table>", "</table><table><tr><td>x</td></tr></table>"), model.Warn,
			[]string{"extra markup around the table, page 1261 bytes (TFB fails this; tfbench warns because the table itself is exact): after </td></tr></table>: expected </body>, got <table>"}},
		{"missing row", refPage("<tr><td>7</td><td>Any program that runs right is obsolete.</td></tr>", ""), model.Fail,
			[]string{`the table differs from the expected one (TFB rules, fortunes): after </tr><tr><td>: expected text "7", got text "10"`}},
		{"extra row", refPage("</table>", "<tr><td>13</td><td>x</td></tr></table>"), model.Fail,
			[]string{`the table differs from the expected one (TFB rules, fortunes): after text "フレームワークのベンチマーク"</td></tr>: expected </table>, got <tr>`}},
		{"id 0 row last", refPage("<tr><td>0</td><td>Additional fortune added at request time.</td></tr>", "", "</table>", "<tr><td>0</td><td>Additional fortune added at request time.</td></tr></table>"), model.Fail,
			[]string{`the table differs from the expected one (TFB rules, fortunes): after </tr><tr><td>: expected text "0", got text "3"`, order}},
		{"unescaped script", refPage("&lt;script&gt;alert(&quot;This should not be displayed in a browser alert box.&quot;);&lt;/script&gt;",
			`<script>alert("This should not be displayed in a browser alert box.");</script>`), model.Fail,
			[]string{
				"a live <script> element inside the table: messages must be HTML-escaped (TFB rules, fortunes: the <script> message escaped, never live)",
				`the table differs from the expected one (TFB rules, fortunes): after text "11"</td><td>: expected text "<script>alert(\"This should not be displayed in ...", got </td>`,
			}},
		{"space in a cell", refPage("<td>11</td>", "<td> 11</td>"), model.Fail,
			[]string{`the table differs from the expected one (TFB rules, fortunes): after </tr><tr><td>: expected text "11", got text " 11"`}},
		{"no table", "<!DOCTYPE html><html><body><p>Fortunes</p></body></html>", model.Fail,
			[]string{"no <table> element; the page differs from the expected one (TFB rules, fortunes): after <!doctype html><html>: expected <head>, got <body>"}},
	}
	for _, c := range cases {
		r := pass()
		checkFortunesPage(&r, []byte(c.page), standardPage(), true)
		if r.Status != c.want || !slices.Equal(r.Reasons, c.reasons) {
			t.Errorf("%s: %s\n%s\nwant %s\n%s", c.name, r.Status, strings.Join(r.Reasons, "\n"), c.want, strings.Join(c.reasons, "\n"))
		}
	}
}

// TestCheckFortunesPageNoMarkupWarn: the anti-caching check passes
// markupWarn false, so a wrapper around an exact table adds nothing there.
func TestCheckFortunesPageNoMarkupWarn(t *testing.T) {
	r := pass()
	checkFortunesPage(&r, []byte(refPage("<table>", "<div><table>", "</table>", "</table></div>")), standardPage(), false)
	if r.Status != model.Pass || len(r.Reasons) != 0 {
		t.Errorf("%s %q, want pass without reasons", r.Status, r.Reasons)
	}
}

// TestCheckFortunesPageInsertedRow checks a page for the anti-caching
// Fortune table: the inserted row must be there, escaped, in byte order.
func TestCheckFortunesPageInsertedRow(t *testing.T) {
	row := fortune{ID: 13, Message: `<b>tfbench check 7f3a</b> & "q"`}
	exp := newExpectedPage(renderPage(pageRows(row)))
	good := "<tr><td>13</td><td>&lt;b&gt;tfbench check 7f3a&lt;/b&gt; &amp; &#34;q&#34;</td></tr>"
	cases := []struct {
		name    string
		page    string
		want    model.Verdict
		reasons []string
	}{
		{"in place, escaped", refPage("<tr><td>11</td>", good+"<tr><td>11</td>"), model.Pass, nil},
		{"standard page (cached)", refPage(), model.Fail,
			[]string{`the table differs from the expected one (TFB rules, fortunes): after </tr><tr><td>: expected text "13", got text "11"`}},
		{"unescaped", refPage("<tr><td>11</td>", `<tr><td>13</td><td><b>tfbench check 7f3a</b> & "q"</td></tr><tr><td>11</td>`), model.Fail,
			[]string{`the table differs from the expected one (TFB rules, fortunes): after text "13"</td><td>: expected text "<b>tfbench check 7f3a</b> & \"q\"", got <b>`}},
		{"appended last", refPage("</table>", good+"</table>"), model.Fail,
			[]string{`the table differs from the expected one (TFB rules, fortunes): after </tr><tr><td>: expected text "13", got text "11"`,
				"the rows are out of order: sort by message in byte order, in code and after adding the id 0 row, not by SQL ORDER BY or a locale compare (TFB rules, fortunes)"}},
	}
	for _, c := range cases {
		r := pass()
		checkFortunesPage(&r, []byte(c.page), exp, false)
		if r.Status != c.want || !slices.Equal(r.Reasons, c.reasons) {
			t.Errorf("%s: %s\n%s\nwant %s\n%s", c.name, r.Status, strings.Join(r.Reasons, "\n"), c.want, strings.Join(c.reasons, "\n"))
		}
	}
}

func TestTableLacksRow(t *testing.T) {
	withRow := refPage("</table>", "<tr><td>13</td><td>x</td></tr></table>")
	cases := []struct {
		name string
		page string
		want bool
	}{
		{"standard page", refPage(), true},
		{"row 13 present, even out of place", withRow, false},
		{"13 only inside a message", refPage("<td>9</td><td>Feature", "<td>9</td><td>13 Feature"), true},
		{"no table", "<p>13</p>", false},
	}
	for _, c := range cases {
		if got := tableLacksRow([]byte(c.page), 13); got != c.want {
			t.Errorf("%s: tableLacksRow = %v, want %v", c.name, got, c.want)
		}
	}
}

package verify

import (
	"slices"
	"strings"
	"testing"
)

// toks builds a token list from a compact form: "<x>" start, "</x>" end,
// "<!...>" doctype, anything else text.
func toks(parts ...string) []token {
	var out []token
	for _, p := range parts {
		switch {
		case strings.HasPrefix(p, "<!"):
			out = append(out, token{tokDoctype, p})
		case strings.HasPrefix(p, "</"):
			out = append(out, token{tokEnd, strings.Trim(p, "</>")})
		case strings.HasPrefix(p, "<") && strings.HasSuffix(p, ">") && len(p) > 2:
			out = append(out, token{tokStart, strings.Trim(p, "<>")})
		default:
			out = append(out, token{tokText, p})
		}
	}
	return out
}

func TestNormaliser(t *testing.T) {
	cases := []struct {
		name     string
		page     string
		want     []token
		problems []string
	}{
		{"doctype lowercased, tags lowercased, attributes dropped",
			`<!DOCTYPE html><HTML lang="en"><TD class=x>1</Td>`,
			toks("<!doctype html>", "<html>", "<td>", "1", "</td>"), nil},
		{"meta, link, thead, tbody and comments dropped",
			`<head><meta charset="utf-8"><link rel=x href=y></head><table><thead><tr></tr></thead><tbody><!-- c --><tr></tr></tbody></table>`,
			toks("<head>", "</head>", "<table>", "<tr>", "</tr>", "<tr>", "</tr>", "</table>"), nil},
		{"script elements dropped with their content, even markup-like",
			`<body><script type="module">if (a < b) document.write("<table>")</script><p>x</p></body>`,
			toks("<body>", "<p>", "x", "</p>", "</body>"), nil},
		{"<script/> opens a script element, as in browsers",
			`<p>a</p><script/>document.write("<p>")</script><p>b</p>`,
			toks("<p>", "a", "</p>", "<p>", "b", "</p>"), nil},
		{"whitespace-only text dropped, other text kept exactly",
			"<tr>\n  <td> 11 </td>\n</tr>",
			toks("<tr>", "<td>", " 11 ", "</td>", "</tr>"), nil},
		{"text split by a comment or a dropped tag is joined",
			`<td>A<!-- -->B<tbody></tbody>C</td>`,
			toks("<td>", "ABC", "</td>"), nil},
		{"self-closing tag reads as start and end",
			`<p>a<br/>b</p>`,
			toks("<p>", "a", "<br>", "</br>", "b", "</p>"), nil},
		{"allowed references decoded, raw and escaped forms equal",
			`<td>&lt;&#60;&#060;&#x3c;&#X3C;&gt;&#62;&quot;&#34;&#x22;"&apos;&#39;&#039;&#x27;'&amp;&#38;&mdash;&#43;&#47;&#40;&#41;</td>`,
			toks("<td>", `<<<<<>>""""'''''&&—+/()`, "</td>"), nil},
		{"bare ampersand kept",
			`<td>AT&T & co &#; &x</td>`,
			toks("<td>", "AT&T & co &#; &x", "</td>"), nil},
		{"named reference without semicolon",
			`<td>a &amp b</td>`,
			toks("<td>", "a & b", "</td>"), nil},
		{"other numeric reference: a problem, decoded for the diff",
			`<td>UNIX. &#8212; Tom &#x2014; &#8212;</td>`,
			toks("<td>", "UNIX. — Tom — —", "</td>"), []string{
				"character reference &#8212; is not allowed: only &lt; &gt; &quot; &apos; &amp; &mdash; and the numeric forms of ' \" < > + / ( ) & (TFB rules, fortunes: send other characters as raw UTF-8)",
				"character reference &#x2014; is not allowed: only &lt; &gt; &quot; &apos; &amp; &mdash; and the numeric forms of ' \" < > + / ( ) & (TFB rules, fortunes: send other characters as raw UTF-8)",
			}},
		{"two leading zeros are not a form TFB accepts",
			`<td>&#0039;</td>`,
			toks("<td>", "'", "</td>"), []string{
				"character reference &#0039; is not allowed: only &lt; &gt; &quot; &apos; &amp; &mdash; and the numeric forms of ' \" < > + / ( ) & (TFB rules, fortunes: send other characters as raw UTF-8)",
			}},
		{"other named reference kept as written",
			`<td>a&nbsp;b</td>`,
			toks("<td>", "a&nbsp;b", "</td>"), []string{
				"character reference &nbsp; is not allowed: only &lt; &gt; &quot; &apos; &amp; &mdash; and the numeric forms of ' \" < > + / ( ) & (TFB rules, fortunes: send other characters as raw UTF-8)",
			}},
		{"raw < in text",
			`<td>a < b</td>`,
			toks("<td>", "a < b", "</td>"), []string{
				`unescaped "<" in text (TFB rules, fortunes: text must be HTML-escaped)`,
			}},
		{"references in the title decoded too",
			`<title>For&#39;tunes</title>`,
			toks("<title>", "For'tunes", "</title>"), nil},
	}
	for _, c := range cases {
		p := scanPage([]byte(c.page))
		if !slices.Equal(p.tokens, c.want) {
			t.Errorf("%s: tokens %v, want %v", c.name, p.tokens, c.want)
		}
		if !slices.Equal(p.problems, c.problems) {
			t.Errorf("%s: problems %q, want %q", c.name, p.problems, c.problems)
		}
		if eq := pageEquals([]byte(c.page), c.want); eq != (c.problems == nil) {
			t.Errorf("%s: pageEquals = %v, want %v", c.name, eq, c.problems == nil)
		}
	}
}

func TestNormaliserLiveScript(t *testing.T) {
	cases := map[string]bool{
		`<table><tr><td><script>alert(1)</script></td></tr></table>`:       true,
		`<table><tr><td>&lt;script&gt;</td></tr></table><script></script>`: false,
		`<script></script><table></table>`:                                 false,
	}
	for page, want := range cases {
		if got := scanPage([]byte(page)).liveScript; got != want {
			t.Errorf("liveScript(%q) = %v, want %v", page, got, want)
		}
	}
}

func TestTokenString(t *testing.T) {
	cases := map[token]string{
		{tokStart, "td"}:                   "<td>",
		{tokEnd, "td"}:                     "</td>",
		{tokDoctype, "<!doctype html>"}:    "<!doctype html>",
		{tokText, `a "b"`}:                 `text "a \"b\""`,
		{tokText, strings.Repeat("フ", 60)}: `text "` + strings.Repeat("フ", 47) + `..."`,
	}
	for tok, want := range cases {
		if got := tok.String(); got != want {
			t.Errorf("%#v.String() = %q, want %q", tok, got, want)
		}
	}
}

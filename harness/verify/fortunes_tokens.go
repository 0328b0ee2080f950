package verify

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// The fortunes page is compared as TFB's FortuneHTMLParser compares it: by
// parsing into a normalised token sequence, not by bytes (TFB rules,
// fortunes). Normalisation:
//   - tag names lowercased; attributes dropped;
//   - <meta>, <link>, <thead>, <tbody> and comments dropped, and <script>
//     elements dropped with their content;
//   - whitespace-only text dropped; adjacent text (split by a dropped tag or
//     comment) joined;
//   - the doctype lowercased;
//   - in text, the allowed character references decoded (see numericRefs and
//     namedRefs); any other reference is a problem (a fail), and so is a raw
//     "<" in text.

// tokKind is the kind of a normalised page token.
type tokKind uint8

const (
	tokDoctype tokKind = iota + 1 // val: the lowercased raw doctype
	tokStart                      // val: the tag name
	tokEnd                        // val: the tag name
	tokText                       // val: the decoded text
)

// token is one normalised page token.
type token struct {
	kind tokKind
	val  string
}

// String renders t for a reason: tags as markup, text quoted.
func (t token) String() string {
	switch t.kind {
	case tokStart:
		return "<" + t.val + ">"
	case tokEnd:
		return "</" + t.val + ">"
	case tokText:
		v := t.val
		if utf8.RuneCountInString(v) > 50 {
			v = string([]rune(v)[:47]) + "..."
		}
		return "text " + strconv.Quote(v)
	}
	return t.val
}

// numericRefs maps the lowercased body of an allowed numeric character
// reference ("39", "039", "x27": the forms TFB's parser normalises) to its
// text, for ' " < > + / ( ) as TFB accepts and & for the anti-caching row.
var numericRefs = func() map[string]string {
	m := map[string]string{}
	for _, c := range `'"<>+/()&` {
		m[strconv.Itoa(int(c))] = string(c)
		m["0"+strconv.Itoa(int(c))] = string(c)
		m["x"+strconv.FormatInt(int64(c), 16)] = string(c)
	}
	return m
}()

// namedRefs maps the allowed named character references to their text:
// the four escapes of ' " < >, &amp; and &mdash; (the em dash).
var namedRefs = map[string]string{
	"amp": "&", "lt": "<", "gt": ">", "quot": `"`, "apos": "'", "mdash": "—",
}

// maxProblems bounds the problems one page reports.
const maxProblems = 5

// pageScanner reads a page as normalised tokens; see the comment above.
type pageScanner struct {
	z        *html.Tokenizer
	text     []byte     // the text token being joined
	name     []byte     // the lowercased name of the current tag or doctype
	queue    [2]tokKind // tags waiting behind a text token, or the end half of <x/>
	nq       int
	inScript bool
	// tableDepth counts open <table> elements, for liveScript.
	tableDepth int
	// liveScript is set when a <script> element starts inside a table.
	liveScript bool
	// problems lists disallowed references, raw "<" in text and parse
	// errors, each once, as reasons.
	problems []string
}

// newPageScanner starts a scanner over body.
func newPageScanner(body []byte) *pageScanner {
	return &pageScanner{z: html.NewTokenizer(bytes.NewReader(body))}
}

// next returns the next normalised token; its val is valid until the next
// call. ok is false at the end of the page.
func (s *pageScanner) next() (kind tokKind, val []byte, ok bool) {
	if s.nq > 0 {
		kind = s.queue[0]
		s.queue[0], s.nq = s.queue[1], s.nq-1
		return kind, s.name, true
	}
	s.text = s.text[:0]
	for {
		tt := s.z.Next()
		switch tt {
		case html.ErrorToken:
			if err := s.z.Err(); err != io.EOF {
				s.problem(fmt.Sprintf("HTML parse error: %v (TFB rules, fortunes)", err))
			}
			if len(s.text) > 0 {
				return tokText, s.text, true
			}
			return 0, nil, false
		case html.TextToken:
			if raw := s.z.Raw(); !s.inScript && len(bytes.TrimSpace(raw)) > 0 {
				s.appendText(raw)
			}
			continue
		case html.DoctypeToken:
			s.name = append(s.name[:0], bytes.ToLower(s.z.Raw())...)
			s.push(tokDoctype)
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			if !s.tag(tt) {
				continue
			}
		default: // comments
			continue
		}
		if len(s.text) > 0 {
			return tokText, s.text, true
		}
		return s.next()
	}
}

// push queues a tag kind (its name is in s.name).
func (s *pageScanner) push(k tokKind) {
	s.queue[s.nq] = k
	s.nq++
}

// tag handles a tag token; it returns false if the tag is dropped.
func (s *pageScanner) tag(tt html.TokenType) bool {
	s.name = tagName(s.name[:0], s.z.Raw())
	switch string(s.name) { // a switch on a conversion does not allocate
	case "script":
		// The tokenizer reads a script's content as raw text up to
		// </script>, after <script/> too (as browsers do).
		s.inScript = tt != html.EndTagToken
		s.liveScript = s.liveScript || s.inScript && s.tableDepth > 0
		return false
	case "meta", "link", "thead", "tbody":
		return false
	case "table":
		if tt == html.StartTagToken {
			s.tableDepth++
		} else if tt == html.EndTagToken && s.tableDepth > 0 {
			s.tableDepth--
		}
	}
	switch tt {
	case html.StartTagToken:
		s.push(tokStart)
	case html.EndTagToken:
		s.push(tokEnd)
	default: // <x/> reads as <x></x>, as in TFB's parser
		s.push(tokStart)
		s.push(tokEnd)
	}
	return true
}

// tagName appends the lowercased tag name of a raw tag ("<TD class=x>",
// "</td>", "<br/>") to dst.
func tagName(dst, raw []byte) []byte {
	i := 1
	if i < len(raw) && raw[i] == '/' {
		i++
	}
	for ; i < len(raw); i++ {
		switch c := raw[i]; c {
		case ' ', '\t', '\n', '\f', '\r', '/', '>':
			return dst
		default:
			dst = append(dst, lowerASCII(c))
		}
	}
	return dst
}

// appendText decodes raw text onto s.text.
func (s *pageScanner) appendText(raw []byte) {
	for len(raw) > 0 {
		i := bytes.IndexAny(raw, "&<")
		if i < 0 {
			s.text = append(s.text, raw...)
			return
		}
		s.text = append(s.text, raw[:i]...)
		raw = raw[i:]
		if raw[0] == '<' {
			s.problem(`unescaped "<" in text (TFB rules, fortunes: text must be HTML-escaped)`)
			s.text = append(s.text, '<')
			raw = raw[1:]
			continue
		}
		n := s.charRef(raw)
		raw = raw[n:]
	}
}

// charRef decodes the character reference at the start of b (b[0] is '&')
// onto s.text and returns the bytes consumed. A bare "&" is kept as text.
func (s *pageScanner) charRef(b []byte) int {
	if len(b) > 1 && b[1] == '#' {
		return s.numericRef(b)
	}
	k := 1
	for k < len(b) && (isLetter(b[k]) || k > 1 && '0' <= b[k] && b[k] <= '9') {
		k++
	}
	if k == 1 {
		s.text = append(s.text, '&')
		return 1
	}
	semi := k < len(b) && b[k] == ';'
	if v, ok := namedRefs[string(b[1:k])]; ok {
		s.text = append(s.text, v...)
		if semi {
			k++
		}
		return k
	}
	if !semi { // "AT&T": no reference, just an ampersand
		s.text = append(s.text, '&')
		return 1
	}
	s.badRef(b[:k+1])
	s.text = append(s.text, b[:k+1]...)
	return k + 1
}

// numericRef decodes "&#...;" at the start of b (the ';' optional).
func (s *pageScanner) numericRef(b []byte) int {
	k := 2
	hex := k < len(b) && (b[k] == 'x' || b[k] == 'X')
	if hex {
		k++
	}
	start := k
	for k < len(b) && (isDigit(b[k]) || hex && isHexLetter(b[k])) {
		k++
	}
	if k == start {
		s.text = append(s.text, '&')
		return 1
	}
	var low [16]byte
	body := low[:0]
	if k-2 <= len(low) {
		for _, c := range b[2:k] {
			body = append(body, lowerASCII(c))
		}
	}
	ref := b[:k]
	if k < len(b) && b[k] == ';' {
		ref = b[:k+1]
	}
	if v, ok := numericRefs[string(body)]; ok && len(body) > 0 {
		s.text = append(s.text, v...)
		return len(ref)
	}
	s.badRef(ref)
	base := 10
	if hex {
		base = 16
	}
	// Decode for comparison so that the diff shows only real differences;
	// the reference itself is already a fail.
	if c, err := strconv.ParseUint(string(b[start:k]), base, 32); err == nil && utf8.ValidRune(rune(c)) {
		s.text = utf8.AppendRune(s.text, rune(c))
	} else {
		s.text = append(s.text, ref...)
	}
	return len(ref)
}

// badRef records a disallowed character reference.
func (s *pageScanner) badRef(ref []byte) {
	s.problem(fmt.Sprintf("character reference %s is not allowed: only &lt; &gt; &quot; &apos; &amp; &mdash; and the numeric forms of ' \" < > + / ( ) & "+
		"(TFB rules, fortunes: send other characters as raw UTF-8)", ref))
}

// problem records one problem once, up to maxProblems.
func (s *pageScanner) problem(p string) {
	if len(s.problems) >= maxProblems {
		return
	}
	for _, q := range s.problems {
		if q == p {
			return
		}
	}
	s.problems = append(s.problems, p)
}

func isLetter(c byte) bool    { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool     { return '0' <= c && c <= '9' }
func isHexLetter(c byte) bool { return 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// scannedPage is a whole page read by a pageScanner.
type scannedPage struct {
	tokens     []token
	problems   []string
	liveScript bool
}

// scanPage reads all of body's normalised tokens.
func scanPage(body []byte) scannedPage {
	s := newPageScanner(body)
	var p scannedPage
	for {
		k, v, ok := s.next()
		if !ok {
			break
		}
		p.tokens = append(p.tokens, token{k, string(v)})
	}
	p.problems, p.liveScript = s.problems, s.liveScript
	return p
}

// pageEquals reports whether body's normalised tokens are exactly exp, with
// no problems and no live <script> inside the table, without building the
// token list: true exactly when checkFortunesPage adds nothing.
func pageEquals(body []byte, exp []token) bool {
	s := newPageScanner(body)
	for i := 0; ; i++ {
		k, v, ok := s.next()
		if !ok {
			return i == len(exp) && len(s.problems) == 0 && !s.liveScript
		}
		if i >= len(exp) || exp[i].kind != k || exp[i].val != string(v) {
			return false
		}
	}
}

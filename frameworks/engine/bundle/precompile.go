package bundle

// The JSX precompiler: esbuild turns each element into a call,
// jsx("tr", { class: "row", "data-id": w.id, children: [...] }), and the
// runtime renders it by walking the props object. precompile rewrites the
// calls whose tag is a literal and whose props are plain key: value pairs
// into one string concatenation, the static parts (tags, literal attributes
// and text, escaped here) as constants:
//
//	__engine_m("<tr class=\"row\"" + __engine_a(" data-id=\"", w.id, "tr data-id") + ">" + ... + "</tr>")
//
// Nested literal elements inline into their parent's string; components,
// fragments, spreads and anything else stay runtime calls (their arguments
// are still rewritten). A file precompile cannot read (a token it does not
// know, unbalanced brackets) is left as esbuild wrote it. Lines are kept:
// every expression stays on its line, so the source map still points at it.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The runtime helpers compiled code calls (jsx/jsx.ts: jsxMarkup, jsxAttr,
// jsxChild), imported under these names from "engine/jsx-runtime".
const (
	helperMarkup = "__engine_m"
	helperAttr   = "__engine_a"
	helperChild  = "__engine_c"
	helperImport = `import { jsxMarkup as __engine_m, jsxAttr as __engine_a, jsxChild as __engine_c } from "engine/jsx-runtime"; `
)

// runtimeImport matches esbuild's import of the automatic runtime; group 1
// lists its specifiers ("jsx", "jsxs as jsxs2", "Fragment").
var runtimeImport = regexp.MustCompile(`import \{([^}]*)\} from "engine/jsx-runtime";`)

// precompile rewrites src, one module as esbuild's Transform printed it
// with the automatic runtime of import source "engine"; bytePages writes
// static HTML as page bytes (jsBytes). It returns src
// unchanged, and why, when the file cannot be read safely; compiled is the
// number of elements rewritten.
func precompile(src string, bytePages bool) (out string, compiled int, err error) {
	m := runtimeImport.FindStringSubmatchIndex(src)
	if m == nil {
		return src, 0, nil // no JSX in this file
	}
	names := map[string]bool{}
	for _, spec := range strings.Split(src[m[2]:m[3]], ",") {
		f := strings.Fields(spec)
		switch {
		case len(f) == 1 && (f[0] == "jsx" || f[0] == "jsxs"):
			names[f[0]] = true
		case len(f) == 3 && f[1] == "as" && (f[0] == "jsx" || f[0] == "jsxs"):
			names[f[2]] = true
		}
	}
	toks, err := tokenize(src)
	if err != nil {
		return src, 0, err
	}
	p := &compiler{src: src, toks: toks, names: names, match: make([]int, len(toks)), quote: jsQuote}
	if bytePages {
		p.quote = jsBytes
	}
	if err := p.pair(); err != nil {
		return src, 0, err
	}
	if len(toks) == 0 {
		return src, 0, nil
	}
	body := src[:toks[0].start] + p.rewrite(0, len(toks), 0) + src[toks[len(toks)-1].end:]
	if p.compiled == 0 {
		return src, 0, nil
	}
	return helperImport + body, p.compiled, nil
}

// compiler holds one file's tokens; match[i] is the index of the bracket
// that closes (or opens) bracket token i.
type compiler struct {
	src      string
	toks     []token
	names    map[string]bool
	match    []int
	compiled int
	line     int // the line the output has reached in rewrite's current element
	// quote writes static HTML as a string literal: jsBytes for byte-string
	// pages, jsQuote for text pages.
	quote func(string) string
}

func (p *compiler) text(i int) string { return p.src[p.toks[i].start:p.toks[i].end] }

func (p *compiler) is(i int, s string) bool {
	return i < len(p.toks) && p.toks[i].kind == tPunct && p.text(i) == s
}

// pair matches every ( [ { with its closer.
func (p *compiler) pair() error {
	var stack []int
	for i, t := range p.toks {
		if t.kind != tPunct {
			continue
		}
		switch s := p.text(i); s {
		case "(", "[", "{":
			stack = append(stack, i)
		case ")", "]", "}":
			if len(stack) == 0 {
				return fmt.Errorf("unbalanced %q on line %d", s, t.line+1)
			}
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if want := map[string]string{"(": ")", "[": "]", "{": "}"}[p.text(o)]; want != s {
				return fmt.Errorf("%q on line %d closes %q", s, t.line+1, p.text(o))
			}
			p.match[o], p.match[i] = i, o
		}
	}
	if len(stack) > 0 {
		return fmt.Errorf("unclosed %q on line %d", p.text(stack[0]), p.toks[stack[0]].line+1)
	}
	return nil
}

// rewrite returns the source of tokens [from, to) with every compilable
// element call replaced, keeping the text between tokens. base is the line
// the returned text starts on.
func (p *compiler) rewrite(from, to, base int) string {
	if from >= to {
		return ""
	}
	var b strings.Builder
	pos := p.toks[from].start
	for i := from; i < to; i++ {
		if !p.isCall(i) {
			continue
		}
		parts, ok := p.try(i)
		if !ok {
			continue
		}
		b.WriteString(p.src[pos:p.toks[i].start])
		line := p.toks[i].line
		b.WriteString(p.emit(parts, line, parts[0].static == "<html"))
		end := p.match[i+1] // the call's )
		// Keep the line count: pad with the newlines the element spanned.
		if want := p.toks[end].line; p.line < want {
			b.WriteString(strings.Repeat("\n", want-p.line))
		}
		pos = p.toks[end].end
		i = end
	}
	b.WriteString(p.src[pos:p.toks[to-1].end])
	return b.String()
}

// isCall reports whether token i starts a call of the runtime's jsx or jsxs
// (not a member access such as x.jsx(...)).
func (p *compiler) isCall(i int) bool {
	t := p.toks[i]
	return t.kind == tIdent && p.names[p.text(i)] && p.is(i+1, "(") && !(i > 0 && p.is(i-1, "."))
}

// part is a piece of a compiled element: static HTML, or an expression
// that evaluates to a string (code, starting on line).
type part struct {
	static string
	code   string
	line   int
	isCode bool
}

var (
	tagRE  = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9-]*$`)
	attrRE = regexp.MustCompile(`^[^\s\x00-\x1f\x7f"'>/=]+$`)
	intRE  = regexp.MustCompile(`^(0|[1-9][0-9]{0,14})$`)
)

// voidTags are HTML's void elements (jsx.ts VOID).
var voidTags = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}

// element compiles the call at token i into parts; ok is false when it
// must stay a runtime call: a component or fragment, a tag that is not a
// literal valid name, props that are not a plain object literal of key:
// value pairs, children on a void element.
func (p *compiler) element(i int) (parts []part, ok bool) {
	open := i + 1
	close := p.match[open]
	args := p.split(open+1, close)
	if len(args) < 2 || len(args) > 3 {
		return nil, false
	}
	tagTok := args[0]
	if tagTok[1]-tagTok[0] != 1 || p.toks[tagTok[0]].kind != tString {
		return nil, false
	}
	tag, ok := jsString(p.text(tagTok[0]))
	if !ok || !tagRE.MatchString(tag) {
		return nil, false
	}
	if len(args) == 3 && !p.literal(args[2]) {
		return nil, false // a key with side effects stays evaluated
	}
	obj := args[1]
	if obj[1]-obj[0] < 2 || !p.is(obj[0], "{") || p.match[obj[0]] != obj[1]-1 {
		return nil, false
	}
	props := p.split(obj[0]+1, obj[1]-1)
	parts = []part{{static: "<" + tag}}
	var children [2]int
	hasChildren := false
	seen := map[string]bool{}
	for _, pr := range props {
		key, value, ok := p.property(pr)
		if !ok || seen[key] {
			return nil, false
		}
		seen[key] = true
		switch key {
		case "key":
			if !p.literal(value) {
				return nil, false
			}
			continue
		case "children":
			children, hasChildren = value, true
			continue
		}
		if !attrRE.MatchString(key) {
			return nil, false
		}
		name := key
		switch key {
		case "className":
			name = "class"
		case "htmlFor":
			name = "for"
		}
		if s, ok := p.staticAttr(name, value); ok {
			parts = append(parts, part{static: s})
			continue
		}
		parts = append(parts, part{isCode: true, line: p.toks[value[0]].line,
			code: helperAttr + "(" + p.quote(" "+name+`="`) + ", " + p.rewrite(value[0], value[1], p.toks[value[0]].line) + ", " + jsQuote(tag+" "+key) + ")"})
	}
	if voidTags[strings.ToLower(tag)] {
		if hasChildren && !p.nullish(children) {
			return nil, false
		}
		p.compiled++
		return append(parts, part{static: ">"}), true
	}
	parts = append(parts, part{static: ">"})
	if hasChildren {
		var items [][2]int
		if p.is(children[0], "[") && p.match[children[0]] == children[1]-1 {
			items = p.split(children[0]+1, children[1]-1)
		} else {
			items = [][2]int{{children[0], children[1]}}
		}
		for _, it := range items {
			if p.is(it[0], "...") {
				return nil, false
			}
			if p.isCall(it[0]) && p.match[it[0]+1] == it[1]-1 {
				if sub, ok := p.try(it[0]); ok {
					parts = append(parts, sub...)
					continue
				}
			}
			if s, ok := p.staticChild(it); ok {
				parts = append(parts, part{static: s})
				continue
			}
			parts = append(parts, part{isCode: true, line: p.toks[it[0]].line,
				code: helperChild + "(" + p.rewrite(it[0], it[1], p.toks[it[0]].line) + ")"})
		}
	}
	p.compiled++
	return append(parts, part{static: "</" + tag + ">"}), true
}

// try is element, with the count of compiled elements unchanged when the
// element stays a runtime call.
func (p *compiler) try(i int) ([]part, bool) {
	n := p.compiled
	parts, ok := p.element(i)
	if !ok {
		p.compiled = n
	}
	return parts, ok
}

// split splits tokens [from, to) at the commas outside brackets; a
// trailing comma ends the last item.
func (p *compiler) split(from, to int) [][2]int {
	var out [][2]int
	start := from
	for i := from; i < to; i++ {
		if p.toks[i].kind == tPunct {
			switch p.text(i) {
			case "(", "[", "{":
				i = p.match[i]
				continue
			case ",":
				if i > start {
					out = append(out, [2]int{start, i})
				}
				start = i + 1
			}
		}
	}
	if to > start {
		out = append(out, [2]int{start, to})
	}
	return out
}

// property reads a property of an object literal: `key: value` (key an
// identifier or a string) or the shorthand `key`. ok is false for spreads,
// computed keys and methods.
func (p *compiler) property(pr [2]int) (key string, value [2]int, ok bool) {
	t := p.toks[pr[0]]
	switch t.kind {
	case tIdent:
		key = p.text(pr[0])
	case tString:
		if key, ok = jsString(p.text(pr[0])); !ok {
			return "", value, false
		}
	default:
		return "", value, false
	}
	if pr[1]-pr[0] == 1 && t.kind == tIdent {
		return key, pr, true // shorthand
	}
	if pr[1]-pr[0] < 3 || !p.is(pr[0]+1, ":") {
		return "", value, false
	}
	return key, [2]int{pr[0] + 2, pr[1]}, true
}

// literal reports whether the tokens are one literal (no side effects).
func (p *compiler) literal(v [2]int) bool {
	if v[1]-v[0] != 1 {
		return false
	}
	switch p.toks[v[0]].kind {
	case tString, tNumber:
		return true
	case tIdent:
		switch p.text(v[0]) {
		case "true", "false", "null", "undefined":
			return true
		}
	}
	return false
}

func (p *compiler) nullish(v [2]int) bool {
	return v[1]-v[0] == 1 && (p.text(v[0]) == "null" || p.text(v[0]) == "undefined")
}

// staticAttr renders an attribute whose value is a literal as the runtime
// would (jsxAttr): a string escaped, an integer as is, true the bare name,
// false, null and undefined nothing.
func (p *compiler) staticAttr(name string, v [2]int) (string, bool) {
	if v[1]-v[0] != 1 {
		return "", false
	}
	text := p.text(v[0])
	switch p.toks[v[0]].kind {
	case tString:
		if s, ok := jsString(text); ok {
			return " " + name + `="` + escapeHTML(s) + `"`, true
		}
	case tNumber:
		if intRE.MatchString(text) {
			return " " + name + `="` + text + `"`, true
		}
	case tIdent:
		switch text {
		case "true":
			return " " + name, true
		case "false", "null", "undefined":
			return "", true
		}
	}
	return "", false
}

// staticChild renders a child that is a literal as renderChild would.
func (p *compiler) staticChild(v [2]int) (string, bool) {
	if v[1]-v[0] != 1 {
		return "", false
	}
	text := p.text(v[0])
	switch p.toks[v[0]].kind {
	case tString:
		if s, ok := jsString(text); ok {
			return escapeHTML(s), true
		}
	case tNumber:
		if intRE.MatchString(text) {
			return text, true
		}
	case tIdent:
		switch text {
		case "true", "false", "null", "undefined":
			return "", true
		}
	}
	return "", false
}

// emit writes an element's parts as helperMarkup(a + b + ...), each
// expression on its own source line (newlines added before it as needed);
// p.line is the line reached after it. An <html> element (doc) passes 1
// after them: html() then puts the doctype in front without reading the page.
func (p *compiler) emit(parts []part, line int, doc bool) string {
	var b strings.Builder
	p.line = line
	b.WriteString(helperMarkup + "(")
	static := ""
	first := true
	plus := func() {
		if !first {
			b.WriteString(" + ")
		}
		first = false
	}
	for _, pt := range parts {
		if !pt.isCode {
			static += pt.static
			continue
		}
		if static != "" || first {
			plus()
			b.WriteString(p.quote(static))
			static = ""
		}
		plus()
		if pt.line > p.line {
			b.WriteString(strings.Repeat("\n", pt.line-p.line))
			p.line = pt.line
		}
		b.WriteString(pt.code)
		p.line += strings.Count(pt.code, "\n")
	}
	if static != "" || first {
		plus()
		b.WriteString(p.quote(static))
	}
	if doc {
		b.WriteString(", 1")
	}
	b.WriteString(")")
	return b.String()
}

// escapeHTML is jsx.ts escapeHTML: & < > " ' as &amp; &lt; &gt; &quot; &apos;.
var escapeHTML = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;").Replace

// jsBytes writes s as a double-quoted JavaScript string literal of its
// UTF-8 bytes, one character each (\xHH above 0x7F): a page's byte string
// (jsx.ts, Pages are byte strings).
func jsBytes(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// jsQuote writes s as a double-quoted JavaScript string literal.
func jsQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// jsString decodes a JavaScript string literal ("..." or '...') with the
// escapes esbuild prints; ok is false for any other escape.
func jsString(lit string) (string, bool) {
	if len(lit) < 2 {
		return "", false
	}
	body := lit[1 : len(lit)-1]
	if !strings.Contains(body, `\`) {
		return body, true
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(body) {
			return "", false
		}
		switch e := body[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '\\', '"', '\'':
			b.WriteByte(e)
		case 'u':
			var hex string
			if i+1 < len(body) && body[i+1] == '{' {
				end := strings.IndexByte(body[i:], '}')
				if end < 0 {
					return "", false
				}
				hex, i = body[i+2:i+end], i+end
			} else if i+4 < len(body) {
				hex, i = body[i+1:i+5], i+4
			} else {
				return "", false
			}
			n, err := strconv.ParseUint(hex, 16, 32)
			if err != nil || (n >= 0xd800 && n < 0xe000) {
				return "", false // a surrogate: leave it to the runtime
			}
			b.WriteRune(rune(n))
		case 'x':
			if i+2 >= len(body) {
				return "", false
			}
			n, err := strconv.ParseUint(body[i+1:i+3], 16, 8)
			if err != nil {
				return "", false
			}
			b.WriteRune(rune(n))
			i += 2
		default:
			return "", false
		}
	}
	return b.String(), true
}

package verify

import "bytes"

// Finding a page's first <table> start tag with the HTML tokenizer costs
// about 25 allocations (the tokenizer, its buffer, one string per
// attribute), too many for a check of every response under load.
// scanTableStart reads the markup before the table the way
// golang.org/x/net/html's Tokenizer does (tags and their attributes,
// comments, doctypes, raw text elements such as <script> and <title>)
// without allocating; where the two could differ (a <script> holding
// "<!--", a <plaintext>, a table start tag holding a "/", input ending
// inside a token) it is unsure and firstTableStart asks the tokenizer.

// rawTextTags are the elements whose content the tokenizer reads as raw
// text up to their end tag (Tokenizer.readStartTag).
var rawTextTags = [...]string{"iframe", "noembed", "noframes", "noscript", "plaintext", "script", "style", "textarea", "title", "xmp"}

// scanTableStart returns the offset just past body's first <table> start
// tag and whether there is one, as firstTableStart's tokenizer would, with
// sure false when it cannot tell.
func scanTableStart(body []byte) (off int, found, sure bool) {
	i := 0
	for {
		j := bytes.IndexByte(body[i:], '<')
		if j < 0 {
			return 0, false, true // text to the end: no table
		}
		i += j
		if i+1 >= len(body) {
			return 0, false, true // a lone "<" at the end is text
		}
		c := body[i+1]
		switch {
		case isLetter(c):
			end, name, selfClosing, ok := scanTagAt(body, i+1)
			if !ok {
				return 0, false, false
			}
			if equalFoldASCII(name, "table") {
				if selfClosing {
					return 0, false, false
				}
				return end, true, true
			}
			i = end
			if raw, ok := rawTextTag(name); ok {
				if i, ok = skipRawText(body, i, raw); !ok {
					return 0, false, false
				}
			}
		case c == '/':
			if i+2 >= len(body) {
				return 0, false, false
			}
			switch c2 := body[i+2]; {
			case c2 == '>': // "</>" is dropped
				i += 3
			case isLetter(c2):
				end, _, _, ok := scanTagAt(body, i+2)
				if !ok {
					return 0, false, false
				}
				i = end
			default: // a bogus comment up to ">"
				if i = closeAngle(body, i+2); i < 0 {
					return 0, false, false
				}
			}
		case c == '!':
			if i+3 < len(body) && body[i+2] == '-' && body[i+3] == '-' {
				if i = commentEnd(body, i+4); i < 0 {
					return 0, false, false
				}
				continue
			}
			if i+3 >= len(body) {
				return 0, false, false
			}
			// a doctype or a bogus comment: up to ">"
			if i = closeAngle(body, i+2); i < 0 {
				return 0, false, false
			}
		case c == '?': // a bogus comment up to ">"
			if i = closeAngle(body, i+1); i < 0 {
				return 0, false, false
			}
		default: // "<" then anything else is text
			i++
		}
	}
}

// closeAngle returns the offset just past the first ">" at or after i, or
// -1 if there is none.
func closeAngle(b []byte, i int) int {
	j := bytes.IndexByte(b[i:], '>')
	if j < 0 {
		return -1
	}
	return i + j + 1
}

// commentEnd returns the offset just past the comment whose content starts
// at i (after "<!--"), ended as Tokenizer.readComment ends it ("-->",
// "--!>", or ">" right at the start as in "<!-->" and "<!--->"), or -1 if
// the input ends first.
func commentEnd(b []byte, i int) int {
	dashes, beginning := 0, true
	for i < len(b) {
		c := b[i]
		i++
		switch c {
		case '-':
			dashes++
			continue
		case '>':
			if dashes >= 2 || beginning {
				return i
			}
		case '!':
			if dashes >= 2 {
				if i >= len(b) {
					return -1
				}
				c = b[i]
				i++
				if c == '>' {
					return i
				}
				if c == '-' {
					dashes, beginning = 1, false
					continue
				}
			}
		}
		dashes, beginning = 0, false
	}
	return -1
}

// scanTagAt reads a start or end tag whose name starts at b[i] (a letter),
// attributes included, as Tokenizer.readTag does, and returns the offset
// just past its ">", its name (as written), whether a "/" comes right
// before the ">" (self-closing, or an unquoted value ending in "/") and ok,
// false when the input ends inside the tag.
func scanTagAt(b []byte, i int) (end int, name []byte, slash, ok bool) {
	start := i
	for i++; ; i++ { // the name: up to white space, "/" or ">"
		if i >= len(b) {
			return 0, nil, false, false
		}
		if c := b[i]; isSpaceByte(c) || c == '/' || c == '>' {
			break
		}
	}
	name = b[start:i]
	for {
		i = skipSpace(b, i)
		if i >= len(b) {
			return 0, nil, false, false
		}
		if b[i] == '>' {
			return i + 1, name, b[i-1] == '/', true
		}
		// An attribute key: up to white space, "/", ">" or a "=" that is
		// not its first byte.
		keyStart := i
		for {
			if i >= len(b) {
				return 0, nil, false, false
			}
			c := b[i]
			i++
			if c == '=' && i == keyStart+1 {
				continue
			}
			if c == '=' || isSpaceByte(c) || c == '/' || c == '>' {
				i--
				break
			}
		}
		// Its value, if a "=" follows.
		if i = skipSpace(b, i); i >= len(b) {
			return 0, nil, false, false
		}
		switch b[i] {
		case '/':
			i++
			continue
		case '=':
			i++
		default:
			continue
		}
		if i = skipSpace(b, i); i >= len(b) {
			return 0, nil, false, false
		}
		switch q := b[i]; q {
		case '>':
		case '"', '\'':
			j := bytes.IndexByte(b[i+1:], q)
			if j < 0 {
				return 0, nil, false, false
			}
			i += j + 2
		default:
			for i < len(b) && !isSpaceByte(b[i]) && b[i] != '>' {
				i++
			}
		}
	}
}

// skipSpace returns the offset of the first byte at or after i that is not
// HTML white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpaceByte(b[i]) {
		i++
	}
	return i
}

// rawTextTag returns the lowercase name of the raw text element called name
// (any case), if it is one.
func rawTextTag(name []byte) (string, bool) {
	for _, t := range rawTextTags {
		if equalFoldASCII(name, t) {
			return t, true
		}
	}
	return "", false
}

// skipRawText skips the raw text of element tag starting at i and returns
// the offset of its end tag ("</tag" then white space, "/" or ">", any
// case), or false when it cannot tell: the end tag is missing, the element
// is <plaintext> (no end), or a <script> holds "<!--" before it (the
// tokenizer's escaped script states).
func skipRawText(b []byte, i int, tag string) (int, bool) {
	if tag == "plaintext" {
		return 0, false
	}
	for from := i; ; {
		j := bytes.Index(b[from:], []byte("</"))
		if j < 0 {
			return 0, false
		}
		at := from + j
		end := at + 2 + len(tag)
		if end < len(b) && equalFoldASCII(b[at+2:end], tag) {
			if c := b[end]; isSpaceByte(c) || c == '/' || c == '>' {
				if tag == "script" && bytes.Contains(b[i:at], []byte("<!--")) {
					return 0, false
				}
				return at, true
			}
		}
		from = at + 2
	}
}

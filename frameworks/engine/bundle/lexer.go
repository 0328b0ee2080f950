package bundle

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

type tokKind uint8

const (
	tIdent tokKind = iota
	tNumber
	tString
	tTemplate
	tRegExp
	tPunct
)

// token is one JavaScript token: its kind, byte span and 0-based line.
type token struct {
	kind       tokKind
	start, end int
	line       int
}

// lexer splits esbuild's output into tokens (comments and white space
// dropped). A slash starts a regular expression after a punctuator other
// than ) and ], after an operator keyword, or at the start.
type lexer struct {
	src  string
	i    int
	line int
	toks []token
}

var regexpKeywords = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "of": true, "new": true, "delete": true,
	"void": true, "throw": true, "case": true, "do": true, "else": true, "yield": true, "await": true,
}

func tokenize(src string) ([]token, error) {
	l := &lexer{src: src}
	if err := l.run(0); err != nil {
		return nil, err
	}
	return l.toks, nil
}

// run scans tokens until the end, or, with depth > 0, until the } that
// closes a template literal's ${ (consumed, not emitted).
func (l *lexer) run(depth int) error {
	braces := 0
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == '\n':
			l.line++
			l.i++
		case c == ' ' || c == '\t' || c == '\r':
			l.i++
		case c == '/' && l.peek(1) == '/':
			for l.i < len(l.src) && l.src[l.i] != '\n' {
				l.i++
			}
		case c == '/' && l.peek(1) == '*':
			end := strings.Index(l.src[l.i+2:], "*/")
			if end < 0 {
				return fmt.Errorf("unterminated comment at byte %d", l.i)
			}
			l.line += strings.Count(l.src[l.i:l.i+2+end], "\n")
			l.i += end + 4
		case c == '"' || c == '\'':
			if err := l.str(c); err != nil {
				return err
			}
		case c == '`':
			if err := l.template(); err != nil {
				return err
			}
		case c == '/' && l.regexpAllowed():
			if err := l.regexp(); err != nil {
				return err
			}
		case isDigit(c) || (c == '.' && isDigit(l.peek(1))):
			start := l.i
			for l.i < len(l.src) && (isIdentByte(l.src[l.i]) || l.src[l.i] == '.' ||
				((l.src[l.i] == '+' || l.src[l.i] == '-') && (l.src[l.i-1] == 'e' || l.src[l.i-1] == 'E') && !strings.HasPrefix(l.src[start:], "0x"))) {
				l.i++
			}
			l.emit(tNumber, start)
		case isIdentByte(c) || c >= utf8.RuneSelf:
			start := l.i
			for l.i < len(l.src) && (isIdentByte(l.src[l.i]) || l.src[l.i] >= utf8.RuneSelf) {
				l.i++
			}
			l.emit(tIdent, start)
		default:
			start := l.i
			switch {
			case strings.HasPrefix(l.src[l.i:], "..."):
				l.i += 3
			case strings.HasPrefix(l.src[l.i:], "=>"):
				l.i += 2
			default:
				l.i++
			}
			if depth > 0 {
				if c == '{' {
					braces++
				} else if c == '}' {
					if braces == 0 {
						return nil
					}
					braces--
				}
			}
			l.emit(tPunct, start)
		}
	}
	if depth > 0 {
		return fmt.Errorf("unterminated template literal")
	}
	return nil
}

func (l *lexer) peek(n int) byte {
	if l.i+n < len(l.src) {
		return l.src[l.i+n]
	}
	return 0
}

func (l *lexer) emit(k tokKind, start int) {
	l.toks = append(l.toks, token{kind: k, start: start, end: l.i, line: l.line - strings.Count(l.src[start:l.i], "\n")})
}

func (l *lexer) regexpAllowed() bool {
	if len(l.toks) == 0 {
		return true
	}
	t := l.toks[len(l.toks)-1]
	text := l.src[t.start:t.end]
	switch t.kind {
	case tPunct:
		return text != ")" && text != "]" && text != "}"
	case tIdent:
		return regexpKeywords[text]
	}
	return false
}

func (l *lexer) str(q byte) error {
	start := l.i
	for l.i++; l.i < len(l.src); l.i++ {
		switch l.src[l.i] {
		case '\\':
			if l.peek(1) == '\n' {
				l.line++
			}
			l.i++
		case q:
			l.i++
			l.emit(tString, start)
			return nil
		case '\n':
			return fmt.Errorf("newline in string at byte %d", start)
		}
	}
	return fmt.Errorf("unterminated string at byte %d", start)
}

func (l *lexer) template() error {
	start, line := l.i, l.line
	for l.i++; l.i < len(l.src); l.i++ {
		switch l.src[l.i] {
		case '\\':
			l.i++
		case '\n':
			l.line++
		case '`':
			l.i++
			l.toks = append(l.toks, token{kind: tTemplate, start: start, end: l.i, line: line})
			return nil
		case '$':
			if l.peek(1) == '{' {
				l.i += 2
				outer := l.toks
				l.toks = nil
				if err := l.run(1); err != nil {
					return err
				}
				l.toks = outer
				l.i-- // the loop steps over the closing }
			}
		}
	}
	return fmt.Errorf("unterminated template literal at byte %d", start)
}

func (l *lexer) regexp() error {
	start := l.i
	class := false
	for l.i++; l.i < len(l.src); l.i++ {
		switch c := l.src[l.i]; {
		case c == '\\':
			l.i++
		case c == '[':
			class = true
		case c == ']':
			class = false
		case c == '/' && !class:
			l.i++
			for l.i < len(l.src) && isIdentByte(l.src[l.i]) {
				l.i++
			}
			l.emit(tRegExp, start)
			return nil
		case c == '\n':
			return fmt.Errorf("newline in regular expression at byte %d", start)
		}
	}
	return fmt.Errorf("unterminated regular expression at byte %d", start)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

package runtime

import (
	"unicode/utf16"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string literal in ASCII: other
// characters as \uXXXX escapes (UTF-16 surrogate pairs above U+FFFF),
// invalid UTF-8 as \ufffd. V8 then makes the JSON text a one-byte string,
// and JSON.parse makes one-byte strings of every value that fits one, so
// one non-Latin-1 message does not widen the rest.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		b = append(b, s[start:i]...)
		if r >= 0x10000 {
			r1, r2 := utf16.EncodeRune(r)
			b = appendU(appendU(b, r1), r2)
		} else {
			b = appendU(b, r) // U+FFFD for invalid UTF-8 too
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendU appends the escape \uXXXX of the UTF-16 code unit r.
func appendU(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexDigits[r>>12&0xF], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
}

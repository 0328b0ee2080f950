package runtime

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// parseFrame splits "<status>\n<content-type>\n<body>". A status followed
// by "~" ("200~") says the body is a byte string: each of its characters
// is one byte of the UTF-8 body (the engine library's HTML pages). f is
// the frame's UTF-8, or with oneByte its characters (all U+0000..U+00FF)
// one byte each: a byte string's body is then f's bytes as they are, and
// the UTF-8 of a text body and of the content type is made from them.
func parseFrame(f string, oneByte bool) (*Response, error) {
	text := func(s string) string { // for errors: f's text
		if oneByte {
			return latin1ToUTF8(s)
		}
		return s
	}
	i := strings.IndexByte(f, '\n')
	if i < 0 {
		return nil, fmt.Errorf("frame %.40q has no status line", text(f[:min(len(f), 80)]))
	}
	line, bytes := f[:i], false
	if strings.HasSuffix(line, "~") {
		line, bytes = line[:len(line)-1], true
	}
	status, err := strconv.Atoi(line)
	if err != nil || status < 100 || status > 999 {
		return nil, fmt.Errorf("frame status %.20q, want a 3-digit HTTP status", text(f[:i]))
	}
	rest := f[i+1:]
	j := strings.IndexByte(rest, '\n')
	if j < 0 {
		return nil, fmt.Errorf("frame %.40q has no content-type line", text(f[:min(len(f), 80)]))
	}
	contentType, body := rest[:j], rest[j+1:]
	switch {
	case oneByte:
		contentType = latin1ToUTF8(contentType)
		if !bytes {
			body = latin1ToUTF8(body)
		}
	case bytes:
		body = fromLatin1(body)
	}
	return &Response{Status: status, ContentType: contentType, Body: body}, nil
}

// latin1ToUTF8 is the UTF-8 of s read as Latin-1 (one character U+0000..
// U+00FF per byte), the text V8 wrote one byte per character; s itself
// when it is ASCII.
func latin1ToUTF8(s string) string {
	i := firstHigh(s)
	if i == len(s) {
		return s
	}
	b := make([]byte, i, len(s)+len(s)/8)
	copy(b, s[:i])
	for i < len(s) {
		if c := s[i]; c >= utf8.RuneSelf {
			b = append(b, 0xc0|c>>6, 0x80|c&0x3f)
			i++
			continue
		}
		j := i + firstHigh(s[i:])
		b = append(b, s[i:j]...)
		i = j
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// fromLatin1 returns the bytes of a byte string as V8 wrote it in UTF-8:
// each character U+0080..U+00FF (two bytes, C2 or C3 and one more) is the
// byte of its code. s itself when it is ASCII. A character above U+00FF
// (text that did not go through the library's escaping) is kept as its
// UTF-8.
func fromLatin1(s string) string {
	i := firstHigh(s)
	if i == len(s) {
		return s
	}
	b := make([]byte, i, len(s))
	copy(b, s[:i])
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			j := i + firstHigh(s[i:])
			b = append(b, s[i:j]...)
			i = j
			continue
		}
		if (c == 0xc2 || c == 0xc3) && i+1 < len(s) {
			b = append(b, (c&0x1f)<<6|s[i+1]&0x3f)
			i += 2
			continue
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		b = append(b, s[i:i+n]...)
		i += n
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// firstHigh is the index of the first byte of s at or above 0x80, len(s)
// when there is none; it tests eight bytes at a time.
func firstHigh(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:]), 8))&0x8080808080808080 != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return i
		}
	}
	return i
}

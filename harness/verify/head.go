package verify

import (
	"bytes"
)

// A response's header section as the load generator hands it to a check
// under load (load.Options.Check): each header line followed by "\r\n",
// without the status line and without the final empty line. The helpers
// here read it in place; a bare "\n" ending a line is accepted too.

// HeaderValue returns the value of the first header line of head named name
// (ASCII case-insensitive; a name followed by space before the colon is not
// that name), with optional white space (space, tab) trimmed, and whether
// there is one. The value is a slice of head, valid as long as head is; an
// obsolete folded continuation line is not part of it. No allocation.
func HeaderValue(head []byte, name string) ([]byte, bool) {
	v, _, ok := nextHeader(head, name)
	return v, ok
}

// nextHeader finds the first header line of head named name and returns its
// trimmed value and the lines after it (to look for the next one).
func nextHeader(head []byte, name string) (value, rest []byte, ok bool) {
	if name == "" {
		return nil, nil, false
	}
	for rest = head; len(rest) > 0; {
		var line []byte
		line, rest = nextLine(rest)
		if len(line) <= len(name) || line[len(name)] != ':' || !equalFoldASCII(line[:len(name)], name) {
			continue
		}
		return trimOWS(line[len(name)+1:]), rest, true
	}
	return nil, nil, false
}

// nextLine splits off head's first line, without its "\r\n" or "\n".
func nextLine(head []byte) (line, rest []byte) {
	i := bytes.IndexByte(head, '\n')
	if i < 0 {
		line, rest = head, nil
	} else {
		line, rest = head[:i], head[i+1:]
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, rest
}

// trimOWS trims HTTP optional white space (space, tab) from both ends of v.
func trimOWS(v []byte) []byte {
	for len(v) > 0 && (v[0] == ' ' || v[0] == '\t') {
		v = v[1:]
	}
	for len(v) > 0 && (v[len(v)-1] == ' ' || v[len(v)-1] == '\t') {
		v = v[:len(v)-1]
	}
	return v
}

// equalFoldASCII reports whether b equals s, ASCII letters compared without
// regard to case.
func equalFoldASCII(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		if lowerASCII(b[i]) != lowerASCII(s[i]) {
			return false
		}
	}
	return true
}

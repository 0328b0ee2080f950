package load

import "bytes"

// parseStatusLine parses "HTTP/1.x SSS[ reason]". It reports the status code
// (100..999), whether the version is HTTP/1.1, and whether l is well formed.
func parseStatusLine(l []byte) (status int, http11, ok bool) {
	if len(l) < 12 || string(l[:7]) != "HTTP/1." || (l[7] != '0' && l[7] != '1') ||
		l[8] != ' ' || (len(l) > 12 && l[12] != ' ') {
		return 0, false, false
	}
	for _, c := range l[9:12] {
		if c < '0' || c > '9' {
			return 0, false, false
		}
		status = status*10 + int(c-'0')
	}
	if status < 100 {
		return 0, false, false
	}
	return status, l[7] == '1', true
}

// parseDecimal parses a Content-Length value: 1 to 18 decimal digits.
func parseDecimal(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// parseChunkSize parses a chunk-size line: 1 to 15 hex digits, optional
// white space, then the end of the line or ";" and chunk extensions, which
// are ignored (RFC 9112 §7.1.1).
func parseChunkSize(l []byte) (int64, bool) {
	var n int64
	i := 0
	for ; i < len(l); i++ {
		d, ok := hexDigit(l[i])
		if !ok {
			break
		}
		n = n<<4 | int64(d)
	}
	if i == 0 || i > 15 {
		return 0, false
	}
	for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		i++
	}
	if i < len(l) && l[i] != ';' {
		return 0, false
	}
	return n, true
}

// hexDigit returns the value of the hex digit c.
func hexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// trimOWS trims optional white space (SP, HTAB) from both ends.
func trimOWS(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// foldEqual reports whether b equals lower, ignoring ASCII case; lower must
// be lower case.
func foldEqual(b []byte, lower string) bool {
	if len(b) != len(lower) {
		return false
	}
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// hasToken reports whether the comma-separated list v holds token (ASCII
// case ignored; token lower case).
func hasToken(v []byte, token string) bool {
	for len(v) > 0 {
		i := bytes.IndexByte(v, ',')
		if i < 0 {
			i = len(v)
		}
		if foldEqual(trimOWS(v[:i]), token) {
			return true
		}
		v = v[min(i+1, len(v)):]
	}
	return false
}

// lastToken reports whether the last element of the comma-separated list v
// is token (ASCII case ignored; token lower case).
func lastToken(v []byte, token string) bool {
	if i := bytes.LastIndexByte(v, ','); i >= 0 {
		v = v[i+1:]
	}
	return foldEqual(trimOWS(v), token)
}

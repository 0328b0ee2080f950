package load

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// Parser limits. A response beyond them is a read error and its connection
// is closed.
const (
	// readBufSize is the initial per-connection read buffer, bytes (wrk uses
	// 8 KiB too). It grows, up to maxLineBytes, only for a longer line.
	readBufSize = 8 << 10
	// maxLineBytes is the longest status, header, chunk-size or trailer line,
	// bytes.
	maxLineBytes = 64 << 10
	// maxHeaderBytes caps one response's header and trailer lines together,
	// bytes.
	maxHeaderBytes = 256 << 10
	// maxBodyBytes caps one response's body (decoded, for chunked), bytes.
	maxBodyBytes = 64 << 20
)

// parseError is a response the parser cannot accept: malformed, or over one
// of the caps. Its connection is closed and the error counted as class read.
type parseError struct{ msg string }

func (e *parseError) Error() string { return e.msg }

func parseErrorf(format string, a ...any) error {
	return &parseError{msg: fmt.Sprintf(format, a...)}
}

// response is what the load generator keeps of one parsed response.
type response struct {
	status int   // status code, 100..999
	body   int64 // body bytes (decoded size for chunked)
	close  bool  // the server closes the connection after it
}

// parser reads HTTP/1.1 responses, one after another, from a byte stream:
// the status line, the headers it needs (Content-Length, Transfer-Encoding,
// Connection) and the body, which it skips while counting its bytes. It keeps
// one buffer for the life of a connection and allocates nothing per response
// unless a line outgrows the buffer, a response is malformed, or keep is set.
//
// With keep set, next also keeps the response's whole header section and body
// in header and body (fresh for each response, for a sampled check).
type parser struct {
	src  io.Reader
	buf  []byte
	r, w int // unread bytes are buf[r:w]

	keep   bool        // next keeps the header and body of the response it reads
	header http.Header // kept header lines, canonical keys, values as received
	body   []byte      // kept body, decoded if chunked; empty (perhaps nil) if none
}

// newParser returns a parser reading src through a buffer of size bytes.
func newParser(src io.Reader, size int) *parser {
	return &parser{src: src, buf: make([]byte, size)}
}

// reset points the parser at a new stream (a new connection) and drops any
// buffered bytes of the old one.
func (p *parser) reset(src io.Reader) {
	p.src, p.r, p.w = src, 0, 0
}

// fill reads more bytes into the buffer, first making room: it drops
// consumed bytes, and grows the buffer when one unfinished line fills it. It
// returns io.EOF when the stream ends with nothing read.
func (p *parser) fill() error {
	switch {
	case p.r == p.w:
		p.r, p.w = 0, 0
	case p.w == len(p.buf) && p.r > 0:
		p.w = copy(p.buf, p.buf[p.r:p.w])
		p.r = 0
	case p.w == len(p.buf):
		if len(p.buf) >= maxLineBytes {
			return parseErrorf("line over %d bytes", maxLineBytes)
		}
		nb := make([]byte, min(2*len(p.buf), maxLineBytes))
		p.w = copy(nb, p.buf[p.r:p.w])
		p.r, p.buf = 0, nb
	}
	for range 100 {
		n, err := p.src.Read(p.buf[p.w:])
		p.w += n
		if n > 0 {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return io.ErrNoProgress
}

// line returns the next line without its LF or CRLF. The slice aliases the
// buffer and is valid until the next call. At the end of the stream it
// returns io.EOF if no byte of a line was read, else io.ErrUnexpectedEOF.
func (p *parser) line() ([]byte, error) {
	for {
		if i := bytes.IndexByte(p.buf[p.r:p.w], '\n'); i >= 0 {
			l := p.buf[p.r : p.r+i]
			p.r += i + 1
			if n := len(l); n > 0 && l[n-1] == '\r' {
				l = l[:n-1]
			}
			return l, nil
		}
		if err := p.fill(); err != nil {
			if err == io.EOF && p.r < p.w {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
	}
}

// discard skips n bytes of the stream, appending them to body when keep is
// set.
func (p *parser) discard(n int64) error {
	if p.keep {
		return p.keepBytes(n)
	}
	for {
		avail := int64(p.w - p.r)
		if avail >= n {
			p.r += int(n)
			return nil
		}
		n -= avail
		p.r, p.w = 0, 0
		if err := p.fill(); err != nil {
			return unexpected(err)
		}
	}
}

// keepBytes appends the next n bytes of the stream to body.
func (p *parser) keepBytes(n int64) error {
	for {
		avail := int64(p.w - p.r)
		if avail >= n {
			p.body = append(p.body, p.buf[p.r:p.r+int(n)]...)
			p.r += int(n)
			return nil
		}
		p.body = append(p.body, p.buf[p.r:p.w]...)
		n -= avail
		p.r, p.w = 0, 0
		if err := p.fill(); err != nil {
			return unexpected(err)
		}
	}
}

// unexpected turns io.EOF inside a response into io.ErrUnexpectedEOF.
func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// next reads one final response. Interim 1xx responses (other than 101) are
// skipped (RFC 9110 §15.2). It returns io.EOF when the stream ends cleanly
// before a response starts, io.ErrUnexpectedEOF when it ends inside one, a
// *parseError for a malformed or over-cap response, or the reader's error.
//
// Body framing follows RFC 9112 §6.3: no body for 1xx, 204 and 304;
// Transfer-Encoding ending in chunked means chunked; any other
// Transfer-Encoding, or neither header, means the body runs to the end of the
// stream; else Content-Length.
//
// With p.keep set it also fills p.header with the final response's header
// lines (keys canonical as http.CanonicalHeaderKey makes them, values with
// optional white space trimmed, in order; trailers are not kept) and p.body
// with its body, decoded if chunked.
func (p *parser) next() (response, error) {
	for {
		l, err := p.line()
		if err != nil {
			return response{}, err
		}
		status, http11, ok := parseStatusLine(l)
		if !ok {
			return response{}, parseErrorf("malformed status line %q", clip(l))
		}
		if p.keep {
			p.header, p.body = make(http.Header), nil
		}
		hdr := len(l)
		var (
			length                 int64 = -1
			te, chunked            bool
			closeTok, keepAliveTok bool
		)
		for {
			l, err = p.line()
			if err != nil {
				return response{}, unexpected(err)
			}
			if len(l) == 0 {
				break
			}
			if hdr += len(l); hdr > maxHeaderBytes {
				return response{}, parseErrorf("header over cap (%d bytes)", maxHeaderBytes)
			}
			colon := bytes.IndexByte(l, ':')
			if colon <= 0 {
				return response{}, parseErrorf("malformed header line %q", clip(l))
			}
			name, value := l[:colon], trimOWS(l[colon+1:])
			if p.keep {
				key := http.CanonicalHeaderKey(string(name))
				p.header[key] = append(p.header[key], string(value))
			}
			switch {
			case foldEqual(name, "content-length"):
				n, ok := parseDecimal(value)
				if !ok {
					return response{}, parseErrorf("malformed Content-Length %q", clip(value))
				}
				if length >= 0 && n != length {
					return response{}, parseErrorf("conflicting Content-Length %d and %d", length, n)
				}
				length = n
			case foldEqual(name, "transfer-encoding"):
				te, chunked = true, lastToken(value, "chunked")
			case foldEqual(name, "connection"):
				closeTok = closeTok || hasToken(value, "close")
				keepAliveTok = keepAliveTok || hasToken(value, "keep-alive")
			}
		}
		if status < 200 && status != 101 {
			continue
		}
		resp := response{
			status: status,
			close:  closeTok || (!http11 && !keepAliveTok) || status == 101,
		}
		switch {
		case status < 200 || status == 204 || status == 304:
		case te && chunked:
			resp.body, err = p.chunked(hdr)
		case te || length < 0:
			resp.body, err = p.toEOF()
			resp.close = true
		case length > maxBodyBytes:
			return response{}, errBodyOverCap
		default:
			if p.keep {
				p.body = make([]byte, 0, length)
			}
			resp.body, err = length, p.discard(length)
		}
		if err != nil {
			return response{}, err
		}
		return resp, nil
	}
}

var errBodyOverCap = parseErrorf("body over cap (%d MiB)", maxBodyBytes>>20)

// chunked skips a chunked body and its trailer section and returns the
// decoded body size. hdr is the header bytes already read for this response;
// trailers count against the same cap.
func (p *parser) chunked(hdr int) (int64, error) {
	var total int64
	for {
		l, err := p.line()
		if err != nil {
			return 0, unexpected(err)
		}
		size, ok := parseChunkSize(l)
		if !ok {
			return 0, parseErrorf("malformed chunk size line %q", clip(l))
		}
		if size == 0 {
			break
		}
		if size > maxBodyBytes-total {
			return 0, errBodyOverCap
		}
		total += size
		if err := p.discard(size); err != nil {
			return 0, err
		}
		l, err = p.line()
		if err != nil {
			return 0, unexpected(err)
		}
		if len(l) != 0 {
			return 0, parseErrorf("chunk data not followed by CRLF")
		}
	}
	for {
		l, err := p.line()
		if err != nil {
			return 0, unexpected(err)
		}
		if len(l) == 0 {
			return total, nil
		}
		if hdr += len(l); hdr > maxHeaderBytes {
			return 0, parseErrorf("header over cap (%d bytes)", maxHeaderBytes)
		}
	}
}

// toEOF skips a body delimited by the end of the stream and returns its size.
func (p *parser) toEOF() (int64, error) {
	var total int64
	for {
		if p.keep {
			p.body = append(p.body, p.buf[p.r:p.w]...)
		}
		total += int64(p.w - p.r)
		p.r, p.w = 0, 0
		if total > maxBodyBytes {
			return 0, errBodyOverCap
		}
		if err := p.fill(); err == io.EOF {
			return total, nil
		} else if err != nil {
			return 0, err
		}
	}
}

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

// clip shortens b for an error message.
func clip(b []byte) []byte {
	if len(b) > 64 {
		return b[:64]
	}
	return b
}

// isParseError reports whether err is a malformed or over-cap response.
func isParseError(err error) bool {
	var pe *parseError
	return errors.As(err, &pe)
}

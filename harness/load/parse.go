package load

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"
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
	// maxKeptBytes is the default cap on a body kept for a check, bytes (1 MiB;
	// Options.MaxCheckBytes sets another): a larger sampled body fails its check, so
	// 50 MB bodies cost the generator no more than the cap per connection.
	maxKeptBytes = 1 << 20
	// snipBytes is the most body bytes the parser keeps of a non-2xx
	// response for a status example (wantSnip).
	snipBytes = 200
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

// parser reads HTTP/1.1 responses from a byte stream, resumably (parse keeps its
// place until more reads; next blocks), allocating nothing per response unless a
// line outgrows its buffer, one is malformed, or keep (set between responses) is.
type parser struct {
	src  io.Reader
	buf  []byte
	r, w int // unread bytes are buf[r:w]
	// scanned is how many bytes from r line has searched for LF in vain: a
	// line that comes in pieces is searched once, not from its start on
	// every read. It is relative to r, so compaction and growth keep it.
	scanned int

	keep    bool   // keep the header lines and body of the response being read
	head    []byte // kept header lines, each followed by CRLF, as received (buffer reused)
	body    []byte // kept body, decoded if chunked (buffer reused)
	dropped bool   // the body outgrew maxKept and is not kept (body empty)
	maxKept int    // the largest body kept, bytes (newParser: maxKeptBytes)
	dateN   int    // with keep: bytes of the Date value in date; 0: no Date header
	date    [64]byte

	// Flushes (stream.go), kept only with wantFlushes (Options.CheckTimeline set:
	// a stream test): readAt is when the read that brought the unparsed
	// bytes returned (set by the caller before parse); reads counts the reads
	// that brought bytes; bodyN is the decoded body bytes of this response so
	// far; with keep, flushes lists the reads that brought its chunked body.
	wantFlushes bool
	readAt      time.Time
	reads       uint64
	bodyN       int64
	flushes     []flushMark
	flushRead   uint64 // the read the last flush mark (kept or dropped) came from
	// contig: the current read follows one that filled the buffer, so the
	// socket held more (the same flush); lastFull: the current read filled it.
	contig, lastFull bool
	flushDropped     int // reads past MaxFlushes that brought body bytes

	wantSnip bool            // copy the first body bytes of non-2xx responses into snip
	snipping bool            // copying them for the response being read
	snipN    int             // body bytes in snip
	snip     [snipBytes]byte // the first body bytes (decoded) of the last non-2xx response

	// Where parsing stands inside the current response.
	st                     parseState
	resp                   response // status and close so far; body when done
	http11                 bool
	hdr                    int   // header (and trailer) bytes of this response
	length                 int64 // Content-Length; -1: none
	te, chunked            bool  // Transfer-Encoding present; its last coding is chunked
	closeTok, keepAliveTok bool  // Connection tokens seen
	remain                 int64 // body or chunk bytes still to skip
}

// parseState is where the parser stands inside a response.
type parseState uint8

const (
	stStatus    parseState = iota // before a status line: between responses
	stHeader                      // in the header lines
	stLength                      // in a Content-Length body, remain bytes left
	stChunkSize                   // before a chunk-size line
	stChunkData                   // in a chunk's data, remain bytes left
	stChunkEnd                    // before the CRLF that ends a chunk's data
	stTrailer                     // in the trailer lines
	stToEOF                       // in a body that runs to the end of the stream
)

// newParser returns a parser reading src through a buffer of size bytes,
// with wantSnip set and maxKept maxKeptBytes.
func newParser(src io.Reader, size int) *parser {
	return &parser{src: src, buf: make([]byte, size), wantSnip: true, maxKept: maxKeptBytes}
}

// reset points the parser at a new stream (a new connection) and drops any
// buffered bytes and the place in any response of the old one.
func (p *parser) reset(src io.Reader) {
	p.src, p.r, p.w, p.scanned, p.st = src, 0, 0, 0, stStatus
}

// more reads once from src, first dropping consumed bytes, or growing the buffer
// when one unfinished line fills it (over maxLineBytes: a *parseError), and
// returns what the read returned.
func (p *parser) more() (int, error) {
	switch {
	case p.r == p.w:
		p.r, p.w = 0, 0
	case p.w == len(p.buf) && p.r > 0:
		p.w = copy(p.buf, p.buf[p.r:p.w])
		p.r = 0
	case p.w == len(p.buf):
		if len(p.buf) >= maxLineBytes {
			return 0, parseErrorf("line over %d bytes", maxLineBytes)
		}
		nb := make([]byte, min(2*len(p.buf), maxLineBytes))
		p.w = copy(nb, p.buf[p.r:p.w])
		p.r, p.buf = 0, nb
	}
	n, err := p.src.Read(p.buf[p.w:])
	if n > 0 {
		p.reads++
		p.contig, p.lastFull = p.lastFull, n == len(p.buf)-p.w
	}
	p.w += n
	return n, err
}

// fill reads until at least one more byte is buffered (see more). It
// returns io.EOF when the stream ends with nothing read, and
// io.ErrNoProgress after 100 empty reads without an error.
func (p *parser) fill() error {
	for range 100 {
		n, err := p.more()
		if n > 0 {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return io.ErrNoProgress
}

// line returns the next complete buffered line without its LF or CRLF (aliasing
// the buffer until the next read), or false. It searches only what a failed call
// has not (scanned), so between a failed call and the next only more may run.
func (p *parser) line() ([]byte, bool) {
	b := p.buf[p.r:p.w]
	var i int
	if p.scanned == 0 { // the usual case: a whole line is buffered
		i = bytes.IndexByte(b, '\n')
	} else if i = bytes.IndexByte(b[min(p.scanned, len(b)):], '\n'); i >= 0 {
		i += min(p.scanned, len(b))
	}
	if i < 0 {
		p.scanned = len(b)
		return nil, false
	}
	p.scanned = 0
	p.r += i + 1
	if i > 0 && b[i-1] == '\r' {
		i--
	}
	return b[:i], true
}

// skip consumes up to p.remain buffered body bytes, passing them to
// bodyBytes; it reports whether all remain bytes were there.
func (p *parser) skip() bool {
	n := min(p.remain, int64(p.w-p.r))
	if p.keep || p.snipping {
		p.bodyBytes(p.buf[p.r : p.r+int(n)])
	}
	p.r += int(n)
	p.remain -= n
	return p.remain == 0
}

// bodyBytes takes body bytes b (decoded) of the response being read: appended to
// body with keep, unless that would exceed maxKept (then dropped for good), and
// copied into snip while snipping and there is room.
func (p *parser) bodyBytes(b []byte) {
	if p.keep && p.chunked && p.wantFlushes {
		p.flush(len(b))
	}
	if p.keep && !p.dropped {
		if len(p.body)+len(b) > p.maxKept {
			p.body, p.dropped = p.body[:0], true
		} else {
			p.body = append(p.body, b...)
		}
	}
	if p.snipping && p.snipN < len(p.snip) {
		p.snipN += copy(p.snip[p.snipN:], b)
	}
}

// next reads one final response from src (1xx but 101 skipped, RFC 9110 §15.2;
// framing per RFC 9112 §6.3), filling header and body with keep: io.EOF at a clean
// end before one, io.ErrUnexpectedEOF inside one, a *parseError or the reader's error.
func (p *parser) next() (response, error) {
	for {
		resp, done, err := p.parse()
		if done || err != nil {
			return resp, err
		}
		if err := p.fill(); err == io.EOF {
			resp, done, err := p.end()
			if !done {
				return response{}, err
			}
			return resp, nil
		} else if err != nil {
			return response{}, err
		}
	}
}

// end is parse for the end of the stream: it completes a body that runs to
// the end of the stream (done), or returns io.EOF if the stream ended between
// responses, io.ErrUnexpectedEOF inside one.
func (p *parser) end() (response, bool, error) {
	switch {
	case p.st == stToEOF:
		p.st = stStatus
		return p.resp, true, nil
	case p.st == stStatus && p.r == p.w:
		return response{}, false, io.EOF
	}
	return response{}, false, io.ErrUnexpectedEOF
}

// parse goes on with the buffered bytes (rules at next): done with a response once
// complete, not done without error when it needs more bytes (more or end), or a
// *parseError, after which the connection must be dropped.
func (p *parser) parse() (response, bool, error) {
	for {
		switch p.st {
		case stStatus:
			l, ok := p.line()
			if !ok {
				return response{}, false, nil
			}
			status, http11, ok := parseStatusLine(l)
			if !ok {
				return response{}, false, parseErrorf("malformed status line %q", clip(l))
			}
			p.head, p.body, p.dateN = p.head[:0], p.body[:0], 0
			p.dropped, p.bodyN, p.flushes, p.flushRead, p.flushDropped = false, 0, p.flushes[:0], 0, 0
			p.resp = response{status: status}
			p.http11, p.hdr, p.length = http11, len(l), -1
			p.te, p.chunked, p.closeTok, p.keepAliveTok = false, false, false, false
			p.st = stHeader
			fallthrough
		case stHeader:
			for {
				l, ok := p.line()
				if !ok {
					return response{}, false, nil
				}
				if len(l) == 0 {
					break
				}
				if err := p.headerLine(l); err != nil {
					return response{}, false, err
				}
			}
			if done, err := p.headersDone(); done || err != nil {
				return p.resp, done, err
			}
		case stLength:
			if !p.skip() {
				return response{}, false, nil
			}
			p.st = stStatus
			return p.resp, true, nil
		case stChunkSize, stChunkData, stChunkEnd:
			if done, err := p.chunks(); !done || err != nil {
				return response{}, false, err
			}
		case stTrailer:
			for {
				l, ok := p.line()
				if !ok {
					return response{}, false, nil
				}
				if len(l) == 0 {
					p.st = stStatus
					return p.resp, true, nil
				}
				if p.hdr += len(l); p.hdr > maxHeaderBytes {
					return response{}, false, parseErrorf("header over cap (%d bytes)", maxHeaderBytes)
				}
			}
		case stToEOF:
			n := p.w - p.r
			p.bodyBytes(p.buf[p.r:p.w])
			p.resp.body += int64(n)
			p.r, p.w = 0, 0
			if p.resp.body > maxBodyBytes {
				return response{}, false, errBodyOverCap
			}
			return response{}, false, nil
		}
	}
}

// chunks goes on with a chunked body: chunk-size lines, chunk data and the
// CRLF after each. It reports done at the last chunk (size 0), where the
// trailer section starts.
func (p *parser) chunks() (done bool, err error) {
	for {
		switch p.st {
		case stChunkSize:
			l, ok := p.line()
			if !ok {
				return false, nil
			}
			size, ok := parseChunkSize(l)
			if !ok {
				return false, parseErrorf("malformed chunk size line %q", clip(l))
			}
			if size == 0 {
				p.st = stTrailer
				return true, nil
			}
			if size > maxBodyBytes-p.resp.body {
				return false, errBodyOverCap
			}
			p.resp.body += size
			p.remain, p.st = size, stChunkData
			fallthrough
		case stChunkData:
			if !p.skip() {
				return false, nil
			}
			p.st = stChunkEnd
			fallthrough
		case stChunkEnd:
			l, ok := p.line()
			if !ok {
				return false, nil
			}
			if len(l) != 0 {
				return false, parseErrorf("chunk data not followed by CRLF")
			}
			p.st = stChunkSize
		}
	}
}

// headerLine takes one header line of the current response.
func (p *parser) headerLine(l []byte) error {
	if p.hdr += len(l); p.hdr > maxHeaderBytes {
		return parseErrorf("header over cap (%d bytes)", maxHeaderBytes)
	}
	colon := bytes.IndexByte(l, ':')
	if colon <= 0 {
		return parseErrorf("malformed header line %q", clip(l))
	}
	name := l[:colon]
	if p.keep {
		p.head = append(append(p.head, l...), '\r', '\n')
	}
	// The headers that matter have names of different lengths: most lines
	// are passed over on their length alone.
	switch len(name) {
	case len("content-length"), len("transfer-encoding"), len("connection"):
	case len("date"):
		if p.keep && foldEqual(name, "date") && p.dateN == 0 {
			p.dateN = copy(p.date[:], trimOWS(l[colon+1:]))
		}
		return nil
	default:
		return nil
	}
	value := trimOWS(l[colon+1:])
	switch {
	case foldEqual(name, "content-length"):
		n, ok := parseDecimal(value)
		if !ok {
			return parseErrorf("malformed Content-Length %q", clip(value))
		}
		if p.length >= 0 && n != p.length {
			return parseErrorf("conflicting Content-Length %d and %d", p.length, n)
		}
		p.length = n
	case foldEqual(name, "transfer-encoding"):
		p.te, p.chunked = true, lastToken(value, "chunked")
	case foldEqual(name, "connection"):
		p.closeTok = p.closeTok || hasToken(value, "close")
		p.keepAliveTok = p.keepAliveTok || hasToken(value, "keep-alive")
	}
	return nil
}

// headersDone chooses the body's framing at the end of the header section: done
// for no body, else the body's state; an interim response returns to the status
// line. It starts snipping a final non-2xx response when wantSnip is set.
func (p *parser) headersDone() (done bool, err error) {
	status := p.resp.status
	if status < 200 && status != 101 {
		p.st = stStatus
		return false, nil
	}
	p.snipping, p.snipN = p.wantSnip && (status < 200 || status > 299), 0
	p.resp.close = p.closeTok || (!p.http11 && !p.keepAliveTok) || status == 101
	switch {
	case status < 200 || status == 204 || status == 304:
		p.st = stStatus
		return true, nil
	case p.te && p.chunked:
		p.st = stChunkSize
	case p.te || p.length < 0:
		p.resp.close = true
		p.st = stToEOF
	case p.length > maxBodyBytes:
		return false, errBodyOverCap
	default:
		if p.keep {
			if p.length > int64(p.maxKept) {
				p.dropped = true
			} else if int64(cap(p.body)) < p.length {
				p.body = make([]byte, 0, p.length)
			}
		}
		p.resp.body, p.remain = p.length, p.length
		p.st = stLength
	}
	return false, nil
}

var errBodyOverCap = parseErrorf("body over cap (%d MiB)", maxBodyBytes>>20)

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

// unrequested is the error for the bytes buffered past the last response of a
// batch, quoting their start: the server sent more than was asked, and
// counting them as responses would inflate RPS.
func (p *parser) unrequested() error {
	b := p.buf[p.r:p.w]
	return fmt.Errorf("%d bytes after the last requested response (an unrequested response): %q", len(b), clip(b))
}

// buffered is how many read bytes the parser has not consumed yet.
func (p *parser) buffered() int { return p.w - p.r }

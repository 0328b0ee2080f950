package load

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll parses responses from src until an error and returns them with the
// error that ended the stream.
func readAll(src io.Reader, bufSize int) ([]response, error) {
	p := newParser(src, bufSize)
	var out []response
	for {
		r, err := p.next()
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
}

func TestParseFixtures(t *testing.T) {
	cases := []struct {
		file string
		want []response
		err  string // "" means the stream ends with io.EOF
	}{
		{"content-length.http", []response{{status: 200, body: 13}}, ""},
		// 5 + 0x1A + 0x0a body bytes; extensions and trailers skipped.
		{"chunked-ext-trailers.http", []response{{status: 200, body: 41}}, ""},
		// 100 Continue is skipped; "gzip, chunked" is chunked; 204 has no
		// body; "keep-alive, Close" closes.
		{"pipelined.http", []response{
			{status: 200, body: 27},
			{status: 500, body: 3},
			{status: 204},
			{status: 404, body: 9, close: true},
		}, ""},
		// HTTP/1.0 without Content-Length: the body runs to EOF.
		{"close-delimited.http", []response{{status: 200, body: 29, close: true}}, ""},
		{"garbage-status.http", nil, `malformed status line "HTPP/1.1 200 OK"`},
	}
	for _, c := range cases {
		data, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		for rname, wrap := range testReaders {
			// 16 bytes forces compaction and growth of the buffer on most
			// lines; readBufSize is the production size.
			for _, size := range []int{16, readBufSize} {
				got, err := readAll(wrap(bytes.NewReader(data)), size)
				if !equalResponses(got, c.want) {
					t.Errorf("%s (%s reader, %d-byte buffer): responses %+v, want %+v", c.file, rname, size, got, c.want)
				}
				if c.err == "" && err != io.EOF {
					t.Errorf("%s (%s reader, %d-byte buffer): ended with %v, want io.EOF", c.file, rname, size, err)
				}
				if c.err != "" && (err == nil || err.Error() != c.err || !isParseError(err)) {
					t.Errorf("%s (%s reader, %d-byte buffer): error %v, want parse error %q", c.file, rname, size, err, c.err)
				}
			}
		}
	}
}

func equalResponses(a, b []response) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// parseErrorCases are streams the parser must refuse, each with its exact
// error; FuzzParseResponse seeds from them too.
var parseErrorCases = []struct {
	name, in string
	want     string // exact error message
}{
	{"empty stream", "", "EOF"},
	{"status digits", "HTTP/1.1 20x OK\r\n\r\n", `malformed status line "HTTP/1.1 20x OK"`},
	{"status below 100", "HTTP/1.1 099 Odd\r\n\r\n", `malformed status line "HTTP/1.1 099 Odd"`},
	{"http/2 status line", "HTTP/2 200\r\n\r\n", `malformed status line "HTTP/2 200"`},
	{"no space after code", "HTTP/1.1 2000\r\n\r\n", `malformed status line "HTTP/1.1 2000"`},
	{"truncated headers", "HTTP/1.1 200 OK\r\nContent-Le", "unexpected EOF"},
	{"truncated body", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", "unexpected EOF"},
	{"truncated chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab", "unexpected EOF"},
	{"missing last chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n", "unexpected EOF"},
	{"header without colon", "HTTP/1.1 200 OK\r\nbad header\r\n\r\n", `malformed header line "bad header"`},
	{"content-length letters", "HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n", `malformed Content-Length "1x"`},
	{"content-length empty", "HTTP/1.1 200 OK\r\nContent-Length: \r\n\r\n", `malformed Content-Length ""`},
	{"content-length conflict", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", "conflicting Content-Length 5 and 6"},
	{"chunk size not hex", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", `malformed chunk size line "zz"`},
	{"chunk size junk after", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5 x\r\n", `malformed chunk size line "5 x"`},
	{"chunk size 16 digits", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0000000000000001\r\n", `malformed chunk size line "0000000000000001"`},
	{"chunk without crlf", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n0\r\n\r\n", "chunk data not followed by CRLF"},
	{"content-length over cap", "HTTP/1.1 200 OK\r\nContent-Length: 67108865\r\n\r\n", "body over cap (64 MiB)"},
	{"chunks over cap", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4000001\r\n", "body over cap (64 MiB)"},
	{"line over cap", "HTTP/1.1 200 OK\r\nX-Long: " + strings.Repeat("a", maxLineBytes) + "\r\n\r\n", "line over 65536 bytes"},
	{"headers over cap", "HTTP/1.1 200 OK\r\n" + strings.Repeat("X-Many: "+strings.Repeat("a", 1000)+"\r\n", 300), "header over cap (262144 bytes)"},
}

func TestParseErrors(t *testing.T) {
	for _, c := range parseErrorCases {
		got, err := readAll(strings.NewReader(c.in), readBufSize)
		if len(got) != 0 || err == nil || err.Error() != c.want {
			t.Errorf("%s: got %+v, %v; want no response and error %q", c.name, got, err, c.want)
		}
	}
}

func TestParseStatusWithoutReason(t *testing.T) {
	got, err := readAll(strings.NewReader("HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok"), readBufSize)
	if err != io.EOF || !equalResponses(got, []response{{status: 200, body: 2}}) {
		t.Fatalf("got %+v, %v; want one 200 with a 2-byte body, then io.EOF", got, err)
	}
}

func TestParseReaderError(t *testing.T) {
	boom := errors.New("boom")
	src := io.MultiReader(strings.NewReader("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab"), iotest.ErrReader(boom))
	if _, err := readAll(src, readBufSize); err != boom {
		t.Fatalf("error %v, want the reader's error %v", err, boom)
	}
}

// loopReader serves data over and over, like a server that never stops
// answering.
type loopReader struct {
	data []byte
	off  int
}

func (l *loopReader) Read(p []byte) (int, error) {
	n := copy(p, l.data[l.off:])
	l.off = (l.off + n) % len(l.data)
	return n, nil
}

// parseFixtures are the response streams the allocation test and
// BenchmarkParse read: what the six TFB tests look like on the wire.
func parseFixtures(tb testing.TB) []struct {
	name  string
	data  []byte
	count int // responses in data
} {
	tb.Helper()
	plain := "HTTP/1.1 200 OK\r\nServer: x\r\nDate: Mon, 02 Jan 2006 15:04:05 GMT\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!"
	chunked, err := os.ReadFile(filepath.Join("testdata", "chunked-ext-trailers.http"))
	if err != nil {
		tb.Fatal(err)
	}
	pipelined, err := os.ReadFile(filepath.Join("testdata", "pipelined.http"))
	if err != nil {
		tb.Fatal(err)
	}
	return []struct {
		name  string
		data  []byte
		count int
	}{
		{"plaintext-pipelined-16", []byte(strings.Repeat(plain, 16)), 16},
		{"chunked", chunked, 1},
		{"mixed", pipelined, 4},
	}
}

func TestParseDoesNotAllocate(t *testing.T) {
	for _, f := range parseFixtures(t) {
		p := newParser(&loopReader{data: f.data}, readBufSize)
		allocs := testing.AllocsPerRun(1000, func() {
			if _, err := p.next(); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %.1f allocations per response, want 0", f.name, allocs)
		}
	}
}

// BenchmarkParse measures the response parser's loop, per response: its
// allocations (0 expected) and throughput over the wire bytes.
func BenchmarkParse(b *testing.B) {
	for _, f := range parseFixtures(b) {
		b.Run(f.name, func(b *testing.B) {
			p := newParser(&loopReader{data: f.data}, readBufSize)
			b.ReportAllocs()
			b.SetBytes(int64(len(f.data) / f.count))
			for b.Loop() {
				if _, err := p.next(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseKept is BenchmarkParse with every body kept for the check, as
// under load since method version 6, without a stream test's timeline: what
// a chunked response's kept body costs on the hot path.
func BenchmarkParseKept(b *testing.B) {
	for _, f := range parseFixtures(b) {
		b.Run(f.name, func(b *testing.B) {
			p := newParser(&loopReader{data: f.data}, readBufSize)
			p.keep, p.maxKept = true, 1<<20
			b.ReportAllocs()
			b.SetBytes(int64(len(f.data) / f.count))
			for b.Loop() {
				if _, err := p.next(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// testReaders deliver a fixture whole, a byte at a time, with the final
// data and io.EOF together, or in halves: the parser must give the same
// responses whichever way the bytes arrive.
var testReaders = map[string]func(io.Reader) io.Reader{
	"whole":    func(r io.Reader) io.Reader { return r },
	"one-byte": iotest.OneByteReader,
	"data-err": iotest.DataErrReader,
	"half":     iotest.HalfReader,
}

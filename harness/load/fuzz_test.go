package load

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"testing/iotest"
)

// parsed is everything the parser made of one stream.
type parsed struct {
	resps   []response
	headers []string // kept header lines (keep only)
	bodies  [][]byte // kept bodies (keep only)
	dropped []bool   // body over maxKeptBytes, not kept (keep only)
	snips   [][]byte // snip[:snipN] after each response
	err     error    // what ended the stream
}

// parseStream parses responses from src through a size-byte buffer, with
// keep as given, until an error.
func parseStream(src io.Reader, size int, keep bool) parsed {
	p := newParser(src, size)
	p.keep = keep
	var out parsed
	for {
		resp, err := p.next()
		if err != nil {
			out.err = err
			return out
		}
		out.resps = append(out.resps, resp)
		out.snips = append(out.snips, bytes.Clone(p.snip[:p.snipN]))
		if keep {
			out.headers = append(out.headers, string(p.head))
			var body []byte // nil when empty: the parser reuses its buffer
			if len(p.body) > 0 {
				body = bytes.Clone(p.body)
			}
			out.bodies = append(out.bodies, body)
			out.dropped = append(out.dropped, p.dropped)
		}
	}
}

// FuzzParseResponse feeds the response parser arbitrary streams. The
// parser must not panic, and:
//
//   - the stream parsed whole (8 KiB buffer) and one byte per read (64-byte
//     buffer, growing) gives the same responses and the same error text,
//     and keep changes neither;
//   - every response has status 101 or 200..999 (interim 1xx are skipped),
//     a body of 0..64 MiB, and the bodies add up to no more than the
//     stream's bytes;
//   - with keep, a body up to 1 MiB is kept whole (its length is the
//     response's body size) and a larger one is dropped; kept headers and
//     bodies are the same whichever way the bytes came;
//   - a non-2xx response's snippet is the first 200 bytes of its body; a
//     2xx response has none;
//   - the stream ends with io.EOF, io.ErrUnexpectedEOF or a *parseError.
//
// Seeds: testdata/*.http, TestParseErrors' streams, and the corpus in
// testdata/fuzz/FuzzParseResponse.
func FuzzParseResponse(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.http"))
	if err != nil || len(files) == 0 {
		f.Fatalf("fixtures: %v, %d files", err, len(files))
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, c := range parseErrorCases {
		f.Add([]byte(c.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		plain := parseStream(bytes.NewReader(data), readBufSize, false)
		whole := parseStream(bytes.NewReader(data), readBufSize, true)
		bytewise := parseStream(iotest.OneByteReader(bytes.NewReader(data)), 64, true)

		var pe *parseError
		if e := whole.err; e != io.EOF && e != io.ErrUnexpectedEOF && !errors.As(e, &pe) {
			t.Fatalf("stream ended with %T %v, want io.EOF, io.ErrUnexpectedEOF or a parse error", e, e)
		}
		for name, other := range map[string]parsed{"without keep": plain, "one byte a read": bytewise} {
			if !reflect.DeepEqual(other.resps, whole.resps) || other.err.Error() != whole.err.Error() {
				t.Fatalf("%s: %+v, %v; whole with keep: %+v, %v", name, other.resps, other.err, whole.resps, whole.err)
			}
			if !reflect.DeepEqual(other.snips, whole.snips) {
				t.Fatalf("%s: snippets %q, whole: %q", name, other.snips, whole.snips)
			}
		}
		if !reflect.DeepEqual(bytewise.headers, whole.headers) || !reflect.DeepEqual(bytewise.bodies, whole.bodies) ||
			!reflect.DeepEqual(bytewise.dropped, whole.dropped) {
			t.Fatalf("kept one byte a read: %v %q %v; whole: %v %q %v",
				bytewise.headers, bytewise.bodies, bytewise.dropped, whole.headers, whole.bodies, whole.dropped)
		}

		var sum int64
		for i, r := range whole.resps {
			if (r.status < 200 && r.status != 101) || r.status > 999 || r.body < 0 || r.body > maxBodyBytes {
				t.Fatalf("response %d: %+v, want status 101 or 200..999, body 0..%d", i, r, maxBodyBytes)
			}
			sum += r.body
			body, dropped := whole.bodies[i], whole.dropped[i]
			if over := r.body > maxKeptBytes; dropped != over || (dropped && len(body) != 0) || (!dropped && int64(len(body)) != r.body) {
				t.Fatalf("response %d: %d body bytes, kept %d (dropped %v); want all kept up to %d, none over", i, r.body, len(body), dropped, maxKeptBytes)
			}
			want := []byte{}
			switch snip := whole.snips[i]; {
			case r.status >= 200 && r.status <= 299:
			case dropped: // no body to compare with: at most snipBytes
				want = snip[:min(len(snip), snipBytes)]
			default:
				want = body[:min(len(body), snipBytes)]
			}
			if !bytes.Equal(whole.snips[i], want) {
				t.Fatalf("response %d (status %d): snippet %q, want %q", i, r.status, whole.snips[i], want)
			}
		}
		if sum > int64(len(data)) {
			t.Fatalf("bodies of %d bytes from a %d-byte stream", sum, len(data))
		}
	})
}

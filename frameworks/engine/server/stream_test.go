package server

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// stepRenderer serves one streamed route, /stream: its render writes the
// chunks of parts one at a time, and before each one after the first waits
// for the test to take the previous one off the connection (next). fail,
// when set, is returned after the writes instead of the page's end.
type stepRenderer struct {
	parts []string
	next  chan struct{}
	fail  error
}

func (r *stepRenderer) Routes() []Route {
	return []Route{{Path: "/stream", File: "app/routes/stream.tsx", Stream: true}}
}

func (r *stepRenderer) Render(ctx context.Context, _ int, req *Request) (*Response, error) {
	for k, p := range r.parts {
		if k > 0 {
			select {
			case <-r.next:
			case <-time.After(5 * time.Second):
				return nil, errors.New("the test never read the previous chunk")
			}
		}
		if err := req.Write([]byte(p)); err != nil {
			return nil, err
		}
	}
	if r.fail != nil {
		return nil, r.fail
	}
	return &Response{Status: 200, ContentType: "text/html; charset=utf-8", Body: "</body></html>"}, nil
}

func (r *stepRenderer) Renders() []uint64 { return []uint64{0} }

// readChunk reads one chunk of a chunked body from br within 5 s: its
// data, or io.EOF at the last (empty) chunk.
func readChunk(t *testing.T, conn net.Conn, br *bufio.Reader) (string, error) {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, err := br.ReadString('\n')
	if err != nil {
		return "", err
	}
	n, err := strconv.ParseInt(strings.TrimSpace(line), 16, 64)
	if err != nil {
		return "", err
	}
	if n == 0 {
		return "", io.EOF
	}
	b := make([]byte, n+2)
	if _, err := io.ReadFull(br, b); err != nil {
		return "", err
	}
	return string(b[:n]), nil
}

// TestStreamFlushesEachChunk: a streamed route's response is 200,
// text/html; charset=utf-8, chunked, and each chunk the render writes
// reaches the client while the render still waits (the render goes on
// only after the test read it), then the page's end and the last chunk.
func TestStreamFlushesEachChunk(t *testing.T) {
	r := &stepRenderer{parts: []string{"<html><body><h1>World</h1>", `<table class="part" data-part="0"></table>`, `<table class="part" data-part="1"></table>`}, next: make(chan struct{})}
	ts := start(t, r)
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET /stream?rows=2 HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	res, err := http.ReadResponse(br, &http.Request{Method: "GET"})
	if err != nil {
		t.Fatalf("response head: %v", err)
	}
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/html; charset=utf-8" || res.Header.Get("Server") != "engine" || res.Header.Get("Content-Length") != "" || len(res.TransferEncoding) != 1 || res.TransferEncoding[0] != "chunked" {
		t.Fatalf("response head = %d %v %v, want 200, text/html; charset=utf-8, Server engine, chunked, no Content-Length", res.StatusCode, res.Header, res.TransferEncoding)
	}
	// http.ReadResponse wraps the body; read the chunks off br ourselves.
	for k, want := range r.parts {
		got, err := readChunk(t, conn, br)
		if err != nil || got != want {
			t.Fatalf("chunk %d = %q, %v; want %q, sent while the render waits", k, got, err, want)
		}
		if k < len(r.parts)-1 {
			r.next <- struct{}{}
		}
	}
	if got, err := readChunk(t, conn, br); err != nil || got != "</body></html>" {
		t.Fatalf("the page's end = %q, %v; want %q", got, err, "</body></html>")
	}
	if _, err := readChunk(t, conn, br); err != io.EOF {
		t.Fatalf("after the page's end: %v, want the last chunk", err)
	}
}

// TestStreamFailureTruncates: a render that fails after its first chunk
// is logged and its connection closed before the last chunk, so the
// client sees a truncated body, not a complete page.
func TestStreamFailureTruncates(t *testing.T) {
	r := &stepRenderer{parts: []string{"<html><body>"}, fail: errors.New("runtime: Error: boom at app/routes/stream.tsx:9:3")}
	ts := start(t, r)
	res, err := ts.client.Get(ts.url + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(body) != "<html><body>" || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("GET /stream = %d %q, %v; want 200 %q cut short (unexpected EOF)", res.StatusCode, body, err, "<html><body>")
	}
	// fasthttp logs the connection's error after it, on a line of its own.
	if l, want := ts.logs.String(), "engine: 500 GET /stream (streamed, 12 bytes sent): runtime: Error: boom at app/routes/stream.tsx:9:3\n"; !strings.HasPrefix(l, want) {
		t.Errorf("log = %q, want it to start with %q", l, want)
	}
}

// floodRenderer's streamed route writes 64 KiB chunks until a write fails
// (at most 1 GiB) and sends that error on done.
type floodRenderer struct{ done chan error }

func (r *floodRenderer) Routes() []Route {
	return []Route{{Path: "/stream", File: "app/routes/stream.tsx", Stream: true}}
}

func (r *floodRenderer) Render(ctx context.Context, _ int, req *Request) (*Response, error) {
	chunk := []byte(strings.Repeat("x", 64<<10))
	for range 1 << 14 {
		if err := req.Write(chunk); err != nil {
			r.done <- err
			return nil, err
		}
	}
	r.done <- nil
	return &Response{Status: 200, ContentType: "text/html; charset=utf-8"}, nil
}

func (r *floodRenderer) Renders() []uint64 { return []uint64{0} }

// TestStreamClientStopsReading: a client that never reads a streamed page
// fails the render's write once Config.StreamTimeout has passed, so the
// render (and its isolate) does not wait on the client for good.
func TestStreamClientStopsReading(t *testing.T) {
	r := &floodRenderer{done: make(chan error, 1)}
	s, err := New(Config{Renderer: r, StreamTimeout: 300 * time.Millisecond, Log: log.New(io.Discard, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	defer s.Close()
	defer ln.Close()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-r.done:
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() {
			t.Errorf("the render's write ended with %v, want a write timeout", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the render still writes 10 s after the client stopped reading (StreamTimeout 300ms)")
	}
}

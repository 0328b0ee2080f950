package loadgencmp

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The counter finds every request end however the stream is cut: at every
// single split point, and byte by byte.
func TestCounter(t *testing.T) {
	req := "GET / HTTP/1.1\r\nHost: x\r\n\r\n"
	streams := []string{
		req,
		strings.Repeat(req, 16),
		"GET / HTTP/1.1\r\n\r\n\r\n\r\n", // an empty line after a request: 1 end, then a partial "\r\n"
		"GET /\r\n\r\r\n\r\nGET /\n\r\n\r\n\r\r\n\r\n", // stray CRs and LFs
	}
	for _, s := range streams {
		want := strings.Count(s, "\r\n\r\n")
		for cut := 0; cut <= len(s); cut++ {
			var c Counter
			if got := c.Feed([]byte(s[:cut])) + c.Feed([]byte(s[cut:])); got != want {
				t.Errorf("%q cut at %d: %d request ends, want %d", s, cut, got, want)
			}
		}
		var c Counter
		got := 0
		for i := range len(s) {
			got += c.Feed([]byte{s[i]})
		}
		if got != want {
			t.Errorf("%q byte by byte: %d request ends, want %d", s, got, want)
		}
	}
}

// Both canned responses are valid HTTP/1.1 as net/http reads them.
func TestResponse(t *testing.T) {
	for _, c := range []struct {
		kind, body string
		chunked    bool
	}{
		{Length, Body, false},
		{Chunked, strings.Repeat(Body, ChunkCount), true},
	} {
		raw, err := Response(c.kind)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(raw)), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.kind, err)
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != 200 || string(body) != c.body {
			t.Errorf("%s: status %d, body %q, %v; want 200, %q", c.kind, resp.StatusCode, body, err, c.body)
		}
		if got := len(resp.TransferEncoding) == 1 && resp.TransferEncoding[0] == "chunked"; got != c.chunked {
			t.Errorf("%s: Transfer-Encoding %v", c.kind, resp.TransferEncoding)
		}
	}
	if raw, _ := Response(Chunked); strings.Count(string(raw), "\r\nd\r\nHello, World!") != ChunkCount {
		t.Errorf("chunked response has not %d chunks of 13 bytes:\n%s", ChunkCount, raw)
	}
	if _, err := Response("gzip"); err == nil || err.Error() != `unknown server kind "gzip" (known: length, chunked)` {
		t.Errorf("Response(gzip): %v", err)
	}
}

// The server answers pipelined requests, cut anywhere across writes, with
// one response each, in order, and stops when its stop descriptor becomes
// readable.
func TestServe(t *testing.T) {
	addr, served, stop := startServe(t, Chunked)
	stopped := false
	defer func() {
		if !stopped {
			stop()
			<-served
		}
	}()

	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	reqs := strings.Repeat("GET / HTTP/1.1\r\nHost: x\r\n\r\n", 3)
	// Cut inside the second request's "\r\n\r\n".
	cut := strings.Index(reqs[30:], "\r\n\r\n") + 30 + 2
	for _, part := range []string{reqs[:cut], reqs[cut:]} {
		if _, err := io.WriteString(c, part); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	br := bufio.NewReader(c)
	for i := range 3 {
		r, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("response %d: %v", i+1, err)
		}
		body, err := io.ReadAll(r.Body)
		if err != nil || string(body) != strings.Repeat(Body, ChunkCount) {
			t.Fatalf("response %d: body %q, %v", i+1, body, err)
		}
	}
	if n := br.Buffered(); n != 0 {
		t.Errorf("%d bytes after 3 responses to 3 requests, want 0", n)
	}
	stop()
	stopped = true
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve after stop: %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return within 5 s of stop")
	}
}

// A client that sends far more pipelined requests than the sockets' buffers
// hold in responses, and reads only later, still gets every response in
// order: the server keeps what the socket did not take, waits until it can
// write (EPOLLOUT on Linux, EVFILT_WRITE on macOS) and then reads again.
func TestServeBackpressure(t *testing.T) {
	addr, served, stop := startServe(t, Length)
	defer func() {
		stop()
		if err := <-served; err != nil {
			t.Errorf("Serve after stop: %v, want nil", err)
		}
	}()

	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	const n = 100_000 // 12 MB of responses, 2.7 MB of requests
	wrote := make(chan error, 1)
	go func() {
		_, err := io.WriteString(c, strings.Repeat("GET / HTTP/1.1\r\nHost: x\r\n\r\n", n))
		wrote <- err
	}()
	time.Sleep(100 * time.Millisecond) // let the server meet a full socket
	br := bufio.NewReaderSize(c, 64<<10)
	for i := range n {
		r, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("response %d of %d: %v", i+1, n, err)
		}
		if body, err := io.ReadAll(r.Body); err != nil || string(body) != Body {
			t.Fatalf("response %d of %d: body %q, %v", i+1, n, body, err)
		}
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	if left := br.Buffered(); left != 0 {
		t.Errorf("%d bytes after %d responses, want 0", left, n)
	}
}

// startServe runs Serve with server kind kind on a fresh listener: its
// address, the channel Serve's result arrives on, and stop, which closes
// the control pipe (Serve then returns).
func startServe(t *testing.T, kind string) (addr string, served <-chan error, stop func()) {
	addr, served, stop, _ = startCounting(t, kind)
	return addr, served, stop
}

// startCounting is startServe plus count, which asks Serve for its count
// over the control pipe and reads the answer line (within 5 s).
func startCounting(t *testing.T, kind string) (addr string, served <-chan error, stop func(), count func() int64) {
	t.Helper()
	resp, err := Response(kind)
	if err != nil {
		t.Fatal(err)
	}
	lfd, addr, err := Listen(0)
	if err != nil {
		t.Fatal(err)
	}
	ctlR, ctlW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	replyR, replyW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ctlR.Close(); replyR.Close(); replyW.Close() })
	done := make(chan error, 1)
	go func() { done <- Serve(lfd, int(ctlR.Fd()), replyW, resp) }()
	replies := bufio.NewReader(replyR)
	count = func() int64 {
		t.Helper()
		if _, err := io.WriteString(ctlW, "count\n"); err != nil {
			t.Fatal(err)
		}
		replyR.SetReadDeadline(time.Now().Add(5 * time.Second))
		line, err := replies.ReadString('\n')
		if err != nil {
			t.Fatalf("count: %v", err)
		}
		n, err := strconv.ParseInt(strings.TrimSuffix(line, "\n"), 10, 64)
		if err != nil {
			t.Fatalf("count: answer %q: %v", line, err)
		}
		return n
	}
	return addr, done, func() { ctlW.Close() }, count
}

// The server counts every response it writes, exactly: K pipelined
// requests over a few connections, each connection's requests cut at
// random across writes, give a count of K once the clients have read
// their responses and closed, and 0 before; a count asked for while a
// client's last requests are still unread is answered once they are
// answered (the server waits for quiet), so it counts them too.
func TestServeCounts(t *testing.T) {
	for _, kind := range Kinds {
		t.Run(kind, func(t *testing.T) {
			addr, served, stop, count := startCounting(t, kind)
			defer func() {
				stop()
				if err := <-served; err != nil {
					t.Errorf("Serve after stop: %v, want nil", err)
				}
			}()
			if n := count(); n != 0 {
				t.Fatalf("count before any request: %d, want 0", n)
			}
			resp, _ := Response(kind)
			req := "GET / HTTP/1.1\r\nHost: x\r\n\r\n"
			perConn := []int{1, 16, 1000, 4097, 20000} // K = 25,114
			var wg sync.WaitGroup
			errs := make(chan error, len(perConn))
			for _, k := range perConn {
				wg.Go(func() {
					c, err := net.Dial("tcp", addr)
					if err != nil {
						errs <- err
						return
					}
					defer c.Close()
					c.SetDeadline(time.Now().Add(10 * time.Second))
					all := strings.Repeat(req, k)
					rng := rand.New(rand.NewPCG(uint64(k), 2))
					go func() {
						for rest := all; len(rest) > 0; {
							n := min(len(rest), 1+rng.IntN(3*len(req)))
							if _, err := io.WriteString(c, rest[:n]); err != nil {
								return
							}
							rest = rest[n:]
						}
					}()
					if _, err := io.ReadFull(c, make([]byte, k*len(resp))); err != nil {
						errs <- fmt.Errorf("%d responses: %w", k, err)
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			want := int64(0)
			for _, k := range perConn {
				want += int64(k)
			}
			if n := count(); n != want {
				t.Errorf("count after %d requests: %d, want %d", want, n, want)
			}

			// Requests a client sent but never read the answers of, and
			// a close: the count waits until the server has answered
			// them (10: their answers fit the socket at once, so the
			// client's reset cannot fail a second write).
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.WriteString(c, strings.Repeat(req, 10)); err != nil {
				t.Fatal(err)
			}
			c.Close()
			if n := count(); n != want+10 {
				t.Errorf("count after 10 more unread: %d, want %d", n, want+10)
			}
		})
	}
}

package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// flushRecorder is a ResponseWriter that keeps, per Flush, the bytes
// written since the one before.
type flushRecorder struct {
	*httptest.ResponseRecorder
	flushes []string
	pending strings.Builder
}

func (f *flushRecorder) Write(b []byte) (int, error) {
	f.pending.Write(b)
	return f.ResponseRecorder.Write(b)
}

func (f *flushRecorder) Flush() {
	f.flushes = append(f.flushes, f.pending.String())
	f.pending.Reset()
	f.ResponseRecorder.Flush()
}

// partWant is part k of a stream page of n rows in parts parts as the
// test database holds it (randomNumber = id).
func partWant(k, n, parts int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<table class="part" data-part="%d"><tbody>`, k)
	for id := k*n/parts + 1; id <= (k+1)*n/parts; id++ {
		fmt.Fprintf(&b, `<tr class="row" data-id="%d"><td class="id">%d</td><td class="num">%d</td></tr>`, id, id, id)
	}
	return b.String() + `</tbody></table>`
}

// TestStreamFlushes: /stream writes the shell (a fallback per part, no row)
// and flushes, then each part's table, one flush each, parts clamped by
// the contract (1..16, 4 when not a number, at most the rows).
func TestStreamFlushes(t *testing.T) {
	_, a, _ := start(t)
	for _, tc := range []struct {
		q        string
		n, parts int
	}{
		{"rows=10&parts=4", 10, 4}, {"rows=1000&parts=3", 1000, 3}, {"rows=3&parts=4", 3, 3}, {"rows=10", 10, 4},
		{"rows=10&parts=foo", 10, 4}, {"rows=10&parts=0", 10, 1}, {"rows=100&parts=17", 100, 16}, {"rows=foo&parts=2", 1, 1},
	} {
		w := &flushRecorder{ResponseRecorder: httptest.NewRecorder()}
		a.handler().ServeHTTP(w, httptest.NewRequest("GET", "/stream?"+tc.q, nil))
		if w.Code != 200 || w.Header().Get("Content-Type") != "text/html; charset=utf-8" || w.Header().Get("Server") != "go-stdlib" {
			t.Fatalf("%s: status %d, headers %v", tc.q, w.Code, w.Header())
		}
		if len(w.flushes) != tc.parts+1 {
			t.Fatalf("%s: %d flushes, want %d (the shell, then each part)", tc.q, len(w.flushes), tc.parts+1)
		}
		shell := w.flushes[0]
		if strings.Contains(shell, "<tr") || strings.Count(shell, `class="fallback"`) != tc.parts || !strings.HasPrefix(shell, "<!DOCTYPE html>") {
			t.Errorf("%s: shell %q, want the layout and %d fallbacks, no row", tc.q, shell, tc.parts)
		}
		for k := range tc.parts {
			want := partWant(k, tc.n, tc.parts)
			if k == tc.parts-1 {
				want += "</body></html>"
			}
			if w.flushes[k+1] != want {
				t.Errorf("%s: flush %d\n got %.300s\nwant %.300s", tc.q, k+1, w.flushes[k+1], want)
			}
		}
	}
}

// TestStreamShellFirst: over a real connection the shell arrives while no
// part can read the database (the read gate held full), the parts once it
// is released; the page is chunked, without Content-Length.
func TestStreamShellFirst(t *testing.T) {
	srv, a, _ := start(t)
	for range cap(a.readGate) {
		a.readGate <- struct{}{}
	}
	released := false
	release := func() {
		if !released {
			released = true
			for range cap(a.readGate) {
				a.readGate.leave()
			}
		}
	}
	defer release()
	resp, err := srv.Client().Get(srv.URL + "/stream?rows=100&parts=4")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.ContentLength != -1 || len(resp.TransferEncoding) != 1 || resp.TransferEncoding[0] != "chunked" {
		t.Errorf("Content-Length %d, Transfer-Encoding %v; want none and chunked", resp.ContentLength, resp.TransferEncoding)
	}
	br := bufio.NewReader(resp.Body)
	var shell strings.Builder
	for !strings.HasSuffix(shell.String(), `<p class="fallback">Loading part 3</p></div>`) {
		b, err := br.ReadByte()
		if err != nil {
			t.Fatalf("shell so far %q: %v", shell.String(), err)
		}
		shell.WriteByte(b)
	}
	if br.Buffered() > 0 {
		t.Errorf("%d bytes after the shell before any part could be read", br.Buffered())
	}
	got := make(chan []byte, 1)
	go func() {
		first := make([]byte, 64<<10)
		n, _ := br.Read(first) // returns with the first bytes that arrive
		rest, _ := io.ReadAll(br)
		got <- append(first[:n], rest...)
	}()
	select {
	case b := <-got:
		t.Fatalf("%.200q arrived while the database was held", b)
	case <-time.After(50 * time.Millisecond): // a part that ignored the gate would arrive now
	}
	release()
	rest := <-got
	want := partWant(0, 100, 4) + partWant(1, 100, 4) + partWant(2, 100, 4) + partWant(3, 100, 4) + "</body></html>"
	if string(rest) != want {
		t.Errorf("after the shell\n got %.300s\nwant %.300s", rest, want)
	}
}

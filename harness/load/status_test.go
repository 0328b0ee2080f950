package load

import (
	"fmt"
	"strings"
	"testing"
)

// A connection's first status error quotes the first 200 body bytes of its
// response (decoded, white space around them trimmed), and says how long
// the body was when it was longer; an empty or blank body adds nothing.
func TestStatusExample(t *testing.T) {
	long := strings.Repeat("0123456789", 30) // 300 bytes
	cases := []struct {
		name, responses, want string
	}{
		{"sqlite busy, chunked",
			"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok" +
				"HTTP/1.1 500 Internal Server Error\r\nTransfer-Encoding: chunked\r\n\r\n13\r\ndatabase is locked \r\n12\r\n(5) (SQLITE_BUSY)\n\r\n0\r\n\r\n",
			`status 500 for GET /plaintext: "database is locked (5) (SQLITE_BUSY)"`},
		{"empty body", "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n", "status 503 for GET /plaintext"},
		{"blank body", "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 4\r\n\r\n\r\n \t", "status 502 for GET /plaintext"},
		{"no body", "HTTP/1.1 304 Not Modified\r\n\r\n", "status 304 for GET /plaintext"},
		{"long body", fmt.Sprintf("HTTP/1.1 500 Oops\r\nContent-Length: %d\r\n\r\n%s", len(long), long),
			fmt.Sprintf("status 500 for GET /plaintext: %q (first 200 of 300 bytes)", long[:200])},
		{"binary body", "HTTP/1.1 500 Oops\r\nContent-Length: 4\r\n\r\n\x00\xff\"x",
			`status 500 for GET /plaintext: "\x00\xff\"x"`},
		{"first of two", "HTTP/1.1 500 Oops\r\nContent-Length: 5\r\n\r\nfirst" + "HTTP/1.1 404 Not Found\r\nContent-Length: 6\r\n\r\nsecond",
			`status 500 for GET /plaintext: "first"`},
	}
	for _, c := range cases {
		n := strings.Count(c.responses, "HTTP/1.1 ")
		k := fakeRoundData(t, n, []byte(c.responses))
		if !k.round() {
			t.Fatalf("%s: round ended the run", c.name)
		}
		if got := k.tally.example[classIndex(Status)]; got != c.want {
			t.Errorf("%s: example %q, want %q", c.name, got, c.want)
		}
	}
}

// Once a connection has its status example, non-2xx responses cost no
// allocation and no copy: the parser stops keeping their first bytes.
func TestStatusErrorsDoNotAllocate(t *testing.T) {
	busy := "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 36\r\n\r\ndatabase is locked (5) (SQLITE_BUSY)"
	k := fakeRoundData(t, 16, []byte(strings.Repeat(busy, 16)))
	for range 1000 { // the example, and the histogram's buckets
		k.round()
	}
	if k.parse.wantSnip || k.parse.snipping {
		t.Errorf("after the first status error: wantSnip %v, snipping %v; want both false", k.parse.wantSnip, k.parse.snipping)
	}
	allocs := testing.AllocsPerRun(1000, func() { k.round() })
	if allocs != 0 {
		t.Errorf("%.1f allocations per round of 16 status errors, want 0", allocs)
	}
	tl := &k.tally
	if n := tl.responses; n != 2001*16 || tl.errors[classIndex(Status)] != n || tl.other[500] != n || tl.bodyBytes != 36*n {
		t.Errorf("%d responses, %d status errors, %d 500s, %d body bytes; want %d each, 36 bytes a body", n, tl.errors[classIndex(Status)], tl.other[500], tl.bodyBytes, 2001*16)
	}
	if want := `status 500 for GET /plaintext: "database is locked (5) (SQLITE_BUSY)"`; tl.example[classIndex(Status)] != want {
		t.Errorf("example %q, want %q", tl.example[classIndex(Status)], want)
	}
}

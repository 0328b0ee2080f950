package verify

import (
	"maps"
	"net/http"
	"slices"
	"testing"
)

func TestHeaderValue(t *testing.T) {
	head := []byte("server: tfb\r\nDate:Sun, 29 Nov 2026 19:00:00 GMT\r\n" +
		"Content-Type: \t text/plain \t\r\nX-Empty:\r\nX-Cache : HIT\r\n" +
		"x-two: a\r\nX-Two: b\r\nX-Folded: a\r\n b\r\n: no name\r\nBare: lf\nLast: no end")
	cases := []struct {
		name, want string
		ok         bool
	}{
		{"Server", "tfb", true},
		{"SERVER", "tfb", true},
		{"date", "Sun, 29 Nov 2026 19:00:00 GMT", true},
		{"Content-Type", "text/plain", true},
		{"X-Empty", "", true},
		{"X-Cache", "", false}, // white space before the colon: another name
		{"X-Two", "a", true},   // the first of two
		{"X-Folded", "a", true},
		{"Bare", "lf", true},
		{"Last", "no end", true},
		{"Content-Length", "", false},
		{"Serve", "", false},
		{"", "", false},
	}
	for _, c := range cases {
		v, ok := HeaderValue(head, c.name)
		if string(v) != c.want || ok != c.ok {
			t.Errorf("HeaderValue(%q) = %q, %v; want %q, %v", c.name, v, ok, c.want, c.ok)
		}
	}
	if v, ok := HeaderValue(nil, "Server"); v != nil || ok {
		t.Errorf("empty head: %q, %v", v, ok)
	}
	if allocs := testing.AllocsPerRun(100, func() { HeaderValue(head, "content-type") }); allocs != 0 {
		t.Errorf("HeaderValue allocates %.0f times, want 0", allocs)
	}
}

// rawHead renders h as a raw header section (HeaderValue's form), keys in
// sorted order.
func rawHead(h http.Header) []byte {
	var b []byte
	for _, k := range slices.Sorted(maps.Keys(h)) {
		for _, v := range h[k] {
			b = append(b, k+": "+v+"\r\n"...)
		}
	}
	return b
}

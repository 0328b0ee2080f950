package load

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// Page tests return bodies of 1–3 MB: a 2 MiB body passes its check with
// MaxCheckBytes 4 MiB, whole, and fails without a call under the default
// 1 MiB, in both modes.
func TestRunMaxCheckBytes(t *testing.T) {
	if raceEnabled {
		t.Skip("times the generator at full speed, which the race detector takes away")
	}
	body := strings.Repeat("p", 2<<20)
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) })
	for _, rate := range []float64{0, 10} {
		for _, max := range []int{0, 4 << 20} {
			var mu sync.Mutex
			var sizes []int
			o := Options{Addr: s.addr(), Path: "/ssr?rows=10000", Connections: 1, Rate: rate, Duration: 500 * time.Millisecond, Timeout: 2 * time.Second,
				CheckEvery: 1, MaxCheckBytes: max, Check: func(status int, h, b []byte) error {
					mu.Lock()
					defer mu.Unlock()
					if len(b) != len(body) {
						t.Errorf("Check got %d body bytes, want %d", len(b), len(body))
					}
					sizes = append(sizes, len(b))
					return nil
				}}
			r := run(t, o)
			if r.Responses == 0 || r.Checked != r.Responses {
				t.Fatalf("rate %v, MaxCheckBytes %d: %d responses, %d checked; want > 0, all", rate, max, r.Responses, r.Checked)
			}
			if max == 0 {
				want := "check GET /ssr?rows=10000: response 1 on its connection: body 2097152 bytes, over the 1 MiB kept for a check"
				if r.Errors[Check] != r.Checked || r.Examples[Check] != want || len(sizes) != 0 {
					t.Errorf("rate %v, default cap: %d check errors of %d, example %q, Check called %d times; want all, %q, 0",
						rate, r.Errors[Check], r.Checked, r.Examples[Check], len(sizes), want)
				}
			} else if r.Errors[Check] != 0 || int64(len(sizes)) != r.Checked {
				t.Errorf("rate %v, MaxCheckBytes 4 MiB: %d check errors (%q), Check called %d times for %d checked; want 0, every one",
					rate, r.Errors[Check], r.Examples[Check], len(sizes), r.Checked)
			}
		}
	}
}

// A cap that is not whole MiB is named in bytes.
func TestSizeText(t *testing.T) {
	for n, want := range map[int]string{1 << 20: "1 MiB", 16 << 20: "16 MiB", 1_500_000: "1500000 bytes"} {
		if got := sizeText(n); got != want {
			t.Errorf("sizeText(%d) = %q, want %q", n, got, want)
		}
	}
}

package verify

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
)

// cacheServer serves /isr: the first request (and, with missEvery > 0,
// every missEvery-th) renders and answers "x-cache: MISS", the others
// "x-cache: hit"; /renders counts the renders as {"/isr": N}.
func cacheServer(t *testing.T, missEvery int64) *httptest.Server {
	var n, renders atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/isr", func(w http.ResponseWriter, r *http.Request) {
		i := n.Add(1)
		if i == 1 || missEvery > 0 && i%missEvery == 0 {
			renders.Add(1)
			w.Header().Set("X-Cache", "MISS")
		} else {
			w.Header().Set("X-Cache", "hit")
		}
		w.Write([]byte("<table></table>"))
	})
	mux.HandleFunc("/renders", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"/isr":%d}`, renders.Load())
	})
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

func TestCacheHit(t *testing.T) {
	ctx := t.Context()
	for _, tc := range []struct {
		name         string
		missEvery    int64
		header, want string
		err          string
	}{
		{"header, all hits", 0, "x-cache", "HIT", ""},
		{"render counts, all hits", 0, "", "", ""},
		{"header, a miss", 4, "x-cache", "HIT", `GET /isr?rows=10: request 3 after the first has x-cache "MISS", want "HIT" (a cache hit)`},
		{"render counts, a miss", 4, "", "", "1 renders of /isr for 5 requests after the first to /isr?rows=10 (BASE/renders): a cache hit renders nothing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := cacheServer(t, tc.missEvery)
			err := CacheHit(ctx, s.URL, "/renders", tc.header, tc.want, model.Page, "/isr?rows=10")
			want := strings.ReplaceAll(tc.err, "BASE", s.URL)
			if got := fmt.Sprint(err); tc.err == "" && err != nil || tc.err != "" && got != want {
				t.Errorf("error %v, want %q", err, want)
			}
		})
	}
}

func TestHitCounter(t *testing.T) {
	h := &HitCounter{Header: "x-nextjs-cache", Value: "HIT"}
	failing := func(int, []byte, []byte) error { return fmt.Errorf("bad rows") }
	hit := []byte("Server: x\r\nx-nextjs-cache: STALE\r\nX-Nextjs-Cache:  hit \r\n")
	miss := []byte("X-Nextjs-Cache: STALE\r\nX-Cache: HIT\r\n")
	if err := h.Wrap(nil)(200, hit, nil); err != nil {
		t.Errorf("hit: %v", err)
	}
	if err := h.Wrap(nil)(200, miss, nil); err != nil {
		t.Errorf("a miss is not a check failure: %v", err)
	}
	if err := h.Wrap(failing)(200, nil, nil); fmt.Sprint(err) != "bad rows" {
		t.Errorf("the wrapped check's error: %v", err)
	}
	if checked, misses := h.Counts(); checked != 3 || misses != 2 {
		t.Errorf("checked %d, misses %d; want 3 and 2", checked, misses)
	}
}

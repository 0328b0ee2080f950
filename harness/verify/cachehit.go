package verify

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/tfbench/tfbench/harness/model"
)

// CacheHitRequests is how many requests after the first CacheHit wants
// served from the cache.
const CacheHitRequests = 5

// CacheHit checks that path is served from the cache (docs/ssr.md): after
// one GET, CacheHitRequests more must carry header with value (any case),
// or with header "" not render (countsPath). Errors name path and findings.
func CacheHit(ctx context.Context, base, countsPath, header, value string, t model.TestType, path string) error {
	c := newClient()
	defer c.CloseIdleConnections()
	if _, err := get(ctx, c, base, t, path); err != nil {
		return err
	}
	var before map[string]int64
	var err error
	if header == "" {
		if before, err = RenderCounts(ctx, c, base, countsPath); err != nil {
			return err
		}
	}
	for i := range CacheHitRequests {
		f, err := get(ctx, c, base, t, path)
		if err != nil {
			return err
		}
		if f.status != http.StatusOK {
			return fmt.Errorf("GET %s: status %d, want 200", path, f.status)
		}
		if header != "" && !HitHeader(f.header, header, value) {
			return fmt.Errorf("GET %s: request %d after the first has %s %q, want %q (a cache hit)", path, i+1, header, f.header.Get(header), value)
		}
	}
	if header != "" {
		return nil
	}
	after, err := RenderCounts(ctx, c, base, countsPath)
	if err != nil {
		return err
	}
	route := RoutePath(path)
	if got := after[route] - before[route]; got != 0 {
		return fmt.Errorf("%d renders of %s for %d requests after the first to %s (%s): a cache hit renders nothing",
			got, route, CacheHitRequests, path, strings.TrimSuffix(base, "/")+countsPath)
	}
	return nil
}

// HitHeader reports whether h carries header with value, both compared
// without regard to case (http.Header keys are canonical).
func HitHeader(h http.Header, header, value string) bool {
	for _, v := range h.Values(header) {
		if strings.EqualFold(strings.TrimSpace(v), value) {
			return true
		}
	}
	return false
}

// HitCounter counts, under load, the checked responses of a cache-hit test
// and those without the hit header (Header: Value). Its Wrap is safe for
// concurrent use, as load.Options.Check must be.
type HitCounter struct {
	Header, Value   string
	checked, misses atomic.Int64
}

// Wrap returns check (nil: none) with every call also counted, a response
// without the header as a miss; a miss is not a check failure: the gate
// judges the counts (model.CacheHits).
func (h *HitCounter) Wrap(check func(status int, head, body []byte) error) func(status int, head, body []byte) error {
	return func(status int, head, body []byte) error {
		h.checked.Add(1)
		if !hitIn(head, h.Header, h.Value) {
			h.misses.Add(1)
		}
		if check == nil {
			return nil
		}
		return check(status, head, body)
	}
}

// hitIn is HitHeader on a raw header section (HeaderValue's form), values
// compared without regard to ASCII case.
func hitIn(head []byte, header, value string) bool {
	for rest := head; ; {
		var v []byte
		var ok bool
		if v, rest, ok = nextHeader(rest, header); !ok {
			return false
		}
		if equalFoldASCII(v, value) {
			return true
		}
	}
}

// Counts returns the responses checked so far and the misses among them.
func (h *HitCounter) Counts() (checked, misses int64) { return h.checked.Load(), h.misses.Load() }

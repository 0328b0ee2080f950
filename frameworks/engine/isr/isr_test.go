package isr

import (
	"context"
	"errors"
	"log"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tfbench/tfbench/frameworks/engine/internal/logbuf"
)

// fakeClock is a settable clock for Config.Now.
type fakeClock struct{ ns atomic.Int64 }

func (f *fakeClock) now() time.Time          { return time.Unix(0, f.ns.Load()) }
func (f *fakeClock) advance(d time.Duration) { f.ns.Add(int64(d)) }

// counter renders "v1", "v2", ... and counts its renders; a non-nil gate
// makes every render wait for one receive from it.
type counter struct {
	n    atomic.Int64
	gate chan struct{}
	fail atomic.Bool
}

func (c *counter) render(context.Context) (Page, error) {
	n := c.n.Add(1)
	if c.gate != nil {
		<-c.gate
	}
	if c.fail.Load() {
		return Page{}, errors.New("boom")
	}
	return Page{Status: 200, ContentType: "text/html; charset=utf-8", Body: "v" + string(rune('0'+n))}, nil
}

func newCache(t *testing.T, cfg Config) *Cache {
	t.Helper()
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func get(t *testing.T, c *Cache, key string, r *counter) string {
	t.Helper()
	p, err := c.Get(context.Background(), key, 10*time.Second, r.render)
	if err != nil {
		t.Fatalf("Get(%s): %v", key, err)
	}
	return p.Body
}

// waitRenders waits until r has started n renders.
func waitRenders(t *testing.T, r *counter, n int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for r.n.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("renders = %d after 5s, want %d", r.n.Load(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// waitBody polls key (without advancing the clock) until it answers want.
func waitBody(t *testing.T, c *Cache, key string, r *counter, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if got := get(t, c, key, r); got == want {
			return
		} else if time.Now().After(deadline) {
			t.Fatalf("Get(%s) = %q after 5s, want %q", key, got, want)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestKey(t *testing.T) {
	for _, tc := range []struct{ path, raw, want string }{
		{"/page", "", "/page"},
		{"/page", "a=1&b=%20", "/page?a=1&b=%20"},
	} {
		if got := Key(tc.path, tc.raw); got != tc.want {
			t.Errorf("Key(%q, %q) = %q, want %q", tc.path, tc.raw, got, tc.want)
		}
	}
}

func TestFreshPageRendersOnce(t *testing.T) {
	clk := &fakeClock{}
	c := newCache(t, Config{Now: clk.now})
	r := &counter{}
	for i := range 5 {
		if got := get(t, c, "/page", r); got != "v1" {
			t.Fatalf("Get #%d = %q, want v1", i, got)
		}
		clk.advance(time.Second) // 4 s in total, revalidate is 10 s
	}
	if n := r.n.Load(); n != 1 {
		t.Errorf("renders = %d, want 1", n)
	}
	// Another query string is another page.
	if got := get(t, c, Key("/page", "a=1"), r); got != "v2" {
		t.Errorf("Get(/page?a=1) = %q, want v2", got)
	}
}

func TestConcurrentMissRendersOnce(t *testing.T) {
	c := newCache(t, Config{Now: (&fakeClock{}).now})
	r := &counter{gate: make(chan struct{})}
	var wg sync.WaitGroup
	bodies := make([]string, 8)
	for i := range bodies {
		wg.Go(func() { bodies[i] = get(t, c, "/page", r) })
	}
	// Release the one render; Gets that came before wait for it, later ones hit.
	waitRenders(t, r, 1)
	close(r.gate)
	wg.Wait()
	for i, b := range bodies {
		if b != "v1" {
			t.Errorf("Get #%d = %q, want v1", i, b)
		}
	}
	if n := r.n.Load(); n != 1 {
		t.Errorf("renders = %d, want 1", n)
	}
}

func TestStaleServedWhileOneRefreshRuns(t *testing.T) {
	clk := &fakeClock{}
	c := newCache(t, Config{Now: clk.now})
	r := &counter{}
	if got := get(t, c, "/page", r); got != "v1" {
		t.Fatalf("first Get = %q, want v1", got)
	}
	r.gate = make(chan struct{}) // the refresh waits until released
	clk.advance(10*time.Second + time.Nanosecond)
	if got := get(t, c, "/page", r); got != "v1" {
		t.Fatalf("first stale Get = %q, want v1 (stale while revalidating)", got)
	}
	waitRenders(t, r, 2) // the background refresh has started and waits
	for i := range 20 {
		if got := get(t, c, "/page", r); got != "v1" {
			t.Fatalf("stale Get #%d = %q, want v1 (stale while revalidating)", i, got)
		}
	}
	if n := r.n.Load(); n != 2 {
		t.Fatalf("renders during refresh = %d, want 2 (first render + one refresh)", n)
	}
	close(r.gate)
	waitBody(t, c, "/page", r, "v2")
	if n := r.n.Load(); n != 2 {
		t.Errorf("renders after refresh = %d, want 2", n)
	}
	// v2 is fresh for another 10 s.
	clk.advance(9 * time.Second)
	if got := get(t, c, "/page", r); got != "v2" || r.n.Load() != 2 {
		t.Errorf("Get 9 s after refresh = %q with %d renders, want v2 with 2", got, r.n.Load())
	}
}

func TestFailedRefreshKeepsStalePage(t *testing.T) {
	clk := &fakeClock{}
	var logs logbuf.Buffer
	c := newCache(t, Config{Now: clk.now, Log: log.New(&logs, "", 0)})
	r := &counter{}
	get(t, c, "/page", r)
	r.fail.Store(true)
	clk.advance(11 * time.Second)
	if got := get(t, c, "/page", r); got != "v1" {
		t.Fatalf("stale Get = %q, want v1", got)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(logs.String(), "refresh /page: boom") {
		if time.Now().After(deadline) {
			t.Fatalf("log = %q, want the failed refresh of /page", logs.String())
		}
		time.Sleep(time.Millisecond)
	}
	want := "isr: Returned an error during the refreshing: refresh /page: boom\n"
	if got := logs.String(); got != want {
		t.Errorf("log = %q, want %q", got, want)
	}
	// The stale page stays, and the next request tries again.
	r.fail.Store(false)
	waitBody(t, c, "/page", r, "v3")
	if n := r.n.Load(); n != 3 {
		t.Errorf("renders = %d, want 3 (render, failed refresh, refresh)", n)
	}
}

func TestFirstRenderErrorIsNotCached(t *testing.T) {
	c := newCache(t, Config{Now: (&fakeClock{}).now})
	r := &counter{}
	r.fail.Store(true)
	if _, err := c.Get(context.Background(), "/page", time.Second, r.render); err == nil || err.Error() != "boom" {
		t.Fatalf("Get error = %v, want boom", err)
	}
	r.fail.Store(false)
	if got := get(t, c, "/page", r); got != "v2" {
		t.Errorf("Get after error = %q, want v2 (rendered again)", got)
	}
}

func TestByteBound(t *testing.T) {
	const pageWeight = 1024
	c := newCache(t, Config{MaxBytes: 4 * pageWeight, Now: (&fakeClock{}).now})
	ct := "text/plain"
	page := func(key string) RenderFunc {
		return func(context.Context) (Page, error) {
			return Page{Status: 200, ContentType: ct, Body: strings.Repeat("x", pageWeight-entryOverhead-len(key)-len(ct))}, nil
		}
	}
	if _, err := c.Get(context.Background(), "/p00", time.Minute, page("/p00")); err != nil {
		t.Fatal(err)
	}
	c.c.CleanUp()
	if got := c.Bytes(); got != pageWeight {
		t.Fatalf("Bytes after one page = %d, want %d", got, pageWeight)
	}
	for i := range 20 {
		key := "/p" + string(rune('a'+i)) + "0"
		if _, err := c.Get(context.Background(), key, time.Minute, page(key)); err != nil {
			t.Fatal(err)
		}
	}
	c.c.CleanUp()
	if got, n := c.Bytes(), c.c.EstimatedSize(); got > 4*pageWeight || got != uint64(n)*pageWeight {
		t.Errorf("Bytes after 21 pages = %d for %d pages, want at most %d, %d per page", got, n, 4*pageWeight, pageWeight)
	}

	// A page heavier than the bound is never kept: every Get renders.
	big := &counter{}
	bigRender := func(ctx context.Context) (Page, error) {
		big.n.Add(1)
		return Page{Status: 200, Body: strings.Repeat("y", 5*pageWeight)}, nil
	}
	for range 2 {
		if _, err := c.Get(context.Background(), "/big", time.Minute, bigRender); err != nil {
			t.Fatal(err)
		}
		c.c.CleanUp()
	}
	if n := big.n.Load(); n != 2 {
		t.Errorf("renders of a page over the bound = %d, want 2", n)
	}
}

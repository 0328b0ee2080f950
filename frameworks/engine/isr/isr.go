// Package isr is the render engine's incremental static regeneration cache:
// rendered responses of routes that export
// `revalidate = seconds`, kept in memory under a byte bound and refreshed in
// the background after they go stale (stale-while-revalidate).
//
// A page is fresh for its route's revalidate duration after its render. A
// request for a stale page is answered with the stale page at once and
// starts one background render of the same key; requests that arrive while
// it runs get the stale page too and start nothing. When the refresh
// succeeds its page replaces the stale one; when it fails the stale page
// stays (and is retried by the next request) and the error is logged. Pages
// never expire by age alone: only the byte bound evicts them (W-TinyLFU,
// github.com/maypok86/otter/v2).
//
// The TFB routes export no revalidate and never pass through this cache
// (the harness requires renders = requests for the TFB tests).
package isr

import (
	"context"
	"fmt"
	"log"
	"math"
	"time"

	"github.com/maypok86/otter/v2"
)

// DefaultMaxBytes is the byte bound of a Cache whose Config.MaxBytes is 0:
// 64 MiB of page weight (see Cache.Bytes).
const DefaultMaxBytes = 64 << 20

// entryOverhead is the bytes a page costs beyond its key, content type and
// body: the Page and entry structs, two string headers and otter's node, a
// round estimate for amd64.
const entryOverhead = 128

// Page is one rendered response as the cache keeps it.
type Page struct {
	// Status is the HTTP status code the render chose, e.g. 200.
	Status int
	// ContentType is the Content-Type header value, e.g.
	// "text/html; charset=utf-8".
	ContentType string
	// Body is the response body.
	Body string
}

// RenderFunc renders the page of one key. ctx is the request's context for
// the first render of a key and a context without cancellation
// (context.WithoutCancel of the triggering request's) for a background
// refresh. An error is returned to the caller of Get for a first render (and
// nothing is cached), or logged for a refresh (and the stale page stays).
type RenderFunc func(ctx context.Context) (Page, error)

// Config configures New.
type Config struct {
	// MaxBytes bounds the summed weight of cached pages in bytes (key,
	// content type, body and a fixed per-page overhead); 0 means
	// DefaultMaxBytes. The bound is kept by eviction, which may lag a
	// write briefly (otter evicts on its maintenance pass).
	MaxBytes uint64
	// Now is the clock that decides freshness; nil means time.Now. Tests
	// pass a fake clock.
	Now func() time.Time
	// Log receives failed background refreshes as "isr: Returned an error
	// during the refreshing: refresh KEY: ERROR" (otter's message, then the
	// key); nil means log.Default().
	Log *log.Logger
}

// entry is a cached page with the revalidate duration of its route.
type entry struct {
	page       Page
	revalidate time.Duration
}

// Cache holds rendered pages keyed by Key(path, rawQuery). It is safe for
// concurrent use. Close stops its background goroutines.
type Cache struct {
	c *otter.Cache[string, entry]
}

// New returns an empty Cache. Errors: only otter's option validation, which
// the fixed options here do not fail.
func New(cfg Config) (*Cache, error) {
	maxBytes := cfg.MaxBytes
	if maxBytes == 0 {
		maxBytes = DefaultMaxBytes
	}
	logger := cfg.Log
	if logger == nil {
		logger = log.Default()
	}
	opts := &otter.Options[string, entry]{
		MaximumWeight: maxBytes,
		Weigher:       weigh,
		RefreshCalculator: otter.RefreshWritingFunc(func(e otter.Entry[string, entry]) time.Duration {
			return e.Value.revalidate
		}),
		Logger: otterLogger{logger},
	}
	if cfg.Now != nil {
		opts.Clock = clock{cfg.Now}
	}
	c, err := otter.New(opts)
	if err != nil {
		return nil, fmt.Errorf("isr: new cache: %w", err)
	}
	return &Cache{c: c}, nil
}

// Key is the cache key of a request: its URL path and raw query, so
// "/page?a=1" and "/page?a=2" are different pages and the query is not
// re-encoded ("/page" when rawQuery is empty).
func Key(path, rawQuery string) string {
	if rawQuery == "" {
		return path
	}
	return path + "?" + rawQuery
}

// Get returns the page of key. A fresh cached page is returned as is; a
// stale one (older than revalidate) is returned as is and one background
// render refreshes it; a missing one is rendered now by render, cached, and
// returned, with concurrent Gets of the same key waiting for that one
// render. revalidate must be > 0: it is how long the rendered page stays
// fresh. Errors: render's error for a missing page (nothing is cached).
func (c *Cache) Get(ctx context.Context, key string, revalidate time.Duration, render RenderFunc) (Page, error) {
	e, err := c.c.Get(ctx, key, loader{render: render, revalidate: revalidate})
	return e.page, err
}

// Bytes is the summed weight of the cached pages in bytes, as bounded by
// Config.MaxBytes.
func (c *Cache) Bytes() uint64 {
	return c.c.WeightedSize()
}

// Close stops the cache's background goroutines; pending refreshes finish
// on their own. Get must not be called after Close.
func (c *Cache) Close() {
	c.c.StopAllGoroutines()
}

// loader adapts a RenderFunc to otter's Loader for one Get.
type loader struct {
	render     RenderFunc
	revalidate time.Duration
}

// Load renders a missing page.
func (l loader) Load(ctx context.Context, _ string) (entry, error) {
	p, err := l.render(ctx)
	if err != nil {
		return entry{}, err
	}
	return entry{page: p, revalidate: l.revalidate}, nil
}

// Reload renders a stale page again; otter logs the error, which names the
// key, and keeps the stale page.
func (l loader) Reload(ctx context.Context, key string, _ entry) (entry, error) {
	e, err := l.Load(ctx, key)
	if err != nil {
		return entry{}, fmt.Errorf("refresh %s: %w", key, err)
	}
	return e, nil
}

// weigh is a page's weight in bytes: key, content type, body and
// entryOverhead, capped at math.MaxUint32.
func weigh(key string, e entry) uint32 {
	n := uint64(len(key)) + uint64(len(e.page.ContentType)) + uint64(len(e.page.Body)) + entryOverhead
	return uint32(min(n, math.MaxUint32))
}

// clock adapts Config.Now to otter.Clock. The cache has no expiry, so
// otter's periodic clean-up is not needed: Tick returns nil (no ticks).
type clock struct{ now func() time.Time }

// NowNano is now in Unix nanoseconds.
func (c clock) NowNano() int64 { return c.now().UnixNano() }

// Tick returns nil: no periodic clean-up.
func (clock) Tick(time.Duration) <-chan time.Time { return nil }

// otterLogger forwards otter's warnings and errors (failed refreshes, a
// panicking loader) to a log.Logger as "isr: MSG: ERR".
type otterLogger struct{ l *log.Logger }

// Warn logs a warning.
func (o otterLogger) Warn(_ context.Context, msg string, err error) {
	o.l.Printf("isr: %s: %v", msg, err)
}

// Error logs an error.
func (o otterLogger) Error(_ context.Context, msg string, err error) {
	o.l.Printf("isr: %s: %v", msg, err)
}

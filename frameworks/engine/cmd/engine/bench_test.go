package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tfbench/tfbench/frameworks/engine/bundle"
	"github.com/tfbench/tfbench/frameworks/engine/runtime"
	"github.com/tfbench/tfbench/frameworks/engine/server"
	"github.com/valyala/fasthttp"
)

// benchDataset is the dataset the harness generates (go tool task dataset);
// ENGINE_BENCH_DB overrides it.
const benchDataset = "../../../../.tfbench/dataset/tfb.db"

// BenchmarkApp serves the real app's six TFB routes and the page test's
// /ssr at 10, 1,000 and 10,000 rows (about 1 MB of HTML; and the 1,000-row
// ISR hit, /isr) through the master's
// handler and a one-isolate pool on a copy of the dataset, without the
// network: everything a request costs the engine except the socket. One op
// is one request; compare ns/op between builds (same machine, same run).
func BenchmarkApp(b *testing.B) {
	dbPath := benchDB(b)
	pool := onePool(b, "../../app", bundle.Options{}, dbPath)
	srv, err := server.New(server.Config{Renderer: poolRenderer{pool}, Busy: runtime.ErrBusy})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Close)
	for _, target := range []string{"/json", "/plaintext", "/db", "/queries?queries=20", "/fortunes", "/updates?queries=20", "/ssr?rows=10", "/ssr?rows=1000", "/ssr?rows=10000", "/isr?rows=1000"} {
		b.Run(target[1:], func(b *testing.B) {
			var ctx fasthttp.RequestCtx
			b.ReportAllocs()
			for b.Loop() {
				ctx.Request.Reset()
				ctx.Response.Reset()
				ctx.Request.SetRequestURI(target)
				srv.Handle(&ctx)
				if code := ctx.Response.StatusCode(); code != fasthttp.StatusOK {
					b.Fatalf("%s: status %d", target, code)
				}
			}
		})
	}
}

// benchDB copies the benchmark dataset (benchDataset, or ENGINE_BENCH_DB)
// into a temporary folder and returns the copy's path; it skips the
// benchmark when there is none.
func benchDB(b *testing.B) string {
	src := os.Getenv("ENGINE_BENCH_DB")
	if src == "" {
		src = benchDataset
	}
	data, err := os.ReadFile(src)
	if err != nil {
		b.Skipf("no dataset (run go tool task dataset, or set ENGINE_BENCH_DB): %v", err)
	}
	dbPath := filepath.Join(b.TempDir(), "tfb.db")
	if err := os.WriteFile(dbPath, data, 0o644); err != nil {
		b.Fatal(err)
	}
	return dbPath
}

// BenchmarkPageBytes renders pages with characters above U+00FF as byte
// strings (the default) and as text (bundle.Options.TwoBytePages, what the
// engine did before byte pages; README.md, Pages as byte strings): the
// real app's /fortunes (1.2 kB, three of 13 messages) and
// testdata/bytesapp's /page (90 kB, one em dash in 2,000 rows). In one
// process, interleaved in blocks: four one-isolate pools per page, made in
// the order bytes, text, text, bytes, the blocks' order rotated every round,
// since a pool's place alone moved its speed by ~15% here. It reports each
// side's µs per render and bytes/text (below 1: byte strings are cheaper).
func BenchmarkPageBytes(b *testing.B) {
	for _, bc := range []struct {
		name, app, path string
		block           int
	}{{"fortunes", "../../app", "/fortunes", 200}, {"page90kB", "testdata/bytesapp", "/page", 10}} {
		b.Run(bc.name, func(b *testing.B) { benchPageBytes(b, bc.app, bc.path, bc.block) })
	}
}

func benchPageBytes(b *testing.B, app, path string, block int) {
	dbPath := benchDB(b)
	opts := []bundle.Options{{}, {TwoBytePages: true}, {TwoBytePages: true}, {}}
	pools := make([]*runtime.Pool, len(opts))
	for i, o := range opts {
		pools[i] = onePool(b, app, o, dbPath)
	}
	route := -1
	for i, r := range pools[0].Routes() {
		if r.Path == path {
			route = i
		}
	}
	req := &runtime.Request{Method: "GET", Path: path}
	render := func(p *runtime.Pool, n int) time.Duration {
		start := time.Now()
		for range n {
			if _, err := p.Render(context.Background(), route, req); err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(start)
	}
	for _, p := range pools {
		render(p, 2*block)
	}
	var spent [2]time.Duration // bytes, text
	var renders [2]int
	round := 0
	for b.Loop() {
		for k := range pools {
			i := (k + round) % len(pools)
			side := 0
			if opts[i].TwoBytePages {
				side = 1
			}
			spent[side] += render(pools[i], block)
			renders[side] += block
		}
		round++
	}
	byteUs := float64(spent[0].Microseconds()) / float64(renders[0])
	textUs := float64(spent[1].Microseconds()) / float64(renders[1])
	b.ReportMetric(byteUs, "byte-µs/render")
	b.ReportMetric(textUs, "text-µs/render")
	b.ReportMetric(byteUs/textUs, "bytes/text")
}

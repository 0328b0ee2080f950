package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tfbench/tfbench/frameworks/engine/bundle"
	"github.com/tfbench/tfbench/frameworks/engine/runtime"
	"github.com/tfbench/tfbench/frameworks/engine/server"
	"github.com/valyala/fasthttp"
)

// benchDataset is the dataset the harness generates (go tool task dataset);
// ENGINE_BENCH_DB overrides it.
const benchDataset = "../../../../.tfbench/dataset/tfb.db"

// BenchmarkApp serves the real app's six TFB routes and the page test's
// 1,000-row /ssr (and its ISR hit, /isr) through the master's
// handler and a one-isolate pool on a copy of the dataset, without the
// network: everything a request costs the engine except the socket. One op
// is one request; compare ns/op between builds (same machine, same run).
func BenchmarkApp(b *testing.B) {
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
	bu, err := bundle.Build("../../app")
	if err != nil {
		b.Fatal(err)
	}
	pool, err := runtime.New(runtime.Config{Script: bu.Script, SourceMap: bu.SourceMap, DatabasePath: dbPath, Isolates: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { pool.Close() })
	srv, err := server.New(server.Config{Renderer: poolRenderer{pool}, Busy: runtime.ErrBusy})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Close)
	for _, target := range []string{"/json", "/plaintext", "/db", "/queries?queries=20", "/fortunes", "/updates?queries=20", "/ssr?rows=1000", "/isr?rows=1000"} {
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

package runtime

import (
	"context"
	"sync"
	"testing"
	"time"
)

// BenchmarkRender renders the fixture's json-like and fortunes-like routes
// on one isolate (one goroutine, no HTTP): the per-render cost of borrow,
// the V8 call, host functions, SQLite and frame parsing.
func BenchmarkRender(b *testing.B) {
	p := newFixturePool(b, Config{Isolates: 1})
	for _, bc := range []struct {
		name  string
		route int
	}{{"json", rJSON}, {"fortunes", rFortunes}} {
		b.Run(bc.name, func(b *testing.B) {
			req := get(p.Routes()[bc.route].Path, nil)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Render(ctx, bc.route, req); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "renders/s")
		})
	}
}

// BenchmarkPoolScaling renders b.N fortunes with 2 goroutines through a
// serialized pool, then through a 2-isolate pool, and reports
// pool/serialized, the throughput ratio (the pool's target: >= 1.5 with 2
// isolates on 2 cores, run with -cpu 2). Both pools render 500 fortunes
// first (JIT warm-up). ns/op is the pool's.
func BenchmarkPoolScaling(b *testing.B) {
	dbPath := fixtureDB(b)
	serial := newFixturePool(b, Config{Mode: ModeSerialized, DatabasePath: dbPath})
	pool := newFixturePool(b, Config{Mode: ModePool, Isolates: 2, DatabasePath: dbPath})
	req := get("/fortunes", nil)
	run := func(p *Pool, n int) time.Duration {
		var wg sync.WaitGroup
		start := time.Now()
		for g := range 2 {
			wg.Go(func() {
				for i := g; i < n; i += 2 {
					if _, err := p.Render(context.Background(), rFortunes, req); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		return time.Since(start)
	}
	run(serial, 500) // warm-up: JIT and statement cache of every isolate
	run(pool, 500)
	b.ResetTimer()
	b.StopTimer()
	serialTime := run(serial, b.N)
	b.StartTimer()
	poolTime := run(pool, b.N)
	b.StopTimer()
	b.ReportMetric(serialTime.Seconds()/poolTime.Seconds(), "pool/serialized")
}

// BenchmarkDB calls the SQLite host functions' Go side directly (no V8)
// on the fixture dataset: a point query (get), 20 of them (batch), 100
// rows (all), 20 updates in a transaction (tx).
func BenchmarkDB(b *testing.B) {
	d, err := openDB(fixtureDB(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { d.close() })
	const sel = "SELECT id, randomNumber FROM World WHERE id = ?"
	ids := "[[1],[5],[9],[13],[17],[21],[25],[29],[33],[37],[41],[45],[49],[53],[57],[61],[65],[69],[73],[77]]"
	upd := "[[1,1],[5,5],[9,9],[13,13],[17,17],[21,21],[25,25],[29,29],[33,33],[37,37],[41,41],[45,45],[49,49],[53,53],[57,57],[61,61],[65,65],[69,69],[73,73],[77,77]]"
	for _, bc := range []struct {
		name string
		call func() error
	}{
		{"get", func() error { _, err := d.get(sel, "[42]"); return err }},
		{"batch20", func() error { _, err := d.batch(sel, ids); return err }},
		{"all100", func() error { _, err := d.all("SELECT id, randomNumber FROM World", ""); return err }},
		{"tx20", func() error {
			_, err := d.tx("UPDATE World SET randomNumber = ? WHERE id = ?", upd)
			return err
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := bc.call(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

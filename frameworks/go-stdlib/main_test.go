package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"
)

// testFortunes are the 12 standard Fortune rows (docs/tfb-rules.md). The test
// builds its own database so this module needs nothing from the root one.
var testFortunes = []string{
	"fortune: No such file or directory",
	"A computer scientist is someone who fixes things that aren't broken.",
	"After enough decimal places, nobody gives a damn.",
	"A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1",
	"A computer program does what you tell it to do, not what you want it to do.",
	"Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen",
	"Any program that runs right is obsolete.",
	"A list is only as strong as its weakest link. — Donald Knuth",
	"Feature: A bug with seniority.",
	"Computers make very fast, very accurate mistakes.",
	`<script>alert("This should not be displayed in a browser alert box.");</script>`,
	"フレームワークのベンチマーク",
}

// newDB creates a dataset in a temp dir: World ids 1..10000 with
// randomNumber = id, and the 12 Fortune rows; WAL mode like the real one.
func newDB(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "tfb.db")
	db, err := sql.Open("sqlite", p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{
		"PRAGMA journal_mode=WAL",
		"CREATE TABLE World (id INTEGER PRIMARY KEY, randomNumber INTEGER NOT NULL)",
		"CREATE TABLE Fortune (id INTEGER PRIMARY KEY, message TEXT NOT NULL)",
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 10000)
		 INSERT INTO World SELECT i, i FROM n`,
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	for i, m := range testFortunes {
		if _, err := db.Exec("INSERT INTO Fortune VALUES (?, ?)", i+1, m); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// start opens the app on a fresh dataset and serves it over a real
// net/http server (so Date and Content-Length are what clients see).
func start(t *testing.T) (*httptest.Server, *app, string) {
	t.Helper()
	p := newDB(t)
	a, err := openApp(p)
	if err != nil {
		t.Fatal(err)
	}
	a.logf = t.Logf
	srv := httptest.NewServer(a.handler())
	t.Cleanup(func() {
		srv.Close()
		a.Close()
	})
	return srv, a, p
}

func get(t *testing.T, srv *httptest.Server, path string) (*http.Response, []byte) {
	t.Helper()
	resp, err := srv.Client().Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: status %d, body %q", path, resp.StatusCode, body)
	}
	if s := resp.Header.Get("Server"); s != "go-stdlib" {
		t.Errorf("GET %s: Server %q, want go-stdlib", path, s)
	}
	if d := resp.Header.Get("Date"); d == "" {
		t.Errorf("GET %s: no Date header", path)
	} else if _, err := time.Parse(http.TimeFormat, d); err != nil {
		t.Errorf("GET %s: Date %q not in RFC 7231 form", path, d)
	}
	if cl := resp.ContentLength; cl != int64(len(body)) {
		t.Errorf("GET %s: Content-Length %d, body %d bytes", path, cl, len(body))
	}
	if len(resp.TransferEncoding) != 0 {
		t.Errorf("GET %s: Transfer-Encoding %v, want none", path, resp.TransferEncoding)
	}
	return resp, body
}

func TestJSONAndPlaintext(t *testing.T) {
	srv, _, _ := start(t)
	resp, body := get(t, srv, "/json")
	if string(body) != `{"message":"Hello, World!"}` {
		t.Errorf("/json body %q", body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("/json Content-Type %q", ct)
	}
	resp, body = get(t, srv, "/plaintext")
	if string(body) != "Hello, World!" {
		t.Errorf("/plaintext body %q", body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/plain" {
		t.Errorf("/plaintext Content-Type %q", ct)
	}
	r, err := srv.Client().Get(srv.URL + "/nothing")
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != 404 {
		t.Errorf("/nothing status %d, want 404", r.StatusCode)
	}
}

func TestDB(t *testing.T) {
	srv, _, _ := start(t)
	resp, body := get(t, srv, "/db")
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("/db Content-Type %q", ct)
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("/db body %q: %v", body, err)
	}
	if len(m) != 2 {
		t.Fatalf("/db keys %v, want id and randomNumber", m)
	}
	id, ok1 := m["id"].(float64)
	rn, ok2 := m["randomNumber"].(float64)
	if !ok1 || !ok2 || id < 1 || id > 10000 || rn != id {
		t.Errorf("/db = %s; want numbers, id in 1..10000 and randomNumber = id (test data)", body)
	}
}

func TestQueriesCount(t *testing.T) {
	srv, _, _ := start(t)
	for _, tc := range []struct {
		q    string
		want int
	}{
		{"/queries?queries=2", 2},
		{"/queries?queries=20", 20},
		{"/queries?queries=0", 1},
		{"/queries?queries=-3", 1},
		{"/queries?queries=foo", 1},
		{"/queries?queries=", 1},
		{"/queries", 1},
		{"/queries?queries=500", 500},
		{"/queries?queries=501", 500},
		{"/queries?queries=99999999999999999999", 500},
		{"/queries?queries=-99999999999999999999", 1},
		{"/queries?queries=3x", 1},
	} {
		_, body := get(t, srv, tc.q)
		var rows []world
		if err := json.Unmarshal(body, &rows); err != nil {
			t.Fatalf("%s: %v in %q", tc.q, err, body)
		}
		if len(rows) != tc.want {
			t.Errorf("%s: %d rows, want %d", tc.q, len(rows), tc.want)
		}
		for _, r := range rows {
			if r.ID < 1 || r.ID > 10000 || r.RandomNumber != r.ID {
				t.Errorf("%s: row %+v not a World row of the test data", tc.q, r)
			}
		}
	}
}

func TestUpdatesChangeRows(t *testing.T) {
	srv, _, p := start(t)
	_, body := get(t, srv, "/updates?queries=20")
	var rows []world
	if err := json.Unmarshal(body, &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 20 {
		t.Fatalf("%d rows, want 20", len(rows))
	}
	// Read back through a separate connection: the rows were committed.
	db, err := sql.Open("sqlite", p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	final := map[int32]int32{} // a repeated id keeps the last value written
	for _, r := range rows {
		if r.RandomNumber < 1 || r.RandomNumber > 10000 {
			t.Errorf("row %+v: randomNumber outside 1..10000", r)
		}
		final[r.ID] = r.RandomNumber
	}
	for id, want := range final {
		var got int32
		if err := db.QueryRow("SELECT randomNumber FROM World WHERE id = ?", id).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("World id %d holds %d, response said %d", id, got, want)
		}
		if got == id {
			t.Errorf("World id %d unchanged (test data has randomNumber = id)", id)
		}
	}
	var changed int
	if err := db.QueryRow("SELECT count(*) FROM World WHERE randomNumber != id").Scan(&changed); err != nil {
		t.Fatal(err)
	}
	if changed != len(final) {
		t.Errorf("%d World rows changed, want %d (the distinct ids updated)", changed, len(final))
	}

	for _, tc := range []struct {
		q    string
		want int
	}{{"/updates?queries=0", 1}, {"/updates?queries=foo", 1}, {"/updates?queries=", 1}, {"/updates?queries=501", 500}} {
		_, body := get(t, srv, tc.q)
		var rows []world
		if err := json.Unmarshal(body, &rows); err != nil {
			t.Fatal(err)
		}
		if len(rows) != tc.want {
			t.Errorf("%s: %d rows, want %d", tc.q, len(rows), tc.want)
		}
	}
	if err := db.QueryRow("SELECT count(*) FROM World WHERE randomNumber != id").Scan(&changed); err != nil {
		t.Fatal(err)
	}
	// 523 updated draws over 10,000 ids: at least 450 distinct rows changed.
	if changed < 450 || changed > 523 {
		t.Errorf("%d World rows changed after 523 updates, want 450..523", changed)
	}
}

// TestFortunesExact compares the page byte for byte with the reference
// (testdata/fortunes-expected.html, a copy of /work/shared's). html/template
// writes ' as &#39;, " as &#34; and + as &#43; where the reference has
// &apos;, &quot; and a raw +; those three are the only accepted differences
// (TFB's fortune parser normalizes all three).
func TestFortunesExact(t *testing.T) {
	srv, _, p := start(t)
	ref, err := os.ReadFile("testdata/fortunes-expected.html")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer("&apos;", "&#39;", "&quot;", "&#34;", "+", "&#43;").Replace(string(ref))
	resp, body := get(t, srv, "/fortunes")
	if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("/fortunes Content-Type %q", ct)
	}
	if string(body) != want {
		t.Errorf("/fortunes body differs from the reference\n got: %s\nwant: %s", body, want)
	}

	// Rows are read on every request: a row added to the database appears,
	// escaped and in sorted place, in the next response.
	db, err := sql.Open("sqlite", p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("INSERT INTO Fortune VALUES (13, ?)", `B <b>"x" & 'y'</b>`); err != nil {
		t.Fatal(err)
	}
	_, body = get(t, srv, "/fortunes")
	row := `<tr><td>13</td><td>B &lt;b&gt;&#34;x&#34; &amp; &#39;y&#39;&lt;/b&gt;</td></tr>`
	// Byte order: "Any program..." (id 7) < "B <b>..." < "Computers..." (id 10).
	before := `<tr><td>7</td><td>Any program that runs right is obsolete.</td></tr>`
	wantNew := strings.Replace(want, before+`<tr><td>10</td>`, before+row+`<tr><td>10</td>`, 1)
	if wantNew == want {
		t.Fatal("test bug: insertion point not found in the reference")
	}
	if string(body) != wantNew {
		t.Errorf("/fortunes after insert\n got: %s\nwant: %s", body, wantNew)
	}
}

func TestConfig(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	addr, db, err := config(env(map[string]string{"PORT": "8080", "DATABASE_PATH": "/x.db"}))
	if err != nil || addr != "127.0.0.1:8080" || db != "/x.db" {
		t.Errorf("config = %q, %q, %v", addr, db, err)
	}
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"DATABASE_PATH": "/x.db"}, "PORT is not set"},
		{map[string]string{"PORT": "http", "DATABASE_PATH": "/x.db"}, `PORT="http" is not a port number`},
		{map[string]string{"PORT": "70000", "DATABASE_PATH": "/x.db"}, `PORT="70000" is not a port number`},
		{map[string]string{"PORT": "8080"}, "DATABASE_PATH is not set"},
	} {
		_, _, err := config(env(tc.env))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("config(%v) error %v, want %q", tc.env, err, tc.want)
		}
	}
	missing := filepath.Join(t.TempDir(), "none.db")
	if _, err := openApp(missing); err == nil || !strings.Contains(err.Error(), "DATABASE_PATH") {
		t.Errorf("openApp(missing) error %v", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("openApp created the missing database")
	}
}

// goroutinesCreated reads the process's count of goroutines started so far.
func goroutinesCreated() uint64 {
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestDBCallsStartNoGoroutinePerQuery guards dbContext: with a cancelable
// context (as r.Context() is), database/sql and modernc.org/sqlite start one
// goroutine each per query, a flood that starved requests for up to a second
// at 64 connections. 350 statements under a cancelable context must start
// only the update transaction's database/sql watcher (Tx.awaitDone), plus at
// most a few of the runtime's own (GC workers, cleanup goroutines); the
// regression starts at least 350.
func TestDBCallsStartNoGoroutinePerQuery(t *testing.T) {
	_, a, _ := start(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	work := func() {
		t.Helper()
		rows, err := a.loadWorlds(ctx, 100)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.loadWorlds(ctx, 100); err != nil {
			t.Fatal(err)
		}
		for i := range rows {
			rows[i].RandomNumber = rows[i].ID%worldRows + 1
		}
		if err := a.saveWorlds(ctx, rows); err != nil {
			t.Fatal(err)
		}
		for range 50 {
			if list, err := a.loadFortunes(ctx); err != nil || len(list) != len(testFortunes) {
				t.Fatalf("loadFortunes: %d rows, %v; want %d rows", len(list), err, len(testFortunes))
			}
		}
	}
	work() // open and prepare on every connection it needs first
	before := goroutinesCreated()
	work()
	if n := goroutinesCreated() - before; n < 1 || n > 5 {
		t.Errorf("350 statements started %d goroutines, want 1 (Tx.awaitDone) to 5", n)
	}
}

// awaitGateWaiters returns once exactly n goroutines are parked in
// gate.enter, read from a dump of all goroutine stacks ("goroutine N
// [select]:" with a frame ".gate.enter("). A goroutine is shown parked only
// after its send is queued on the channel. It fails the test if that never
// happens within many scheduler yields (a hang guard, not a time limit).
func awaitGateWaiters(t *testing.T, n int) {
	t.Helper()
	buf := make([]byte, 1<<20)
	for range 100000 {
		got := 0
		for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
			if strings.Contains(g, " [select") && strings.Contains(g, ".gate.enter(") {
				got++
			}
		}
		if got == n {
			return
		}
		runtime.Gosched()
	}
	t.Fatalf("never saw %d goroutines parked in gate.enter", n)
}

// TestGateAdmitsInArrivalOrder: with every slot taken, waiters queue in
// arrival order and each freed slot goes to the oldest (database/sql hands a
// freed connection to a random waiter instead). Each waiter is started only
// once the previous one is seen parked in enter, so the arrival order is
// known; no timing is involved.
func TestGateAdmitsInArrivalOrder(t *testing.T) {
	const slots, waiters = 2, 6
	g := make(gate, slots)
	for range slots {
		if err := g.enter(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	admitted := make(chan int)
	for i := range waiters {
		go func() {
			if err := g.enter(context.Background()); err != nil {
				panic(err) // cannot happen: Background never ends
			}
			admitted <- i
		}()
		awaitGateWaiters(t, i+1)
	}
	for want := range waiters {
		g.leave()
		if got := <-admitted; got != want {
			t.Fatalf("freed slot %d went to waiter %d, want %d (arrival order)", want+1, got, want)
		}
	}

	// A waiter whose request ends gives up its place and holds no slot.
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error)
	go func() { errc <- g.enter(ctx) }()
	awaitGateWaiters(t, 1)
	cancel()
	if err := <-errc; err != context.Canceled {
		t.Errorf("enter after cancel: %v, want context.Canceled", err)
	}
	if len(g) != slots {
		t.Errorf("gate holds %d slots, want %d", len(g), slots)
	}
}

// TestPoolsNeverWait: under a burst of concurrent db, queries, fortunes, page and
// updates requests, database/sql never makes a request wait for a
// connection (DB.Stats().WaitCount), since the gates admit no more requests
// than each pool has connections. With more Ps than connections, a handler
// that skipped its gate (or a gate wider than its pool) makes waits all but
// certain here; with the gates the count is 0 whatever the schedule.
func TestPoolsNeverWait(t *testing.T) {
	_, a, _ := start(t)
	if got, want := a.read.Stats().MaxOpenConnections, cap(a.readGate); got != want {
		t.Fatalf("read pool has %d connections, read gate %d slots", got, want)
	}
	if got, want := a.write.Stats().MaxOpenConnections, cap(a.writeGate); got != want || want != 1 {
		t.Fatalf("write pool has %d connections, write gate %d slots; want 1 and 1", got, want)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4 * cap(a.readGate)))
	h := a.handler()
	paths := []string{"/queries?queries=20", "/updates?queries=20", "/fortunes", "/db", "/ssr?rows=100"}
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Go(func() {
			for j := range 8 {
				p := paths[(i+j)%len(paths)]
				w := httptest.NewRecorder()
				h.ServeHTTP(w, httptest.NewRequest("GET", p, nil))
				if w.Code != 200 {
					t.Errorf("GET %s: status %d, body %q", p, w.Code, w.Body)
				}
			}
		})
	}
	wg.Wait()
	for name, db := range map[string]*sql.DB{"read": a.read, "write": a.write} {
		if s := db.Stats(); s.WaitCount != 0 {
			t.Errorf("%s pool: %d requests waited for a connection (%v in all), want 0", name, s.WaitCount, s.WaitDuration)
		}
	}
}

// pageWant is the /ssr document for World rows 1..n as the database db holds
// them now: the exact bytes ssrPage must produce (ids and numbers need no
// escaping, so this is the page contract's markup written out by hand).
func pageWant(t *testing.T, db *sql.DB, n int) string {
	t.Helper()
	rs, err := db.Query("SELECT id, randomNumber FROM World WHERE id <= ? ORDER BY id", n)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>World</title></head><body>` +
		`<table><thead><tr><th>id</th><th>randomNumber</th></tr></thead><tbody>`)
	count := 0
	for rs.Next() {
		var id, num int
		if err := rs.Scan(&id, &num); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, `<tr class="row" data-id="%d"><td class="id">%d</td><td class="num">%d</td></tr>`, id, id, num)
		count++
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	if count != n {
		t.Fatalf("test bug: the database has %d World rows up to id %d", count, n)
	}
	b.WriteString(`</tbody></table></body></html>`)
	return b.String()
}

// TestPage: /ssr?rows=N is World rows 1..N (N missing or non-numeric → 1,
// clamped to 1..10000) with the database's values, as text/html;
// charset=utf-8, and a row changed in the database shows in the next page.
func TestPage(t *testing.T) {
	srv, _, p := start(t)
	db, err := sql.Open("sqlite", p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Values unlike the ids (the test data has randomNumber = id), so a
	// page that printed an id twice would fail.
	if _, err := db.Exec("UPDATE World SET randomNumber = (id * 7919) % 10000 + 1"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		q    string
		want int
	}{
		{"/ssr?rows=0", 1},
		{"/ssr?rows=1", 1},
		{"/ssr?rows=10", 10},
		{"/ssr?rows=10000", 10000},
		{"/ssr?rows=foo", 1},
		{"/ssr?rows=20000", 10000},
		{"/ssr?rows=-3", 1},
		{"/ssr?rows=", 1},
		{"/ssr", 1},
		{"/ssr?rows=3x", 1},
		{"/ssr?rows=99999999999999999999", 10000},
	} {
		resp, body := get(t, srv, tc.q)
		if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Errorf("%s: Content-Type %q", tc.q, ct)
		}
		if want := pageWant(t, db, tc.want); string(body) != want {
			t.Errorf("%s: body (%d bytes) is not World rows 1..%d (%d bytes)\n got: %.300s\nwant: %.300s",
				tc.q, len(body), tc.want, len(want), body, want)
		}
	}
	_, body := get(t, srv, "/ssr?rows=1")
	if want := `<!DOCTYPE html><html><head><meta charset="utf-8"><title>World</title></head><body>` +
		`<table><thead><tr><th>id</th><th>randomNumber</th></tr></thead><tbody>` +
		`<tr class="row" data-id="1"><td class="id">1</td><td class="num">7920</td></tr>` +
		`</tbody></table></body></html>`; string(body) != want {
		t.Errorf("/ssr?rows=1\n got: %s\nwant: %s", body, want)
	}

	// Rows are read on every request: no cache.
	row3 := `<tr class="row" data-id="3"><td class="id">3</td><td class="num">%d</td></tr>`
	_, body = get(t, srv, "/ssr?rows=10")
	if !strings.Contains(string(body), fmt.Sprintf(row3, 3*7919%10000+1)) {
		t.Fatalf("/ssr?rows=10 lacks row 3 before the change: %s", body)
	}
	if _, err := db.Exec("UPDATE World SET randomNumber = 4242 WHERE id = 3"); err != nil {
		t.Fatal(err)
	}
	_, body = get(t, srv, "/ssr?rows=10")
	if !strings.Contains(string(body), fmt.Sprintf(row3, 4242)) {
		t.Errorf("/ssr?rows=10 after World id 3 was set to 4242: %s", body)
	}
	if want := pageWant(t, db, 10); string(body) != want {
		t.Errorf("/ssr?rows=10 after the change\n got: %s\nwant: %s", body, want)
	}
}

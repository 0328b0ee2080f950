package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"log"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tfbench/tfbench/frameworks/engine/bundle"
	"github.com/tfbench/tfbench/frameworks/engine/internal/logbuf"
	"github.com/tfbench/tfbench/frameworks/engine/runtime"
	"github.com/tfbench/tfbench/frameworks/engine/server"

	_ "github.com/mattn/go-sqlite3" // database/sql driver "sqlite3"
)

// appDB creates a dataset with World ids 1..10000 (randomNumber = appRandom(id))
// and two Fortune rows; it returns the path and an open connection the test
// changes rows through.
func appDB(t *testing.T) (string, *sql.DB) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tfb.db")
	conn, err := sql.Open("sqlite3", path+"?_journal_mode=WAL")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_, err = conn.Exec(`
		CREATE TABLE World(id INTEGER PRIMARY KEY, randomNumber INTEGER NOT NULL);
		CREATE TABLE Fortune(id INTEGER PRIMARY KEY, message TEXT NOT NULL);
		INSERT INTO Fortune VALUES (1, 'fortune: No such file or directory'), (2, '<script>alert("x")</script>');`)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := conn.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for id := 1; id <= 10000; id++ {
		if _, err := tx.Exec("INSERT INTO World VALUES (?, ?)", id, appRandom(id)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return path, conn
}

// appRandom is the fixture's randomNumber of World id: a value in 1..10000
// that differs from the id.
func appRandom(id int) int { return (id*7919)%10000 + 1 }

// onePool is a one-isolate pool on dbPath running the app in dir built
// with o, closed when the test ends.
func onePool(tb testing.TB, dir string, o bundle.Options, dbPath string) *runtime.Pool {
	tb.Helper()
	bu, err := bundle.BuildWith(dir, o)
	if err != nil {
		tb.Fatal(err)
	}
	pool, err := runtime.New(runtime.Config{Script: bu.Script, SourceMap: bu.SourceMap, DatabasePath: dbPath, Isolates: 1})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { pool.Close() })
	return pool
}

// appServer serves the real app (../../app) through the master's handler and
// a one-isolate pool on dbPath.
func appServer(t *testing.T, dbPath string) *appHTTP {
	t.Helper()
	pool := onePool(t, "../../app", bundle.Options{}, dbPath)
	srv, err := server.New(server.Config{Renderer: poolRenderer{pool}, Busy: runtime.ErrBusy})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	hs := &appHTTP{URL: "http://" + ln.Addr().String(), client: &http.Client{Transport: &http.Transport{}}}
	t.Cleanup(func() {
		hs.client.CloseIdleConnections()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return hs
}

// appHTTP is a running appServer: its base URL and a client of its own.
type appHTTP struct {
	URL    string
	client *http.Client
}

// fetch GETs target and returns the response and its body; a status other
// than 200 fails the test.
func fetch(t *testing.T, hs *appHTTP, target string) (*http.Response, string) {
	t.Helper()
	resp, err := hs.client.Get(hs.URL + target)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: status %d, body %q", target, resp.StatusCode, b)
	}
	return resp, string(b)
}

// renders reads the render counts (server.RendersPath).
func renders(t *testing.T, hs *appHTTP) map[string]uint64 {
	t.Helper()
	_, body := fetch(t, hs, server.RendersPath)
	var m map[string]uint64
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatalf("%s = %q: %v", server.RendersPath, body, err)
	}
	return m
}

// rowRE matches one World row of the page; the cells' text is the id and
// the randomNumber.
var rowRE = regexp.MustCompile(`<tr class="row" data-id="(\d+)"><td class="id">(\d+)</td><td class="num">(\d+)</td></tr>`)

// pageRows checks a page's head and returns its rows as [id, randomNumber].
func pageRows(t *testing.T, target, body string) [][2]int {
	t.Helper()
	const head = `<!DOCTYPE html><html><head><title>World rows 1..`
	const table = `<table><thead><tr><th>id</th><th>randomNumber</th></tr></thead><tbody>`
	if !regexp.MustCompile(`^` + regexp.QuoteMeta(head) + `\d+</title></head><body>` + regexp.QuoteMeta(table) + `(<tr [^>]*>(<td [^>]*>\d+</td>){2}</tr>)+</tbody></table></body></html>$`).MatchString(body) {
		t.Fatalf("GET %s: page %q...%q is not the World table page", target, body[:min(len(body), 300)], body[max(0, len(body)-80):])
	}
	var rows [][2]int
	for _, m := range rowRE.FindAllStringSubmatch(body, -1) {
		id, _ := strconv.Atoi(m[2])
		num, _ := strconv.Atoi(m[3])
		if m[1] != m[2] {
			t.Errorf("GET %s: row data-id %s holds id %s", target, m[1], m[2])
		}
		rows = append(rows, [2]int{id, num})
	}
	return rows
}

// wantRows checks that rows are World ids 1..n with the values of num.
func wantRows(t *testing.T, target string, rows [][2]int, n int, num func(id int) int) {
	t.Helper()
	if len(rows) != n {
		t.Errorf("GET %s: %d rows, want %d", target, len(rows), n)
		return
	}
	for i, r := range rows {
		if want := [2]int{i + 1, num(i + 1)}; r != want {
			t.Errorf("GET %s: row %d is id %d randomNumber %d, want id %d randomNumber %d", target, i+1, r[0], r[1], want[0], want[1])
			return
		}
	}
}

// TestPage serves /ssr?rows=N (docs/ssr.md, The page) from the real
// app on a real dataset: the rows and values, the clamping, a changed row
// on the next request, and one render per request.
func TestPage(t *testing.T) {
	dbPath, conn := appDB(t)
	hs := appServer(t, dbPath)
	for _, tc := range []struct {
		rows string
		n    int
	}{{"1", 1}, {"10", 10}, {"1000", 1000}, {"10000", 10000}, {"0", 1}, {"foo", 1}, {"", 1}, {"20000", 10000}, {"-5", 1}} {
		target := "/ssr?rows=" + tc.rows
		before := renders(t, hs)["/ssr"]
		resp, body := fetch(t, hs, target)
		if ct, sv := resp.Header.Get("Content-Type"), resp.Header.Get("Server"); ct != "text/html; charset=utf-8" || sv != "engine" || resp.Header.Get("Date") == "" {
			t.Errorf("GET %s: Content-Type %q, Server %q, Date %q", target, ct, sv, resp.Header.Get("Date"))
		}
		wantRows(t, target, pageRows(t, target, body), tc.n, appRandom)
		if after := renders(t, hs)["/ssr"]; after != before+1 {
			t.Errorf("GET %s: /ssr renders %d -> %d, want one more", target, before, after)
		}
	}
	_, body := fetch(t, hs, "/ssr")
	wantRows(t, "/ssr", pageRows(t, "/ssr", body), 1, appRandom)

	// A changed row is in the next page: nothing is cached.
	if _, err := conn.Exec("UPDATE World SET randomNumber = ? WHERE id = 3", 4242); err != nil {
		t.Fatal(err)
	}
	_, body = fetch(t, hs, "/ssr?rows=10")
	wantRows(t, "/ssr?rows=10 after the update", pageRows(t, "/ssr?rows=10", body), 10, func(id int) int {
		if id == 3 {
			return 4242
		}
		return appRandom(id)
	})
}

// TestISRPage serves /isr?rows=N through the ISR cache: the first request
// renders, the second is a hit (the same body, no new render) even after the
// row changed; another query is another page.
func TestISRPage(t *testing.T) {
	dbPath, conn := appDB(t)
	hs := appServer(t, dbPath)
	if n := renders(t, hs)["/isr"]; n != 0 {
		t.Fatalf("/isr renders before any request = %d", n)
	}
	_, first := fetch(t, hs, "/isr?rows=100")
	wantRows(t, "/isr?rows=100", pageRows(t, "/isr?rows=100", first), 100, appRandom)
	if n := renders(t, hs)["/isr"]; n != 1 {
		t.Errorf("/isr renders after the first request = %d, want 1", n)
	}
	if _, err := conn.Exec("UPDATE World SET randomNumber = 4242 WHERE id = 3"); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		resp, body := fetch(t, hs, "/isr?rows=100")
		if body != first || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Errorf("hit %d: Content-Type %q, body differs from the first render: %v", i+1, resp.Header.Get("Content-Type"), body != first)
		}
	}
	if n := renders(t, hs)["/isr"]; n != 1 {
		t.Errorf("/isr renders after three hits = %d, want 1", n)
	}
	_, body := fetch(t, hs, "/isr?rows=10")
	rows := pageRows(t, "/isr?rows=10", body)
	if len(rows) != 10 || rows[2] != [2]int{3, 4242} {
		t.Errorf("/isr?rows=10 (a new key) rows %v, want 10 with id 3 = 4242", rows)
	}
	if n := renders(t, hs)["/isr"]; n != 2 {
		t.Errorf("/isr renders after a second key = %d, want 2", n)
	}
}

// TestTFBRoutesRenderOnce checks that each of the six TFB routes renders
// once per request (the harness requires renders = requests), the page
// routes (/ssr, /isr, /stream) added.
func TestTFBRoutesRenderOnce(t *testing.T) {
	dbPath, _ := appDB(t)
	hs := appServer(t, dbPath)
	for _, tc := range []struct{ target, route string }{
		{"/json", "/json"}, {"/plaintext", "/plaintext"}, {"/db", "/db"}, {"/queries?queries=5", "/queries"},
		{"/fortunes", "/fortunes"}, {"/updates?queries=5", "/updates"},
	} {
		before := renders(t, hs)
		for range 3 {
			fetch(t, hs, tc.target)
		}
		after := renders(t, hs)
		for path, n := range after {
			want := before[path]
			if path == tc.route {
				want += 3
			}
			if n != want {
				t.Errorf("after 3 × GET %s: %s renders %d -> %d, want %d", tc.target, path, before[path], n, want)
			}
		}
	}
	if got := len(renders(t, hs)); got != 9 {
		t.Errorf("render counts name %d routes, want 9 (six TFB routes, /ssr, /isr, /stream)", got)
	}
}

// TestRenderTimeoutEndToEnd serves testdata/spinapp through the master and a
// one-isolate pool with a 1 s render timeout: GET /spin (a TSX route that
// never returns) is answered 500 naming the route, and the same isolate then
// renders /hello, whose console.log reaches the log with its route; /boom's
// 500 names the TSX line of the expression that threw.
func TestRenderTimeoutEndToEnd(t *testing.T) {
	bu, err := bundle.Build("testdata/spinapp")
	if err != nil {
		t.Fatal(err)
	}
	var logs logbuf.Buffer
	logger := log.New(&logs, "", 0)
	pool, err := runtime.New(runtime.Config{Script: bu.Script, SourceMap: bu.SourceMap, Isolates: 1, RenderTimeout: time.Second, Log: logger})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close() })
	srv, err := server.New(server.Config{Renderer: poolRenderer{pool}, Busy: runtime.ErrBusy, Log: logger})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	base := "http://" + ln.Addr().String()
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	get := func(path string) (int, string) {
		resp, err := client.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	start := time.Now()
	if code, body := get("/spin"); code != 500 || body != "500 internal server error: render timeout on /spin\n" {
		t.Errorf("GET /spin = %d %q, want 500 naming /spin", code, body)
	}
	if took := time.Since(start); took < time.Second {
		t.Errorf("GET /spin answered after %v, before the 1s render timeout", took)
	}
	for i := range 3 {
		if code, body := get("/hello?who=again"); code != 200 || body != "<p>hello again</p>" {
			t.Errorf("GET /hello #%d after the timeout = %d %q, want 200 <p>hello again</p>", i+1, code, body)
		}
	}
	if code, _ := get("/boom"); code != 500 {
		t.Errorf("GET /boom = %d, want 500", code)
	}
	want := []string{
		"engine: 500 GET /spin: runtime: render of /spin terminated after the 1s render timeout\n",
		"engine: console.log /hello: hello again\n",
		// The precompiled element keeps the expression on its source line.
		"engine: 500 GET /boom: TypeError: Cannot read properties of undefined (reading 'text') at spinapp/routes/boom.tsx:9:",
	}
	for _, w := range want {
		if !strings.Contains(logs.String(), w) {
			t.Errorf("log lacks %q; log:\n%s", w, logs.String())
		}
	}
}

// TestRetainedFlatApp renders the real app's routes (precompiled JSX, byte
// pages, the flat rows of db.all, batch and tx) 100,000 times in all on one
// isolate: the tracked v8go value count stays where it was after the first
// round: host calls leave no tracked value behind.
func TestRetainedFlatApp(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 renders")
	}
	dbPath, _ := appDB(t)
	pool := onePool(t, "../../app", bundle.Options{}, dbPath)
	index := map[string]int{}
	for i, r := range pool.Routes() {
		index[r.Path] = i
	}
	mix := []*runtime.Request{
		{Method: "GET", Path: "/json"}, {Method: "GET", Path: "/plaintext"}, {Method: "GET", Path: "/db"},
		{Method: "GET", Path: "/queries", RawQuery: "queries=5"}, {Method: "GET", Path: "/fortunes"},
		{Method: "GET", Path: "/updates", RawQuery: "queries=2"}, {Method: "GET", Path: "/ssr", RawQuery: "rows=10"},
	}
	round := func() {
		for _, req := range mix {
			if _, err := pool.Render(context.Background(), index[req.Path], req); err != nil {
				t.Fatalf("%s: %v", req.Path, err)
			}
		}
	}
	round()
	base := pool.Retained()
	rounds := 100000 / len(mix)
	for range rounds - 1 {
		round()
	}
	if got := pool.Retained(); got != base {
		t.Errorf("retained values %d after %d renders, %d after the first round", got, rounds*len(mix), base)
	}
}

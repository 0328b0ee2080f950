package runtime

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"log"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evanw/esbuild/pkg/api"
	_ "github.com/mattn/go-sqlite3" // database/sql driver "sqlite3", for the fixtures
	"github.com/tfbench/tfbench/frameworks/engine/internal/logbuf"
)

// fixtureFile is the source file name the fixture's source map records.
const fixtureFile = "testdata/app.js"

// Route indexes of testdata/app.js.
const (
	rJSON = iota
	rRequest
	rDB
	rQueries
	rUpdates
	rAll
	rFortunes
	rThrow
	rAsync
	rAsyncThrow
	rSQLErr
	rRun
	rCached
	rBadFrame
	rAsyncBadFrame
	rSpin
	rAsyncSpin
	rConsole
)

// worldRandom is the fixture's World.randomNumber for id 1..100.
func worldRandom(id int) int { return id*37%10000 + 1 }

// fixtureFortunes are the Fortune rows of the test database.
var fixtureFortunes = []struct {
	id  int
	msg string
}{
	{1, "fortune: No such file or directory"},
	{2, "A computer scientist is someone who fixes things that aren't broken."},
	{3, "<script>alert(\"This should not be displayed in a browser alert box.\");</script>"},
	{4, "フレームワークのベンチマーク"},
	{5, "Any program that runs right is obsolete."},
}

// fixtureBundle compiles testdata/app.js the way bundle.Build does (IIFE,
// external source map) so that stack positions need the map.
func fixtureBundle(t testing.TB) (script string, sourceMap []byte) {
	t.Helper()
	src, err := os.ReadFile(fixtureFile)
	if err != nil {
		t.Fatal(err)
	}
	res := api.Transform(string(src), api.TransformOptions{
		Loader:     api.LoaderJS,
		Format:     api.FormatIIFE,
		Target:     api.ES2022,
		Sourcemap:  api.SourceMapExternal,
		Sourcefile: fixtureFile,
	})
	if len(res.Errors) > 0 {
		t.Fatalf("esbuild transform %s: %v", fixtureFile, res.Errors)
	}
	return string(res.Code), res.Map
}

// fixtureDB creates a SQLite file in WAL mode with World (ids 1..100,
// randomNumber = worldRandom(id)) and the fixtureFortunes.
func fixtureDB(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dataset.db")
	conn, err := sql.Open("sqlite3", path+"?_journal_mode=WAL") // mattn/go-sqlite3 creates the file
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, err = conn.Exec(`
		CREATE TABLE World(id INTEGER PRIMARY KEY, randomNumber INTEGER NOT NULL);
		CREATE TABLE Fortune(id INTEGER PRIMARY KEY, message TEXT NOT NULL);`)
	if err != nil {
		t.Fatal(err)
	}
	for id := 1; id <= 100; id++ {
		if _, err := conn.Exec("INSERT INTO World VALUES (?, ?)", id, worldRandom(id)); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range fixtureFortunes {
		if _, err := conn.Exec("INSERT INTO Fortune VALUES (?, ?)", f.id, f.msg); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func newFixturePool(t testing.TB, cfg Config) *Pool {
	t.Helper()
	cfg.Script, cfg.SourceMap = fixtureBundle(t)
	if cfg.DatabasePath == "" {
		cfg.DatabasePath = fixtureDB(t)
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Error(err)
		}
	})
	return p
}

func get(path string, query url.Values) *Request {
	return &Request{Method: "GET", Path: path, RawQuery: query.Encode(), Header: http.Header{"User-Agent": {"tfbench-test"}}}
}

func render(t testing.TB, p *Pool, route int, req *Request) *Response {
	t.Helper()
	if req == nil {
		req = get(p.Routes()[route].Path, nil)
	}
	resp, err := p.Render(context.Background(), route, req)
	if err != nil {
		t.Fatalf("render %s: %v", p.Routes()[route].Path, err)
	}
	return resp
}

func wantResponse(t *testing.T, got *Response, status int, ctype, body string) {
	t.Helper()
	if got.Status != status || got.ContentType != ctype || got.Body != body {
		t.Errorf("response = %d %q %q\nwant       %d %q %q", got.Status, got.ContentType, got.Body, status, ctype, body)
	}
}

func TestRoutes(t *testing.T) {
	p := newFixturePool(t, Config{Isolates: 1})
	routes := p.Routes()
	if len(routes) != rConsole+1 {
		t.Fatalf("%d routes, want %d", len(routes), rConsole+1)
	}
	if want := (Route{Path: "/json", File: "app/routes/json.ts"}); routes[rJSON] != want {
		t.Errorf("route 0 = %+v, want %+v", routes[rJSON], want)
	}
	if want := (Route{Path: "/cached", File: "app/routes/cached.ts", Revalidate: 2500 * time.Millisecond}); routes[rCached] != want {
		t.Errorf("route %d = %+v, want %+v", rCached, routes[rCached], want)
	}
}

func TestRenderFrames(t *testing.T) {
	p := newFixturePool(t, Config{Isolates: 1})
	wantResponse(t, render(t, p, rJSON, nil), 200, "application/json", `{"message":"Hello, World!"}`)
	wantResponse(t, render(t, p, rCached, nil), 200, "text/plain", "line 1\nline 2")

	_, err := p.Render(context.Background(), rBadFrame, get("/bad-frame", nil))
	if err == nil || err.Error() != `runtime: render of /bad-frame: frame "42" has no status line` {
		t.Errorf("bad frame error = %v", err)
	}
	_, err = p.Render(context.Background(), rAsyncBadFrame, get("/async-bad-frame", nil))
	if want := `runtime: render of /async-bad-frame returned a Promise of 42, want a frame string "<status>\n<content-type>\n<body>"`; err == nil || err.Error() != want {
		t.Errorf("async bad frame error = %v, want %s", err, want)
	}
	if _, err := p.Render(context.Background(), 99, get("/x", nil)); err == nil || err.Error() != "runtime: route index 99, have 18 routes" {
		t.Errorf("route 99 error = %v", err)
	}
}

func TestParseFrame(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    Response
		wantErr string
	}{
		{in: "200\ntext/plain\n", want: Response{200, "text/plain", ""}},
		{in: "404\ntext/html\na\nb\n", want: Response{404, "text/html", "a\nb\n"}},
		{in: "200", wantErr: "has no status line"},
		{in: "abc\ntext/plain\nx", wantErr: `frame status "abc"`},
		{in: "200\ntext/plain", wantErr: "has no content-type line"},
	} {
		got, err := parseFrame(tc.in, false)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("parseFrame(%q) error = %v, want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || *got != tc.want {
			t.Errorf("parseFrame(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
	// A frame V8 wrote one byte per character (Latin-1): a byte string's
	// body as it is, a text body and the content type made UTF-8.
	for _, tc := range []struct {
		in      string
		want    Response
		wantErr string
	}{
		{in: "200~\ntext/html\ncaf\xc3\xa9", want: Response{200, "text/html", "café"}},
		{in: "200\ntext/plain; x=\xe9\ncaf\xe9 \xff", want: Response{200, "text/plain; x=é", "café ÿ"}},
		{in: "200\ntext/plain\nascii", want: Response{200, "text/plain", "ascii"}},
		{in: "2\xe9\ntext/plain\nx", wantErr: `frame status "2é", want a 3-digit HTTP status`},
		{in: "200\xe9", wantErr: `frame "200é" has no status line`},
	} {
		got, err := parseFrame(tc.in, true)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("parseFrame(%q, oneByte) error = %v, want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || *got != tc.want {
			t.Errorf("parseFrame(%q, oneByte) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

func TestRequestThroughHost(t *testing.T) {
	p := newFixturePool(t, Config{Isolates: 1})
	req := &Request{
		Method:   "POST",
		Path:     "/request",
		RawQuery: "x=1&q=first&q=second",
		Header:   http.Header{"User-Agent": {"tfbench/1"}},
	}
	wantResponse(t, render(t, p, rRequest, req), 200, "application/json",
		`{"method":"POST","path":"/request","q":"first","missing":"","agent":"tfbench/1","absent":""}`)
}

func TestQueryValue(t *testing.T) {
	for _, tc := range []struct{ raw, name, want string }{
		{"queries=20", "queries", "20"},
		{"a=1&queries=5&queries=7", "queries", "5"},
		{"queries", "queries", ""},
		{"queries=", "queries", ""},
		{"x=a%20b+c", "x", "a b c"},
		{"x%41=1&xA=2", "xA", "1"}, // keys decode too
		{"x=%zz&x=2", "x", "2"},    // a pair that does not decode is skipped
		{"x=1;y=2&x=3", "x", "3"},  // url.ParseQuery rejects ";"
		{"", "x", ""},
		{"rows=10000", "row", ""},
	} {
		if got := queryValue(tc.raw, tc.name); got != tc.want {
			t.Errorf("queryValue(%q, %q) = %q, want %q", tc.raw, tc.name, got, tc.want)
		}
		want := url.Values{}
		if v, err := url.ParseQuery(tc.raw); err == nil || len(v) > 0 {
			want = v
		}
		if got := queryValue(tc.raw, tc.name); got != want.Get(tc.name) {
			t.Errorf("queryValue(%q, %q) = %q, url.ParseQuery gives %q", tc.raw, tc.name, got, want.Get(tc.name))
		}
	}
}

func TestSQLite(t *testing.T) {
	p := newFixturePool(t, Config{Isolates: 1})

	resp := render(t, p, rDB, get("/db", url.Values{"id": {"42"}}))
	wantResponse(t, resp, 200, "application/json", fmt.Sprintf(`{"id":42,"randomNumber":%d}`, worldRandom(42)))
	wantResponse(t, render(t, p, rDB, get("/db", url.Values{"id": {"1000"}})), 200, "application/json", "null")

	var rows []string
	for _, id := range []int{3, 100, 3, 7} {
		rows = append(rows, fmt.Sprintf(`{"id":%d,"randomNumber":%d}`, id, worldRandom(id)))
	}
	wantResponse(t, render(t, p, rQueries, get("/queries", url.Values{"ids": {"3,100,3,7,101"}})),
		200, "application/json", "["+strings.Join(rows, ",")+",null]")

	var all []string
	for _, f := range fixtureFortunes {
		all = append(all, fmt.Sprintf(`{"id":%d,"message":%s}`, f.id, stringifyJSON(f.msg)))
	}
	wantResponse(t, render(t, p, rAll, nil), 200, "application/json", "["+strings.Join(all, ",")+"]")

	wantResponse(t, render(t, p, rRun, nil), 200, "application/json", `{"changes":3}`)

	// tx: 3 updates in one BEGIN IMMEDIATE, then read back by batch.
	wantResponse(t, render(t, p, rUpdates, get("/updates", url.Values{"ids": {"5,6,9"}})), 200, "application/json",
		`{"changed":3,"rows":[{"id":5,"randomNumber":5005},{"id":6,"randomNumber":5006},{"id":9,"randomNumber":5009}]}`)
	// A failing tx item rolls back the whole transaction: with fail=1 the
	// fixture appends [null, 10], violating NOT NULL after ids 10 and 11
	// were updated.
	resp, err := p.Render(context.Background(), rUpdates, get("/updates", url.Values{"ids": {"10,11"}, "fail": {"1"}}))
	var re *RenderError
	if !errors.As(err, &re) || !strings.Contains(re.Message, "tx item 2 (rolled back)") || !strings.Contains(re.Message, "NOT NULL") {
		t.Fatalf("updates with a failing item = %+v, %v; want a RenderError naming tx item 2 and NOT NULL", resp, err)
	}
	wantResponse(t, render(t, p, rQueries, get("/queries", url.Values{"ids": {"10,11"}})), 200, "application/json",
		fmt.Sprintf(`[{"id":10,"randomNumber":%d},{"id":11,"randomNumber":%d}]`, worldRandom(10), worldRandom(11)))

	// A failing statement reaches JS as an error string, thrown by the wrapper.
	_, err = p.Render(context.Background(), rSQLErr, get("/sqlerr", nil))
	line, col := lineOf(t, "new Error(r.slice(5))")
	if !errors.As(err, &re) || re.Message != `Error: __host.all: sqlite: prepare "SELECT nope FROM Nowhere": SQL logic error: no such table: Nowhere` ||
		re.File != fixtureFile || re.Line != line || re.Column != col {
		t.Errorf("sqlerr = %+v, want the SQL error at %s:%d:%d", err, fixtureFile, line, col)
	}
}

func TestFortunesHTML(t *testing.T) {
	p := newFixturePool(t, Config{Isolates: 1})
	type fortune struct {
		id  int
		msg string
	}
	fs := []fortune{{0, "Additional fortune added at request time."}}
	for _, f := range fixtureFortunes {
		fs = append(fs, fortune{f.id, f.msg})
	}
	slices.SortFunc(fs, func(a, b fortune) int { return strings.Compare(a.msg, b.msg) })
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>")
	for _, f := range fs {
		fmt.Fprintf(&b, "<tr><td>%d</td><td>%s</td></tr>", f.id, html.EscapeString(f.msg))
	}
	b.WriteString("</table></body></html>")
	wantResponse(t, render(t, p, rFortunes, nil), 200, "text/html; charset=utf-8", b.String())
}

// lineOf returns the 1-based line of the first line in the fixture that
// contains s.
func lineOf(t *testing.T, s string) (line, col int) {
	t.Helper()
	src, err := os.ReadFile(fixtureFile)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(src), "\n") {
		if c := strings.Index(l, s); c >= 0 {
			return i + 1, c + 1
		}
	}
	t.Fatalf("%q not in %s", s, fixtureFile)
	return 0, 0
}

func TestRenderErrorMapped(t *testing.T) {
	p := newFixturePool(t, Config{Isolates: 1})
	line, col := lineOf(t, `new Error("boom")`) // V8 records where the Error was made
	for _, route := range []int{rThrow, rAsyncThrow} {
		path := p.Routes()[route].Path
		_, err := p.Render(context.Background(), route, get(path, nil))
		var re *RenderError
		if !errors.As(err, &re) {
			t.Fatalf("%s: error %v (%T), want *RenderError", path, err, err)
		}
		if re.Route != path || re.Message != "Error: boom" || re.File != fixtureFile || re.Line != line || re.Column != col {
			t.Errorf("%s: RenderError %+v, want Error: boom at %s:%d:%d", path, re, fixtureFile, line, col)
		}
		if want := fmt.Sprintf("Error: boom at %s:%d:%d", fixtureFile, line, col); re.Error() != want {
			t.Errorf("%s: Error() = %q, want %q", path, re.Error(), want)
		}
		if strings.Contains(re.Stack, scriptName) || !strings.Contains(re.Stack, "failDeep") {
			t.Errorf("%s: stack not fully mapped:\n%s", path, re.Stack)
		}
	}
	// The isolate is still usable after exceptions.
	wantResponse(t, render(t, p, rJSON, nil), 200, "application/json", `{"message":"Hello, World!"}`)
}

func TestStartupErrors(t *testing.T) {
	script, _ := fixtureBundle(t)
	dbPath := fixtureDB(t)
	missing := filepath.Join(t.TempDir(), "none.db")
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"mode", Config{Script: script, Mode: "fast"}, `runtime: mode "fast", want "pool" or "serialized"`},
		{"missing db", Config{Script: script, DatabasePath: missing}, "runtime: isolate 0: sqlite open "},
		{"syntax", Config{Script: "let x = ;", DatabasePath: dbPath}, "runtime: isolate 0: run bundle.js: SyntaxError: Unexpected token ';' at bundle.js:1:9"},
		{"no engine", Config{Script: "1", DatabasePath: dbPath}, "runtime: isolate 0: globalThis.__engine is not an object"},
		{"meta", Config{Script: `globalThis.__engine = {render() {}, meta: () => "[{}]"}`, DatabasePath: dbPath}, `route 0 (): path "" must start with "/"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := New(tc.cfg)
			if err == nil {
				p.Close()
				t.Fatalf("New succeeded, want error %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to contain %q", err, tc.want)
			}
		})
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("missing database was created: %v", err)
	}
}

func TestAsyncRoute(t *testing.T) {
	p := newFixturePool(t, Config{Isolates: 1})
	wantResponse(t, render(t, p, rAsync, get("/async", url.Values{"id": {"77"}})), 201, "application/json",
		fmt.Sprintf(`{"id":77,"randomNumber":%d}`, worldRandom(77)))
}

func TestRendersCounted(t *testing.T) {
	p := newFixturePool(t, Config{Isolates: 1})
	for range 3 {
		render(t, p, rJSON, nil)
	}
	render(t, p, rDB, get("/db", url.Values{"id": {"1"}}))
	p.Render(context.Background(), rThrow, get("/throw", nil)) // errors count too
	want := make([]uint64, len(p.Routes()))
	want[rJSON], want[rDB], want[rThrow] = 3, 1, 1
	if got := p.Renders(); !slices.Equal(got, want) {
		t.Errorf("Renders() = %v, want %v", got, want)
	}
}

func TestErrBusy(t *testing.T) {
	p := newFixturePool(t, Config{Isolates: 1, QueueTimeout: 30 * time.Millisecond})
	s, err := p.borrow(context.Background(), rJSON) // hold the only isolate
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Render(context.Background(), rJSON, get("/json", nil)); err != ErrBusy {
		t.Errorf("render with the isolate held: %v, want ErrBusy", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Render(ctx, rJSON, get("/json", nil)); err != context.Canceled {
		t.Errorf("render with a canceled context: %v, want context.Canceled", err)
	}
	p.release(s)
	render(t, p, rJSON, nil)
	if got := p.Renders()[rJSON]; got != 1 {
		t.Errorf("Renders()[json] = %d, want 1 (ErrBusy is not a render)", got)
	}
}

func TestModes(t *testing.T) {
	dbPath := fixtureDB(t)
	if p := newFixturePool(t, Config{Mode: ModeSerialized, Isolates: 4, DatabasePath: dbPath}); p.Isolates() != 1 {
		t.Errorf("serialized with Isolates 4: %d isolates, want 1", p.Isolates())
	}
	if p := newFixturePool(t, Config{Mode: ModePool, Isolates: 2, DatabasePath: dbPath}); p.Isolates() != 2 {
		t.Errorf("pool with Isolates 2: %d isolates, want 2", p.Isolates())
	}
}

func TestConcurrentRenders(t *testing.T) {
	p := newFixturePool(t, Config{Isolates: 2})
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := range 4 {
		wg.Go(func() {
			for i := range 200 {
				id := (g*200+i)%100 + 1
				resp, err := p.Render(context.Background(), rDB, get("/db", url.Values{"id": {fmt.Sprint(id)}}))
				if err != nil {
					errs <- err
					return
				}
				if want := fmt.Sprintf(`{"id":%d,"randomNumber":%d}`, id, worldRandom(id)); resp.Body != want {
					errs <- fmt.Errorf("body %s, want %s", resp.Body, want)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := p.Renders()[rDB]; got != 800 {
		t.Errorf("Renders()[db] = %d, want 800", got)
	}
}

func TestClose(t *testing.T) {
	p := newFixturePool(t, Config{Isolates: 1})
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Render(context.Background(), rJSON, get("/json", nil)); err != ErrClosed {
		t.Errorf("render after Close: %v, want ErrClosed", err)
	}
}

// TestRetainedFlat renders every kind of route 100,000 times in all and
// requires the tracked v8go value count to stay exactly where it was after
// New: arguments, results and callback values are all released.
func TestRetainedFlat(t *testing.T) {
	p := newFixturePool(t, Config{Isolates: 1, Log: log.New(io.Discard, "", 0)})
	mix := []struct {
		route int
		q     url.Values
	}{
		{rJSON, nil}, {rRequest, url.Values{"q": {"x"}}}, {rDB, url.Values{"id": {"5"}}},
		{rQueries, url.Values{"ids": {"1,2,3,4,5,6,7,8,9,10"}}}, {rUpdates, url.Values{"ids": {"11,12"}}},
		{rAll, nil}, {rFortunes, nil}, {rThrow, nil}, {rAsync, url.Values{"id": {"9"}}},
		{rAsyncThrow, nil}, {rSQLErr, nil}, {rRun, nil}, {rBadFrame, nil}, {rAsyncBadFrame, nil},
		{rConsole, nil},
	}
	round := func() {
		for _, m := range mix {
			p.Render(context.Background(), m.route, get(p.Routes()[m.route].Path, m.q))
		}
	}
	base := p.Retained() // global, __engine, render and the context's own
	round()
	if got := p.Retained(); got != base {
		t.Errorf("retained values %d after the first round, %d after New", got, base)
	}
	rounds := 100000 / len(mix)
	for range rounds - 1 {
		round()
	}
	if got := p.Retained(); got != base {
		t.Errorf("retained values %d after %d renders, %d after New", got, rounds*len(mix), base)
	}
	if got := p.Renders()[rJSON]; got != uint64(rounds) {
		t.Errorf("Renders()[json] = %d, want %d", got, rounds)
	}
}

// TestNoDatabase: without Config.DatabasePath every SQL host function,
// string- or number-valued, answers an error the route throws.
func TestNoDatabase(t *testing.T) {
	script, sm := fixtureBundle(t)
	p, err := New(Config{Script: script, SourceMap: sm, Isolates: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, tc := range []struct {
		route int
		req   *Request
		want  string
	}{
		{rDB, get("/db", url.Values{"id": {"5"}}), "Error: __host.get: no database (Config.DatabasePath is empty)"},
		{rRun, get("/run", nil), "Error: __host.run: no database (Config.DatabasePath is empty)"},
	} {
		_, err := p.Render(context.Background(), tc.route, tc.req)
		var re *RenderError
		if !errors.As(err, &re) || re.Message != tc.want {
			t.Errorf("%s: error %v, want a RenderError %q", tc.req.Path, err, tc.want)
		}
	}
}

// TestRenderTimeout: a render that never returns is terminated after
// Config.RenderTimeout (1 s: far above a fixture render on a busy machine) with a *TimeoutError naming the route, and the same
// isolate (the pool has one) renders the next request; a Promise that spins
// in a microtask is terminated too.
func TestRenderTimeout(t *testing.T) {
	p := newFixturePool(t, Config{Isolates: 1, RenderTimeout: time.Second})
	render(t, p, rSpin, get("/spin", nil))
	base := p.Retained()
	for _, route := range []int{rSpin, rAsyncSpin} {
		path := p.Routes()[route].Path
		start := time.Now()
		_, err := p.Render(context.Background(), route, get(path, url.Values{"spin": {"1"}}))
		took := time.Since(start)
		var te *TimeoutError
		if !errors.As(err, &te) || te.Route != path || te.Limit != time.Second || !te.Timeout() {
			t.Fatalf("render of %s = %v, want a *TimeoutError for %s after 1s", path, err, path)
		}
		if want := "runtime: render of " + path + " terminated after the 1s render timeout"; err.Error() != want {
			t.Errorf("error = %q, want %q", err, want)
		}
		if took < time.Second {
			t.Errorf("render of %s ended after %v, before the 1s timeout", path, took)
		}
		// The isolate renders again, its state intact.
		wantResponse(t, render(t, p, rJSON, get("/json", nil)), 200, "application/json", `{"message":"Hello, World!"}`)
	}
	wantResponse(t, render(t, p, rSpin, get("/spin", nil)), 200, "text/plain", "spun 3")
	// A render under the timeout is not touched, however often it runs.
	for range 50 {
		render(t, p, rFortunes, get("/fortunes", nil))
	}
	// Terminated renders release their values too.
	if n := p.Retained(); n != base {
		t.Errorf("Retained() = %d after two terminated renders, %d before", n, base)
	}
}

// TestConsole: console output of a render goes to the pool's log with the
// route's path; output while the bundle starts says "(start)".
func TestConsole(t *testing.T) {
	var logs logbuf.Buffer
	p := newFixturePool(t, Config{Isolates: 1, Log: log.New(&logs, "", 0)})
	wantResponse(t, render(t, p, rConsole, get("/console", nil)), 200, "text/plain", "logged")
	got := logs.String()
	for _, want := range []string{
		"engine: console.info (start): fixture loaded\n",
		"engine: console.log /console: rows 3 {\"a\":[1,\"x\"]} null undefined\n",
		"engine: console.error /console: Error: bad row\n    at Object.render (" + fixtureFile + ":",
		"engine: console.warn /console: cycle [object Object]\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("log lacks %q; log:\n%s", want, got)
		}
	}
}

// stringifyJSON is s as JSON.stringify writes it: quotes, backslashes and
// control characters escaped, every other character as it is.
func stringifyJSON(s string) string {
	var b strings.Builder
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(s); err != nil {
		panic(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// gatedHeader is the Header of a render of /request that holds its isolate
// inside __host.header until open is closed; entered is closed when the
// render got there.
type gatedHeader struct {
	entered, open chan struct{}
	once          sync.Once
}

func newGatedHeader() *gatedHeader {
	return &gatedHeader{entered: make(chan struct{}), open: make(chan struct{})}
}

// release lets the render go on; safe to call again.
func (g *gatedHeader) release() { g.once.Do(func() { close(g.open) }) }

func (g *gatedHeader) Get(string) string {
	select {
	case <-g.entered:
	default:
		close(g.entered)
	}
	<-g.open
	return ""
}

// The admission in the pool: with the only isolate held by a dear render
// and two more queued, a cheap route renders as soon as the first one
// ends, while the queued ones are still held (AdmissionCost); in arrival
// order the cheap route is still queued when the next dear one runs.
func TestPoolShortRouteFirst(t *testing.T) {
	for _, policy := range []Admission{AdmissionCost, AdmissionArrival} {
		t.Run(string(policy), func(t *testing.T) {
			p := newFixturePool(t, Config{Isolates: 1, Admission: policy, QueueTimeout: time.Minute})
			p.costs[rRequest].observe(time.Second) // /request costs 1 s, /json (no render yet) minCost
			longs := make([]*gatedHeader, 3)
			for i := range longs {
				longs[i] = newGatedHeader()
			}
			t.Cleanup(func() { // before Close (cleanups run last first): a failed test does not hang
				for _, g := range longs {
					g.release()
				}
			})
			done := make(chan error, 4)
			for i := range longs {
				go func() {
					_, err := p.Render(context.Background(), rRequest, &Request{Method: "GET", Path: "/request", Header: longs[i]})
					done <- err
				}()
				if i == 0 {
					<-longs[0].entered // long 0 renders
					continue
				}
				eventually(t, "long render queued", func() bool { return p.adm.waiting() == i })
			}
			short := make(chan *Response, 1)
			go func() {
				resp, err := p.Render(context.Background(), rJSON, get("/json", nil))
				done <- err
				short <- resp
			}()
			eventually(t, "short render queued", func() bool { return p.adm.waiting() == 3 })
			longs[0].release()
			switch policy {
			case AdmissionCost:
				// Longs 1 and 2 hold their isolate until opened: the short
				// render can only return if it went before them.
				select {
				case resp := <-short:
					if resp == nil || resp.Body != `{"message":"Hello, World!"}` {
						t.Fatalf("short render: %+v", resp)
					}
				case <-time.After(10 * time.Second): // liveness only
					t.Fatal("short render still waiting after the long one under way ended")
				}
			case AdmissionArrival:
				<-longs[1].entered // long 1 renders; the short one waits behind long 2
				if n := p.adm.waiting(); n != 2 {
					t.Errorf("%d waiting, want 2 (long 2 and the short one)", n)
				}
			}
			longs[1].release()
			longs[2].release()
			for range 4 {
				if err := <-done; err != nil {
					t.Error(err)
				}
			}
			if got := p.ExpectedRender(rJSON); got <= 0 || got > time.Second {
				t.Errorf("ExpectedRender(/json) = %v after one render, want its render time", got)
			}
		})
	}
}

func TestAdmissionConfigError(t *testing.T) {
	_, err := New(Config{Admission: "lifo"})
	if want := `runtime: admission "lifo", want "cost" or "arrival"`; err == nil || err.Error() != want {
		t.Errorf("New with Admission lifo: %v, want %s", err, want)
	}
}

// TestHostArgs: host functions read their arguments as V8's String() of
// them: a one-byte name above U+007F and a two-byte one as UTF-8, a number
// as its digits, a Symbol (whose conversion throws), undefined and null as
// "".
func TestHostArgs(t *testing.T) {
	script := `globalThis.__engine = {
  meta: () => '[{"path":"/args","file":"args.js","revalidate":0}]',
  render: () => "200\ntext/plain\n" + [__host.query("é"), __host.query("フ"), __host.query(42), __host.query(Symbol("s")),
    __host.query(), __host.query(null), __host.get("SELECT 1 AS a", "")].join("|"),
};`
	p, err := New(Config{Script: script, DatabasePath: fixtureDB(t), Isolates: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	req := &Request{Method: "GET", Path: "/args", RawQuery: "%C3%A9=latin&%E3%83%95=two&42=num&=empty"}
	for range 2 {
		resp, err := p.Render(context.Background(), 0, req)
		if err != nil {
			t.Fatal(err)
		}
		if want := `latin|two|num|empty|empty|empty|{"a":1}`; resp.Body != want {
			t.Errorf("body = %q, want %q", resp.Body, want)
		}
	}
}

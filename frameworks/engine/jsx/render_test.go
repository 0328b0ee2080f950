//go:build cgo

package jsx_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	v8 "github.com/tommie/v8go"

	"github.com/tfbench/tfbench/frameworks/engine/bundle"
	// The runtime package carries the glibc forwarding file that lets the prebuilt V8 link on glibc < 2.38.
	_ "github.com/tfbench/tfbench/frameworks/engine/runtime"
)

// stubHost is a JavaScript __host for tests: request values come from globalThis.__req, database answers from
// globalThis.__db (functions per host call), and every database call is recorded in globalThis.__calls as
// [name, sql, parsed params].
const stubHost = `
globalThis.__req = { method: "GET", path: "/", query: {}, header: {} };
globalThis.__calls = [];
globalThis.__db = {};
const dbCall = (name) => (sql, p) => {
  const params = JSON.parse(p);
  __calls.push([name, sql, params]);
  const f = __db[name];
  if (f === undefined) return "\u0000ERR:no stub for " + name;
  const r = f(sql, params);
  if (name === "all") return JSON.stringify(flat(r));
  return typeof r === "number" ? r : JSON.stringify(r);
};
// flat is __host.all's form of rows: [names, ...values row by row], the names those of the first row.
const flat = (rows) => {
  const names = rows.length === 0 ? [] : Object.keys(rows[0]);
  return [names].concat(...rows.map((r) => names.map((n) => r[n])));
};
globalThis.__host = {
  method: () => __req.method,
  path: () => __req.path,
  query: (n) => __req.query[n] ?? "",
  header: (n) => __req.header[n.toLowerCase()] ?? "",
  all: dbCall("all"), get: dbCall("get"), run: dbCall("run"), batch: dbCall("batch"), tx: dbCall("tx"),
};
`

// engine is one V8 context running an app bundle over stubHost.
type engine struct {
	t      testing.TB
	ctx    *v8.Context
	routes map[string]int
}

// newEngine bundles appDir, runs stubHost and the script in a fresh context and reads the route table.
func newEngine(t testing.TB, appDir string) *engine {
	t.Helper()
	return newEngineWith(t, appDir, bundle.Options{})
}

// newEngineWith is newEngine with bundle options.
func newEngineWith(t testing.TB, appDir string, o bundle.Options) *engine {
	t.Helper()
	b, err := bundle.BuildWith(appDir, o)
	if err != nil {
		t.Fatal(err)
	}
	iso := v8.NewIsolate()
	ctx := v8.NewContext(iso)
	t.Cleanup(func() { ctx.Close(); iso.Dispose() })
	e := &engine{t: t, ctx: ctx, routes: map[string]int{}}
	e.run(stubHost)
	if _, err := ctx.RunScript(b.Script, bundle.ScriptName); err != nil {
		t.Fatalf("run %s bundle: %v", appDir, err)
	}
	for i, r := range b.Routes {
		e.routes[r.Path] = i
	}
	return e
}

// run evaluates src and returns its result as a string.
func (e *engine) run(src string) string {
	e.t.Helper()
	v, err := e.ctx.RunScript(src, "test.js")
	if err != nil {
		e.t.Fatalf("%s: %v", src, err)
	}
	defer v.Release()
	return v.String()
}

// render calls __engine.render for the route at path. It returns the frame, whether render returned a Promise,
// and the error message when render threw or its Promise rejected ("" otherwise).
func (e *engine) render(path string) (frame string, async bool, errMsg string) {
	e.t.Helper()
	i, ok := e.routes[path]
	if !ok {
		e.t.Fatalf("no route %s in %v", path, e.routes)
	}
	v, err := e.ctx.RunScript(fmt.Sprintf("__engine.render(%d)", i), "test.js")
	if err != nil {
		return "", false, err.(*v8.JSError).Message
	}
	defer v.Release()
	if !v.IsPromise() {
		return pageText(v.String()), false, ""
	}
	p, err := v.AsPromise()
	if err != nil {
		e.t.Fatal(err)
	}
	if p.State() == v8.Pending {
		e.ctx.PerformMicrotaskCheckpoint()
	}
	r := p.Result()
	defer r.Release()
	switch p.State() {
	case v8.Fulfilled:
		return pageText(r.String()), true, ""
	case v8.Rejected:
		return "", true, r.String()
	}
	e.t.Fatalf("render %s: promise still pending", path)
	return "", true, ""
}

// TestRender checks the JSX runtime's exact output on the fixture app testdata/app.
// pageText turns a frame whose status ends in "~" (an HTML page, a byte
// string: each character one byte of its UTF-8) into a plain frame of text.
func pageText(frame string) string {
	line, rest, _ := strings.Cut(frame, "\n")
	status, ok := strings.CutSuffix(line, "~")
	if !ok {
		return frame
	}
	b := make([]byte, 0, len(rest))
	for _, r := range rest {
		if r > 0xff {
			panic(fmt.Sprintf("page byte string has U+%04X", r))
		}
		b = append(b, byte(r))
	}
	return status + "\n" + string(b)
}

// TestRender renders every fixture route with precompiled elements, with the
// runtime's jsx() alone and with text (two-byte) pages: the same HTML.
func TestRender(t *testing.T) {
	for _, o := range []bundle.Options{{}, {RuntimeJSX: true}, {TwoBytePages: true}, {RuntimeJSX: true, TwoBytePages: true}} {
		t.Run(fmt.Sprintf("%+v", o), func(t *testing.T) { testRender(t, newEngineWith(t, "testdata/app", o)) })
	}
}

func testRender(t *testing.T, e *engine) {
	const htmlType = "200\ntext/html; charset=utf-8\n"
	for _, tc := range []struct {
		path  string
		async bool
		want  string
	}{
		{"/escape", false, htmlType + `<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; it&apos;s a &amp; b</p>`},
		{"/attrs", false, htmlType + `<a href="/x?a=1&amp;b=2" title="&quot;quoted&quot; &lt;b&gt; &amp; &apos;single&apos;" class="c" data-n="42" hidden>link</a>`},
		{"/fragments", false, htmlType + `<b>one</b><i>two</i>three &amp; four<u>five</u>`},
		{"/children", false, htmlType + `<ul>abc07<li>1</li><li>2</li></ul>`},
		{"/void", false, htmlType + `<div><br><img src="a.png" alt="a &apos;b&apos;"><input type="checkbox" checked><hr><meta charset="utf-8"></div>`},
		{"/async", true, htmlType + `<!DOCTYPE html><html><body><section class="card"><h2>A &amp; B</h2><em>&lt;late&gt;</em><span>sync</span><em>one</em>two</section></body></html>`},
		{"/unicode", false, htmlType + `<p title="Zoë — フレーム" data-static="…">café — Zoë — フレーム <b>ß</b> 𝄞 x` + "\ufffd" + `y 8</p>`},
		{"/nested", false, htmlType + `<!DOCTYPE html><html lang="en"><body><section class="card"><h2>Nested</h2><ol><li data-n="1">x&lt;y</li><li data-n="2">z</li></ol></section></body></html>`},
	} {
		got, async, errMsg := e.render(tc.path)
		if errMsg != "" {
			t.Errorf("%s: render failed: %s", tc.path, errMsg)
			continue
		}
		if got != tc.want || async != tc.async {
			t.Errorf("%s: render = %q (async %v)\nwant %q (async %v)", tc.path, got, async, tc.want, tc.async)
		}
	}

	// html()'s doctype: from Markup.doc for an element page, from the text for raw HTML and fragments.
	for _, tc := range []struct{ root, want string }{
		{"component", `<!DOCTYPE html><html><body>c</body></html>`},
		{"fragment", `<!DOCTYPE html><html><body>f</body></html>`},
		{"raw", `<!DOCTYPE html><html><body>r</body></html>`},
		{"rawmarkup", `<!DOCTYPE html><html lang=x>m</html>`},
		{"custom", `<html-x>x</html-x>`},
		{"div", `<div>d</div>`},
	} {
		e.run(`__req.query = { root: "` + tc.root + `" };`)
		got, _, errMsg := e.render("/doctype")
		if got != htmlType+tc.want || errMsg != "" {
			t.Errorf("/doctype?root=%s: render = %q, %q; want %q", tc.root, got, errMsg, htmlType+tc.want)
		}
	}
	e.run(`__req.query = {};`)

	if _, _, errMsg := e.render("/voidchildren"); errMsg != "TypeError: <br> is a void element and cannot have children" {
		t.Errorf("/voidchildren error = %q", errMsg)
	}
}

// TestHostAPI checks the request and db wrappers, json's status, meta() and the host error marker.
// TestAllRows: db.all makes row objects of __host.all's flat array: one
// object per row, a "__proto__" column an own property (not the
// prototype), a repeated name its last value, no rows for no columns.
func TestAllRows(t *testing.T) {
	e := newEngine(t, "testdata/app")
	e.run(`__db.get = () => null; __db.run = () => 0;`)
	for _, tc := range []struct{ flat, want string }{
		{`[["id","randomNumber"],1,7,2,9]`, `[{"id":1,"randomNumber":7},{"id":2,"randomNumber":9}]`},
		{`[["__proto__","a","a"],1,2,3,4,5,6]`, `[{"__proto__":1,"a":3},{"__proto__":4,"a":6}]`},
		{`[["x"]]`, `[]`},
		{`[[]]`, `[]`},
		{`[["t","n"],"\u30d5",null]`, `[{"t":"フ","n":null}]`},
	} {
		e.run(`__host.all = () => ` + strconv.Quote(tc.flat) + `;`)
		got, _, errMsg := e.render("/host")
		if i := strings.Index(got, `"all":`); i < 0 || !strings.HasPrefix(got[i+6:], tc.want+`,"changed"`) {
			t.Errorf("db.all of %s: %q (error %q), want all %s", tc.flat, got, errMsg, tc.want)
		}
	}
}

func TestHostAPI(t *testing.T) {
	e := newEngine(t, "testdata/app")
	e.run(`__req = { method: "POST", path: "/host", query: { q: "a\u0000b" }, header: { "x-test": "yes" } };
		__db.get = (sql, p) => ({ sql, p });
		__db.all = () => [{ n: 1 }, { n: 2 }];
		__db.run = () => 3;`)
	got, async, errMsg := e.render("/host")
	want := "201\napplication/json\n" +
		`{"method":"POST","path":"/host","q":"a\u0000b","h":"yes","row":{"sql":"SELECT ?","p":[7,"s"]},"all":[{"n":1},{"n":2}],"changed":3}`
	if got != want || async || errMsg != "" {
		t.Errorf("/host = %q (async %v, error %q)\nwant %q", got, async, errMsg, want)
	}
	if calls := e.run(`JSON.stringify(__calls)`); calls != `[["get","SELECT ?",[7,"s"]],["all","SELECT 1",[]],["run","DELETE",[]]]` {
		t.Errorf("host calls = %s", calls)
	}

	e.run(`__db.get = undefined`)
	if _, _, errMsg := e.render("/hosterror"); errMsg != "Error: no stub for get" {
		t.Errorf("/hosterror error = %q, want %q", errMsg, "Error: no stub for get")
	}

	meta := e.run(`__engine.meta()`)
	if !strings.Contains(meta, `{"path":"/host","file":"app/routes/host.ts","revalidate":2.5}`) ||
		!strings.Contains(meta, `{"path":"/escape","file":"app/routes/escape.tsx","revalidate":0}`) {
		t.Errorf("meta() = %s", meta)
	}
	if _, _, errMsg := e.render("/nested"); errMsg != "" {
		t.Fatal(errMsg)
	}
	if r := e.run(`try { __engine.render(99) } catch (e) { String(e) }`); r != "RangeError: route index 99: the app has 12 routes" {
		t.Errorf("render(99) = %q", r)
	}
}

// TestAppRoutes renders the real app (../app) over stubHost: the six TFB routes and the page test's /ssr and /isr
// (/stream: cmd/engine's TestStream).
func TestAppRoutes(t *testing.T) {
	for _, o := range []bundle.Options{{}, {RuntimeJSX: true}, {TwoBytePages: true}} {
		t.Run(fmt.Sprintf("%+v", o), func(t *testing.T) { testAppRoutes(t, newEngineWith(t, "../app", o)) })
	}
}

func testAppRoutes(t *testing.T, e *engine) {
	meta := e.run(`__engine.meta()`)
	wantMeta := `[{"path":"/db","file":"app/routes/db.ts","revalidate":0},` +
		`{"path":"/fortunes","file":"app/routes/fortunes.tsx","revalidate":0},` +
		`{"path":"/isr","file":"app/routes/isr.tsx","revalidate":3600},` +
		`{"path":"/json","file":"app/routes/json.ts","revalidate":0},` +
		`{"path":"/plaintext","file":"app/routes/plaintext.ts","revalidate":0},` +
		`{"path":"/queries","file":"app/routes/queries.ts","revalidate":0},` +
		`{"path":"/ssr","file":"app/routes/ssr.tsx","revalidate":0},` +
		`{"path":"/stream","file":"app/routes/stream.tsx","revalidate":0,"stream":true},` +
		`{"path":"/updates","file":"app/routes/updates.ts","revalidate":0}]`
	if meta != wantMeta {
		t.Errorf("meta() = %s\nwant %s", meta, wantMeta)
	}

	expect := func(path, want string) {
		t.Helper()
		got, async, errMsg := e.render(path)
		if got != want || async || errMsg != "" {
			t.Errorf("%s = %q (async %v, error %q)\nwant %q", path, got, async, errMsg, want)
		}
	}
	expect("/json", "200\napplication/json\n"+`{"message":"Hello, World!"}`)
	expect("/plaintext", "200\ntext/plain; charset=utf-8\nHello, World!")

	fortunes, err := os.ReadFile("testdata/fortunes.json")
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile("testdata/fortunes-expected.html")
	if err != nil {
		t.Fatal(err)
	}
	e.run(`const fortunes = ` + string(fortunes) + `; __db.all = () => fortunes.map((f) => ({ ...f }));`)
	expect("/fortunes", "200\ntext/html; charset=utf-8\n"+strings.TrimSuffix(string(page), "\n"))

	// db: the row the host returns for the id asked for.
	e.run(`__calls = []; __db.get = (sql, p) => ({ id: p[0], randomNumber: 10001 - p[0] });`)
	got, _, errMsg := e.render("/db")
	var row struct{ ID, RandomNumber int }
	if err := json.Unmarshal([]byte(strings.TrimPrefix(got, "200\napplication/json\n")), &row); err != nil || errMsg != "" {
		t.Fatalf("/db = %q (error %q): %v", got, errMsg, err)
	}
	if row.ID < 1 || row.ID > 10000 || row.RandomNumber != 10001-row.ID {
		t.Errorf("/db row %+v", row)
	}
	if calls := e.run(`JSON.stringify(__calls.map(c => c[1]))`); calls != `["SELECT id, randomNumber FROM World WHERE id = ?"]` {
		t.Errorf("/db host calls %s", calls)
	}

	// queries: TFB rules, queries test: clamp to 1..500, bad or missing -> 1; one batch call with N params lists.
	e.run(`__db.batch = (sql, ps) => ps.map((p) => ({ id: p[0], randomNumber: 5 }));`)
	for _, tc := range []struct {
		q    string
		rows int
	}{{"2", 2}, {"0", 1}, {"foo", 1}, {"", 1}, {"501", 500}, {"+20", 20}, {"-3", 1}} {
		e.run(`__calls = []; __req.query = { queries: ` + fmt.Sprintf("%q", tc.q) + ` };`)
		got, _, errMsg := e.render("/queries")
		var rows []struct{ ID, RandomNumber int }
		if err := json.Unmarshal([]byte(strings.TrimPrefix(got, "200\napplication/json\n")), &rows); err != nil || errMsg != "" {
			t.Fatalf("/queries?queries=%s = %q (error %q): %v", tc.q, got, errMsg, err)
		}
		calls := e.run(`JSON.stringify(__calls.map(c => [c[0], c[1], c[2].length]))`)
		wantCalls := fmt.Sprintf(`[["batch","SELECT id, randomNumber FROM World WHERE id = ?",%d]]`, tc.rows)
		if len(rows) != tc.rows || calls != wantCalls {
			t.Errorf("/queries?queries=%q: %d rows, calls %s; want %d rows, calls %s", tc.q, len(rows), calls, tc.rows, wantCalls)
		}
	}

	// updates: every row gets a new randomNumber in 1..10000, written in one tx call, and returned.
	e.run(`__calls = []; __req.query = { queries: "20" }; __db.tx = (sql, ps) => ps.length;`)
	got, _, errMsg = e.render("/updates")
	var rows []struct{ ID, RandomNumber int }
	if err := json.Unmarshal([]byte(strings.TrimPrefix(got, "200\napplication/json\n")), &rows); err != nil || errMsg != "" || len(rows) != 20 {
		t.Fatalf("/updates = %q (error %q): %v", got, errMsg, err)
	}
	var tx []any
	if err := json.Unmarshal([]byte(e.run(`JSON.stringify(__calls[1])`)), &tx); err != nil {
		t.Fatal(err)
	}
	params := tx[2].([]any)
	if tx[0] != "tx" || tx[1] != "UPDATE World SET randomNumber = ? WHERE id = ?" || len(params) != 20 {
		t.Fatalf("/updates second host call %v", tx)
	}
	for i, r := range rows {
		p := params[i].([]any)
		if r.RandomNumber == 5 || r.RandomNumber < 1 || r.RandomNumber > 10000 || p[0] != float64(r.RandomNumber) || p[1] != float64(r.ID) {
			t.Errorf("/updates row %d %+v, tx params %v", i, r, p)
		}
	}

	// ssr and isr (docs/ssr.md, The page): ?rows= clamped to 1..10000, bad or missing -> 1; one db.all with N,
	// rendered through WorldTable -> Row -> Cell.
	e.run(`__db.all = (sql, p) => { const r = []; for (let id = 1; id <= p[0]; id++) r.push({ id, randomNumber: id * 2 }); return r; };`)
	for _, tc := range []struct {
		path, q string
		rows    int
	}{{"/ssr", "2", 2}, {"/ssr", "1000", 1000}, {"/ssr", "0", 1}, {"/ssr", "foo", 1}, {"/ssr", "", 1},
		{"/ssr", "20000", 10000}, {"/ssr", "+7", 7}, {"/ssr", "-3", 1}, {"/isr", "3", 3}} {
		e.run(`__calls = []; __req.query = { rows: ` + fmt.Sprintf("%q", tc.q) + ` };`)
		got, async, errMsg := e.render(tc.path)
		if errMsg != "" || async {
			t.Fatalf("%s?rows=%s: error %q, async %v", tc.path, tc.q, errMsg, async)
		}
		var rows strings.Builder
		for id := 1; id <= tc.rows; id++ {
			fmt.Fprintf(&rows, `<tr class="row" data-id="%d"><td class="id">%d</td><td class="num">%d</td></tr>`, id, id, 2*id)
		}
		want := fmt.Sprintf("200\ntext/html; charset=utf-8\n<!DOCTYPE html><html><head><title>World rows 1..%d</title></head><body>"+
			"<table><thead><tr><th>id</th><th>randomNumber</th></tr></thead><tbody>%s</tbody></table></body></html>", tc.rows, rows.String())
		if got != want {
			t.Errorf("%s?rows=%s = %q...%q (%d bytes), want %q...%q (%d bytes)", tc.path, tc.q,
				got[:min(len(got), 300)], got[max(0, len(got)-100):], len(got), want[:min(len(want), 300)], want[max(0, len(want)-100):], len(want))
		}
		calls := e.run(`JSON.stringify(__calls)`)
		if wantCalls := fmt.Sprintf(`[["all","SELECT id, randomNumber FROM World WHERE id BETWEEN 1 AND ? ORDER BY id",[%d]]]`, tc.rows); calls != wantCalls {
			t.Errorf("%s?rows=%s host calls %s, want %s", tc.path, tc.q, calls, wantCalls)
		}
	}
}

// BenchmarkRender measures the JavaScript side of a render (the stub host answers from JS, no SQLite): one
// __engine.render(i) call from Go and the frame read back as a Go string, per op.
func BenchmarkRender(b *testing.B) {
	fortunes, err := os.ReadFile("testdata/fortunes.json")
	if err != nil {
		b.Fatal(err)
	}
	e := newEngine(b, "../app")
	e.run(`const fortunes = ` + string(fortunes) + `; __db.all = (sql, p) => { if (p.length === 0) return fortunes.map((f) => ({ ...f }));
		const r = []; for (let id = 1; id <= p[0]; id++) r.push({ id, randomNumber: id * 2 }); return r; };
		__calls = { push() {} }; __req.query = { rows: "1000" };`)
	eng, err := e.ctx.Global().Get("__engine")
	if err != nil {
		b.Fatal(err)
	}
	obj, _ := eng.AsObject()
	rv, _ := obj.Get("render")
	render, _ := rv.AsFunction()
	for _, path := range []string{"/json", "/fortunes", "/ssr"} {
		b.Run(path[1:], func(b *testing.B) {
			arg, _ := v8.NewValue(e.ctx.Isolate(), int32(e.routes[path]))
			n := 0
			for b.Loop() {
				v, err := render.Call(v8.Undefined(e.ctx.Isolate()), arg)
				if err != nil {
					b.Fatal(err)
				}
				n += len(v.String())
				v.Release()
			}
			b.ReportMetric(float64(n)/float64(b.N), "bytes/op")
		})
	}
}

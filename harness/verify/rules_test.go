package verify

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"slices"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/tfbench/tfbench/harness/model"
)

// onType returns a mutate hook that applies f to replies of test type typ
// (and, if q is not "*", only for that queries value).
func onType(typ model.TestType, q string, f func(rp *reply)) func(model.TestType, string, *reply) {
	return func(t model.TestType, got string, rp *reply) {
		if t == typ && (q == "*" || q == got) {
			f(rp)
		}
	}
}

// withHeader sets header key of typ's replies to v (nil: suppressed).
func withHeader(typ model.TestType, key string, v ...string) serverOpts {
	return serverOpts{mutate: onType(typ, "*", func(rp *reply) { rp.header[key] = v })}
}

// withBody replaces the body of typ's replies (for queries value q).
func withBody(typ model.TestType, q, body string) serverOpts {
	return serverOpts{mutate: onType(typ, q, func(rp *reply) { rp.body = []byte(body) })}
}

// withPage serves fortunes pages made by f from the correct page.
func withPage(f func(page []byte) []byte) serverOpts {
	return serverOpts{fortunes: func(rows []fortune) []byte { return f(templatePage(rows)) }}
}

// sortedBy renders rows sorted by less (or in the given order if nil).
func sortedBy(cmp func(a, b fortune) int) serverOpts {
	return serverOpts{fortunes: func(rows []fortune) []byte {
		rows = slices.Clone(rows)
		if cmp != nil {
			slices.SortStableFunc(rows, cmp)
		}
		return renderPage(rows)
	}}
}

// localeKey approximates a locale compare (JavaScript's localeCompare):
// punctuation ignored, case folded.
func localeKey(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r > 127:
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return -1
	}, s)
}

// unescapedTemplate renders without escaping (text/template).
var unescapedTemplate = template.Must(template.New("f").Parse(
	`<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>` +
		`{{range .}}<tr><td>{{.ID}}</td><td>{{.Message}}</td></tr>{{end}}</table></body></html>`))

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// ruleCase is one rule broken alone and the verdict it must get.
type ruleCase struct {
	name string
	typ  model.TestType
	opts serverOpts
	want model.Verdict
	// reasons, when set, are the exact reasons; else contains must occur
	// in one of them (and a pass has none).
	reasons  []string
	contains string
}

func TestRunEveryRule(t *testing.T) {
	frozen := dateBase.Format(http.TimeFormat)
	const (
		jsonCT  = "want application/json with optional ; charset=utf-8"
		rowRule = "(TFB rules, queries: N rows, N clamped to 1..500, missing, empty or non-numeric means 1)"
	)
	cases := []ruleCase{
		// Every response.
		{name: "json reference", typ: model.JSON, want: model.Pass},
		{name: "chunked instead of Content-Length", typ: model.JSON, want: model.Pass,
			opts: serverOpts{mutate: onType(model.JSON, "*", func(rp *reply) { rp.chunked = true })}},
		{name: "missing Server", typ: model.JSON, opts: withHeader(model.JSON, "Server"), want: model.Fail,
			reasons: []string{"GET /json: no Server header (TFB rules, every response: Server, Date and Content-Type are required)"}},
		{name: "missing Date", typ: model.JSON, opts: withHeader(model.JSON, "Date"), want: model.Fail,
			reasons: []string{"GET /json: no Date header (TFB rules, every response: Server, Date and Content-Type are required)"}},
		{name: "missing Content-Type", typ: model.JSON, opts: withHeader(model.JSON, "Content-Type"), want: model.Fail,
			reasons: []string{"GET /json: no Content-Type header (TFB rules, every response: Server, Date and Content-Type are required)"}},
		{name: "Date not RFC 7231", typ: model.JSON, want: model.Warn, contains: `is not in RFC 7231 form "Mon, 02 Jan 2006 15:04:05 GMT" (TFB rules, every response)`,
			opts: serverOpts{mutate: onType(model.JSON, "*", func(rp *reply) {
				d, _ := time.Parse(http.TimeFormat, rp.header.Get("Date"))
				rp.header.Set("Date", d.Format(time.RFC3339))
			})}},
		{name: "frozen Date", typ: model.JSON, opts: withHeader(model.JSON, "Date", frozen), want: model.Fail,
			contains: `GET /json: Date "Tue, 04 Mar 2025 05:06:07 GMT" unchanged`},
		{name: "no length header", typ: model.JSON, want: model.Fail,
			opts:    serverOpts{mutate: onType(model.JSON, "*", func(rp *reply) { rp.noLength = true })},
			reasons: []string{"GET /json: neither Content-Length nor Transfer-Encoding header (TFB rules, every response: one of them is required)"}},
		{name: "status 500", typ: model.JSON, want: model.Fail,
			opts:    serverOpts{mutate: onType(model.JSON, "*", func(rp *reply) { rp.status = 500 })},
			reasons: []string{"GET /json: status 500, want 200 (TFB rules, every response)"}},
		{name: "gzip", typ: model.JSON, want: model.Fail, contains: `GET /json: Content-Encoding "gzip": the response is compressed (TFB rules, every response: no gzip)`,
			opts: serverOpts{mutate: onType(model.JSON, "*", func(rp *reply) {
				rp.header.Set("Content-Encoding", "gzip")
				rp.body = gzipped(rp.body)
			})}},

		// Content-Type per type, charset matched as TFB does.
		{name: "json as text/plain", typ: model.JSON, opts: withHeader(model.JSON, "Content-Type", "text/plain"), want: model.Fail,
			reasons: []string{`GET /json: Content-Type "text/plain", ` + jsonCT + ` (TFB rules, json)`}},
		{name: "json charset=utf-8", typ: model.JSON, opts: withHeader(model.JSON, "Content-Type", "application/json; charset=utf-8"), want: model.Pass},
		{name: "json ;charset=UTF-8", typ: model.JSON, opts: withHeader(model.JSON, "Content-Type", "application/json;charset=UTF-8"), want: model.Pass},
		{name: "json charset=iso-8859-1", typ: model.JSON, opts: withHeader(model.JSON, "Content-Type", "application/json; charset=iso-8859-1"), want: model.Fail,
			reasons: []string{`GET /json: Content-Type "application/json; charset=iso-8859-1", ` + jsonCT + ` (TFB rules, json)`}},
		{name: "json charset=Utf-8", typ: model.JSON, opts: withHeader(model.JSON, "Content-Type", "application/json; charset=Utf-8"), want: model.Fail,
			contains: `Content-Type "application/json; charset=Utf-8"`},
		{name: "plaintext as text/html", typ: model.Plaintext, opts: withHeader(model.Plaintext, "Content-Type", "text/html"), want: model.Fail,
			reasons: []string{`GET /plaintext: Content-Type "text/html", want text/plain with optional ; charset=utf-8 (TFB rules, plaintext)`}},
		{name: "plaintext charset=UTF-8", typ: model.Plaintext, opts: withHeader(model.Plaintext, "Content-Type", "text/plain; charset=UTF-8"), want: model.Pass},
		{name: "db as text/plain", typ: model.DB, opts: withHeader(model.DB, "Content-Type", "text/plain"), want: model.Fail,
			reasons: []string{`GET /db: Content-Type "text/plain", ` + jsonCT + ` (TFB rules, db)`}},
		{name: "queries as text/html", typ: model.Queries, opts: withHeader(model.Queries, "Content-Type", "text/html"), want: model.Fail,
			contains: `GET /queries?queries=foo: Content-Type "text/html", ` + jsonCT + ` (TFB rules, queries)`},
		{name: "updates as text/plain", typ: model.Updates, opts: withHeader(model.Updates, "Content-Type", "text/plain"), want: model.Fail,
			contains: `GET /updates?queries=501: Content-Type "text/plain", ` + jsonCT + ` (TFB rules, updates)`},
		{name: "fortunes text/html without charset", typ: model.Fortunes, opts: withHeader(model.Fortunes, "Content-Type", "text/html"), want: model.Fail,
			reasons: []string{`GET /fortunes: Content-Type "text/html", want text/html; charset=utf-8 (charset required) (TFB rules, fortunes)`}},
		{name: "fortunes text/html;charset=UTF-8", typ: model.Fortunes, opts: withHeader(model.Fortunes, "Content-Type", "text/html;charset=UTF-8"), want: model.Pass},
		{name: "fortunes charset=utf8", typ: model.Fortunes, opts: withHeader(model.Fortunes, "Content-Type", "text/html; charset=utf8"), want: model.Fail,
			contains: `Content-Type "text/html; charset=utf8"`},

		// json.
		{name: "json extra key", typ: model.JSON, opts: withBody(model.JSON, "*", `{"message":"Hello, World!","extra":1}`), want: model.Warn,
			reasons: []string{`GET /json: extra keys "extra" beside "message" (TFB rules, json: extra keys are a warn)`}},
		{name: "json wrong value", typ: model.JSON, opts: withBody(model.JSON, "*", `{"message":"Hello, World"}`), want: model.Fail,
			reasons: []string{`GET /json: message "Hello, World", want "Hello, World!" (TFB rules, json)`}},
		{name: "json value in lower case", typ: model.JSON, opts: withBody(model.JSON, "*", `{"message":"hello, world!"}`), want: model.Warn,
			reasons: []string{`GET /json: message "hello, world!", want "Hello, World!" (TFB accepts any case; tfbench is stricter)`}},
		{name: "json missing key", typ: model.JSON, opts: withBody(model.JSON, "*", `{"msg":"Hello, World!"}`), want: model.Fail,
			reasons: []string{`GET /json: no key "message" in {"msg":"Hello, World!"} (TFB rules, json)`}},
		{name: "json array", typ: model.JSON, opts: withBody(model.JSON, "*", `[{"message":"Hello, World!"}]`), want: model.Fail,
			contains: `GET /json: body is an array, want the object`},

		// plaintext.
		{name: "plaintext extra bytes", typ: model.Plaintext, opts: withBody(model.Plaintext, "*", "Hello, World!\n"), want: model.Warn,
			reasons: []string{`GET /plaintext: 1 extra byte(s) beside "Hello, World!" (TFB rules, plaintext: extra bytes are a warn)`}},
		{name: "plaintext other case", typ: model.Plaintext, opts: withBody(model.Plaintext, "*", "hello, world!"), want: model.Pass},
		{name: "plaintext wrong", typ: model.Plaintext, opts: withBody(model.Plaintext, "*", "Hello World"), want: model.Fail,
			reasons: []string{`GET /plaintext: body "Hello World" does not contain "Hello, World!" (TFB rules, plaintext: compared case-insensitively)`}},

		// db.
		{name: "db reference", typ: model.DB, want: model.Pass},
		{name: "db string id", typ: model.DB, opts: withBody(model.DB, "*", `{"id":"42","randomNumber":17}`), want: model.Warn,
			reasons: []string{`GET /db: "id" is the JSON string "42", want a number (TFB rules, db: a number as a string is a warn)`}},
		{name: "db array", typ: model.DB, opts: withBody(model.DB, "*", `[{"id":42,"randomNumber":17}]`), want: model.Warn,
			reasons: []string{`GET /db: body is an array of 1, want one World object (TFB rules, db: an array is a warn)`}},
		{name: "db id out of range", typ: model.DB, opts: withBody(model.DB, "*", `{"id":10001,"randomNumber":17}`), want: model.Warn,
			reasons: []string{`GET /db: "id" is 10001, outside 1..10000 (TFB rules, db: out of range is a warn)`}},
		{name: "db randomNumber 0", typ: model.DB, opts: withBody(model.DB, "*", `{"id":1,"randomNumber":0}`), want: model.Warn,
			reasons: []string{`GET /db: "randomNumber" is 0, outside 1..10000 (TFB rules, db: out of range is a warn)`}},
		{name: "db non-integer", typ: model.DB, opts: withBody(model.DB, "*", `{"id":4.5,"randomNumber":17}`), want: model.Warn,
			reasons: []string{`GET /db: "id" is 4.5, not an integer (TFB truncates it; tfbench is stricter)`}},
		{name: "db extra key", typ: model.DB, opts: withBody(model.DB, "*", `{"id":1,"randomNumber":17,"x":0}`), want: model.Warn,
			reasons: []string{`GET /db: extra keys "x" in the World object (TFB rules, db: extra keys are a warn)`}},
		{name: "db missing key", typ: model.DB, opts: withBody(model.DB, "*", `{"id":1}`), want: model.Fail,
			reasons: []string{`GET /db: no key "randomNumber" in {"id":1} (TFB rules, db)`}},
		{name: "db null value", typ: model.DB, opts: withBody(model.DB, "*", `{"id":1,"randomNumber":null}`), want: model.Fail,
			reasons: []string{`GET /db: "randomNumber" is null, not a number (TFB rules, db)`}},

		// queries: each of the five cases wrong alone.
		{name: "queries reference", typ: model.Queries, want: model.Pass},
		{name: "queries=2 gives 1 row", typ: model.Queries, want: model.Fail,
			opts:    serverOpts{rows: func(q string, n int) int { return map[bool]int{true: 1, false: n}[q == "2"] }},
			reasons: []string{"GET /queries?queries=2: 1 rows, want 2 " + rowRule}},
		{name: "queries=0 gives 0 rows", typ: model.Queries, want: model.Fail,
			opts:    serverOpts{rows: func(q string, n int) int { return map[bool]int{true: 0, false: n}[q == "0"] }},
			reasons: []string{"GET /queries?queries=0: 0 rows, want 1 " + rowRule}},
		{name: "queries=foo rejected", typ: model.Queries, want: model.Fail,
			opts:    serverOpts{mutate: onType(model.Queries, "foo", func(rp *reply) { rp.status = http.StatusBadRequest })},
			reasons: []string{"GET /queries?queries=foo: status 400, want 200 (TFB rules, every response)"}},
		{name: "queries= gives an object", typ: model.Queries, opts: withBody(model.Queries, "", `{"id":1,"randomNumber":2}`), want: model.Fail,
			reasons: []string{"GET /queries?queries=: body is an object, want an array of World objects (TFB rules, queries)"}},
		{name: "queries=501 gives 501 rows", typ: model.Queries, want: model.Warn,
			opts:    serverOpts{rows: func(q string, n int) int { return map[bool]int{true: 501, false: n}[q == "501"] }},
			reasons: []string{"GET /queries?queries=501: 501 rows, want 500 " + rowRule}},
		{name: "queries=501 missing key is only a warn", typ: model.Queries, opts: withBody(model.Queries, "501", `[{"id":1}]`), want: model.Warn,
			contains: `GET /queries?queries=501: row 1: no key "randomNumber"`},

		// updates.
		{name: "updates reference", typ: model.Updates, want: model.Pass},
		{name: "updates=0 gives 0 rows", typ: model.Updates, want: model.Fail,
			opts:    serverOpts{rows: func(q string, n int) int { return map[bool]int{true: 0, false: n}[q == "0"] }},
			reasons: []string{"GET /updates?queries=0: 0 rows, want 1 (TFB rules, updates: N rows, N clamped to 1..500, missing, empty or non-numeric means 1)"}},
		{name: "updates not writing", typ: model.Updates, want: model.Fail,
			opts:    serverOpts{written: func(int) int { return 0 }},
			reasons: []string{"GET /updates?queries=501: no World row changed in the database (TFB rules, updates: each row's new randomNumber is written back)"}},
		{name: "updates writing 92%", typ: model.Updates, want: model.Warn,
			// 460 of the 501 case's rows plus the 4 rows of the cases before it.
			opts:    serverOpts{written: func(n int) int { return map[bool]int{true: 460, false: n}[n == 500] }},
			reasons: []string{"GET /updates?queries=501: 464 World rows changed in the database, want more than 95% of 500 (TFB rules, updates: 95% or fewer is a warn)"}},
		{name: "updates writing 85%", typ: model.Updates, want: model.Fail,
			opts:    serverOpts{written: func(n int) int { return map[bool]int{true: 420, false: n}[n == 500] }},
			reasons: []string{"GET /updates?queries=501: 424 World rows changed in the database, want more than 90% of 500 (TFB rules, updates: 90% or fewer is a fail)"}},
		{name: "updates randomNumber out of range", typ: model.Updates, want: model.Warn,
			opts: withBody(model.Updates, "2", `[{"id":1,"randomNumber":0},{"id":2,"randomNumber":10001}]`),
			reasons: []string{
				`GET /updates?queries=2: row 1: "randomNumber" is 0, outside 1..10000 (TFB rules, updates: out of range is a warn)`,
				`GET /updates?queries=2: row 2: "randomNumber" is 10001, outside 1..10000 (TFB rules, updates: out of range is a warn)`,
			}},

		// fortunes.
		{name: "fortunes reference (html/template, indented, meta)", typ: model.Fortunes, want: model.Pass},
		{name: "fortunes &apos; &quot; as the reference file", typ: model.Fortunes, opts: sortedBy(func(a, b fortune) int { return strings.Compare(a.Message, b.Message) }), want: model.Pass},
		{name: "fortunes &#x27; &#x22;", typ: model.Fortunes, want: model.Pass,
			opts: withPage(func(p []byte) []byte {
				return bytes.ReplaceAll(bytes.ReplaceAll(p, []byte("&#39;"), []byte("&#x27;")), []byte("&#34;"), []byte("&#x22;"))
			})},
		{name: "fortunes &#8212;", typ: model.Fortunes, want: model.Fail,
			opts:     withPage(func(p []byte) []byte { return bytes.ReplaceAll(p, []byte("—"), []byte("&#8212;")) }),
			contains: "GET /fortunes: character reference &#8212; is not allowed"},
		{name: "fortunes Japanese as references", typ: model.Fortunes, want: model.Fail,
			opts:     withPage(func(p []byte) []byte { return bytes.ReplaceAll(p, []byte("フ"), []byte("&#12501;")) }),
			contains: "GET /fortunes: character reference &#12501; is not allowed"},
		{name: "fortunes wrapper div", typ: model.Fortunes, want: model.Warn,
			opts: withPage(func(p []byte) []byte {
				p = bytes.Replace(p, []byte("<table>"), []byte(`<div id="root"><table>`), 1)
				return bytes.Replace(p, []byte("</table>"), []byte("</table></div>"), 1)
			}),
			// The correct page is 1,377 bytes; the wrapper adds 21.
			reasons: []string{`GET /fortunes: extra markup around the table, page 1398 bytes (TFB fails this; tfbench warns because the table itself is exact): after </title></head><body>: expected <table>, got <div>`}},
		{name: "fortunes hydration script beside the table", typ: model.Fortunes, want: model.Pass,
			opts: withPage(func(p []byte) []byte {
				return bytes.Replace(p, []byte("</table>"), []byte(`</table><script>self.__DATA__=[{"id":0}]</script>`), 1)
			})},
		{name: "fortunes missing row", typ: model.Fortunes, want: model.Fail,
			opts: serverOpts{fortunes: func(rows []fortune) []byte {
				return templatePage(slices.DeleteFunc(rows, func(f fortune) bool { return f.ID == 7 }))
			}},
			reasons: []string{
				`GET /fortunes: the table differs from the expected one (TFB rules, fortunes): after </tr><tr><td>: expected text "7", got text "10"`,
			}},
		{name: "fortunes unescaped script", typ: model.Fortunes, want: model.Fail,
			opts: serverOpts{fortunes: func(rows []fortune) []byte {
				rows = slices.Clone(rows)
				slices.SortFunc(rows, func(a, b fortune) int { return strings.Compare(a.Message, b.Message) })
				var view []struct {
					ID      int
					Message string
				}
				for _, f := range rows {
					view = append(view, struct {
						ID      int
						Message string
					}{f.ID, f.Message})
				}
				var b bytes.Buffer
				unescapedTemplate.Execute(&b, view)
				return b.Bytes()
			}},
			contains: "GET /fortunes: a live <script> element inside the table"},
		{name: "fortunes ORDER BY, id 0 appended", typ: model.Fortunes, want: model.Fail,
			opts: sortedBy(func(a, b fortune) int {
				// id 0 last, the rest by message: SQL ORDER BY, then append.
				if (a.ID == 0) != (b.ID == 0) {
					return map[bool]int{true: 1, false: -1}[a.ID == 0]
				}
				return strings.Compare(a.Message, b.Message)
			}),
			contains: "GET /fortunes: the rows are out of order"},
		{name: "fortunes locale order", typ: model.Fortunes, want: model.Fail,
			opts:     sortedBy(func(a, b fortune) int { return strings.Compare(localeKey(a.Message), localeKey(b.Message)) }),
			contains: "GET /fortunes: the rows are out of order"},
		{name: "fortunes status 500, no anti-caching noise", typ: model.Fortunes, want: model.Fail,
			opts:    serverOpts{mutate: onType(model.Fortunes, "*", func(rp *reply) { rp.status = 500 })},
			reasons: []string{"GET /fortunes: status 500, want 200 (TFB rules, every response)"}},
		{name: "fortunes cached page", typ: model.Fortunes, want: model.Fail, opts: serverOpts{cacheFortunes: true},
			contains: `GET /fortunes: the page does not show Fortune row 13 "<b>tfbench check `},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res := verifyOne(t, c.typ, c.opts)
			t.Logf("%s\n%s", res.Status, strings.Join(res.Reasons, "\n"))
			if res.Status != c.want {
				t.Fatalf("status %s, want %s; reasons:\n%s", res.Status, c.want, strings.Join(res.Reasons, "\n"))
			}
			switch {
			case c.reasons != nil:
				if !slices.Equal(res.Reasons, c.reasons) {
					t.Errorf("reasons:\n%s\nwant:\n%s", strings.Join(res.Reasons, "\n"), strings.Join(c.reasons, "\n"))
				}
			case c.want == model.Pass:
				if len(res.Reasons) > 0 {
					t.Errorf("a pass with reasons:\n%s", strings.Join(res.Reasons, "\n"))
				}
			case !slices.ContainsFunc(res.Reasons, func(r string) bool { return strings.Contains(r, c.contains) }):
				t.Errorf("no reason contains %q; reasons:\n%s", c.contains, strings.Join(res.Reasons, "\n"))
			}
		})
	}
}

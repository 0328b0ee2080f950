package verify

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
)

// loadHead is a response's header section as a Node server sends it, for
// test type t (Content-Type as the rule wants it).
func loadHead(t model.TestType, length int) []byte {
	ct := "application/json"
	switch t {
	case model.Plaintext:
		ct = "text/plain"
	case model.Fortunes, model.Page:
		ct = "text/html; charset=utf-8"
	}
	return fmt.Appendf(nil, "Server: node-http\r\nDate: Sun, 29 Nov 2026 19:00:00 GMT\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n", ct, length)
}

// loadWorld is a full World table (testWorld's values).
var loadWorld = testWorld(worldMax)

// worldJSON renders the World rows of ids as a queries response (an array)
// or, with single, a db response; values from w, with rn changing them.
func worldJSON(w World, ids []int, single bool, rn func(i, id int, n int64) int64) []byte {
	var b []byte
	if !single {
		b = append(b, '[')
	}
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		n := w[id-1]
		if rn != nil {
			n = rn(i, id, n)
		}
		b = fmt.Appendf(b, `{"id":%d,"randomNumber":%d}`, id, n)
	}
	if !single {
		b = append(b, ']')
	}
	return b
}

// randomIDs returns n World ids drawn as a server draws them (seeded).
func randomIDs(n int, seed uint64) []int {
	r := rand.New(rand.NewPCG(seed, 1))
	ids := make([]int, n)
	for i := range ids {
		ids[i] = r.IntN(worldMax) + 1
	}
	return ids
}

// fortunesBody is the fortunes page as the reference server renders it
// (html/template, indented).
func fortunesBody() []byte {
	return templatePage(append(slices.Clone(standardFortunes), additionalFortune))
}

// dropRow removes the <tr> holding text from a fortunes page.
func dropRow(page []byte, text string) []byte {
	s := string(page)
	i := strings.Index(s, text)
	start := strings.LastIndex(s[:i], "<tr>")
	end := i + strings.Index(s[i:], "</tr>") + len("</tr>")
	return []byte(s[:start] + s[end:])
}

func TestLoadCheckerHeaders(t *testing.T) {
	check := LoadChecker(LoadRef{Type: model.JSON, Body: helloBody})
	fortunes := LoadChecker(LoadRef{Type: model.Fortunes})
	good := "Server: x\r\nDate: Sun, 29 Nov 2026 19:00:00 GMT\r\n"
	cases := []struct {
		name   string
		check  func(int, []byte, []byte) error
		status int
		head   string
		body   []byte
		want   string
	}{
		{"all present", check, 200, good + "Content-Type: application/json\r\n", helloBody, ""},
		{"any case, no space, a charset", check, 200, "server:x\r\nDATE: x\r\ncontent-type:application/json; charset=utf-8\r\n", helloBody, ""},
		{"status 500", check, 500, good, nil, "status 500, want 200"},
		{"status 503 with a body", check, 503, good, []byte("Service Unavailable"), `status 503, want 200 (body "Service Unavailable")`},
		{"status 404 with a long body", check, 404, good, []byte(strings.Repeat("x", 100)), `status 404, want 200 (body "` + strings.Repeat("x", 80) + `"…)`},
		{"no Date", check, 200, "Server: x\r\nContent-Type: application/json\r\n", helloBody, "header Date missing"},
		{"no Server, no Date", check, 200, "Content-Type: application/json\r\n", helloBody, "header Server missing; header Date missing"},
		{"no Content-Type", check, 200, good, helloBody, "header Content-Type missing"},
		{"a space before the colon is another name", check, 200, "Server : x\r\nDate: x\r\nContent-Type: application/json\r\n", helloBody, "header Server missing"},
		{"json as text/plain", check, 200, good + "Content-Type: text/plain\r\n", helloBody,
			`header Content-Type "text/plain", want application/json with optional ; charset=utf-8`},
		{"two Content-Types", check, 200, good + "Content-Type: application/json\r\nContent-Type: application/json\r\n", helloBody,
			`header Content-Type "application/json, application/json", want application/json with optional ; charset=utf-8`},
		{"fortunes without the charset", fortunes, 200, good + "Content-Type: text/html\r\n", fortunesBody(),
			`header Content-Type "text/html", want text/html; charset=utf-8 (charset required)`},
	}
	for _, c := range cases {
		err := c.check(c.status, []byte(c.head), c.body)
		if got := errText(err); got != c.want {
			t.Errorf("%s: error %q\nwant %q", c.name, got, c.want)
		}
	}
}

// errText is err's text, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// loadCase is one response for a LoadChecker and the error it must give
// ("": it passes).
type loadCase struct {
	name string
	ref  LoadRef
	body []byte
	want string
}

func runLoadCases(t *testing.T, cases []loadCase) {
	t.Helper()
	for _, c := range cases {
		err := LoadChecker(c.ref)(200, loadHead(c.ref.Type, len(c.body)), c.body)
		if got := errText(err); got != c.want {
			t.Errorf("%s %s: error %q\nwant %q", c.ref.Type, c.name, got, c.want)
		}
	}
}

func TestLoadCheckerJSON(t *testing.T) {
	ref := LoadRef{Type: model.JSON, Body: helloBody}
	runLoadCases(t, []loadCase{
		{"as verified", ref, helloBody, ""},
		{"spaced: another valid body", ref, []byte(`{ "message": "Hello, World!" }`), ""},
		{"an extra key is a warn", ref, []byte(`{"message":"Hello, World!","x":1}`), ""},
		{"no reference body", LoadRef{Type: model.JSON}, helloBody, ""},
		{"the same length, wrong", ref, []byte(`{"message":"Hello World!!"}`),
			`body: want "{\"message\":\"Hello, World!\"}" (27 bytes, as verified), got "{\"message\":\"Hello World!!\"}"; message "Hello World!!", want "Hello, World!" (TFB rules, json)`},
		{"wrong, no reference body", LoadRef{Type: model.JSON}, []byte(`{"message":"Hello World!!"}`),
			`message "Hello World!!", want "Hello, World!" (TFB rules, json)`},
		{"empty", ref, nil, `body: want "{\"message\":\"Hello, World!\"}" (27 bytes, as verified), got ""; empty body (TFB rules, json)`},
		{"a reference body the rule fails is not used", LoadRef{Type: model.JSON, Body: []byte(`{"message":"Hi"}`)}, []byte(`{"message":"Hi"}`),
			`message "Hi", want "Hello, World!" (TFB rules, json)`},
	})
}

func TestLoadCheckerPlaintext(t *testing.T) {
	ref := LoadRef{Type: model.Plaintext, Body: []byte("Hello, World!")}
	runLoadCases(t, []loadCase{
		{"as verified", ref, []byte("Hello, World!"), ""},
		{"another case is valid", ref, []byte("hello, world!"), ""},
		{"the same length, wrong", ref, []byte("Hello, World?"),
			`body: want "Hello, World!" (13 bytes, as verified), got "Hello, World?"; body "Hello, World?" does not contain "Hello, World!" (TFB rules, plaintext: compared case-insensitively)`},
		{"a long wrong body", ref, []byte(strings.Repeat("Goodbye! ", 12)),
			`body (108 bytes; 13 as verified): first difference at byte 0: want "Hello, World!", got "Goodbye! Goodbye! Goodbye! Goodbye! Good"…; ` +
				`body "Goodbye! Goodbye! Goodbye! Goodbye! G..." does not contain "Hello, World!" (TFB rules, plaintext: compared case-insensitively)`},
	})
}

func TestLoadCheckerFortunes(t *testing.T) {
	page := fortunesBody()
	ref := LoadRef{Type: model.Fortunes, Body: page}
	extra := []byte(strings.Replace(string(page), "<tr><td>11</td>", "<tr><td>13</td><td>A new fortune</td></tr>\n      <tr><td>11</td>", 1))
	runLoadCases(t, []loadCase{
		{"as verified", ref, page, ""},
		{"the reference page: other markup, the same table", ref, expectedFortunesHTML, ""},
		{"no reference body", LoadRef{Type: model.Fortunes}, page, ""},
		{"a row missing", ref, dropRow(page, "A computer program does what you tell it to do"),
			`body (1274 bytes; 1377 as verified): first difference at byte 391: ` +
				`want …"1, 1, 1</td></tr>\n      <tr><td>5</td><td>A computer program doe"…, ` +
				`got …"1, 1, 1</td></tr>\n      \n      <tr><td>2</td><td>A computer scie"…; ` +
				`the table differs from the expected one (TFB rules, fortunes): after </tr><tr><td>: expected text "5", got text "2"`},
		{"an extra row", ref, extra,
			`body (1426 bytes; 1377 as verified): first difference at byte 163: ` +
				`want …"th></tr>\n      <tr><td>11</td><td>&lt;script&gt;alert(&#34;This "…, ` +
				`got …"th></tr>\n      <tr><td>13</td><td>A new fortune</td></tr>\n      "…; ` +
				`the table differs from the expected one (TFB rules, fortunes): after </tr><tr><td>: expected text "11", got text "13"`},
	})
}

func TestLoadCheckerDB(t *testing.T) {
	w := loadWorld
	ref := LoadRef{Type: model.DB, World: w}
	id := 1234
	runLoadCases(t, []loadCase{
		{"a row of World", ref, worldJSON(w, []int{id}, true, nil), ""},
		{"keys swapped, spaced", ref, fmt.Appendf(nil, `{ "randomNumber": %d, "id": %d }`, w[id-1], id), ""},
		{"numbers as strings are a warn", ref, fmt.Appendf(nil, `{"id":"%d","randomNumber":"%d"}`, id, w[id-1]), ""},
		{"an array of one is a warn", ref, worldJSON(w, []int{id}, false, nil), ""},
		{"no World: ranges only", LoadRef{Type: model.DB}, []byte(`{"id":1234,"randomNumber":99}`), ""},
		{"the wrong randomNumber", ref, []byte(`{"id":1234,"randomNumber":99}`),
			fmt.Sprintf("id 1234 randomNumber 99, want %d (World)", w[id-1])},
		{"the wrong randomNumber as a string", ref, []byte(`{"id":"1234","randomNumber":"99"}`),
			fmt.Sprintf("id 1234 randomNumber 99, want %d (World)", w[id-1])},
		{"the wrong randomNumber in an array", ref, []byte(`[{"id":1234,"randomNumber":99}]`),
			fmt.Sprintf("id 1234 randomNumber 99, want %d (World)", w[id-1])},
		{"id 0", ref, []byte(`{"id":0,"randomNumber":99}`), "id 0, want an integer in 1..10000"},
		{"id 12.5", ref, []byte(`{"id":12.5,"randomNumber":99}`), "id 12.5, want an integer in 1..10000"},
		{"randomNumber 10001, no World", LoadRef{Type: model.DB}, []byte(`{"id":1,"randomNumber":10001}`), "id 1 randomNumber 10001, want an integer in 1..10000"},
		{"an id beyond a small World", LoadRef{Type: model.DB, World: testWorld(12)}, []byte(`{"id":13,"randomNumber":1}`), "id 13 is not in World (12 rows)"},
		{"no randomNumber", ref, []byte(`{"id":1234}`), `no key "randomNumber" in {"id":1234} (TFB rules, db)`},
		{"an empty array", ref, []byte(`[]`), "body is an empty array, want one World object (TFB rules, db)"},
	})
}

func TestLoadCheckerQueries(t *testing.T) {
	w := loadWorld
	ids := randomIDs(20, 1)
	ref := LoadRef{Type: model.Queries, Rows: 20, World: w}
	wrongAt := func(rows ...int) func(i, id int, n int64) int64 {
		return func(i, id int, n int64) int64 {
			if slices.Contains(rows, i+1) {
				return n%worldMax + 1
			}
			return n
		}
	}
	bad := func(row int) string {
		id := ids[row-1]
		return fmt.Sprintf("row %d: id %d randomNumber %d, want %d (World)", row, id, w[id-1]%worldMax+1, w[id-1])
	}
	runLoadCases(t, []loadCase{
		{"20 rows of World", ref, worldJSON(w, ids, false, nil), ""},
		{"any count in 1..500 when Rows is 0", LoadRef{Type: model.Queries, World: w}, worldJSON(w, ids[:7], false, nil), ""},
		{"no World: ranges only", LoadRef{Type: model.Queries, Rows: 20}, worldJSON(w, ids, false, wrongAt(3)), ""},
		{"19 rows", ref, worldJSON(w, ids[:19], false, nil),
			"19 rows, want 20 (TFB rules, queries: N rows, N clamped to 1..500, missing, empty or non-numeric means 1)"},
		{"row 3 wrong", ref, worldJSON(w, ids, false, wrongAt(3)), bad(3)},
		{"5 rows wrong", ref, worldJSON(w, ids, false, wrongAt(2, 4, 6, 8, 10)),
			bad(2) + "; " + bad(4) + "; " + bad(6) + "; and 2 more rows wrong"},
		{"an object", ref, worldJSON(w, ids[:1], true, nil),
			"body is an object, want an array of World objects (TFB rules, queries)"},
	})
}

func TestLoadCheckerUpdates(t *testing.T) {
	ids := randomIDs(20, 2)
	ref := LoadRef{Type: model.Updates, Rows: 20, World: loadWorld}
	changed := func(i, id int, n int64) int64 { return int64((id*31+i)%worldMax + 1) }
	runLoadCases(t, []loadCase{
		{"20 updated rows (World is not compared)", ref, worldJSON(loadWorld, ids, false, changed), ""},
		{"a row out of range", ref, worldJSON(loadWorld, ids, false, func(i, id int, n int64) int64 {
			if i == 4 {
				return worldMax + 1
			}
			return n
		}), fmt.Sprintf("row 5: id %d randomNumber 10001, want an integer in 1..10000", ids[4])},
		{"19 rows", ref, worldJSON(loadWorld, ids[:19], false, changed),
			"19 rows, want 20 (TFB rules, updates: N rows, N clamped to 1..500, missing, empty or non-numeric means 1)"},
	})
}

func TestLoadCheckerPage(t *testing.T) {
	w := testWorld(100)
	rows := worldRows(w, 100)
	ref := LoadRef{Type: model.Page, Rows: 100, World: w}
	stale := slices.Clone(rows)
	stale[2].RandomNumber++
	runLoadCases(t, []loadCase{
		{"100 rows", ref, refPageHTML(rows), ""},
		{"the slow path: entity-escaped digits", ref, plainPage(rows, func(i int, r worldRow) string {
			id := fmt.Sprint(r.ID)
			return fmt.Sprintf("<tr><td>&#%d;%s</td><td>%d</td></tr>", id[0], id[1:], r.RandomNumber)
		}), ""},
		{"half the rows", ref, refPageHTML(rows[:50]),
			"50 rows, want 100 (page rules: one row per World id 1..N, N clamped to 1..10000)"},
		{"a stale row", ref, refPageHTML(stale),
			fmt.Sprintf(`row 3: randomNumber "%d", want "%d" (World id 3)`, w[2]+1, w[2])},
	})
}

// TestLoadCheckerNoAllocs: the usual response of each type passes without
// allocating.
func TestLoadCheckerNoAllocs(t *testing.T) {
	for _, c := range loadBenchCases() {
		if c.name == "queries=500" || c.name == "page=10000" {
			continue
		}
		check := LoadChecker(c.ref)
		if err := check(200, c.head, c.body); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if allocs := testing.AllocsPerRun(50, func() { check(200, c.head, c.body) }); allocs != 0 {
			t.Errorf("%s: %.0f allocations, want 0", c.name, allocs)
		}
	}
}

// TestLoadCheckerConcurrent runs one check from several goroutines (go
// tool task test:race finds a shared write).
func TestLoadCheckerConcurrent(t *testing.T) {
	for _, c := range loadBenchCases() {
		check := LoadChecker(c.ref)
		done := make(chan error)
		for range 4 {
			go func() {
				var err error
				for range 10 {
					if err = check(200, c.head, c.body); err != nil {
						break
					}
				}
				done <- err
			}()
		}
		for range 4 {
			if err := <-done; err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
		}
	}
}

// loadBenchCase is a usual response of one shot.
type loadBenchCase struct {
	name       string
	ref        LoadRef
	head, body []byte
}

// loadBenchCases are realistic responses of every test type: bodies as
// the reference server renders them, World rows drawn at random.
func loadBenchCases() []loadBenchCase {
	w := loadWorld
	updated := func(i, id int, n int64) int64 { return int64((id*31+i)%worldMax + 1) }
	fortunes := fortunesBody()
	cases := []loadBenchCase{
		{name: "json", ref: LoadRef{Type: model.JSON, Body: helloBody}, body: helloBody},
		{name: "plaintext", ref: LoadRef{Type: model.Plaintext, Body: []byte("Hello, World!")}, body: []byte("Hello, World!")},
		{name: "db", ref: LoadRef{Type: model.DB, Rows: 1, World: w}, body: worldJSON(w, randomIDs(1, 3), true, nil)},
		{name: "queries=20", ref: LoadRef{Type: model.Queries, Rows: 20, World: w}, body: worldJSON(w, randomIDs(20, 4), false, nil)},
		{name: "queries=500", ref: LoadRef{Type: model.Queries, Rows: 500, World: w}, body: worldJSON(w, randomIDs(500, 5), false, nil)},
		{name: "fortunes", ref: LoadRef{Type: model.Fortunes, Body: fortunes}, body: fortunes},
		{name: "updates=20", ref: LoadRef{Type: model.Updates, Rows: 20, World: w}, body: worldJSON(w, randomIDs(20, 6), false, updated)},
		{name: "page=10", ref: LoadRef{Type: model.Page, Rows: 10, World: w}, body: refPageHTML(worldRows(w, 10))},
		{name: "page=100", ref: LoadRef{Type: model.Page, Rows: 100, World: w}, body: refPageHTML(worldRows(w, 100))},
		{name: "page=1000", ref: LoadRef{Type: model.Page, Rows: 1000, World: w}, body: refPageHTML(worldRows(w, 1000))},
		{name: "page=10000", ref: LoadRef{Type: model.Page, Rows: worldMax, World: w}, body: bigPage(w)},
	}
	for i := range cases {
		cases[i].head = loadHead(cases[i].ref.Type, len(cases[i].body))
	}
	return cases
}

// BenchmarkLoadCheck is the check of one usual response under load
// (LoadChecker), per test type: ns per response.
func BenchmarkLoadCheck(b *testing.B) {
	for _, c := range loadBenchCases() {
		b.Run(c.name, func(b *testing.B) {
			check := LoadChecker(c.ref)
			if err := check(http.StatusOK, c.head, c.body); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(c.body)))
			for b.Loop() {
				check(http.StatusOK, c.head, c.body)
			}
		})
	}
}

package verify

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/suite"
)

func TestExpectedRows(t *testing.T) {
	cases := map[string]int{
		"1": 1, "2": 2, "20": 20, "500": 500, "501": 500, "100000": 500,
		"0": 1, "-3": 1, "": 1, "foo": 1, "5.0": 1, " 7 ": 7, "+4": 4,
		"99999999999999999999": 500, "-99999999999999999999": 1, // beyond int, clamped as TFB's int() does
	}
	for q, want := range cases {
		if got := ExpectedRows(q); got != want {
			t.Errorf("ExpectedRows(%q) = %d, want %d", q, got, want)
		}
	}
}

// header returns a passing header set for test type t.
func header(t suite.Type) http.Header {
	h := goodHeader()
	switch t {
	case suite.Plaintext:
		h["Content-Type"] = []string{"text/plain"}
	case suite.Fortunes:
		h["Content-Type"] = []string{"text/html; charset=utf-8"}
	}
	return h
}

// rowsJSON renders n canonical World rows.
func rowsJSON(n int) string {
	var rows []string
	for i := 1; i <= n; i++ {
		rows = append(rows, fmt.Sprintf(`{"id":%d,"randomNumber":%d}`, i, 10001-i))
	}
	return "[" + strings.Join(rows, ",") + "]"
}

func TestResponseBodies(t *testing.T) {
	cases := []struct {
		name    string
		typ     suite.Type
		rows    int
		body    string
		want    Status
		reasons []string
	}{
		{"json canonical", suite.JSON, 0, `{"message":"Hello, World!"}`, Pass, nil},
		{"json spaced", suite.JSON, 0, "{ \"message\" : \"Hello, World!\" }\n", Pass, nil},
		{"json key case", suite.JSON, 0, `{"Message":"Hello, World!"}`, Warn,
			[]string{`key "Message", want "message" (TFB accepts any case; tfbench is stricter)`}},
		{"json number value", suite.JSON, 0, `{"message":1}`, Fail,
			[]string{`"message" is a number, want the string "Hello, World!" (TFB rules, json)`}},
		{"json trailing data", suite.JSON, 0, `{"message":"Hello, World!"}x`, Fail,
			[]string{`invalid JSON: extra data after the JSON value at byte 27 (TFB rules, json)`}},
		{"json empty", suite.JSON, 0, ``, Fail, []string{"empty body (TFB rules, json)"}},

		{"plaintext inside more text", suite.Plaintext, 0, "say HELLO, WORLD!", Warn,
			[]string{`4 extra byte(s) beside "Hello, World!" (TFB rules, plaintext: extra bytes are a warn)`}},

		{"db spaced canonical", suite.DB, 0, "{ \"randomNumber\": 5,\n \"id\": 10000 }", Pass, nil},
		{"db key case", suite.DB, 0, `{"id":1,"randomnumber":5}`, Warn,
			[]string{`key "randomnumber", want "randomNumber" (TFB accepts any case; tfbench is stricter)`}},
		{"db boolean", suite.DB, 0, `{"id":true,"randomNumber":5}`, Fail,
			[]string{`"id" is a boolean, not a number (TFB rules, db)`}},
		{"db non-numeric string", suite.DB, 0, `{"id":"x","randomNumber":5}`, Fail,
			[]string{`"id" is the string "x", not a number (TFB rules, db)`}},
		{"db 1e3", suite.DB, 0, `{"id":1e3,"randomNumber":5}`, Warn,
			[]string{`"id" is 1e3, not an integer (TFB truncates it; tfbench is stricter)`}},
		{"db empty array", suite.DB, 0, `[]`, Fail, []string{"body is an empty array, want one World object (TFB rules, db)"}},
		{"db array of a number", suite.DB, 0, `[5]`, Fail, []string{
			"body is an array of 1, want one World object (TFB rules, db: an array is a warn)",
			`5 is a number, want a World object {"id":N,"randomNumber":M} (TFB rules, db)`,
		}},
		{"db leading zero", suite.DB, 0, `{"id":01,"randomNumber":5}`, Fail,
			[]string{"invalid JSON: invalid character '1' after object key:value pair (TFB rules, db)"}},

		{"queries any count", suite.Queries, 0, rowsJSON(20), Pass, nil},
		{"queries exact count", suite.Queries, 20, rowsJSON(20), Pass, nil},
		{"queries count off", suite.Queries, 20, rowsJSON(19), Fail,
			[]string{"19 rows, want 20 (TFB rules, queries: N rows, N clamped to 1..500, missing, empty or non-numeric means 1)"}},
		{"queries empty array", suite.Queries, 0, `[]`, Fail,
			[]string{"0 rows, want 1..500 (TFB rules, queries: clamp to 1..500)"}},
		{"queries non-objects, 5 reported", suite.Queries, 7, `[1,2,3,4,5,6,7]`, Fail, []string{
			`row 1: 1 is a number, want a World object {"id":N,"randomNumber":M} (TFB rules, queries)`,
			`row 2: 2 is a number, want a World object {"id":N,"randomNumber":M} (TFB rules, queries)`,
			`row 3: 3 is a number, want a World object {"id":N,"randomNumber":M} (TFB rules, queries)`,
			`row 4: 4 is a number, want a World object {"id":N,"randomNumber":M} (TFB rules, queries)`,
			`row 5: 5 is a number, want a World object {"id":N,"randomNumber":M} (TFB rules, queries)`,
		}},
		{"updates string number", suite.Updates, 1, `[{"id":3,"randomNumber":" 12"}]`, Warn,
			[]string{`row 1: "randomNumber" is the JSON string " 12", want a number (TFB rules, updates: a number as a string is a warn)`}},

		{"fortunes reference file", suite.Fortunes, 0, string(expectedFortunesHTML), Pass, nil},
	}
	for _, c := range cases {
		r := ResponseRows(c.typ, c.rows, http.StatusOK, header(c.typ), []byte(c.body))
		if r.Status != c.want || !slices.Equal(r.Reasons, c.reasons) {
			t.Errorf("%s: %s %q, want %s %q", c.name, r.Status, r.Reasons, c.want, c.reasons)
		}
	}
}

func TestResponseStatusStopsChecks(t *testing.T) {
	r := Response(suite.JSON, http.StatusNotFound, http.Header{}, []byte("not found"))
	want := []string{"status 404, want 200 (TFB rules, every response)"}
	if r.Status != Fail || !slices.Equal(r.Reasons, want) {
		t.Errorf("%s %q, want fail %q", r.Status, r.Reasons, want)
	}
}

func TestResponsePageBytes(t *testing.T) {
	if r := Response(suite.Fortunes, http.StatusOK, header(suite.Fortunes), expectedFortunesHTML); r.PageBytes != 1227 || r.Status != Pass {
		t.Errorf("fortunes: %s, PageBytes %d, want pass and 1227", r.Status, r.PageBytes)
	}
	if r := Response(suite.JSON, http.StatusOK, header(suite.JSON), helloBody); r.PageBytes != 0 {
		t.Errorf("json: PageBytes %d, want 0", r.PageBytes)
	}
}

// TestResponseNoAllocs: canonical responses, as they come under load, are
// checked without allocating.
func TestResponseNoAllocs(t *testing.T) {
	cases := []struct {
		typ  suite.Type
		rows int
		body []byte
	}{
		{suite.JSON, 0, helloBody},
		{suite.Plaintext, 0, []byte("Hello, World!")},
		{suite.DB, 0, []byte(`{"id":3217,"randomNumber":2149}`)},
		{suite.Queries, 20, []byte(rowsJSON(20))},
		{suite.Updates, 20, []byte(rowsJSON(20))},
	}
	for _, c := range cases {
		h := header(c.typ)
		var r Result
		allocs := testing.AllocsPerRun(100, func() { r = ResponseRows(c.typ, c.rows, http.StatusOK, h, c.body) })
		if r.Status != Pass || allocs != 0 {
			t.Errorf("%s: %s with %.0f allocations, want pass with 0", c.typ, r.Status, allocs)
		}
	}
}

func BenchmarkResponse(b *testing.B) {
	cases := []struct {
		typ  suite.Type
		rows int
		body []byte
	}{
		{suite.JSON, 0, helloBody},
		{suite.Plaintext, 0, []byte("Hello, World!")},
		{suite.DB, 0, []byte(`{"id":3217,"randomNumber":2149}`)},
		{suite.Queries, 20, []byte(rowsJSON(20))},
		{suite.Fortunes, 0, templatePage(append(append([]fortune{}, standardFortunes...), additionalFortune))},
	}
	for _, c := range cases {
		h := header(c.typ)
		b.Run(string(c.typ), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.body)))
			for b.Loop() {
				if r := ResponseRows(c.typ, c.rows, http.StatusOK, h, c.body); r.Status != Pass {
					b.Fatalf("%s %q", r.Status, r.Reasons)
				}
			}
		})
	}
}

package verify

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
)

func TestExpectedRows(t *testing.T) {
	cases := map[string]int{
		"1": 1, "2": 2, "20": 20, "500": 500, "501": 500, "100000": 500,
		"0": 1, "-3": 1, "": 1, "foo": 1, "5.0": 1, " 7 ": 7, "+4": 4,
		"99999999999999999999": 500, "-99999999999999999999": 1, // beyond int, clamped as TFB's int() does
	}
	for q, want := range cases {
		if got := ExpectedRows(paramInt(q, minRows)); got != want {
			t.Errorf("ExpectedRows(%q) = %d, want %d", q, got, want)
		}
	}
}

// header returns a passing header set for test type t.
func header(t model.TestType) http.Header {
	h := goodHeader()
	switch t {
	case model.Plaintext:
		h["Content-Type"] = []string{"text/plain"}
	case model.Fortunes:
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
		typ     model.TestType
		rows    int
		body    string
		want    model.Verdict
		reasons []string
	}{
		{"json canonical", model.JSON, 0, `{"message":"Hello, World!"}`, model.Pass, nil},
		{"json spaced", model.JSON, 0, "{ \"message\" : \"Hello, World!\" }\n", model.Pass, nil},
		{"json key case", model.JSON, 0, `{"Message":"Hello, World!"}`, model.Warn,
			[]string{`key "Message", want "message" (TFB accepts any case; tfbench is stricter)`}},
		{"json number value", model.JSON, 0, `{"message":1}`, model.Fail,
			[]string{`"message" is a number, want the string "Hello, World!" (TFB rules, json)`}},
		{"json trailing data", model.JSON, 0, `{"message":"Hello, World!"}x`, model.Fail,
			[]string{`invalid JSON: extra data after the JSON value at byte 27 (TFB rules, json)`}},
		{"json empty", model.JSON, 0, ``, model.Fail, []string{"empty body (TFB rules, json)"}},

		{"plaintext inside more text", model.Plaintext, 0, "say HELLO, WORLD!", model.Warn,
			[]string{`4 extra byte(s) beside "Hello, World!" (TFB rules, plaintext: extra bytes are a warn)`}},

		{"db spaced canonical", model.DB, 0, "{ \"randomNumber\": 5,\n \"id\": 10000 }", model.Pass, nil},
		{"db key case", model.DB, 0, `{"id":1,"randomnumber":5}`, model.Warn,
			[]string{`key "randomnumber", want "randomNumber" (TFB accepts any case; tfbench is stricter)`}},
		{"db boolean", model.DB, 0, `{"id":true,"randomNumber":5}`, model.Fail,
			[]string{`"id" is a boolean, not a number (TFB rules, db)`}},
		{"db non-numeric string", model.DB, 0, `{"id":"x","randomNumber":5}`, model.Fail,
			[]string{`"id" is the string "x", not a number (TFB rules, db)`}},
		{"db 1e3", model.DB, 0, `{"id":1e3,"randomNumber":5}`, model.Warn,
			[]string{`"id" is 1e3, not an integer (TFB truncates it; tfbench is stricter)`}},
		{"db empty array", model.DB, 0, `[]`, model.Fail, []string{"body is an empty array, want one World object (TFB rules, db)"}},
		{"db array of a number", model.DB, 0, `[5]`, model.Fail, []string{
			"body is an array of 1, want one World object (TFB rules, db: an array is a warn)",
			`5 is a number, want a World object {"id":N,"randomNumber":M} (TFB rules, db)`,
		}},
		{"db leading zero", model.DB, 0, `{"id":01,"randomNumber":5}`, model.Fail,
			[]string{"invalid JSON: invalid character '1' after object key:value pair (TFB rules, db)"}},

		{"queries any count", model.Queries, 0, rowsJSON(20), model.Pass, nil},
		{"queries exact count", model.Queries, 20, rowsJSON(20), model.Pass, nil},
		{"queries count off", model.Queries, 20, rowsJSON(19), model.Fail,
			[]string{"19 rows, want 20 (TFB rules, queries: N rows, N clamped to 1..500, missing, empty or non-numeric means 1)"}},
		{"queries empty array", model.Queries, 0, `[]`, model.Fail,
			[]string{"0 rows, want 1..500 (TFB rules, queries: clamp to 1..500)"}},
		{"queries non-objects, 5 reported", model.Queries, 7, `[1,2,3,4,5,6,7]`, model.Fail, []string{
			`row 1: 1 is a number, want a World object {"id":N,"randomNumber":M} (TFB rules, queries)`,
			`row 2: 2 is a number, want a World object {"id":N,"randomNumber":M} (TFB rules, queries)`,
			`row 3: 3 is a number, want a World object {"id":N,"randomNumber":M} (TFB rules, queries)`,
			`row 4: 4 is a number, want a World object {"id":N,"randomNumber":M} (TFB rules, queries)`,
			`row 5: 5 is a number, want a World object {"id":N,"randomNumber":M} (TFB rules, queries)`,
		}},
		{"updates string number", model.Updates, 1, `[{"id":3,"randomNumber":" 12"}]`, model.Warn,
			[]string{`row 1: "randomNumber" is the JSON string " 12", want a number (TFB rules, updates: a number as a string is a warn)`}},

		{"fortunes reference file", model.Fortunes, 0, string(expectedFortunesHTML), model.Pass, nil},
	}
	for _, c := range cases {
		r := ResponseRows(c.typ, c.rows, http.StatusOK, header(c.typ), []byte(c.body))
		if r.Status != c.want || !slices.Equal(r.Reasons, c.reasons) {
			t.Errorf("%s: %s %q, want %s %q", c.name, r.Status, r.Reasons, c.want, c.reasons)
		}
	}
}

func TestResponseStatusStopsChecks(t *testing.T) {
	r := Response(model.JSON, http.StatusNotFound, http.Header{}, []byte("not found"))
	want := []string{"status 404, want 200 (TFB rules, every response)"}
	if r.Status != model.Fail || !slices.Equal(r.Reasons, want) {
		t.Errorf("%s %q, want fail %q", r.Status, r.Reasons, want)
	}
}

func TestResponsePageBytes(t *testing.T) {
	if r := Response(model.Fortunes, http.StatusOK, header(model.Fortunes), expectedFortunesHTML); r.PageBytes != 1227 || r.Status != model.Pass {
		t.Errorf("fortunes: %s, PageBytes %d, want pass and 1227", r.Status, r.PageBytes)
	}
	if r := Response(model.JSON, http.StatusOK, header(model.JSON), helloBody); r.PageBytes != 0 {
		t.Errorf("json: PageBytes %d, want 0", r.PageBytes)
	}
}

// TestResponseNoAllocs: canonical responses, as they come under load, are
// checked without allocating.
func TestResponseNoAllocs(t *testing.T) {
	cases := []struct {
		typ  model.TestType
		rows int
		body []byte
	}{
		{model.JSON, 0, helloBody},
		{model.Plaintext, 0, []byte("Hello, World!")},
		{model.DB, 0, []byte(`{"id":3217,"randomNumber":2149}`)},
		{model.Queries, 20, []byte(rowsJSON(20))},
		{model.Updates, 20, []byte(rowsJSON(20))},
	}
	for _, c := range cases {
		h := header(c.typ)
		var r Result
		allocs := testing.AllocsPerRun(100, func() { r = ResponseRows(c.typ, c.rows, http.StatusOK, h, c.body) })
		if r.Status != model.Pass || allocs != 0 {
			t.Errorf("%s: %s with %.0f allocations, want pass with 0", c.typ, r.Status, allocs)
		}
	}
}

func BenchmarkResponse(b *testing.B) {
	cases := []struct {
		typ  model.TestType
		rows int
		body []byte
	}{
		{model.JSON, 0, helloBody},
		{model.Plaintext, 0, []byte("Hello, World!")},
		{model.DB, 0, []byte(`{"id":3217,"randomNumber":2149}`)},
		{model.Queries, 20, []byte(rowsJSON(20))},
		{model.Fortunes, 0, templatePage(append(append([]fortune{}, standardFortunes...), additionalFortune))},
	}
	for _, c := range cases {
		h := header(c.typ)
		b.Run(string(c.typ), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.body)))
			for b.Loop() {
				if r := ResponseRows(c.typ, c.rows, http.StatusOK, h, c.body); r.Status != model.Pass {
					b.Fatalf("%s %q", r.Status, r.Reasons)
				}
			}
		})
	}
}

package verify

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/tfbench/tfbench/harness/model"
)

// Row count bounds of the queries and updates tests (TFB rules, queries:
// N is clamped to 1..500).
const (
	minRows = 1
	maxRows = 500
)

// Response checks one received response against test type t's per-response
// rules (docs/tfb-rules.md), any row count for queries, updates and page (a
// page's ids, not values: PageResponse). header needs canonical keys and
// Transfer-Encoding put back; no I/O or state: safe for concurrent use.
func Response(t model.TestType, status int, header http.Header, body []byte) Result {
	return response(t, 0, model.Fail, status, header, body)
}

// ResponseRows is Response with the row count a queries, updates or page
// response must hold (ExpectedRows, ExpectedPageRows; ≤ 0: any); the other
// test types ignore rows.
func ResponseRows(t model.TestType, rows, status int, header http.Header, body []byte) Result {
	return response(t, rows, model.Fail, status, header, body)
}

// ExpectedRows is the number of World rows TFB expects for a queries value
// of n: n clamped to 1..500 (TFB rules, queries). A raw parameter, as
// verification's cases send it, is read by paramInt first.
func ExpectedRows(n int) int {
	return min(max(n, minRows), maxRows)
}

// paramInt is the integer a raw query parameter q stands for, as TFB's
// int() reads it: spaces trimmed, a value beyond int clamped to the nearest
// int, and missing for an empty or non-numeric value.
func paramInt(q string, missing int) int {
	n, err := strconv.Atoi(strings.TrimSpace(q))
	if err != nil && !errors.Is(err, strconv.ErrRange) { // beyond int: Atoi returns the nearest
		return missing
	}
	return n
}

// response runs the per-response rules; body problems are capped at most
// (TFB reports the queries=501 case's body problems as warn only), while
// status and header problems keep their verdict.
func response(t model.TestType, rows int, most model.Verdict, status int, header http.Header, body []byte) Result {
	r := pass()
	if t == model.Fortunes || t == model.Page {
		r.PageBytes = len(body)
	}
	if status != http.StatusOK {
		r.add(model.Fail, "status %d, want 200 (TFB rules, every response)", status)
		return r
	}
	checkHeaders(&r, t, header)
	checkBody(&r, t, rows, most, body)
	return r
}

// checkBody applies the body rules of test type t.
func checkBody(r *Result, t model.TestType, rows int, most model.Verdict, body []byte) {
	if len(body) == 0 {
		r.addCapped(model.Fail, most, "empty body (TFB rules, %s)", t)
		return
	}
	switch t {
	case model.JSON:
		checkHello(r, body)
	case model.Plaintext:
		checkPlaintext(r, body)
	case model.DB:
		checkDB(r, body)
	case model.Queries, model.Updates:
		checkWorldList(r, t, body, rows, most)
	case model.Fortunes:
		checkFortunesPage(r, body, standardPage(), true)
	case model.Page:
		checkPage(r, body, nil, rows, most)
	default:
		r.add(model.Fail, "unknown test type %q (want one of %v)", t, model.Types)
	}
}

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

// Response checks one already-received response against the per-response
// rules of test type t: status 200, the required headers, the Date form, the
// Content-Type of the type, no Content-Encoding, and the body rules of the
// type. For queries and updates it accepts any row count in 1..500; use
// ResponseRows when the requested N is known. For page it checks the rows'
// ids and count, not their values (PageResponse has the World table).
//
// header must use canonical keys, as net/http produces them; a client that
// moves Transfer-Encoding out of the header map (net/http does) must put it
// back for the length rule to see it. Response does no network or database
// access, keeps no state and allocates only when it finds a problem (and
// for fortunes, the tokenizer's buffer), so the load generator may call it
// from many goroutines at once. Reasons carry no request prefix; the caller
// knows the URL.
func Response(t model.TestType, status int, header http.Header, body []byte) Result {
	return response(t, 0, model.Fail, status, header, body)
}

// ResponseRows is Response with the row count a queries or updates response
// must hold (ExpectedRows of the requested value); rows <= 0 accepts any
// count in 1..500. For page, rows is ExpectedPageRows of the requested
// value (rows <= 0: any count in 1..10000). The other test types ignore
// rows.
func ResponseRows(t model.TestType, rows, status int, header http.Header, body []byte) Result {
	return response(t, rows, model.Fail, status, header, body)
}

// ExpectedRows is the number of World rows TFB expects for the raw value of
// the queries parameter: the integer clamped to 1..500, and 1 for a missing,
// empty or non-numeric value (TFB rules, queries).
func ExpectedRows(q string) int {
	n, err := strconv.Atoi(strings.TrimSpace(q))
	if errors.Is(err, strconv.ErrRange) { // an integer beyond int: clamp it too
		err = nil
	}
	switch {
	case err != nil || n < minRows:
		return minRows
	case n > maxRows:
		return maxRows
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

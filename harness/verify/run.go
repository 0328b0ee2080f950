package verify

import (
	"context"
	"database/sql"
	"net/http"
	"strings"
	"time"

	"github.com/tfbench/tfbench/harness/suite"
)

// Check is one test to verify.
type Check struct {
	// Name is the test's name in the suite; Run keys results by it, so
	// names must be unique.
	Name string
	// Type is the TFB test type, which decides the rules and headers.
	Type suite.Type
	// Path is the request path, starting with "/"; for queries and updates
	// it holds "{n}" where the queries value goes ("/queries?queries={n}").
	Path string
}

// Target is a running server.
type Target struct {
	// BaseURL is the server's origin, "http://127.0.0.1:PORT".
	BaseURL string
	// DatabasePath is the framework's own SQLite database copy (WAL mode).
	// Run reads World from it for the updates check and inserts, then
	// deletes, one Fortune row for the fortunes anti-caching check; without
	// it those two checks fail.
	DatabasePath string
}

// dateRecheck is how long after a check's first response Run asks again
// and requires a different Date (TFB rules, every response: "asked again
// 3 s later, the Date must have changed"). It must exceed 1 s, the Date's
// resolution, or a correct server could fail.
var dateRecheck = 3 * time.Second

// Run verifies every check against the target and returns results keyed by
// Check.Name. It sends the requests of every check in order and applies the
// per-test rules (the five queries values of queries and updates, the
// World table comparison of updates, the fortunes anti-caching row), then
// asks each check's first path once more at least 3 s after its first
// response for the Date rule, so a whole framework waits about 3 s in all,
// not 3 s per test. Requests run one at a time. A request error is a fail
// naming the URL; cancelling ctx ends Run early, the remaining checks
// failing with the context's error.
func Run(ctx context.Context, target Target, checks []Check) map[string]Result {
	return run(ctx, target, checks, dateRecheck)
}

// run is Run with the Date re-check delay given.
func run(ctx context.Context, target Target, checks []Check, recheck time.Duration) map[string]Result {
	v := &verifier{target: target, client: newClient()}
	defer v.close()
	results := make([]Result, len(checks))
	firsts := make([]*fetched, len(checks))
	for i, c := range checks {
		results[i], firsts[i] = v.check(ctx, c)
	}
	out := make(map[string]Result, len(checks))
	for i, c := range checks {
		if firsts[i] != nil {
			v.recheckDate(ctx, c.Type, *firsts[i], recheck, &results[i])
		}
		out[c.Name] = results[i]
	}
	return out
}

// verifier holds what one Run shares: the client and the database.
type verifier struct {
	target Target
	client *http.Client
	db     *sql.DB
	dbErr  error
	dbDone bool
}

// database opens the target's database on first use.
func (v *verifier) database() (*sql.DB, error) {
	if !v.dbDone {
		v.db, v.dbErr = openDatabase(v.target.DatabasePath)
		v.dbDone = true
	}
	return v.db, v.dbErr
}

// close releases the client's connections and the database.
func (v *verifier) close() {
	v.client.CloseIdleConnections()
	if v.db != nil {
		v.db.Close()
	}
}

// get requests path for test type t from the target.
func (v *verifier) get(ctx context.Context, t suite.Type, path string) (fetched, error) {
	return get(ctx, v.client, v.target.BaseURL, t, path)
}

// check verifies one test and returns its result and first response (nil
// if there was none to re-check the Date of).
func (v *verifier) check(ctx context.Context, c Check) (Result, *fetched) {
	r := pass()
	if !strings.HasPrefix(c.Path, "/") {
		r.add(Fail, "path %q of test %q must start with \"/\"", c.Path, c.Name)
		return r, nil
	}
	switch c.Type {
	case suite.JSON, suite.Plaintext, suite.DB:
		return v.single(ctx, c)
	case suite.Fortunes:
		return v.fortunes(ctx, c)
	case suite.Queries, suite.Updates:
		return v.cases(ctx, c)
	}
	r.add(Fail, "test %q: unknown test type %q (want one of %v)", c.Name, c.Type, suite.Types)
	return r, nil
}

// single verifies a test of one request (json, plaintext, db); reasons are
// prefixed "GET path: ".
func (v *verifier) single(ctx context.Context, c Check) (Result, *fetched) {
	r, _, f := v.fetchAndCheck(ctx, c)
	return r, f
}

// fetchAndCheck requests c.Path and applies the per-response rules. It
// returns the result with reasons prefixed "GET path: ", the same result
// unprefixed, and the response (nil on a request error).
func (v *verifier) fetchAndCheck(ctx context.Context, c Check) (Result, Result, *fetched) {
	r := pass()
	f, err := v.get(ctx, c.Type, c.Path)
	if err != nil {
		r.add(Fail, "GET %s: %v", c.Path, err)
		return r, r, nil
	}
	one := response(c.Type, 0, Fail, f.status, f.header, f.body)
	r.merge(one, "GET "+c.Path+": ")
	r.PageBytes = one.PageBytes
	return r, one, &f
}

// recheckDate asks first.path again once wait has passed since the first
// response and fails the result if the Date did not change (TFB rules,
// every response). A first response without a Date already failed.
func (v *verifier) recheckDate(ctx context.Context, t suite.Type, first fetched, wait time.Duration, r *Result) {
	if len(first.header["Date"]) == 0 {
		return
	}
	if d := time.Until(first.at.Add(wait)); d > 0 {
		timer := time.NewTimer(d)
		defer timer.Stop()
		select {
		case <-ctx.Done():
			r.add(Fail, "GET %s: Date re-check not done: %v", first.path, ctx.Err())
			return
		case <-timer.C:
		}
	}
	again, err := v.get(ctx, t, first.path)
	if err != nil {
		r.add(Fail, "GET %s (Date re-check): %v", first.path, err)
		return
	}
	if again.date() == first.date() {
		r.add(Fail, "GET %s: Date %q unchanged %.1f s later (TFB rules, every response: the Date must change; a cached Date is not allowed)",
			first.path, first.date(), again.at.Sub(first.at).Seconds())
	}
}

package verify

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/tfbench/tfbench/dataset"
	"github.com/tfbench/tfbench/harness/model"
)

// Check is one test to verify.
type Check struct {
	// Name is the test's name in the suite; Run keys results by it, so
	// names must be unique.
	Name string
	// Type is the TFB test type, which decides the rules and headers.
	Type model.TestType
	// Path is the request path, starting with "/"; for queries and updates
	// it holds "{n}" where the queries value goes ("/queries?queries={n}"),
	// for page where the rows value goes ("/ssr?rows={n}").
	Path string
	// Rows are a page test's sizes N (suite `rows`, suite.Test.Queries),
	// each verified; empty means suite.DefaultRows. Other types ignore it.
	Rows []int
	// Parts is a stream test's K (suite `parts`); Path's "{k}" is filled with
	// it. Other types ignore it.
	Parts int
	// Cache marks a page test of cache state hit (suite `cache: hit`): its
	// rows are verified but the page may be cached, so the anti-caching
	// change is skipped.
	Cache bool
}

// Target is a running server.
type Target struct {
	// BaseURL is the server's origin, "http://127.0.0.1:PORT".
	BaseURL string
	// DatabasePath is the framework's own SQLite database copy (WAL mode),
	// which the updates, fortunes and page checks read and change (then
	// restore); without it those checks fail.
	DatabasePath string
	// Database, when set, opens the copy in place of DatabasePath (a copy
	// on another host, harness/agent); Run does not close what it returns.
	Database func() (dataset.Database, error)
	// RequestTimeout bounds each request, headers and body, and is meant to
	// be the suite's Timeout; ≤ 0 means 8 s, TFB's (docs/tfb-rules.md,
	// Method). A request over it fails its check.
	RequestTimeout time.Duration
	// DateRecheck is for tests only: how long after a check's first
	// response Run asks again for the Date rule; ≤ 0 means 3 s, and less
	// than minDateRecheck is raised to it.
	DateRecheck time.Duration
}

// requestTimeout returns the per-request timeout: t.RequestTimeout, or the
// default 8 s when it is 0 or less.
func (t Target) requestTimeout() time.Duration {
	if t.RequestTimeout > 0 {
		return t.RequestTimeout
	}
	return requestTimeout
}

// dateRecheck returns the Date re-check delay: t.DateRecheck raised to
// minDateRecheck, or the package's dateRecheck when it is 0 or less.
func (t Target) dateRecheck() time.Duration {
	if t.DateRecheck > 0 {
		return max(t.DateRecheck, minDateRecheck)
	}
	return dateRecheck
}

// dateRecheck is how long after a check's first response Run asks again
// and requires a different Date (TFB rules, every response); it must exceed
// the Date's 1 s resolution.
var dateRecheck = 3 * time.Second

// minDateRecheck is the shortest Date re-check Target.DateRecheck can ask
// for: 1.1 s, above the Date's 1 s resolution.
const minDateRecheck = 1100 * time.Millisecond

// Run verifies every check against the target, one request at a time, and
// returns results keyed by Check.Name, the Date re-checks last (about 3 s in
// all). A request error fails its check; cancelling ctx fails the rest.
func Run(ctx context.Context, target Target, checks []Check) map[string]Result {
	return run(ctx, target, checks, target.dateRecheck())
}

// run is Run with the Date re-check delay given, not raised to
// minDateRecheck (a test server with a fake clock may re-check at once).
func run(ctx context.Context, target Target, checks []Check, recheck time.Duration) map[string]Result {
	v := &verifier{target: target, client: newClientTimeout(target.requestTimeout())}
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
	db     dataset.Database
	owned  bool // db was opened here: close it
	dbErr  error
	dbDone bool
}

// database opens the target's database on first use.
func (v *verifier) database() (dataset.Database, error) {
	if !v.dbDone {
		if v.target.Database != nil {
			v.db, v.dbErr = v.target.Database()
		} else {
			v.db, v.dbErr = dataset.Open(v.target.DatabasePath)
			v.owned = v.dbErr == nil
		}
		v.dbDone = true
	}
	return v.db, v.dbErr
}

// close releases the client's connections and the database.
func (v *verifier) close() {
	v.client.CloseIdleConnections()
	if v.owned {
		v.db.Close()
	}
}

// get requests path for test type t from the target.
func (v *verifier) get(ctx context.Context, t model.TestType, path string) (fetched, error) {
	return get(ctx, v.client, v.target.BaseURL, t, path)
}

// check verifies one test and returns its result and first response (nil
// if there was none to re-check the Date of).
func (v *verifier) check(ctx context.Context, c Check) (Result, *fetched) {
	r := pass()
	if !strings.HasPrefix(c.Path, "/") {
		r.add(model.Fail, "path %q of test %q must start with \"/\"", c.Path, c.Name)
		return r, nil
	}
	switch c.Type {
	case model.JSON, model.Plaintext, model.DB:
		return v.single(ctx, c)
	case model.Fortunes:
		return v.fortunes(ctx, c)
	case model.Queries, model.Updates:
		return v.cases(ctx, c)
	case model.Page:
		return v.page(ctx, c)
	case model.Stream:
		return v.stream(ctx, c)
	}
	r.add(model.Fail, "test %q: unknown test type %q (want one of %v)", c.Name, c.Type, model.Types)
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
		r.add(model.Fail, "GET %s: %v", c.Path, err)
		return r, r, nil
	}
	one := response(c.Type, 0, model.Fail, f.status, f.header, f.body)
	r.merge(one, "GET "+c.Path+": ")
	r.PageBytes = one.PageBytes
	return r, one, &f
}

// recheckDate asks first.path again once wait has passed since the first
// response and fails the result if the Date did not change (TFB rules,
// every response). A first response without a Date already failed.
func (v *verifier) recheckDate(ctx context.Context, t model.TestType, first fetched, wait time.Duration, r *Result) {
	if len(first.header["Date"]) == 0 {
		return
	}
	if d := time.Until(first.at.Add(wait)); d > 0 {
		timer := time.NewTimer(d)
		defer timer.Stop()
		select {
		case <-ctx.Done():
			r.add(model.Fail, "GET %s: Date re-check not done: %v", first.path, ctx.Err())
			return
		case <-timer.C:
		}
	}
	again, err := v.get(ctx, t, first.path)
	if err != nil {
		r.add(model.Fail, "GET %s (Date re-check): %v", first.path, err)
		return
	}
	if again.date() == first.date() {
		r.add(model.Fail, "GET %s: Date %q unchanged %.1f s later (TFB rules, every response: the Date must change; a cached Date is not allowed)",
			first.path, first.date(), again.at.Sub(first.at).Seconds())
	}
}

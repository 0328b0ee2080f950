package verify

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
)

// allSix are the six TFB tests and page with the suite's paths (page with
// the default sizes, suite.DefaultRows).
func allSix() []Check {
	var checks []Check
	for _, t := range model.Types {
		if t == model.Stream || t == model.Coldstart {
			continue // no stream page on the reference server (stream_server_test.go); coldstart is measured by harness/run, never verified as a route
		}
		checks = append(checks, Check{Name: string(t) + "-test", Type: t, Path: pathOf(t)})
	}
	return checks
}

// TestRunReferenceRealDate verifies a correct server whose Date comes from
// the real clock (net/http's, 1 s resolution) with Run's own re-check
// (dateRecheck, 1.1 s in these tests): all seven pass, and the Date re-checks
// come after every test's first requests, each at least dateRecheck after
// its test's first request, so the framework waits once, not per test.
func TestRunReferenceRealDate(t *testing.T) {
	s := startServer(t, serverOpts{realDate: true})
	checks := allSix()
	results := Run(context.Background(), s.target(), checks)
	if len(results) != 7 {
		t.Fatalf("%d results, want 7", len(results))
	}
	for _, c := range checks {
		r := results[c.Name]
		if r.Status != model.Pass || len(r.Reasons) > 0 {
			t.Errorf("%s: %s %q, want pass", c.Name, r.Status, r.Reasons)
		}
		wantBytes := 0
		switch c.Type {
		case model.Fortunes:
			wantBytes = 1377 // the reference server's html/template page
		case model.Page:
			wantBytes = 917100 // the reference page of 10,000 rows (refPageHTML)
		}
		if r.PageBytes != wantBytes {
			t.Errorf("%s: PageBytes %d, want %d", c.Name, r.PageBytes, wantBytes)
		}
	}
	log := s.requests()
	// First requests: json, plaintext, db, 5 queries, 2 fortunes (page and
	// anti-caching), 5 updates, 8 page (4 sizes, 3 clamping cases,
	// anti-caching); then one re-check per test.
	var paths []string
	for _, l := range log {
		paths = append(paths, l.path)
	}
	want := []string{
		"/json", "/plaintext", "/db",
		"/queries?queries=2", "/queries?queries=0", "/queries?queries=foo", "/queries?queries=501", "/queries?queries=",
		"/fortunes", "/fortunes",
		"/updates?queries=2", "/updates?queries=0", "/updates?queries=foo", "/updates?queries=501", "/updates?queries=",
		"/ssr?rows=10", "/ssr?rows=100", "/ssr?rows=1000", "/ssr?rows=10000", "/ssr?rows=0", "/ssr?rows=foo", "/ssr?rows=10001", "/ssr?rows=10",
		"/json", "/plaintext", "/db", "/queries?queries=2", "/fortunes", "/updates?queries=2", "/ssr?rows=10",
	}
	if !slices.Equal(paths, want) {
		t.Fatalf("requests:\n%s\nwant:\n%s", strings.Join(paths, "\n"), strings.Join(want, "\n"))
	}
	firstAt := map[string]int{"/json": 0, "/plaintext": 1, "/db": 2, "/queries?queries=2": 3, "/fortunes": 8, "/updates?queries=2": 10, "/ssr?rows=10": 15}
	for _, l := range log[23:] {
		if gap := l.at.Sub(log[firstAt[l.path]].at); gap < dateRecheck {
			t.Errorf("%s re-checked %v after its first request, want >= %v", l.path, gap, dateRecheck)
		}
	}
}

// TestRunRequestHeaders checks the fixed header set of every request.
func TestRunRequestHeaders(t *testing.T) {
	s := startServer(t, serverOpts{})
	run(context.Background(), s.target(), allSix(), 0)
	for _, l := range s.requests() {
		typ := typeOfPath(l.path)
		want := http.Header{
			"Accept":     {typ.Accept()},
			"Connection": {"keep-alive"},
			"User-Agent": {suite.UserAgent},
		}
		if !equalHeader(l.header, want) {
			t.Errorf("GET %s: request headers %v, want exactly %v", l.path, l.header, want)
		}
	}
}

func equalHeader(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// TestRunRemovesInsertedFortune checks that the anti-caching row is deleted
// after a pass and after a fail.
func TestRunRemovesInsertedFortune(t *testing.T) {
	for _, opts := range []serverOpts{{}, {cacheFortunes: true}} {
		s := startServer(t, opts)
		res := run(context.Background(), s.target(), []Check{{Name: "f", Type: model.Fortunes, Path: "/fortunes"}}, 0)["f"]
		want := map[bool]model.Verdict{false: model.Pass, true: model.Fail}[opts.cacheFortunes]
		if res.Status != want {
			t.Errorf("cache %v: %s %q, want %s", opts.cacheFortunes, res.Status, res.Reasons, want)
		}
		var n, maxID int
		if err := s.db.QueryRow("SELECT COUNT(*), MAX(id) FROM Fortune").Scan(&n, &maxID); err != nil {
			t.Fatal(err)
		}
		if n != 12 || maxID != 12 {
			t.Errorf("cache %v: Fortune has %d rows, max id %d after Run, want 12 and 12", opts.cacheFortunes, n, maxID)
		}
	}
}

// TestRunWithoutDatabase fails updates, fortunes and page, whose database
// checks cannot run, and passes the rest.
func TestRunWithoutDatabase(t *testing.T) {
	s := startServer(t, serverOpts{})
	results := run(context.Background(), Target{BaseURL: s.srv.URL}, allSix(), 0)
	want := map[string]string{
		"updates-test":  `test "updates-test": cannot check that updates are written: no database path given (Target.DatabasePath) (TFB rules, updates)`,
		"fortunes-test": `test "fortunes-test": cannot run the fortunes anti-caching check: no database path given (Target.DatabasePath)`,
		"page-test":     `test "page-test": cannot check the page's rows against World: no database path given (Target.DatabasePath)`,
	}
	for name, r := range results {
		reason, failing := want[name]
		switch {
		case failing && (r.Status != model.Fail || !slices.Equal(r.Reasons, []string{reason})):
			t.Errorf("%s: %s %q, want fail %q", name, r.Status, r.Reasons, reason)
		case !failing && r.Status != model.Pass:
			t.Errorf("%s: %s %q, want pass", name, r.Status, r.Reasons)
		}
	}
}

// TestRunMissingDatabaseFile names the missing file.
func TestRunMissingDatabaseFile(t *testing.T) {
	s := startServer(t, serverOpts{})
	target := Target{BaseURL: s.srv.URL, DatabasePath: s.dbPath + ".missing"}
	r := run(context.Background(), target, []Check{{Name: "u", Type: model.Updates, Path: "/updates?queries={n}"}}, 0)["u"]
	if r.Status != model.Fail || len(r.Reasons) != 1 || !strings.Contains(r.Reasons[0], "database "+target.DatabasePath+": ") {
		t.Errorf("%s %q, want one fail naming %s", r.Status, r.Reasons, target.DatabasePath)
	}
}

// TestRunBadChecks rejects checks that cannot be run, without requests.
func TestRunBadChecks(t *testing.T) {
	s := startServer(t, serverOpts{})
	checks := []Check{
		{Name: "a", Type: "graphql", Path: "/graphql"},
		{Name: "b", Type: model.JSON, Path: "json"},
		{Name: "c", Type: model.Queries, Path: "/queries"},
	}
	got := run(context.Background(), s.target(), checks, 0)
	want := map[string]string{
		"a": `test "a": unknown test type "graphql" (want one of [json plaintext db queries fortunes updates page stream coldstart])`,
		"b": `path "json" of test "b" must start with "/"`,
		"c": `path "/queries" of test "c" has no {n} where the queries value goes (TFB rules, queries)`,
	}
	for name, reason := range want {
		if r := got[name]; r.Status != model.Fail || !slices.Equal(r.Reasons, []string{reason}) {
			t.Errorf("%s: %s %q, want fail %q", name, r.Status, r.Reasons, reason)
		}
	}
	if n := len(s.requests()); n != 0 {
		t.Errorf("%d requests sent, want 0", n)
	}
}

// TestRunCancelled fails every check of a cancelled run.
func TestRunCancelled(t *testing.T) {
	s := startServer(t, serverOpts{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, r := range Run(ctx, s.target(), allSix()) {
		if r.Status != model.Fail || !slices.ContainsFunc(r.Reasons, func(s string) bool { return strings.Contains(s, "context canceled") }) {
			t.Errorf("%s: %s %q, want a fail naming the cancelled context", name, r.Status, r.Reasons)
		}
	}
}

// TestRunServerDown names the URL that could not be reached.
func TestRunServerDown(t *testing.T) {
	s := startServer(t, serverOpts{})
	url := s.srv.URL
	s.srv.Close()
	r := run(context.Background(), Target{BaseURL: url}, []Check{{Name: "j", Type: model.JSON, Path: "/json"}}, 0)["j"]
	if r.Status != model.Fail || len(r.Reasons) != 1 || !strings.HasPrefix(r.Reasons[0], `GET /json: Get "`+url+`/json": `) {
		t.Errorf("%s %q, want one fail naming %s/json", r.Status, r.Reasons, url)
	}
}

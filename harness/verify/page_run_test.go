package verify

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
)

// verifyPage runs one page check with sizes rows (and cache) against a
// reference server with opts; it returns the result, the server and the
// World table before and after the run.
func verifyPage(t *testing.T, opts serverOpts, rows []int, cache bool) (Result, *refServer, World, World) {
	t.Helper()
	s := startServer(t, opts)
	before, err := ReadWorld(context.Background(), s.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	checks := []Check{{Name: "p", Type: model.Page, Path: "/ssr?rows={n}", Rows: rows, Cache: cache}}
	r := run(context.Background(), s.target(), checks, 10*time.Millisecond)["p"]
	after, err := ReadWorld(context.Background(), s.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	return r, s, before, after
}

// paths are the request paths a server saw.
func paths(s *refServer) []string {
	var out []string
	for _, l := range s.requests() {
		out = append(out, l.path)
	}
	return out
}

// TestPageReference: a correct server passes; the sizes, the clamping
// cases, the anti-caching page (the smallest size) and the Date re-check are
// requested in that order; World is the same afterwards.
func TestPageReference(t *testing.T) {
	r, s, before, after := verifyPage(t, serverOpts{}, []int{100, 5}, false)
	if r.Status != model.Pass || len(r.Reasons) > 0 {
		t.Errorf("%s %q, want pass", r.Status, r.Reasons)
	}
	if want := len(refPageHTML(worldRows(before, 100))); r.PageBytes != want {
		t.Errorf("PageBytes %d, want %d (the 100-row page)", r.PageBytes, want)
	}
	want := []string{"/ssr?rows=100", "/ssr?rows=5", "/ssr?rows=0", "/ssr?rows=foo", "/ssr?rows=10001", "/ssr?rows=5", "/ssr?rows=100"}
	if got := paths(s); !slices.Equal(got, want) {
		t.Errorf("requests %q, want %q", got, want)
	}
	if !slices.Equal(before, after) {
		t.Error("World changed by the run")
	}
}

// TestPageCached: a server that renders each size once fails the
// anti-caching check naming row 3 and both values; World is restored.
func TestPageCached(t *testing.T) {
	r, _, before, after := verifyPage(t, serverOpts{cachePage: true}, []int{10}, false)
	old := before[2]
	want := []string{fmt.Sprintf("GET /ssr?rows=10: row 3: randomNumber %d after the database changed it to %d: the page is cached (docs/ssr.md)", old, old%worldMax+1)}
	if r.Status != model.Fail || !slices.Equal(r.Reasons, want) {
		t.Errorf("%s %q, want fail %q", r.Status, r.Reasons, want)
	}
	if !slices.Equal(before, after) {
		t.Errorf("World not restored: row 3 %d, was %d", after[2], before[2])
	}
	// With cache: hit the page may be cached: only the rows are checked.
	r, s, _, _ := verifyPage(t, serverOpts{cachePage: true}, []int{10}, true)
	if r.Status != model.Pass || len(r.Reasons) > 0 {
		t.Errorf("cache hit: %s %q, want pass", r.Status, r.Reasons)
	}
	if got, want := paths(s), []string{"/ssr?rows=10", "/ssr?rows=0", "/ssr?rows=foo", "/ssr?rows=10001", "/ssr?rows=10"}; !slices.Equal(got, want) {
		t.Errorf("cache hit: requests %q, want %q (no anti-caching request)", got, want)
	}
}

// TestPageSmallestRow: with a smallest size of 2 the anti-caching check
// changes row 2.
func TestPageSmallestRow(t *testing.T) {
	r, _, before, after := verifyPage(t, serverOpts{cachePage: true}, []int{2}, false)
	old := before[1]
	want := []string{fmt.Sprintf("GET /ssr?rows=2: row 2: randomNumber %d after the database changed it to %d: the page is cached (docs/ssr.md)", old, old%worldMax+1)}
	if r.Status != model.Fail || !slices.Equal(r.Reasons, want) {
		t.Errorf("%s %q, want fail %q", r.Status, r.Reasons, want)
	}
	if !slices.Equal(before, after) {
		t.Error("World not restored")
	}
}

// TestPageWrongRows: a server that renders too few rows for one size, or
// for a clamping case, fails naming the request (the 10001 case warns).
func TestPageWrongRows(t *testing.T) {
	cases := []struct {
		name   string
		rows   func(q string, n int) int
		status model.Verdict
		want   []string
	}{
		{"too few at 50", func(q string, n int) int {
			if q == "50" {
				return 41
			}
			return n
		}, model.Fail, []string{"GET /ssr?rows=50: 41 rows, want 50 (page rules: one row per World id 1..N, N clamped to 1..10000)"}},
		{"0 rows for 0", func(q string, n int) int {
			if q == "0" {
				return 0
			}
			return n
		}, model.Fail, []string{"GET /ssr?rows=0: 0 rows, want 1 (page rules: one row per World id 1..N, N clamped to 1..10000)"}},
		{"10 rows for foo", func(q string, n int) int {
			if q == "foo" {
				return 10
			}
			return n
		}, model.Fail, []string{"GET /ssr?rows=foo: 10 rows, want 1 (page rules: one row per World id 1..N, N clamped to 1..10000)"}},
		{"500 rows for 10001, as queries", func(q string, n int) int {
			if q == "10001" {
				return 500
			}
			return n
		}, model.Warn, []string{"GET /ssr?rows=10001: 500 rows, want 10000 (page rules: one row per World id 1..N, N clamped to 1..10000)"}},
	}
	for _, c := range cases {
		r, _, _, _ := verifyPage(t, serverOpts{pageRows: c.rows}, []int{50, 10}, false)
		if r.Status != c.status || !slices.Equal(r.Reasons, c.want) {
			t.Errorf("%s: %s %q, want %s %q", c.name, r.Status, r.Reasons, c.status, c.want)
		}
	}
}

// TestPageStaleRow: a server that shows one row's old value after the
// database changed, but renders otherwise, is named too; a server whose
// page breaks after the change gets the new problem prefixed.
func TestPageStaleRow(t *testing.T) {
	var first []worldRow
	opts := serverOpts{page: func(rows []worldRow) []byte {
		if first == nil {
			first = slices.Clone(rows)
		}
		if len(rows) > 3 && len(first) > 3 {
			rows[2] = first[2] // row 3 from a cache of rows
		}
		return refPageHTML(rows)
	}}
	r, _, before, _ := verifyPage(t, opts, []int{10}, false)
	want := []string{fmt.Sprintf("GET /ssr?rows=10: row 3: randomNumber %d after the database changed it to %d: the page is cached (docs/ssr.md)", before[2], before[2]%worldMax+1)}
	if r.Status != model.Fail || !slices.Equal(r.Reasons, want) {
		t.Errorf("stale row: %s %q, want fail %q", r.Status, r.Reasons, want)
	}
	calls := 0
	opts = serverOpts{page: func(rows []worldRow) []byte {
		calls++
		if calls == 5 { // the anti-caching request: rows 1..10 then 1..3 again
			rows = append(rows, rows[:3]...)
		}
		return refPageHTML(rows)
	}}
	r, _, _, _ = verifyPage(t, opts, []int{10}, false)
	want = []string{
		fmt.Sprintf("GET /ssr?rows=10 (after setting World row 3's randomNumber to %d): 13 rows, want 10 (page rules: one row per World id 1..N, N clamped to 1..10000)", before[2]%worldMax+1),
	}
	if r.Status != model.Fail || !slices.Equal(r.Reasons, want) {
		t.Errorf("broken after the change: %s %q, want fail %q", r.Status, r.Reasons, want)
	}
}

// TestPageBadChecks: a page path without {n} is rejected without requests.
func TestPageBadChecks(t *testing.T) {
	s := startServer(t, serverOpts{})
	r := run(context.Background(), s.target(), []Check{{Name: "p", Type: model.Page, Path: "/ssr"}}, 0)["p"]
	want := []string{`path "/ssr" of test "p" has no {n} where the rows value goes (page rules)`}
	if r.Status != model.Fail || !slices.Equal(r.Reasons, want) || len(s.requests()) != 0 {
		t.Errorf("%s %q, %d requests; want fail %q and none", r.Status, r.Reasons, len(s.requests()), want)
	}
}

// TestPageMarkupAroundTable: the reference page has scripts, a head and a
// root <div> around the table; none of it is a warn.
func TestPageMarkupAroundTable(t *testing.T) {
	page := string(refPageHTML(worldRows(testWorld(3), 3)))
	for _, s := range []string{"<script>", `<div id="root">`, "<thead>"} {
		if !strings.Contains(page, s) {
			t.Fatalf("the reference page has no %s", s)
		}
	}
}

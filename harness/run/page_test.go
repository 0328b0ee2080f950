package run

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/tfbench/tfbench/dataset"
	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/load"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/verify"
	"github.com/tfbench/tfbench/internal/testenv"
)

// pageRenders counts the fake server's /ssr renders.
var pageRenders atomic.Int64

// fakePage is the fake server's page handler: World rows 1..N (N the rows
// value clamped to 1..10000, else 1) read from the database at dbPath in
// one query and rendered as the page contract says; with cache, each size
// is rendered once and served from then on.
func fakePage(dbPath string, cache bool) http.HandlerFunc {
	db, err := sql.Open("sqlite", dbPath+"?_pragma=busy_timeout(5000)&_pragma=synchronous(NORMAL)")
	var mu sync.Mutex
	cached := map[int][]byte{}
	return func(w http.ResponseWriter, r *http.Request) {
		n, aerr := strconv.Atoi(r.URL.Query().Get("rows"))
		if aerr != nil || n < 1 {
			n = 1
		}
		n = min(n, 10000)
		mu.Lock()
		page, ok := cached[n]
		mu.Unlock()
		if !ok || !cache {
			if err == nil {
				page, err = testenv.WorldPage(db, n)
			}
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			pageRenders.Add(1)
			mu.Lock()
			cached[n] = page
			mu.Unlock()
		}
		w.Header().Set("Server", "fake")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	}
}

// pageTest is a page test of sizes 5 and 20 at c=2 for 300 ms, checked
// under load (engine raw), with cache state cache.
func pageTest(cache string) suite.Test {
	return suite.Test{Name: "page", Type: model.Page, Path: "/ssr?rows={n}", Queries: []int{5, 20}, Settings: suite.Settings{
		Duration: 300 * time.Millisecond, Timeout: 2 * time.Second, Concurrency: []int{2}, Pipeline: 1, Gate: 1,
		MinResponses: 10, Engine: "raw", Cache: cache}}
}

// TestBenchPage runs a page test on the page adapter: verification passes
// (sizes, clamping cases, anti-caching row, render counts) with the page
// bytes of the 20-row page, and each size's sample passes its gate with
// the responses checked against World (load's Check errors none).
func TestBenchPage(t *testing.T) {
	spec := adapter(t, "page")
	s := &suite.Suite{Name: "page", Rounds: 1, Tests: []suite.Test{pageTest("")}}
	var log strings.Builder
	work := t.TempDir()
	f, _, err := Bench(context.Background(), Config{
		Suite: s, WorkDir: work, Log: &log, Seed: 1, RunID: "page", dateRecheck: time.Millisecond,
		Targets: []Target{{Spec: spec, Variant: spec.Variants[0]}},
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if len(f.Verifications) != 1 || f.Verifications[0].Status != "pass" {
		t.Fatalf("verifications %+v\n%s", f.Verifications, log.String())
	}
	world, err := verify.ReadWorld(context.Background(), DatasetPath(work))
	if err != nil {
		t.Fatal(err)
	}
	if want := fakePageBytes(world, 20); f.Verifications[0].PageBytes != want {
		t.Errorf("page bytes %d, want %d (the 20-row page)", f.Verifications[0].PageBytes, want)
	}
	var ns []int
	for _, smp := range f.Samples {
		ns = append(ns, smp.N)
		if !smp.Gate.Passed || smp.Errors[string(load.Check)] != 0 || smp.Checked == 0 {
			t.Errorf("N=%d: gate %v %q, %d checked, %d check errors", smp.N, smp.Gate.Passed, smp.Gate.Reason, smp.Checked, smp.Errors[string(load.Check)])
		}
	}
	if !slices.Equal(ns, []int{5, 20}) {
		t.Errorf("sample sizes %v, want [5 20]", ns)
	}
	noLeftovers(t, work, "page")
}

// fakePageBytes is the size of the fake server's page of n rows of world.
func fakePageBytes(w verify.World, n int) int {
	size := len("<!DOCTYPE html><html><head><title>World</title></head><body><table><thead><tr><th>id</th><th>randomNumber</th></tr></thead><tbody>") +
		len("</tbody></table><script>hydrate()</script></body></html>")
	for id := 1; id <= n; id++ {
		size += len(fmt.Sprintf(`<tr class="row" data-id="%d"><td class="id">%d</td><td class="num">%d</td></tr>`, id, id, w[id-1]))
	}
	return size
}

// TestVerifyPageCached: a server that caches its pages fails the page test
// naming row 3, and passes the same test with cache: hit (no anti-caching
// change; the hits confirmed by render counts), which a server rendering
// every request fails.
func TestVerifyPageCached(t *testing.T) {
	spec := adapter(t, "page")
	variant := func(name string) framework.Variant {
		return spec.Variants[slices.IndexFunc(spec.Variants, func(v framework.Variant) bool { return v.Name == name })]
	}
	cached, rendering := variant("cached"), variant("default")
	work := t.TempDir()
	world := func() verify.World {
		if _, err := dataset.Ensure(DatasetPath(work)); err != nil {
			t.Fatal(err)
		}
		w, err := verify.ReadWorld(context.Background(), DatasetPath(work))
		if err != nil {
			t.Fatal(err)
		}
		return w
	}()
	for i, c := range []struct {
		variant framework.Variant
		cache   string
		status  model.Verdict
		reasons []string
	}{
		{cached, "", "fail", []string{fmt.Sprintf("GET /ssr?rows=5: row 3: randomNumber %d after the database changed it to %d: the page is cached (docs/ssr.md)", world[2], world[2]%10000+1)}},
		{cached, suite.CacheHit, "pass", nil},
		{rendering, suite.CacheHit, "fail", []string{"cache hit not confirmed: 5 renders of /ssr for 5 requests after the first to /ssr?rows=20 (BASE/renders): a cache hit renders nothing"}},
	} {
		test := pageTest(c.cache)
		var log strings.Builder
		_, vs, _, err := Verify(context.Background(), Config{
			Suite: &suite.Suite{Name: "page", Rounds: 1, Tests: []suite.Test{test}}, WorkDir: work, Log: &log,
			RunID: fmt.Sprintf("verify-%d", i), dateRecheck: time.Millisecond, Targets: []Target{{Spec: spec, Variant: c.variant}},
		})
		if len(vs) == 1 && len(vs[0].Reasons) == 1 {
			vs[0].Reasons[0] = regexp.MustCompile(`http://127\.0\.0\.1:\d+`).ReplaceAllString(vs[0].Reasons[0], "BASE")
		}
		if err != nil {
			t.Fatalf("%v\n%s", err, log.String())
		}
		if len(vs) != 1 || vs[0].Status != c.status || !slices.Equal(vs[0].Reasons, c.reasons) {
			t.Errorf("cache %q: verifications %+v, want %s %q", c.cache, vs, c.status, c.reasons)
		}
	}
}

// TestChecksPage: a page test's check carries its sizes and cache state.
func TestChecksPage(t *testing.T) {
	spec := &framework.Spec{Name: "x", Endpoints: map[model.TestType]string{model.Page: "/app/ssr?rows={n}"}, Cache: &framework.Cache{Path: "/app/isr?rows={n}"}}
	hit := pageTest(suite.CacheHit)
	hit.Name = "hit"
	r := &runner{cfg: Config{Tests: []suite.Test{pageTest(""), hit, {Name: "json", Type: model.JSON, Path: "/json", Queries: nil}}}}
	got := r.checks(Target{Spec: spec})
	want := []verify.Check{
		{Name: "page", Type: model.Page, Path: "/app/ssr?rows={n}", Rows: []int{5, 20}},
		{Name: "hit", Type: model.Page, Path: "/app/isr?rows={n}", Rows: []int{5, 20}, Cache: true},
		{Name: "json", Type: model.JSON, Path: "/json"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("checks %+v, want %+v", got, want)
	}
	spec.Cache = nil // no cached route: the hit test is n/a, not verified
	if got := r.checks(Target{Spec: spec}); len(got) != 2 || got[1].Name != "json" {
		t.Errorf("checks without a cached route %+v, want page and json", got)
	}
}

package suite

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
)

// TestColdstartDefaults: a bare coldstart test gets 5 starts, the page (its
// default size), json and fortunes, a 20 s cap and one level of 16
// connections, whatever the defaults block's levels, rate, probe and
// pipeline (they do not apply); its keys are read.
func TestColdstartDefaults(t *testing.T) {
	s, err := Parse("c.yaml", []byte("name: c\ndefaults: {concurrency: [4, 64], rate: 3, probe: 20ms, pipeline: 2}\ntests:\n  - {name: cold, type: coldstart}\n  - {name: c2, type: coldstart, starts: 2, rows: [10, 100], routes: [json, page], concurrency: [8], warmup_limit: 12s}\n"))
	if err != nil {
		t.Fatal(err)
	}
	a, b := s.Tests[0], s.Tests[1]
	if a.ColdStart == nil || a.ColdStart.Starts != 5 || a.ColdStart.WarmupLimit != 20*time.Second ||
		!slices.Equal(a.ColdStart.Routes, []model.TestType{model.Page, model.JSON, model.Fortunes}) ||
		!slices.Equal(a.Concurrency, []int{16}) || !slices.Equal(a.Queries, []int{1000}) || a.Path != "/ssr?rows={n}" ||
		a.Rate != 0 || a.Probe != 0 || a.Pipeline != 1 || a.Engine != "raw" {
		t.Errorf("defaults: %+v %+v", a, a.ColdStart)
	}
	if b.ColdStart.Starts != 2 || b.ColdStart.WarmupLimit != 12*time.Second ||
		!slices.Equal(b.ColdStart.Routes, []model.TestType{model.JSON, model.Page}) ||
		!slices.Equal(b.Concurrency, []int{8}) || !slices.Equal(b.Queries, []int{10, 100}) || b.Headline() != 100 {
		t.Errorf("set: %+v %+v", b, b.ColdStart)
	}
	j, err := Parse("j.yaml", []byte("name: j\ntests: [{name: j, type: json}]\n"))
	if err != nil || j.Tests[0].ColdStart != nil {
		t.Errorf("a json test has ColdStart %v (%v)", j.Tests[0].ColdStart, err)
	}
}

// TestColdstartErrors: each bad coldstart value is an error naming the file,
// line and key, exactly.
func TestColdstartErrors(t *testing.T) {
	const head = "name: c\ntests:\n"
	cases := []struct{ test, want string }{
		{"  - {name: c, type: coldstart, starts: 0}", `c.yaml:3: key "starts": starts must be at least 1`},
		{"  - {name: c, type: coldstart, routes: []}", `c.yaml:3: key "routes": the list is empty: give at least one route`},
		{"  - {name: c, type: coldstart, routes: page}", `c.yaml:3: key "routes": expected a list such as [page, json, fortunes]`},
		{"  - {name: c, type: coldstart, routes: [page, updates]}", `c.yaml:3: key "routes": "updates": want page, json, plaintext, db or fortunes`},
		{"  - {name: c, type: coldstart, routes: [json, json]}", `c.yaml:3: key "routes": "json" is listed twice`},
		{"  - {name: c, type: coldstart, warmup_limit: 5s}", `c.yaml:3: key "warmup_limit": 5s: want whole seconds, at least 6s (three steady seconds, and the last third of the run for the steady RPS)`},
		{"  - {name: c, type: coldstart, warmup_limit: 7500ms}", `c.yaml:3: key "warmup_limit": 7500ms: want whole seconds, at least 6s (three steady seconds, and the last third of the run for the steady RPS)`},
		{"  - {name: c, type: coldstart, warmup_limit: 0s}", `c.yaml:3: key "warmup_limit": 0s must be positive`},
		{"  - {name: c, type: coldstart, concurrency: [16, 64]}", `c.yaml:3: key "concurrency": a coldstart test measures its warm-up at one closed-loop level, found 2 [16 64]`},
		{"  - {name: c, type: coldstart, queries: [5]}", `c.yaml:3: key "queries": a coldstart test takes rows (World rows per page), not queries`},
		{"  - {name: c, type: coldstart, path: /x}", `c.yaml:3: key "path": a coldstart test asks each route at the adapter's endpoint; it takes no path`},
		{"  - {name: c, type: coldstart, cache: hit}", `c.yaml:3: key "cache": only page tests take cache, not coldstart`},
		{"  - {name: c, type: coldstart, rows: [20000]}", `c.yaml:3: key "rows": 20000 is above 10000, the rows of the World table`},
		{"  - {name: c, type: coldstart, engine: hey}", `c.yaml:3: key "engine": test "c": a coldstart test runs on engine raw (per-second buckets), not hey`},
		{"  - {name: c, type: coldstart, rate: 10}", `c.yaml:3: key "rate": test "c": a coldstart test runs a closed loop without pipelining, rate or probe (rate 10)`},
		{"  - {name: c, type: coldstart, pipeline: 16}", `c.yaml:3: key "pipeline": test "c": a coldstart test runs a closed loop without pipelining, rate or probe (pipeline 16)`},
		{"  - {name: c, type: coldstart, probe: 20ms}", `c.yaml:3: key "probe": test "c": a coldstart test runs a closed loop without pipelining, rate or probe (probe 20ms)`},
		{"  - {name: c, type: json, starts: 3}", `c.yaml:3: key "starts": only coldstart tests take starts, not json`},
		{"  - {name: c, type: page, warmup_limit: 10s}", `c.yaml:3: key "warmup_limit": only coldstart tests take warmup_limit, not page`},
		{"  - {name: c, type: coldd}", `c.yaml:3: key "type": unknown test type "coldd" (want one of json, plaintext, db, queries, fortunes, updates, page, stream, coldstart)`},
	}
	for _, c := range cases {
		_, err := Parse("c.yaml", []byte(head+c.test+"\n"))
		var se *Error
		if !errors.As(err, &se) || err.Error() != c.want {
			t.Errorf("%s:\n got  %v\n want %s", c.test, err, c.want)
		}
	}
}

// TestLoadShippedSSRExtraSuite: suites/ssr-extra.yaml's coldstart test is
// the one its comment (and docs/ssr.md) describes, after stream and page.
func TestLoadShippedSSRExtraSuite(t *testing.T) {
	s, err := Load("../../suites/ssr-extra.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tests) != 3 || s.Tests[0].Name != "stream" || s.Tests[1].Name != "page" {
		t.Fatalf("ssr-extra: tests %+v, want stream, page, coldstart", s.Tests)
	}
	c := s.Tests[2]
	if s.Name != "ssr-extra" || s.Rounds != 3 || c.Name != "coldstart" || c.Type != model.Coldstart || c.ColdStart.Starts != 5 ||
		c.ColdStart.WarmupLimit != 20*time.Second || !slices.Equal(c.Concurrency, []int{16}) || c.Headline() != 1000 ||
		!slices.Equal(c.ColdStart.Routes, []model.TestType{model.Page, model.JSON, model.Fortunes}) || c.Timeout != 8*time.Second {
		t.Errorf("ssr-extra: %+v %+v", c, c.ColdStart)
	}
}

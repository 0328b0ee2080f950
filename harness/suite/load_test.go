package suite

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
)

func TestLoadShippedSuites(t *testing.T) {
	want := map[string]string{
		"tfb":      "json,plaintext,db,queries,fortunes,updates",
		"tfb-full": "json,plaintext,db,queries,fortunes,updates",
		"tfb-fast": "json,plaintext,db,queries,fortunes,updates",
		"smoke":    "json,plaintext,db,queries,fortunes,updates,page,page",
	}
	for _, name := range []string{"tfb", "tfb-full", "tfb-fast", "smoke"} {
		s, err := Load(filepath.Join("..", "..", "suites", name+".yaml"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if s.Name != name {
			t.Errorf("%s: name %q", name, s.Name)
		}
		var types []string
		for _, tt := range s.Tests {
			types = append(types, string(tt.Type))
		}
		if got := strings.Join(types, ","); got != want[name] {
			t.Errorf("%s: test types %s", name, got)
		}
		if len(s.Hash) != 64 {
			t.Errorf("%s: hash %q", name, s.Hash)
		}
	}
}

// TestLoadShippedSSRSuite: suites/ssr.yaml is the page sweep and the
// cached page, with the probe and the low-rate sample (the figures the
// docs (docs/ssr.md) and the suite's comment rely on).
func TestLoadShippedSSRSuite(t *testing.T) {
	s, err := Load(filepath.Join("..", "..", "suites", "ssr.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "ssr" || s.Rounds != 3 || len(s.Hash) != 64 || len(s.Tests) != 2 {
		t.Fatalf("ssr: name %q, %d rounds, hash %q, %d tests", s.Name, s.Rounds, s.Hash, len(s.Tests))
	}
	page, hit := s.Tests[0], s.Tests[1]
	if page.Type != model.Page || page.Path != "/ssr?rows={n}" || !slices.Equal(page.Queries, []int{10, 100, 1000, 10000}) || page.Cache != "" {
		t.Errorf("ssr page test %+v", page)
	}
	if page.Rate != 3 || page.RateConnections != 2 || page.Probe != 20*time.Millisecond || !slices.Equal(page.Concurrency, []int{4, 16}) || page.MinResponses != 10 {
		t.Errorf("ssr page settings %+v", page.Settings)
	}
	if hit.Name != "page-hit" || hit.Type != model.Page || hit.Cache != CacheHit || !slices.Equal(hit.Queries, []int{1000}) || hit.Rate != 0 || hit.Probe != 20*time.Millisecond {
		t.Errorf("ssr page-hit test %+v", hit)
	}
}

// TestLoadShippedEngineSuite: suites/engine.yaml (go tool task
// bench:engine) is tfb.yaml's six tests and ssr.yaml's page test, each with
// its own settings unchanged, at 6 rounds (the probe target's 8 rows need
// 6 to reach α after Holm).
func TestLoadShippedEngineSuite(t *testing.T) {
	load := func(name string) *Suite {
		s, err := Load(filepath.Join("..", "..", "suites", name+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	engine, tfb, ssr := load("engine"), load("tfb"), load("ssr")
	if engine.Name != "engine" || engine.Rounds != 6 || len(engine.Tests) != 7 {
		t.Fatalf("engine: name %q, %d rounds, %d tests; want engine, 6, 7", engine.Name, engine.Rounds, len(engine.Tests))
	}
	want := append(slices.Clone(tfb.Tests), ssr.Tests[0])
	for i, w := range want {
		got := engine.Tests[i]
		got.Line, w.Line = 0, 0
		if !reflect.DeepEqual(got, w) {
			t.Errorf("engine test %d:\n got %+v\nwant %+v", i, got, w)
		}
	}
}

func TestDefaultsMergeAndOverride(t *testing.T) {
	s, err := Load("../../suites/tfb.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if s.Rounds != 3 {
		t.Errorf("rounds %d, want 3", s.Rounds)
	}
	byName := map[string]Test{}
	for _, tt := range s.Tests {
		byName[tt.Name] = tt
	}
	js := byName["json"]
	if js.Duration != 5*time.Second || js.Warmup != 2*time.Second || js.Timeout != 8*time.Second || js.Gate != 1 || js.Pipeline != 1 || js.MinResponses != 100 {
		t.Errorf("json settings %+v", js.Settings)
	}
	if got := js.Concurrency; len(got) != 3 || got[0] != 16 || got[2] != 256 {
		t.Errorf("json concurrency %v", got)
	}
	pt := byName["plaintext"]
	if pt.Pipeline != 16 || len(pt.Concurrency) != 2 || pt.Concurrency[1] != 256 {
		t.Errorf("plaintext %+v", pt.Settings)
	}
	q := byName["queries"]
	if q.Headline() != 20 || len(q.Queries) != 5 || PathFor(q.Path, 20) != "/queries?queries=20" {
		t.Errorf("queries %v %q", q.Queries, q.Path)
	}
	if js.Headline() != 0 {
		t.Errorf("json headline %d", js.Headline())
	}
}

func TestDefaultPathsAndQueries(t *testing.T) {
	s, err := Parse("x.yaml", []byte("name: x\ntests:\n  - {name: u, type: updates}\n  - {name: f, type: fortunes}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Tests[0].Path != "/updates?queries={n}" || len(s.Tests[0].Queries) != 5 || s.Tests[1].Path != "/fortunes" {
		t.Errorf("got %+v", s.Tests)
	}
	if s.Rounds != 1 || s.Tests[1].Engine != "raw" {
		t.Errorf("rounds %d engine %q", s.Rounds, s.Tests[1].Engine)
	}
}

func TestPageTest(t *testing.T) {
	s, err := Parse("p.yaml", []byte("name: p\ndefaults: {probe: 20ms}\ntests:\n  - {name: page, type: page}\n  - {name: hit, type: page, rows: [100], cache: hit, probe: 0s}\n  - {name: none, type: page, cache: none}\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, hit, none := s.Tests[0], s.Tests[1], s.Tests[2]
	if p.Path != "/ssr?rows={n}" || fmt.Sprint(p.Queries) != "[10 100 1000 10000]" || p.Headline() != 10000 || p.Probe != 20*time.Millisecond || p.Cache != "" {
		t.Errorf("page: path %q rows %v headline %d probe %s cache %q", p.Path, p.Queries, p.Headline(), p.Probe, p.Cache)
	}
	if hit.Cache != CacheHit || fmt.Sprint(hit.Queries) != "[100]" || hit.Probe != 0 {
		t.Errorf("hit: cache %q rows %v probe %s", hit.Cache, hit.Queries, hit.Probe)
	}
	if none.Cache != "" {
		t.Errorf("none: cache %q", none.Cache)
	}
	if !model.Page.TakesN() || model.Page.Accept() != model.Fortunes.Accept() {
		t.Errorf("page: TakesN %v, Accept %q", model.Page.TakesN(), model.Page.Accept())
	}
}

func TestGateParsing(t *testing.T) {
	s, err := Parse("g.yaml", []byte("name: g\ndefaults: {gate: 99.5%}\ntests: [{name: j, type: json}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Tests[0].Gate != 0.995 {
		t.Errorf("gate %v, want 0.995", s.Tests[0].Gate)
	}
}

// TestErrors loads each bad fixture and checks the exact file, line and key.
func TestErrors(t *testing.T) {
	cases := []struct {
		file, want string
	}{
		// The unclosed flow list starts on line 4; yaml.v3 reports it 0-based.
		{"malformed.yaml", `testdata/malformed.yaml:4: malformed YAML: did not find expected ',' or ']'`},
		{"unknown-key.yaml", `testdata/unknown-key.yaml:5: key "durration": unknown key`},
		{"unknown-test-key.yaml", `testdata/unknown-test-key.yaml:5: key "conections": unknown key`},
		{"unknown-type.yaml", `testdata/unknown-type.yaml:4: key "type": unknown test type "jsonn"`},
		{"empty-levels.yaml", `testdata/empty-levels.yaml:4: key "concurrency": the list is empty`},
		{"negative-level.yaml", `testdata/negative-level.yaml:3: key "concurrency": -4: levels must be positive`},
		{"bad-duration.yaml", `testdata/bad-duration.yaml:3: key "duration": "5 sec" is not a duration`},
		{"negative-duration.yaml", `testdata/negative-duration.yaml:3: key "warmup": -1s must not be negative (0s turns it off)`},
		{"zero-duration.yaml", `testdata/zero-duration.yaml:3: key "duration": 0s must be positive`},
		{"gate-over.yaml", `testdata/gate-over.yaml:3: key "gate": 120% is outside 0..100%`},
		{"gate-no-percent.yaml", `testdata/gate-no-percent.yaml:3: key "gate": "1": write gate as a percentage such as 100%`},
		{"no-tests.yaml", `testdata/no-tests.yaml:2: key "tests": a non-empty list of tests is required`},
		{"duplicate-test.yaml", `testdata/duplicate-test.yaml:4: key "name": test "json" already defined on line 3`},
		{"queries-on-json.yaml", `testdata/queries-on-json.yaml:3: key "queries": only queries and updates tests take queries`},
		{"missing-n.yaml", `testdata/missing-n.yaml:3: key "path": a queries path needs the {n} placeholder`},
		{"duplicate-key.yaml", `testdata/duplicate-key.yaml:5: key "defaults.duration": duplicate key (first on line 3)`},
		{"duplicate-test-key.yaml", `testdata/duplicate-test-key.yaml:5: key "tests.type": duplicate key (first on line 4)`},
		{"two-documents.yaml", `testdata/two-documents.yaml:4: more than one YAML document`},
		{"page-queries.yaml", `testdata/page-queries.yaml:5: key "queries": a page test takes rows (World rows per page), not queries`},
		{"page-rows-over.yaml", `testdata/page-rows-over.yaml:5: key "rows": 20000 is above 10000, the rows of the World table`},
		{"rows-on-fortunes.yaml", `testdata/rows-on-fortunes.yaml:5: key "rows": only page and stream tests take rows, not fortunes`},
		{"stream-parts-over.yaml", `testdata/stream-parts-over.yaml:6: key "parts": 17 is outside 1..16, the parts a stream page may ask for`},
		{"stream-parts-zero.yaml", `testdata/stream-parts-zero.yaml:6: key "parts": 0 is outside 1..16, the parts a stream page may ask for`},
		{"stream-parts-text.yaml", `testdata/stream-parts-text.yaml:5: key "parts": `},
		{"parts-on-page.yaml", `testdata/parts-on-page.yaml:6: key "parts": only stream tests take parts, not page`},
		{"stream-missing-k.yaml", `testdata/stream-missing-k.yaml:3: key "path": a stream path needs the {k} placeholder for the parts`},
		{"page-missing-n.yaml", `testdata/page-missing-n.yaml:3: key "path": a page path needs the {n} placeholder for the rows`},
		{"cache-bad.yaml", `testdata/cache-bad.yaml:5: key "cache": "warm": want hit (serve the framework's cached page route) or none (render every request)`},
		{"cache-on-fortunes.yaml", `testdata/cache-on-fortunes.yaml:5: key "cache": only page tests take cache, not fortunes`},
		{"probe-short.yaml", `testdata/probe-short.yaml:3: key "probe": 500us is below 1ms: the probe is one request per interval on one connection`},
		{"probe-hey.yaml", `testdata/probe-hey.yaml:3: key "engine": test "p": engine hey runs no interference probe (probe 20ms)`},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			_, err := Load(filepath.Join("testdata", c.file))
			if err == nil {
				t.Fatalf("no error, want %q", c.want)
			}
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("error %T %v is not a *suite.Error", err, err)
			}
			if !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("got  %q\nwant prefix %q", err.Error(), c.want)
			}
		})
	}
}

func TestSelect(t *testing.T) {
	s, err := Load("../../suites/smoke.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Select([]string{"fortunes", "json"})
	if err != nil || len(got) != 2 || got[0].Name != "json" || got[1].Name != "fortunes" {
		t.Fatalf("got %v %v", got, err)
	}
	if _, err := s.Select([]string{"jsn"}); err == nil || !strings.Contains(err.Error(), `no test named "jsn"`) {
		t.Errorf("err %v", err)
	}
}

func TestRateSettings(t *testing.T) {
	s, err := Parse("r.yaml", []byte("name: r\ndefaults: {rate: 500, concurrency: [64, 16]}\ntests:\n  - {name: j, type: json}\n  - {name: f, type: fortunes, rate: 0, rate_connections: 8}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if j := s.Tests[0]; j.Rate != 500 || j.RateConnections != 16 {
		t.Errorf("json: rate %v over %d connections, want 500 over the smallest level 16", j.Rate, j.RateConnections)
	}
	if f := s.Tests[1]; f.Rate != 0 || f.RateConnections != 8 {
		t.Errorf("fortunes: rate %v over %d", f.Rate, f.RateConnections)
	}
	for _, c := range []struct{ yaml, want string }{
		{"name: r\ndefaults: {rate: -5}\ntests: [{name: j, type: json}]\n", `r.yaml:2: key "rate": "-5" is not a rate in requests/s`},
		{"name: r\ntests:\n  - {name: j, type: json, rate_connections: 0}\n", `r.yaml:3: key "rate_connections": rate_connections must be at least 1`},
		{"name: r\ntests:\n  - {name: p, type: plaintext, engine: hey, pipeline: 16}\n", `r.yaml:3: key "engine": test "p": engine hey neither pipelines nor runs at a constant rate (pipeline 16, rate 0)`},
		{"name: r\ntests:\n  - {name: j, type: json, engine: wrk}\n", `r.yaml:3: key "engine": unknown engine "wrk" (want one of raw, hey)`},
	} {
		if _, err := Parse("r.yaml", []byte(c.yaml)); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("got %v\nwant %s", err, c.want)
		}
	}
}

// TestPlanSettings holds the plan's keys: windows ending on a response
// count, levels kept after round 1, the constant-rate shot's rounds.
func TestPlanSettings(t *testing.T) {
	s, err := Parse("p.yaml", []byte("name: p\ndefaults: {duration: 3s, responses: 20000, min_duration: 1s, warmup: 3s, warmup_responses: 5000, sample_warmup: 250ms, keep_within: 15%, rate: 200, rate_rounds: 2}\ntests:\n  - {name: j, type: json}\n  - {name: f, type: fortunes, responses: 0, keep_within: 0%, rate_rounds: 0, sample_warmup: 0s}\n"))
	if err != nil {
		t.Fatal(err)
	}
	j, f := s.Tests[0], s.Tests[1]
	if j.Responses != 20000 || j.MinDuration != time.Second || j.Duration != 3*time.Second || j.KeepWithin != 0.15 || j.RateRounds != 2 || j.WarmupResponses != 5000 || j.SampleWarmup != 250*time.Millisecond {
		t.Errorf("json: responses %d, min_duration %s, duration %s, keep_within %v, rate_rounds %d, warmup_responses %d, sample_warmup %s", j.Responses, j.MinDuration, j.Duration, j.KeepWithin, j.RateRounds, j.WarmupResponses, j.SampleWarmup)
	}
	if f.Responses != 0 || f.KeepWithin != 0 || f.RateRounds != 0 || f.SampleWarmup != 0 {
		t.Errorf("fortunes: responses %d, keep_within %v, rate_rounds %d, sample_warmup %s, want all off", f.Responses, f.KeepWithin, f.RateRounds, f.SampleWarmup)
	}
	for _, c := range []struct{ yaml, want string }{
		{"name: p\ndefaults: {responses: -1}\ntests: [{name: j, type: json}]\n", `p.yaml:2: key "responses": responses must not be negative (0 turns it off)`},
		{"name: p\ndefaults: {min_duration: -1s}\ntests: [{name: j, type: json}]\n", `p.yaml:2: key "min_duration": -1s must not be negative (0s turns it off)`},
		{"name: p\ntests:\n  - {name: j, type: json, duration: 2s, responses: 100, min_duration: 3s}\n", `p.yaml:3: key "min_duration": test "j": min_duration 3s is longer than duration 2s, the longest window`},
		{"name: p\ntests:\n  - {name: j, type: json, engine: hey, responses: 100}\n", `p.yaml:3: key "responses": test "j": engine hey cannot end a window on a response count (responses 100, warmup_responses 0)`},
		{"name: p\ndefaults: {keep_within: 100%}\ntests: [{name: j, type: json}]\n", `p.yaml:2: key "keep_within": 100% keeps every level: write a share below 100% (0% turns it off)`},
		{"name: p\ndefaults: {keep_within: 0.15}\ntests: [{name: j, type: json}]\n", `p.yaml:2: key "keep_within": "0.15": write keep_within as a percentage such as 100%`},
		{"name: p\ndefaults: {warmup_responses: -2}\ntests: [{name: j, type: json}]\n", `p.yaml:2: key "warmup_responses": warmup_responses must not be negative (0 turns it off)`},
		{"name: p\ndefaults: {sample_warmup: -1s}\ntests: [{name: j, type: json}]\n", `p.yaml:2: key "sample_warmup": -1s must not be negative (0s turns it off)`},
		{"name: p\ntests:\n  - {name: j, type: json, engine: hey, sample_warmup: 1s}\n", `p.yaml:3: key "sample_warmup": test "j": engine hey cannot open a window on running load (sample_warmup 1s)`},
		{"name: p\ndefaults: {rate_rounds: -2}\ntests: [{name: j, type: json}]\n", `p.yaml:2: key "rate_rounds": rate_rounds must not be negative (0: every round)`},
	} {
		if _, err := Parse("p.yaml", []byte(c.yaml)); err == nil || err.Error() != c.want {
			t.Errorf("got  %v\nwant %s", err, c.want)
		}
	}
}

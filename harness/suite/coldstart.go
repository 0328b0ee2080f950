package suite

import (
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/tfbench/tfbench/harness/model"
)

// ColdStart is a coldstart test's own settings (docs/suites.md, "coldstart"):
// R fresh starts, the routes asked once each right after the port accepts, and
// the cap of the closed-loop run whose per-second RPS gives the warm-up.
type ColdStart struct {
	// Starts is R, the fresh starts per variant (suite key `starts`).
	Starts int
	// Routes are the test types whose endpoint gets a first request, in
	// order (suite key `routes`); page is asked at every size of the test's
	// rows, the headline size first.
	Routes []model.TestType
	// WarmupLimit is the closed-loop run's length, whole seconds (suite key
	// `warmup_limit`): warm-up not reached within it is "> limit".
	WarmupLimit time.Duration
}

// Coldstart defaults: 5 starts, the page (at its sizes), json and fortunes,
// a 20 s cap, and one closed-loop level of 16 connections when the test
// gives no concurrency of its own (the defaults block's levels do not apply).
var (
	DefaultStarts           = 5
	DefaultColdRoutes       = []model.TestType{model.Page, model.JSON, model.Fortunes}
	DefaultWarmupLimit      = 20 * time.Second
	DefaultColdConcurrency  = 16
	DefaultColdRows         = []int{1000}
	MinWarmupLimit          = 6 * time.Second
	coldRouteTypes          = []model.TestType{model.Page, model.JSON, model.Plaintext, model.DB, model.Fortunes}
	coldKeys                = []string{"starts", "routes", "warmup_limit"}
	coldRouteNames          = "page, json, plaintext, db or fortunes"
	errColdLimitExplanation = "three steady seconds, and the last third of the run for the steady RPS"
)

// coldKey reads one of the coldstart keys into t (creating t.ColdStart) and
// reports whether key was one; nodes keeps the keys' value nodes for errors.
func (p parser) coldKey(key string, v *yaml.Node, t *Test, nodes map[string]*yaml.Node) (bool, error) {
	if !slices.Contains(coldKeys, key) {
		return false, nil
	}
	nodes[key] = v
	if t.ColdStart == nil {
		t.ColdStart = &ColdStart{Starts: DefaultStarts, Routes: DefaultColdRoutes, WarmupLimit: DefaultWarmupLimit}
	}
	c := t.ColdStart
	var err error
	switch key {
	case "starts":
		if c.Starts, err = p.Int(v, key); err == nil && c.Starts < 1 {
			err = p.Errorf(v, key, "starts must be at least 1")
		}
	case "routes":
		c.Routes, err = p.routes(v, key)
	case "warmup_limit":
		if c.WarmupLimit, err = p.duration(v, key, false); err == nil && (c.WarmupLimit%time.Second != 0 || c.WarmupLimit < MinWarmupLimit) {
			err = p.Errorf(v, key, "%s: want whole seconds, at least %s (%s)", strings.TrimSpace(v.Value), MinWarmupLimit, errColdLimitExplanation)
		}
	}
	return true, err
}

// routes reads a coldstart test's routes: a non-empty list of distinct
// test types among coldRouteTypes.
func (p parser) routes(v *yaml.Node, key string) ([]model.TestType, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, p.Errorf(v, key, "expected a list such as [page, json, fortunes]")
	}
	if len(v.Content) == 0 {
		return nil, p.Errorf(v, key, "the list is empty: give at least one route")
	}
	var out []model.TestType
	for _, e := range v.Content {
		s, err := p.Str(e, key)
		if err != nil {
			return nil, err
		}
		r := model.TestType(s)
		switch {
		case !slices.Contains(coldRouteTypes, r):
			return nil, p.Errorf(e, key, "%q: want %s", s, coldRouteNames)
		case slices.Contains(out, r):
			return nil, p.Errorf(e, key, "%q is listed twice", s)
		}
		out = append(out, r)
	}
	return out, nil
}

// coldstart finishes a test after its keys are read: a coldstart test gets its
// defaults and is checked (one level, engine raw, no pipelining, rate, probe,
// path or cache; rows within the World table); any other test with a coldstart
// key is an error. n is the test's node, cnode its concurrency node or nil.
func (p parser) coldstart(n *yaml.Node, t *Test, nodes map[string]*yaml.Node, cnode, rowsNode, queriesNode, pathNode, cacheNode *yaml.Node) error {
	if t.Type != model.Coldstart {
		for _, k := range coldKeys {
			if v := nodes[k]; v != nil {
				return p.Errorf(v, k, "only coldstart tests take %s, not %s", k, t.Type)
			}
		}
		return nil
	}
	if t.ColdStart == nil {
		t.ColdStart = &ColdStart{Starts: DefaultStarts, Routes: DefaultColdRoutes, WarmupLimit: DefaultWarmupLimit}
	}
	switch {
	case queriesNode != nil:
		return p.Errorf(queriesNode, "queries", "a coldstart test takes rows (World rows per page), not queries")
	case pathNode != nil:
		return p.Errorf(pathNode, "path", "a coldstart test asks each route at the adapter's endpoint; it takes no path")
	case cacheNode != nil:
		return p.Errorf(cacheNode, "cache", "only page tests take cache, not coldstart")
	case cnode == nil:
		t.Concurrency = []int{DefaultColdConcurrency}
	case len(t.Concurrency) != 1:
		return p.Errorf(cnode, "concurrency", "a coldstart test measures its warm-up at one closed-loop level, found %d %v", len(t.Concurrency), t.Concurrency)
	}
	// Set in the test, engine hey, pipelining, a rate or a probe is an error;
	// from the defaults block they do not apply.
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		switch {
		case k == "engine" && t.Engine != "raw":
			return p.Errorf(v, k, "test %q: a coldstart test runs on engine raw (per-second buckets), not %s", t.Name, t.Engine)
		case k == "pipeline" && t.Pipeline > 1, k == "rate" && t.Rate > 0, k == "probe" && t.Probe > 0:
			return p.Errorf(v, k, "test %q: a coldstart test runs a closed loop without pipelining, rate or probe (%s %s)", t.Name, k, strings.TrimSpace(v.Value))
		}
	}
	t.Engine, t.Pipeline, t.Rate, t.Probe = "raw", 1, 0, 0
	if t.Queries == nil {
		t.Queries = slices.Clone(DefaultColdRows)
	}
	for _, r := range t.Queries {
		if r > MaxRows {
			return p.Errorf(rowsNode, "rows", "%d is above %d, the rows of the World table", r, MaxRows)
		}
	}
	t.Path = DefaultPath[model.Page]
	t.RateConnections, t.RateRounds = t.Concurrency[0], 0
	return nil
}

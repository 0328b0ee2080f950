package sweep

import (
	"errors"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
)

// TestShotKeyAndLevel: a shot's key is the run's base key with the shot's
// level, and its level reads as the run's log writes it.
func TestShotKeyAndLevel(t *testing.T) {
	base := model.Key{ID: model.ID{Framework: "go-stdlib", Variant: "default"}, Runtime: "go1.26", Test: "queries", Type: model.Queries, Engine: "raw", Round: 3}
	sh := Shot{Path: "/queries?queries=20", N: 20, Concurrency: 64, Pipeline: 1}
	want := base
	want.N, want.Connections, want.Pipeline = 20, 64, 1
	if got := sh.Key(base); got != want {
		t.Errorf("key %+v, want %+v", got, want)
	}
	if got := sh.Level(); got != "c=64" {
		t.Errorf("level %q, want c=64", got)
	}
	if got := (Shot{Concurrency: 8, Rate: 200}).Level(); got != "200 requests/s over 8 connections" {
		t.Errorf("rate level %q", got)
	}
	if NText(20) != " N=20" || NText(0) != "" {
		t.Errorf("NText %q %q", NText(20), NText(0))
	}
}

// TestGateOrder: the readings' reasons follow the success gate's in one
// order; a server that exited explains its CPU unread, which is then not
// repeated.
func TestGateOrder(t *testing.T) {
	s := model.Sample{Responses: 100, Success: 100}
	test := suite.Test{Settings: suite.Settings{Gate: 1, MinResponses: 10}}
	if g := gate(s, test, nil, nil, nil, ""); !g.Passed {
		t.Fatalf("a clean sample: %+v", g)
	}
	counts, gen, usage := errors.New("EOF"), errors.New("no /proc"), errors.New("gone")
	want := "render counts: EOF; load generator CPU unread: no /proc; server exited during the sample (exit status 2)"
	if g := gate(s, test, counts, gen, usage, "server exited during the sample (exit status 2)"); g.Passed || g.Reason != want {
		t.Errorf("gate %+v, want %q", g, want)
	}
	if g := gate(s, test, nil, nil, usage, ""); g.Reason != "server CPU and memory unread: gone" {
		t.Errorf("gate %+v", g)
	}
	s.Responses, s.Success = 5, 5
	want = "5 responses, fewer than the minimum 10; server CPU and memory unread: gone"
	if g := gate(s, test, nil, nil, usage, ""); g.Reason != want {
		t.Errorf("gate %+v, want %q", g, want)
	}
}

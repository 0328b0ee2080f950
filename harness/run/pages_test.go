package run

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/suite"
)

var pagesJSON = suite.Test{Name: "json", Type: model.JSON, Path: "/json", Settings: suite.Settings{
	Duration: 200 * time.Millisecond, Timeout: 2 * time.Second,
	Concurrency: []int{2}, Pipeline: 1, Gate: 1, MinResponses: 10, Engine: "raw"}}

// TestBenchBeforeMeasure: the hook runs after the builds and before the
// first round; its Fetch starts a target, GETs every test's path and stops
// it; the verdicts it returns are recorded and the run goes on.
func TestBenchBeforeMeasure(t *testing.T) {
	spec := fakeTarget(t)
	a := Target{Spec: spec, Variant: spec.Variants[0], Label: "default@a"}
	b := Target{Spec: spec, Variant: spec.Variants[0], Label: "default@b"}
	other := Target{Spec: spec, Variant: spec.Variants[0], Label: "default@c"}
	s := &suite.Suite{Name: "fake", Rounds: 1, Tests: []suite.Test{pagesJSON}}
	work := t.TempDir()
	var got [][]Page
	var unknown error
	eq := results.Equivalence{Test: "json", Path: "/json", Identical: true, Offset: -1}
	f, _, err := Bench(context.Background(), Config{
		Suite: s, WorkDir: work, Seed: 1, RunID: "pages", dateRecheck: time.Millisecond, Targets: []Target{a, b},
		BeforeMeasure: func(ctx context.Context, fetch Fetch) ([]results.Equivalence, error) {
			for _, tg := range []Target{a, b} {
				pages, err := fetch(ctx, tg)
				if err != nil {
					return nil, err
				}
				got = append(got, pages)
			}
			_, unknown = fetch(ctx, other)
			return []results.Equivalence{eq}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := Page{Test: "json", Type: model.JSON, Path: "/json", Status: 200, Body: []byte(`{"message":"Hello, World!"}`)}
	if len(got) != 2 || !reflect.DeepEqual(got[0], []Page{want}) || !reflect.DeepEqual(got[1], []Page{want}) {
		t.Errorf("pages %+v", got)
	}
	if unknown == nil || unknown.Error() != "fake/default@c is not a target of this run" {
		t.Errorf("unknown target: %v", unknown)
	}
	if !reflect.DeepEqual(f.Equivalence, []results.Equivalence{eq}) || len(f.Samples) != 2 || f.Status != results.Complete {
		t.Errorf("equivalence %+v, %d samples, status %s", f.Equivalence, len(f.Samples), f.Status)
	}
	for _, name := range []string{"fake-default@a-pages.log", "fake-default@b-pages.log"} {
		if _, err := os.Stat(filepath.Join(work, "runs", "pages", "logs", name)); err != nil {
			t.Errorf("pages server log: %v", err)
		}
	}
	noLeftovers(t, work, "pages")
}

// TestBenchBeforeMeasureStops: an error from the hook ends the run before
// anything is verified or measured, with the verdicts it returned recorded;
// a broken target's Fetch names why.
func TestBenchBeforeMeasureStops(t *testing.T) {
	spec, broken := fakeTarget(t), adapter(t, "broken")
	a := Target{Spec: spec, Variant: spec.Variants[0]}
	bad := Target{Spec: broken, Variant: broken.Variants[0]}
	s := &suite.Suite{Name: "fake", Rounds: 1, Tests: []suite.Test{pagesJSON}}
	work := t.TempDir()
	stop := errors.New("pages differ")
	var brokenErr error
	eq := results.Equivalence{Test: "json", Path: "/json", Offset: 3, Base: "abc", New: "abd"}
	f, _, err := Bench(context.Background(), Config{
		Suite: s, WorkDir: work, Seed: 1, RunID: "stop", Targets: []Target{a, bad},
		BeforeMeasure: func(ctx context.Context, fetch Fetch) ([]results.Equivalence, error) {
			_, brokenErr = fetch(ctx, bad)
			return []results.Equivalence{eq}, stop
		},
	})
	if !errors.Is(err, stop) {
		t.Fatalf("err %v, want %v", err, stop)
	}
	if brokenErr == nil || !strings.HasPrefix(brokenErr.Error(), "broken/default: build failed: framework broken: build `") {
		t.Errorf("broken target: %v", brokenErr)
	}
	if !reflect.DeepEqual(f.Equivalence, []results.Equivalence{eq}) || len(f.Samples) != 0 || len(f.Verifications) != 0 || f.Status != results.Interrupted {
		t.Errorf("equivalence %+v, %d samples, %d verifications, status %s", f.Equivalence, len(f.Samples), len(f.Verifications), f.Status)
	}
	noLeftovers(t, work, "stop")
}

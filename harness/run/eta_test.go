package run

import (
	"math"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/progress"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/suite"
)

// TestETAAtHalfway replays a recorded run (testdata/eta-run.json: a
// complete `go tool task bench` at the new plan, its samples' start times
// and windows kept, histograms dropped) through the ETA the progress line
// shows: at the first sample that starts after half the measuring wall
// time, the ETA from the samples before it must be within 10% of the
// time the run really took from there.
func TestETAAtHalfway(t *testing.T) {
	f, err := results.Read(filepath.Join("testdata", "eta-run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Time == nil || f.Time.MeasuringStarted.IsZero() || f.Status != results.Complete {
		t.Fatalf("the fixture is not a complete run with its time: %+v", f.Time)
	}
	p := planOf(f)
	samples := slices.Clone(f.Samples)
	slices.SortStableFunc(samples, func(a, b model.Sample) int { return a.At.Compare(b.At) })
	start, end := f.Time.MeasuringStarted, f.Finished
	half := start.Add(end.Sub(start) / 2)
	i := slices.IndexFunc(samples, func(s model.Sample) bool { return !s.At.Before(half) })
	if i <= 0 {
		t.Fatalf("no sample starts after the halfway point %v", half)
	}
	at := samples[i].At
	p.samples = samples[:i]
	// The warmups done: one per target, round and test begun by then.
	begun := map[[3]string]bool{}
	byName := map[string]suite.Test{}
	for _, test := range p.tests {
		byName[test.Name] = test
	}
	for _, s := range samples[:i+1] {
		k := [3]string{s.ID.String(), s.Test, string(rune('0' + s.Round))}
		if !begun[k] {
			begun[k] = true
			p.warmed += byName[s.Test].Warmup
		}
	}
	done, total := p.measuring()
	// Verification is over by then (round 1 is): the runner leaves it out.
	verification := time.Duration(f.Time.Verification * float64(time.Second))
	eta := progress.ETA(progress.Step{Done: done, Total: total, Measuring: at.Sub(start) - verification})
	actual := end.Sub(at)
	off := math.Abs(float64(eta-actual)) / float64(actual)
	t.Logf("at %v of %v measuring: ETA %v, took %v (%.1f%% off); plan %v of %v done", at.Sub(start).Round(time.Second), end.Sub(start).Round(time.Second), eta, actual.Round(time.Second), 100*off, done.Round(time.Second), total.Round(time.Second))
	if off > 0.10 {
		t.Errorf("ETA %v at the halfway point, the run took %v more: %.1f%% off, want within 10%%", eta, actual.Round(time.Second), 100*off)
	}
}

// planOf is the plan a recorded run followed: its suite's tests as the
// results record them, the variants that built, the tests they passed.
func planOf(f *results.File) planState {
	p := planState{rounds: f.Suite.Rounds}
	for _, rt := range f.Suite.Tests {
		sec := func(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
		p.tests = append(p.tests, suite.Test{Name: rt.Name, Type: rt.Type, Path: rt.Path, Queries: rt.Queries, Settings: suite.Settings{
			Duration: sec(rt.Duration), Warmup: sec(rt.Warmup), Concurrency: rt.Concurrency, Pipeline: rt.Pipeline,
			Responses: rt.Responses, MinDuration: sec(rt.MinDuration), KeepWithin: rt.KeepWithin,
			Rate: rt.Rate, RateConnections: rt.RateConnections, RateRounds: rt.RateRounds,
		}})
	}
	failed := map[model.ID]map[string]bool{}
	for _, v := range f.Verifications {
		if v.Status == model.Fail || v.Status == model.NotApplicable {
			if failed[v.ID] == nil {
				failed[v.ID] = map[string]bool{}
			}
			failed[v.ID][v.Test] = true
		}
	}
	for _, fw := range f.Frameworks {
		if fw.Error == "" {
			p.targets = append(p.targets, fw.ID())
		}
	}
	p.skip = func(id model.ID, test string) bool { return failed[id][test] }
	return p
}

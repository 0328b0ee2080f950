package results

import (
	"reflect"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
)

// TestUnmeasured builds a set of two shard runs: nextjs measured, astro's
// build failed, qwik's every sample failed the gate, solidstart recorded
// but never sampled, vinext in no run; go-stdlib is in both.
func TestUnmeasured(t *testing.T) {
	pass := model.GateResult{Passed: true}
	a, b := run("r-a", "h", "nextjs", 2, "h1"), run("r-b", "h", "qwik", 2, "h1")
	for _, r := range []Run{a, b} {
		r.File.Samples[0].Gate = pass
	}
	a.File.Samples[1].Gate = pass
	b.File.Samples[1].Gate = model.GateResult{Reason: "errors: 12 of 100 responses were not 200"}
	b.File.Frameworks = append(b.File.Frameworks,
		Framework{Name: "astro", Variant: "default", Error: "build: npm ci: exit status 1"},
		Framework{Name: "solidstart", Variant: "default"})
	s, err := Merge([]Run{a, b})
	if err != nil {
		t.Fatal(err)
	}
	id := func(name string) model.ID { return model.ID{Framework: name, Variant: "default"} }
	got := s.Unmeasured([]model.ID{id("astro"), id("go-stdlib"), id("nextjs"), id("qwik"), id("solidstart"), id("vinext")})
	want := []Unmeasured{
		{id("astro"), "build: npm ci: exit status 1"},
		{id("qwik"), "every sample failed the gate; the first: errors: 12 of 100 responses were not 200"},
		{id("solidstart"), "recorded without samples: the run stopped before measuring it"},
		{id("vinext"), "no run holds it: its shard did not run, or it was not in the plan"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Unmeasured = %v\nwant %v", got, want)
	}
	if got, want := want[3].String(), "vinext/default: no measured figures in the merged results (no run holds it: its shard did not run, or it was not in the plan)"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got := s.Unmeasured([]model.ID{id("nextjs"), id("go-stdlib")}); got != nil {
		t.Errorf("Unmeasured of measured variants = %v, want none", got)
	}
}

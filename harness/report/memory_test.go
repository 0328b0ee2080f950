package report

import (
	"slices"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
)

// TestPossibleLeaks holds the rule: RSS growth over 10% in the window of every
// round that read memory, two rounds at least; a round without memory is
// not counted, one round at or under 10% clears the key.
func TestPossibleLeaks(t *testing.T) {
	var ss []model.Sample
	add := func(fw string, conns, round int, rate, growth float64, mem bool) {
		s := model.Sample{Key: model.Key{ID: model.ID{Framework: fw, Variant: "default"}, Test: "page", N: 1000, Connections: conns, Rate: rate, Round: round}}
		if mem {
			s.Memory = &model.Memory{RSSBefore: 100 << 20, RSSGrowth: growth}
		}
		ss = append(ss, s)
	}
	add("leaky", 4, 1, 0, 0.12, true)
	add("leaky", 4, 2, 0, 0.30, true)
	add("leaky", 4, 3, 0, 0, false)      // no memory read: not a round of the rule
	add("leaky", 16, 1, 0, 0.12, true)   // every window grows
	add("leaky", 16, 2, 0, 0.11, true)   // ...
	add("leaky", 2, 1, 3, 0.01, true)    // a constant-rate window is not one of the rule's
	add("warming", 4, 1, 0, 0.5, true)   // a fresh server's first window grows
	add("warming", 4, 2, 0, 0.4, true)   // ... in every round
	add("warming", 16, 1, 0, 0.01, true) // and stops
	add("warming", 16, 2, 0, 0.02, true)
	add("edge", 4, 1, 0, 0.12, true)
	add("edge", 4, 2, 0, 0.10, true) // exactly 10% is not more than 10%
	add("once", 4, 1, 0, 0.5, true)  // one round only
	add("steady", 4, 1, 0, 0.01, true)
	add("steady", 4, 2, 0, -0.02, true) // shrinking
	add("aleaky", 4, 1, 0, 0.11, true)
	add("aleaky", 4, 2, 0, 0.2, true)
	var got []string
	for _, l := range PossibleLeaks(ss) {
		got = append(got, l.String())
	}
	want := []string{
		"aleaky/default page: RSS +11.0% or more in each of its 2 windows in 2 rounds",
		"leaky/default page: RSS +11.0% or more in each of its 4 windows in 2 rounds",
	}
	if !slices.Equal(got, want) {
		t.Errorf("PossibleLeaks = %q, want %q", got, want)
	}
}

// TestMemoryOf: KB per request and GC % are the median over the rounds with
// memory, pause max and RSS growth the largest; none read gives "—" cells.
func TestMemoryOf(t *testing.T) {
	ss := []model.Sample{
		{Memory: &model.Memory{AllocPerRequest: 10, GCPercent: 1, PauseMax: 3, RSSGrowth: 0.01}},
		{},
		{Memory: &model.Memory{AllocPerRequest: 30, GCPercent: 5, PauseMax: 2, RSSGrowth: -0.05}},
	}
	m := memoryOf(ss)
	if want := (RowMemory{OK: true, KBPerRequest: 20, GCPercent: 3, PauseMaxms: 3, RSSGrowth: 0.01}); m != want {
		t.Errorf("memoryOf = %+v, want %+v", m, want)
	}
	if got, want := m.cells(true), []string{"20.0", "3.0", "3.00", "+1.0%"}; !slices.Equal(got, want) {
		t.Errorf("cells = %q, want %q", got, want)
	}
	if got, want := memoryOf(ss[1:2]).cells(true), []string{"—", "—", "—", "—"}; !slices.Equal(got, want) {
		t.Errorf("cells without memory = %q, want %q", got, want)
	}
	if got := growthText(-0.004); got != "−0.4%" {
		t.Errorf("growthText(-0.004) = %q, want −0.4%%", got)
	}
}

package report

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/tfbench/tfbench/harness/model"
)

// LeakGrowth is the possible-leak rule's share (docs/ssr.md, Memory and GC
// per request): a sample key (all but the round) is flagged when its server's
// RSS grew by more than this share of the RSS at the window's start in the
// window of every round that read its memory, at least LeakRounds of them.
const LeakGrowth = 0.10

// LeakRounds is the least rounds the rule needs: one window of a fresh process
// may grow while its heaps reach their working size.
const LeakRounds = 2

// Leak is a sample key flagged as a possible leak: its rounds and the least
// RSS growth among them (a share).
type Leak struct {
	Key       model.Key // Round 0
	Rounds    int
	MinGrowth float64
}

// String names the key and its growth: "nodemem/leak json c=2: RSS +12.3% or
// more per window in all 2 rounds".
func (l Leak) String() string {
	level := fmt.Sprintf("c=%d", l.Key.Connections)
	if l.Key.Rate > 0 {
		level = fmt.Sprintf("%g requests/s", l.Key.Rate)
	}
	n := ""
	if l.Key.N > 0 {
		n = fmt.Sprintf(" N=%d", l.Key.N)
	}
	return fmt.Sprintf("%s %s%s %s: RSS +%.1f%% or more per window in all %d rounds",
		l.Key.ID, l.Key.Test, n, level, 100*l.MinGrowth, l.Rounds)
}

// PossibleLeaks applies the rule (LeakGrowth, LeakRounds) to samples and
// returns the flagged keys in ID, test, N, connections and rate order.
func PossibleLeaks(samples []model.Sample) []Leak {
	type acc struct {
		rounds int
		min    float64
		all    bool
	}
	byKey := map[model.Key]*acc{}
	var keys []model.Key
	for _, s := range samples {
		m := s.Memory
		if m == nil || m.RSSBefore <= 0 {
			continue
		}
		k := s.Key
		k.Round = 0
		a := byKey[k]
		if a == nil {
			a = &acc{min: m.RSSGrowth, all: true}
			byKey[k] = a
			keys = append(keys, k)
		}
		a.rounds++
		a.min = min(a.min, m.RSSGrowth)
		a.all = a.all && m.RSSGrowth > LeakGrowth
	}
	var out []Leak
	for _, k := range keys {
		if a := byKey[k]; a.all && a.rounds >= LeakRounds {
			out = append(out, Leak{Key: k, Rounds: a.rounds, MinGrowth: a.min})
		}
	}
	slices.SortFunc(out, func(a, b Leak) int {
		return cmp.Or(cmp.Compare(a.Key.ID.String(), b.Key.ID.String()), cmp.Compare(a.Key.Test, b.Key.Test),
			cmp.Compare(a.Key.N, b.Key.N), cmp.Compare(a.Key.Connections, b.Key.Connections), cmp.Compare(a.Key.Rate, b.Key.Rate))
	})
	return out
}

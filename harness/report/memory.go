package report

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/montanaflynn/stats"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
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

// RowMemory is a row's memory and GC at its peak level (model.Memory): KB
// allocated per request and GC % of the window the median over the rounds that
// read them, GC pause max (ms) and RSS growth (a share) the largest; OK is
// false when no round's server told its memory.
type RowMemory struct {
	OK                                             bool
	KBPerRequest, GCPercent, PauseMaxms, RSSGrowth float64
}

// MemoryColumns name the memory cells of the per-test and page tables.
var MemoryColumns = []string{"KB/req", "GC %", "GC pause max ms", "RSS growth"}

// MemoryCSVColumns are the CSV's memory columns (RowMemory), empty where not read.
var MemoryCSVColumns = []string{"alloc_kb_per_request", "gc_percent", "gc_pause_max_ms", "rss_growth"}

// memoryOf is the RowMemory of a peak level's samples.
func memoryOf(ss []model.Sample) RowMemory {
	var kb, gc []float64
	var out RowMemory
	for _, s := range ss {
		m := s.Memory
		if m == nil {
			continue
		}
		if !out.OK {
			out.OK, out.PauseMaxms, out.RSSGrowth = true, m.PauseMax, m.RSSGrowth
		}
		kb, gc = append(kb, m.AllocPerRequest), append(gc, m.GCPercent)
		out.PauseMaxms, out.RSSGrowth = max(out.PauseMaxms, m.PauseMax), max(out.RSSGrowth, m.RSSGrowth)
	}
	out.KBPerRequest, _ = stats.Median(kb)
	out.GCPercent, _ = stats.Median(gc)
	return out
}

// cells are the MemoryColumns cells of m ("—" each when not read, or when
// the row has no figures).
func (m RowMemory) cells(ok bool) []string {
	if !ok || !m.OK {
		return []string{"—", "—", "—", "—"}
	}
	return []string{sig(m.KBPerRequest), fmt.Sprintf("%.1f", m.GCPercent), sig(m.PauseMaxms), growthText(m.RSSGrowth)}
}

// csv are the MemoryCSVColumns cells of m.
func (m RowMemory) csv(ok bool) []string {
	if !ok || !m.OK {
		return []string{"", "", "", ""}
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }
	return []string{f(m.KBPerRequest), f(m.GCPercent), f(m.PauseMaxms), strconv.FormatFloat(m.RSSGrowth, 'f', 4, 64)}
}

// growthText is a share as a signed percent: "+12.3%", "−0.4%".
func growthText(v float64) string {
	if v < 0 {
		return fmt.Sprintf("−%.1f%%", -100*v)
	}
	return fmt.Sprintf("+%.1f%%", 100*v)
}

// memoryLegend explains the memory columns (docs/ssr.md, Memory and GC per request).
const memoryLegend = "**KB/req** is the runtime's heap bytes allocated per response and **GC %** its GC time over the window (Node: the main thread's GC pauses; Go: GC CPU time over GOMAXPROCS), both the median over rounds; **GC pause max** and **RSS growth** over the window are the largest of the rounds; — where the server does not tell (docs/ssr.md, Memory and GC per request)."

// leakRule states the possible-leak rule after a report's list of leaks.
var leakRule = fmt.Sprintf("the rule: RSS grew more than %.0f%% over the window in every round, %d rounds at least; docs/ssr.md", 100*LeakGrowth, LeakRounds)

// leakNotes are the possible leaks (PossibleLeaks) of the samples of test, as
// notes: "possible leak: " and Leak.String, escaped for markdown.
func leakNotes(samples []model.Sample, test string) []string {
	var out []string
	for _, l := range PossibleLeaks(samples) {
		if l.Key.Test == test {
			out = append(out, noteText("possible leak: "+l.String()+" ("+leakRule+")"))
		}
	}
	return out
}

// setLeaks are the possible-leak notes of test over the runs of s, each
// naming its run when s has several.
func setLeaks(s *results.Set, test string) []string {
	var out []string
	for _, r := range s.Runs {
		for _, n := range leakNotes(r.File.Samples, test) {
			if len(s.Runs) > 1 {
				n += " (run " + r.Label + ")"
			}
			out = append(out, n)
		}
	}
	return out
}

// leaks writes a page test's possible-leak notes, when there are any, with a
// blank line before them when after is true (the notes above end in one newline).
func (b *builder) leaks(notes []string, after bool) {
	if len(notes) == 0 {
		return
	}
	if after {
		b.printf("\n")
	}
	b.printf("Memory:\n\n")
	for _, n := range notes {
		b.printf("- %s\n", n)
	}
}

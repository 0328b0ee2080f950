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
// per request): a variant's test is flagged when its server's RSS grew by more
// than this share of the RSS at the window's start in every closed-loop window
// of the test (every N and level) in every round that read its memory, at
// least LeakRounds of them. A heap that reaches its working size grows when
// the load first changes (a new size or level), a leak in every window.
const LeakGrowth = 0.10

// LeakRounds is the least rounds the rule needs: one round's windows of a
// fresh process may all grow while its heaps reach their working size.
const LeakRounds = 2

// Leak is a variant's test flagged as a possible leak: its rounds and
// windows and the least RSS growth among them (a share).
type Leak struct {
	Key       model.Key // ID and Test; N, Connections, Rate and Round 0
	Rounds    int
	Windows   int
	MinGrowth float64
}

// String names the variant's test and its growth: "nodemem/leak json: RSS
// +12.3% or more in each of its 4 windows in 2 rounds".
func (l Leak) String() string {
	return fmt.Sprintf("%s %s: RSS +%.1f%% or more in each of its %d windows in %d rounds",
		l.Key.ID, l.Key.Test, 100*l.MinGrowth, l.Windows, l.Rounds)
}

// PossibleLeaks applies the rule (LeakGrowth, LeakRounds) to samples'
// closed-loop windows (a constant-rate window holds too few requests to
// show a leak) and returns the flagged tests in ID and test order.
func PossibleLeaks(samples []model.Sample) []Leak {
	type acc struct {
		rounds  map[int]bool
		windows int
		min     float64
		all     bool
	}
	byKey := map[model.Key]*acc{}
	var keys []model.Key
	for _, s := range samples {
		m := s.Memory
		if m == nil || m.RSSBefore <= 0 || s.Rate > 0 {
			continue
		}
		k := model.Key{ID: s.ID, Test: s.Test}
		a := byKey[k]
		if a == nil {
			a = &acc{rounds: map[int]bool{}, min: m.RSSGrowth, all: true}
			byKey[k] = a
			keys = append(keys, k)
		}
		a.rounds[s.Round] = true
		a.windows++
		a.min = min(a.min, m.RSSGrowth)
		a.all = a.all && m.RSSGrowth > LeakGrowth
	}
	var out []Leak
	for _, k := range keys {
		if a := byKey[k]; a.all && len(a.rounds) >= LeakRounds {
			out = append(out, Leak{Key: k, Rounds: len(a.rounds), Windows: a.windows, MinGrowth: a.min})
		}
	}
	slices.SortFunc(out, func(a, b Leak) int {
		return cmp.Or(cmp.Compare(a.Key.ID.String(), b.Key.ID.String()), cmp.Compare(a.Key.Test, b.Key.Test))
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
var leakRule = fmt.Sprintf("the rule: RSS grew more than %.0f%% over every closed-loop window of the test in every round, %d rounds at least; docs/ssr.md", 100*LeakGrowth, LeakRounds)

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

package ratio

import (
	"maps"
	"slices"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/suite"
)

// Key names one row: a framework variant and a suite test at one N, the
// headline N (suite.HeadlineOf) in PeakRounds, any N in RowRounds and Table.
type Key struct {
	model.ID
	Test string
	N    int
}

// Reference is the key of model.Reference on k's test and N.
func (k Key) Reference() Key { return Key{ID: model.Reference, Test: k.Test, N: k.N} }

// Rounds is a key's per-round figures at its peak level (model.Peaks: the
// eligible level with the highest median RPS), by round number (1-based).
type Rounds struct {
	Key
	// OK is false when the key has no peak (no level passed the gate in
	// every round); Reason then says why (model.Peak.Reason, naming the
	// level, round and gate reason) and the other fields are zero.
	OK     bool
	Reason string
	// Connections (concurrency) and Pipeline (pipeline depth, 1 = none)
	// are the peak level's.
	Connections, Pipeline int
	// RPS, CPUms and P99ms map a round number to that round's requests/s,
	// server CPU ms per request and p99 latency in ms at the peak level.
	RPS   map[int]float64
	CPUms map[int]float64
	P99ms map[int]float64
	// Peak is the median of RPS over rounds (the headline peak, requests/s);
	// MinRPS and MaxRPS its range over rounds.
	Peak, MinRPS, MaxRPS float64
	// GeneratorSaturated is true when the load generator was saturated in
	// any round at the peak level (those rounds measured the generator).
	GeneratorSaturated bool
}

// PeakRounds returns the per-round figures of every variant on every suite
// test of f at its headline N (no constant-rate samples). Two runtimes of
// one variant share a Key: the later series in sample order wins.
func PeakRounds(f *results.File) map[Key]Rounds {
	return peakRounds(f, func(t results.Test, n int) bool { return n == suite.HeadlineOf(t.Queries) })
}

// RowRounds is PeakRounds at every N of Ns: a page test's every size
// besides the headline N of the others (the rows Table shows).
func RowRounds(f *results.File) map[Key]Rounds {
	return peakRounds(f, func(t results.Test, n int) bool { return slices.Contains(Ns(t), n) })
}

// Ns are the Ns a test has rows at, in the suite's order: a page test one
// row per page size (its rows), queries and updates their headline N
// (suite.HeadlineOf), the other tests N = 0.
func Ns(t results.Test) []int {
	if t.Type == model.Page && len(t.Queries) > 0 {
		return slices.Clone(t.Queries)
	}
	return []int{suite.HeadlineOf(t.Queries)}
}

func peakRounds(f *results.File, keep func(t results.Test, n int) bool) map[Key]Rounds {
	tests := map[string]results.Test{}
	for _, t := range f.Suite.Tests {
		tests[t.Name] = t
	}
	out := map[Key]Rounds{}
	for _, p := range f.Peaks().List {
		t, ok := tests[p.Test]
		if !ok || !keep(t, p.N) {
			continue
		}
		k := Key{ID: p.ID, Test: p.Test, N: p.N}
		out[k] = roundsOf(k, p)
	}
	return out
}

func roundsOf(k Key, p model.Peak) Rounds {
	r := Rounds{Key: k, OK: p.OK, Reason: p.Reason}
	if !p.OK {
		return r
	}
	l := p.Level
	r.Connections, r.Pipeline = l.Connections, l.Pipeline
	r.Peak, r.MinRPS, r.MaxRPS = l.Median, l.Min, l.Max
	r.RPS = make(map[int]float64, len(l.Samples))
	r.CPUms = make(map[int]float64, len(l.Samples))
	r.P99ms = make(map[int]float64, len(l.Samples))
	for _, s := range l.Samples {
		r.RPS[s.Round] = s.RPS
		r.CPUms[s.Round] = s.CPUPerRequest
		r.P99ms[s.Round] = s.Latency.P99
		r.GeneratorSaturated = r.GeneratorSaturated || s.GeneratorSaturated
	}
	return r
}

// Values returns r's per-round RPS (requests/s) ordered by round number;
// empty when r has no peak.
func (r Rounds) Values() []float64 { return byRound(r.RPS) }

// P99Values returns r's per-round p99 latency (ms) at the peak level,
// ordered by round number; empty when r has no peak.
func (r Rounds) P99Values() []float64 { return byRound(r.P99ms) }

func byRound(m map[int]float64) []float64 {
	v := make([]float64, 0, len(m))
	for _, round := range slices.Sorted(maps.Keys(m)) {
		v = append(v, m[round])
	}
	return v
}

// PerRoundRatio divides x's RPS by ref's in each round both have (each at
// its own peak level, ref's RPS not 0), rounds ascending; ratios[i] is
// rounds[i]'s. Both are empty when x or ref has no peak.
func PerRoundRatio(x, ref Rounds) (ratios []float64, rounds []int) {
	if !x.OK || !ref.OK {
		return nil, nil
	}
	for _, round := range slices.Sorted(maps.Keys(x.RPS)) {
		d, ok := ref.RPS[round]
		if !ok || d == 0 {
			continue
		}
		ratios = append(ratios, x.RPS[round]/d)
		rounds = append(rounds, round)
	}
	return ratios, rounds
}

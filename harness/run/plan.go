package run

import (
	"slices"
	"sort"
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
)

// A run's plan follows the suite's rules (docs/method.md, "The plan"): every
// test measures each N × level and, in rounds 1..rate_rounds, the rate shot;
// after round 1 a test with keep_within measures at each N only the levels
// that can still be the peak (keptLevels). The ETA counts the plan's windows.

// planned is one shot of a round before it has a path and window: its N,
// concurrency and rate (requests/s; 0 = closed loop).
type planned struct {
	n, concurrency int
	rate           float64
}

// roundShots is what test measures on one target in round, given that
// target's round-1 samples of the test (closed loop; none yet: every level).
func roundShots(test suite.Test, round int, round1 []model.Sample) []planned {
	ns := test.Queries
	if len(ns) == 0 {
		ns = []int{0}
	}
	var out []planned
	for _, n := range ns {
		for _, c := range keptLevels(test, n, round, round1) {
			out = append(out, planned{n: n, concurrency: c})
		}
	}
	if test.Rate > 0 && (test.RateRounds == 0 || round <= test.RateRounds) {
		out = append(out, planned{n: test.Headline(), concurrency: test.RateConnections, rate: test.Rate})
	}
	return out
}

// keptLevels is the levels test measures at N in round: all of them in round 1,
// without keep_within, or when no level passed the gate in round 1; else those
// that passed in round 1 with an RPS of at least (1 − KeepWithin) × the best
// that passed (a level that failed can never be the peak: model.Level.Eligible).
func keptLevels(test suite.Test, n, round int, round1 []model.Sample) []int {
	if round == 1 || test.KeepWithin <= 0 {
		return test.Concurrency
	}
	rps := map[int]float64{}
	best := 0.0
	for _, s := range round1 {
		if s.N == n && s.Rate == 0 && s.Round == 1 && s.Gate.Passed {
			rps[s.Connections] = s.RPS
			best = max(best, s.RPS)
		}
	}
	if len(rps) == 0 {
		return test.Concurrency
	}
	var out []int
	for _, c := range test.Concurrency {
		if v, ok := rps[c]; ok && v >= (1-test.KeepWithin)*best {
			out = append(out, c)
		}
	}
	return out
}

// planState is what the ETA knows of a run: the tests, the targets that
// will measure them (skip: a test a target does not measure, e.g. after a
// failed verification), the rounds, the samples so far and the warmup time
// already spent.
type planState struct {
	tests   []suite.Test
	targets []model.ID
	skip    func(id model.ID, test string) bool
	rounds  int
	samples []model.Sample
	warmed  time.Duration
}

// shotKey is a sample's place in the plan, its round aside.
type shotKey struct {
	id             model.ID
	test           string
	n, concurrency int
	rate           float64
}

func keyOf(s model.Sample) shotKey {
	return shotKey{s.ID, s.Test, s.N, s.Connections, s.Rate}
}

// measuring is the plan's measuring time (warmups and windows) done and in
// all: a measured shot counts its window, one not measured yet the median
// of its windows in earlier rounds, else its test's duration (the longest
// window); each warmup, and a closed-loop shot's sample_warmup, its suite length.
func (p planState) measuring() (done, total time.Duration) {
	type at struct {
		shotKey
		round int
	}
	measured := map[at]time.Duration{}
	windows := map[shotKey][]float64{}
	round1 := map[[2]string][]model.Sample{}
	for _, s := range p.samples {
		k := keyOf(s)
		w := time.Duration(s.Window * float64(time.Second))
		measured[at{k, s.Round}] = w
		done += w + time.Duration(s.Warmup*float64(time.Second)) // the sample's own warmup ran before it
		windows[k] = append(windows[k], s.Window)
		if s.Round == 1 && s.Rate == 0 {
			tk := [2]string{s.ID.String(), s.Test}
			round1[tk] = append(round1[tk], s)
		}
	}
	total = done
	for _, id := range p.targets {
		for _, test := range p.tests {
			if p.skip != nil && p.skip(id, test.Name) {
				continue
			}
			if test.Type == model.Coldstart { // once per target: R starts of warmup_limit (coldstart.go)
				total += time.Duration(test.ColdStart.Starts) * test.ColdStart.WarmupLimit
				continue
			}
			for round := 1; round <= p.rounds; round++ {
				total += test.Warmup
				for _, sh := range roundShots(test, round, round1[[2]string{id.String(), test.Name}]) {
					k := shotKey{id, test.Name, sh.n, sh.concurrency, sh.rate}
					if _, ok := measured[at{k, round}]; ok {
						continue
					}
					total += expectedWindow(test, windows[k])
					if sh.rate == 0 {
						total += test.SampleWarmup
					}
				}
			}
		}
	}
	return done + p.warmed, total
}

// expectedWindow is a shot's expected window: the median of its earlier
// windows (seconds), else the test's duration.
func expectedWindow(test suite.Test, earlier []float64) time.Duration {
	if len(earlier) == 0 {
		return test.Duration
	}
	w := slices.Clone(earlier)
	sort.Float64s(w)
	m := w[len(w)/2]
	if len(w)%2 == 0 {
		m = (w[len(w)/2-1] + m) / 2
	}
	return time.Duration(m * float64(time.Second))
}

// PlanSeconds is a run's longest planned measuring time in seconds: per
// target and round, each test's warmup plus one window of its duration per
// shot (every N × level, each closed-loop one after its sample_warmup; the rate
// shot in its rounds). keep_within and
// responses only shorten it. Builds, starts, verification and pauses are not
// in it.
func PlanSeconds(tests []suite.Test, targets, rounds int) float64 {
	ids := make([]model.ID, targets)
	for i := range ids {
		ids[i] = model.ID{Framework: "t", Variant: string(rune('a' + i))}
	}
	_, total := planState{tests: tests, targets: ids, rounds: rounds}.measuring()
	return total.Seconds()
}

// backlog is the closed-loop load just before a sample: the requests it kept in
// flight (connections × depth) and its RPS. Its connections close, but the server
// may still be serving those requests when the sample's load starts.
type backlog struct {
	inFlight int
	rps      float64
}

// sampleWarmup is a closed-loop sample's own warmup (suite sample_warmup;
// docs/method.md, "Windows"): at least sample_warmup, and long enough for the
// server to serve the previous load's requests in flight at its RPS; at most the
// test's duration. 0 without sample_warmup.
func sampleWarmup(test suite.Test, prev backlog) time.Duration {
	if test.SampleWarmup <= 0 {
		return 0
	}
	d := test.SampleWarmup
	if prev.rps > 0 {
		d = max(d, time.Duration(float64(prev.inFlight)/prev.rps*float64(time.Second)))
	}
	return min(d, test.Duration)
}

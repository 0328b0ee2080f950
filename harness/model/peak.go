package model

import (
	"fmt"
	"sort"

	"github.com/montanaflynn/stats"
)

// Series identifies the samples that share everything but level and round:
// one framework variant on one test at one N.
type Series struct {
	ID
	Runtime string   `json:"runtime"`
	Test    string   `json:"test"`
	Type    TestType `json:"type"`
	N       int      `json:"n,omitempty"`
}

// SeriesOf returns the series a sample belongs to.
func SeriesOf(s Sample) Series {
	return Series{s.ID, s.Runtime, s.Test, s.Type, s.N}
}

// Level is one concurrency level of a series: its rounds and their median.
type Level struct {
	Connections int      `json:"connections"`
	Pipeline    int      `json:"pipeline"`
	Samples     []Sample `json:"-"`
	// Eligible is true when every round at this level passed the gate and
	// the level was measured in as many rounds as its series' most measured
	// level (a level left after round 1, suite key keep_within, is not).
	Eligible bool `json:"eligible"`
	// GeneratorBound is true when each of the level's rounds passed the gate
	// or failed it only because the load generator's CPU set was saturated
	// (Sample.GeneratorBound), one at least; it may have fewer rounds than
	// the series (keep_within drops a level that failed round 1).
	GeneratorBound bool `json:"generator_bound,omitempty"`
	// Median, Min and Max are over the rounds' RPS (requests/s); the
	// median interpolates like NumPy's default (montanaflynn/stats).
	Median, Min, Max float64
}

// Peak is a series' headline: the highest median RPS over its eligible
// levels (docs/design.md, Peak), with the min–max range over rounds and the level
// it came from. OK is false when no level was eligible; Reason then says why.
type Peak struct {
	Series
	OK     bool    `json:"ok"`
	Reason string  `json:"reason,omitempty"`
	Level  Level   `json:"level"`
	Levels []Level `json:"levels"`
	// LowerBound is the generator-bound level with the highest median RPS
	// when that median is above the peak's (or there is no peak): the server
	// served at least that, a lower bound beside the peak, never the peak.
	LowerBound *Level `json:"lower_bound,omitempty"`
}

// Peaks is the index of a run's peaks, one per series of closed-loop
// samples; constant-rate samples (Rate > 0) measure latency, not
// capacity, and are left out. The one index every stage reads.
type Peaks struct {
	// List holds the peaks in the order each series' first sample appears.
	List []Peak
	// at indexes List by row key, the runtime left out: two runtimes of one
	// variant share a row, the later series in sample order winning.
	at map[RowKey]int
}

// PeaksOf groups samples by series and picks each series' peak.
func PeaksOf(samples []Sample) *Peaks {
	var order []Series
	bySeries := map[Series][]Sample{}
	for _, s := range samples {
		if s.Rate > 0 {
			continue
		}
		k := SeriesOf(s)
		if _, ok := bySeries[k]; !ok {
			order = append(order, k)
		}
		bySeries[k] = append(bySeries[k], s)
	}
	p := &Peaks{List: make([]Peak, 0, len(order)), at: map[RowKey]int{}}
	for i, k := range order {
		p.List = append(p.List, peakOf(k, bySeries[k]))
		p.at[RowKey{k.ID, k.Test, k.N}] = i
	}
	return p
}

// At is id's peak on test at N; two runtimes of one variant share it, the
// later series in sample order winning.
func (p *Peaks) At(id ID, test string, n int) (Peak, bool) {
	i, ok := p.at[RowKey{id, test, n}]
	if !ok {
		return Peak{}, false
	}
	return p.List[i], true
}

func peakOf(k Series, samples []Sample) Peak {
	byLevel := map[[2]int][]Sample{}
	var keys [][2]int
	for _, s := range samples {
		lk := [2]int{s.Connections, s.Pipeline}
		if _, ok := byLevel[lk]; !ok {
			keys = append(keys, lk)
		}
		byLevel[lk] = append(byLevel[lk], s)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	p := Peak{Series: k}
	rounds := 0
	for _, ss := range byLevel {
		rounds = max(rounds, len(ss))
	}
	var firstFail string
	for _, lk := range keys {
		ss := byLevel[lk]
		sort.Slice(ss, func(i, j int) bool { return ss[i].Round < ss[j].Round })
		l := Level{Connections: lk[0], Pipeline: lk[1], Samples: ss, Eligible: true}
		rps := make([]float64, 0, len(ss))
		for _, s := range ss {
			rps = append(rps, s.RPS)
			if !s.Gate.Passed {
				l.Eligible = false
				if firstFail == "" {
					firstFail = fmt.Sprintf("%d connections, round %d: %s", s.Connections, s.Round, s.Gate.Reason)
				}
			}
		}
		if len(ss) < rounds {
			l.Eligible = false // left after round 1 (keep_within)
		}
		if !l.Eligible {
			l.GeneratorBound = generatorBound(ss)
		}
		l.Median, _ = stats.Median(rps)
		l.Min, _ = stats.Min(rps)
		l.Max, _ = stats.Max(rps)
		p.Levels = append(p.Levels, l)
		if l.Eligible && (!p.OK || l.Median > p.Level.Median) {
			p.OK = true
			p.Level = l
		}
	}
	for i, l := range p.Levels {
		if l.GeneratorBound && (!p.OK || l.Median > p.Level.Median) && (p.LowerBound == nil || l.Median > p.LowerBound.Median) {
			p.LowerBound = &p.Levels[i]
		}
	}
	if !p.OK {
		p.Reason = "no level passed the gate in every round (" + firstFail + ")"
	}
	return p
}

// generatorBound reports whether every sample of a level passed the gate or
// failed it only on a saturated generator CPU set, one of them at least.
func generatorBound(ss []Sample) bool {
	bound := false
	for _, s := range ss {
		switch {
		case s.GeneratorBound():
			bound = true
		case !s.Gate.Passed:
			return false
		}
	}
	return bound
}

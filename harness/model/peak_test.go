package model

import (
	"strings"
	"testing"
)

func sample(conns, round int, rps float64, pass bool) Sample {
	s := Sample{Key: Key{ID: ID{Framework: "go-stdlib", Variant: "default"}, Test: "json", Type: "json", Connections: conns, Pipeline: 1, Round: round}, RPS: rps}
	s.Gate.Passed = pass
	if !pass {
		s.Gate.Reason = "socket errors: read 1"
	}
	return s
}

func TestPeakIsHighestMedianOfEligibleLevels(t *testing.T) {
	ss := []Sample{
		sample(16, 1, 100, true), sample(16, 2, 120, true), sample(16, 3, 110, true), // median 110
		sample(64, 1, 200, true), sample(64, 2, 150, true), sample(64, 3, 190, true), // median 190, range 150..200
		sample(256, 1, 500, true), sample(256, 2, 400, false), sample(256, 3, 450, true), // not eligible: one round failed
	}
	ps := PeaksOf(ss).List
	if len(ps) != 1 {
		t.Fatalf("%d series, want 1", len(ps))
	}
	p := ps[0]
	if !p.OK || p.Level.Connections != 64 || p.Level.Median != 190 || p.Level.Min != 150 || p.Level.Max != 200 {
		t.Fatalf("peak %+v", p.Level)
	}
	if len(p.Levels) != 3 || p.Levels[2].Eligible || !p.Levels[0].Eligible || p.Levels[0].Median != 110 {
		t.Errorf("levels %+v", p.Levels)
	}
}

func TestPeakMedianOfEvenRoundsInterpolates(t *testing.T) {
	p := PeaksOf([]Sample{sample(16, 1, 100, true), sample(16, 2, 200, true)}).List[0]
	if p.Level.Median != 150 {
		t.Errorf("median %v, want 150", p.Level.Median)
	}
}

func TestNoEligibleLevel(t *testing.T) {
	p := PeaksOf([]Sample{sample(16, 1, 100, false), sample(64, 1, 300, false)}).List[0]
	if p.OK {
		t.Fatal("peak from failed samples")
	}
	if !strings.Contains(p.Reason, "16 connections, round 1: socket errors: read 1") {
		t.Errorf("reason %q", p.Reason)
	}
}

func TestSeriesSplitByN(t *testing.T) {
	a, b := sample(64, 1, 10, true), sample(64, 1, 20, true)
	a.Test, b.Test, a.N, b.N = "queries", "queries", 1, 20
	ps := PeaksOf([]Sample{a, b}).List
	if len(ps) != 2 || ps[0].N != 1 || ps[1].N != 20 || ps[1].Level.Median != 20 {
		t.Errorf("%+v", ps)
	}
}

func TestPeaksIgnoreConstantRateSamples(t *testing.T) {
	rate := sample(16, 1, 500, true)
	rate.Rate = 500
	ps := PeaksOf([]Sample{sample(16, 1, 100, true), rate}).List
	if len(ps) != 1 || len(ps[0].Levels) != 1 || ps[0].Level.Median != 100 {
		t.Errorf("a constant-rate sample entered the peak: %+v", ps)
	}
}

// A level measured only in round 1 (left after it: keep_within) is not
// eligible, whatever its one value: the peak is a median over every round.
func TestLevelLeftAfterRoundOneIsNotEligible(t *testing.T) {
	ss := []Sample{sample(16, 1, 900, true), sample(64, 1, 1000, true)}
	for r := 2; r <= 5; r++ {
		ss = append(ss, sample(64, r, 800, true))
	}
	p := PeaksOf(ss).List[0]
	if !p.OK || p.Level.Connections != 64 || p.Level.Median != 800 {
		t.Fatalf("peak %+v, want c=64 at median 800", p.Level)
	}
	if p.Levels[0].Connections != 16 || p.Levels[0].Eligible || p.Levels[0].Median != 900 {
		t.Errorf("c=16: %+v, want ineligible with its round-1 900", p.Levels[0])
	}
}

// saturated is a sample that failed the gate on its saturated generator CPU
// set alone (sweep.Gate's reason), or with another fault too when also is set.
func saturated(conns, round int, rps float64, also string) Sample {
	s := sample(conns, round, rps, false)
	s.GeneratorSaturated = true
	s.Gate.Reason = HarnessFault + GeneratorSaturatedFault
	if also != "" {
		s.Gate.Reason += "; the sample also failed: " + also
	}
	return s
}

// A generator-bound level above the peak is its lower bound, beside it: the
// peak stays the highest eligible median (a json run: 123,742 at c=16
// generator-bound, 117,810 at c=64 passed).
func TestGeneratorBoundLevelIsLowerBoundBesidePeak(t *testing.T) {
	ss := []Sample{
		saturated(16, 1, 123742, ""), sample(16, 2, 121000, true), saturated(16, 3, 125000, ""),
		sample(64, 1, 117810, true), sample(64, 2, 116000, true), sample(64, 3, 119000, true),
	}
	p := PeaksOf(ss).List[0]
	if !p.OK || p.Level.Connections != 64 || p.Level.Median != 117810 {
		t.Fatalf("peak %+v, want c=64 at 117810", p.Level)
	}
	if !p.Levels[0].GeneratorBound || p.Levels[0].Eligible || p.Levels[1].GeneratorBound {
		t.Errorf("levels: c=16 generator-bound %v eligible %v, c=64 generator-bound %v", p.Levels[0].GeneratorBound, p.Levels[0].Eligible, p.Levels[1].GeneratorBound)
	}
	lb := p.LowerBound
	if lb == nil || lb.Connections != 16 || lb.Median != 123742 || lb.Min != 121000 || lb.Max != 125000 {
		t.Errorf("lower bound %+v, want c=16 at 123742 (121000–125000)", lb)
	}
}

// A generator-bound level below the peak bounds nothing; one with another
// fault too is not generator-bound; one measured in round 1 alone (keep_within
// measures no failed level again) is, its one round the bound.
func TestGeneratorBoundLevelNotALowerBound(t *testing.T) {
	below := PeaksOf([]Sample{saturated(16, 1, 90, ""), sample(64, 1, 100, true)}).List[0]
	if !below.Levels[0].GeneratorBound || below.LowerBound != nil {
		t.Errorf("below the peak: generator-bound %v, lower bound %+v", below.Levels[0].GeneratorBound, below.LowerBound)
	}
	also := PeaksOf([]Sample{saturated(16, 1, 300, "socket errors: read 1"), sample(64, 1, 100, true)}).List[0]
	if also.Levels[0].GeneratorBound || also.LowerBound != nil {
		t.Errorf("with socket errors too: %+v", also.Levels[0])
	}
	passed := PeaksOf([]Sample{sample(16, 1, 300, true), sample(16, 2, 300, true)}).List[0]
	if passed.Levels[0].GeneratorBound {
		t.Error("a level whose every round passed is generator-bound")
	}
	short := []Sample{saturated(16, 1, 300, "")}
	for r := 1; r <= 3; r++ {
		short = append(short, sample(64, r, 100, true))
	}
	if p := PeaksOf(short).List[0]; !p.Levels[0].GeneratorBound || p.LowerBound == nil || p.LowerBound.Median != 300 || len(p.LowerBound.Samples) != 1 || p.Level.Median != 100 {
		t.Errorf("measured in round 1 only: level %+v, lower bound %+v, peak %v", p.Levels[0], p.LowerBound, p.Level.Median)
	}
}

// With no eligible level, the highest generator-bound level is the lower
// bound and the peak stays missing with its reason.
func TestGeneratorBoundWithoutPeak(t *testing.T) {
	p := PeaksOf([]Sample{saturated(16, 1, 200, ""), saturated(64, 1, 180, ""), sample(256, 1, 500, false)}).List[0]
	if p.OK {
		t.Fatal("peak from generator-bound levels")
	}
	if p.LowerBound == nil || p.LowerBound.Connections != 16 || p.LowerBound.Median != 200 {
		t.Errorf("lower bound %+v, want c=16 at 200", p.LowerBound)
	}
	if p.Reason != "no level passed the gate in every round (16 connections, round 1: "+HarnessFault+GeneratorSaturatedFault+")" {
		t.Errorf("reason %q", p.Reason)
	}
}

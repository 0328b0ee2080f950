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

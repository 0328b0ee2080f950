package ratio

import (
	"fmt"
	"io"

	"github.com/montanaflynn/stats"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/texttab"
)

// LevelP99 is one closed-loop level (connections, pipeline depth) that two
// variants both measured on a test at its headline N: each one's p99 there,
// the median over rounds in ms, and whether the level is its peak.
type LevelP99 struct {
	Test                  string
	N                     int
	Connections, Pipeline int
	A, B                  float64
	APeak, BPeak          bool
}

// SameLevelP99 lists the levels variants a and b both measured, per test of f's suite at its headline N (page tests left
// out), in suite and level order: their p99 at the same concurrency, where
// a target on "p99 at peak" compares each at its own peak level.
func SameLevelP99(f *results.File, a, b model.ID) []LevelP99 {
	peaks := f.Peaks()
	var out []LevelP99
	for _, t := range f.Suite.Tests {
		if t.Type == model.Page {
			continue
		}
		n := suite.HeadlineOf(t.Queries)
		pa, okA := peaks.At(a, t.Name, n)
		pb, okB := peaks.At(b, t.Name, n)
		if !okA || !okB {
			continue
		}
		for _, la := range pa.Levels {
			for _, lb := range pb.Levels {
				if la.Connections != lb.Connections || la.Pipeline != lb.Pipeline {
					continue
				}
				out = append(out, LevelP99{
					Test: t.Name, N: n, Connections: la.Connections, Pipeline: la.Pipeline,
					A: medianP99(la), B: medianP99(lb),
					APeak: pa.OK && pa.Level.Connections == la.Connections && pa.Level.Pipeline == la.Pipeline,
					BPeak: pb.OK && pb.Level.Connections == lb.Connections && pb.Level.Pipeline == lb.Pipeline,
				})
			}
		}
	}
	return out
}

func medianP99(l model.Level) float64 {
	v := make([]float64, 0, len(l.Samples))
	for _, s := range l.Samples {
		v = append(v, s.Latency.P99)
	}
	m, _ := stats.Median(v)
	return m
}

// WriteLevels prints rows as a table: test, level, a's and b's p99 in ms
// (a "*" after the figure marks that variant's peak level) and a ÷ b.
func WriteLevels(w io.Writer, rows []LevelP99, a, b model.ID) error {
	t := texttab.Table{Header: []string{"test", "connections", a.String(), b.String(), "ratio"}, Align: texttab.AllRight(5)}
	for _, r := range rows {
		level := fmt.Sprint(r.Connections)
		if r.Pipeline > 1 {
			level += fmt.Sprintf(" ×%d", r.Pipeline)
		}
		ratio := "—"
		if r.B > 0 {
			ratio = fmt.Sprintf("%.2f×", r.A/r.B)
		}
		t.Row(model.Label(r.Test, r.N), level, ms(r.A, r.APeak), ms(r.B, r.BPeak), ratio)
	}
	return texttab.Text(w, t)
}

func ms(v float64, peak bool) string {
	s := fmt.Sprintf("%.2f ms", v)
	if v >= 10 {
		s = fmt.Sprintf("%.1f ms", v)
	}
	if peak {
		return s + "*"
	}
	return s + " "
}

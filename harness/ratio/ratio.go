// Package ratio compares the framework variants of one run: per test, at its
// headline N, each variant's peak RPS and CPU time per request, their
// ratios, and targets on those ratios. `go tool task bench:engine` states
// the render engine's targets (issue 5) with it.
package ratio

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/montanaflynn/stats"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/sweep"
)

// Cell is one variant's figures on one test.
type Cell struct {
	// RPS is the peak (the best eligible level's median over rounds),
	// requests/s; OK is false when the variant has no peak on the test.
	RPS float64
	OK  bool
	// CPUms is the server's CPU time per request at the peak level, the
	// median over rounds, in ms.
	CPUms float64
}

// Row is one test at its headline N (suite.HeadlineOf): the cells by
// variant key "framework/variant".
type Row struct {
	Test  string
	N     int
	Cells map[string]Cell
}

// Table returns one Row per test of f's suite, in suite order.
func Table(f *results.File) []Row {
	peaks := sweep.Peaks(f.Samples)
	var rows []Row
	for _, t := range f.Suite.Tests {
		r := Row{Test: t.Name, N: suite.HeadlineOf(t.Queries), Cells: map[string]Cell{}}
		for _, p := range peaks {
			if p.Test != t.Name || p.N != r.N {
				continue
			}
			c := Cell{OK: p.OK}
			if p.OK {
				c.RPS = p.Level.Median
				var cpu []float64
				for _, s := range p.Level.Samples {
					cpu = append(cpu, s.CPUPerRequest)
				}
				c.CPUms, _ = stats.Median(cpu) // NumPy's default interpolation
			}
			r.Cells[p.Framework+"/"+p.Variant] = c
		}
		rows = append(rows, r)
	}
	return rows
}

// Ratio is a's peak RPS over b's on r; ok is false when either has no peak.
func (r Row) Ratio(a, b string) (float64, bool) {
	ca, cb := r.Cells[a], r.Cells[b]
	if !ca.OK || !cb.OK || cb.RPS == 0 {
		return 0, false
	}
	return ca.RPS / cb.RPS, true
}

// Target is a goal on the ratio of two variants' peak RPS.
type Target struct {
	// Name says the goal in words, e.g. "engine ≥ 0.85× go-stdlib".
	Name string
	// Of and Over are variant keys "framework/variant": the ratio is Of's
	// peak over Over's.
	Of, Over string
	// Tests are the tests the goal applies to; nil means every test.
	Tests []string
	// Min is the smallest ratio that meets the goal.
	Min float64
}

// EngineTargets are issue 5's throughput targets for the render engine in
// one run with go-stdlib and node-http (per core: every server gets the
// same server CPU set). The pool ≥ 1.5× serialized target is a Go
// benchmark (frameworks/engine/runtime, BenchmarkPoolScaling), because on 2
// cores the harness gives servers one CPU, where pool and serialized are
// the same.
var EngineTargets = []Target{
	{Name: "engine ≥ 0.85× go-stdlib on json and plaintext", Of: "engine/pool", Over: Reference, Tests: []string{"json", "plaintext"}, Min: 0.85},
	{Name: "engine ahead of node-http on every test", Of: "engine/pool", Over: "node-http/default", Min: 1.0},
}

// Write prints rows as a table, one column per variant key in columns
// (peak RPS), then the ratios of the first column to each other one and
// its CPU ms per request; then every target per test with its ratio and
// "met", "MISSED" or "no peak". It returns whether every target was met.
// Errors are the writer's.
func Write(w io.Writer, rows []Row, columns []string, targets []Target) (bool, error) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	head := []string{"test"}
	head = append(head, columns...)
	for _, c := range columns[1:] {
		head = append(head, "÷ "+c)
	}
	head = append(head, "CPU ms/req "+columns[0])
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, r := range rows {
		line := []string{label(r)}
		for _, c := range columns {
			line = append(line, rps(r.Cells[c]))
		}
		for _, c := range columns[1:] {
			line = append(line, ratioText(r.Ratio(columns[0], c)))
		}
		cpu := "—"
		if c := r.Cells[columns[0]]; c.OK {
			cpu = fmt.Sprintf("%.3f", c.CPUms)
		}
		fmt.Fprintln(tw, strings.Join(append(line, cpu), "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return false, err
	}
	all := true
	for _, t := range targets {
		if _, err := fmt.Fprintf(w, "\n%s (%s ÷ %s):\n", t.Name, t.Of, t.Over); err != nil {
			return false, err
		}
		for _, r := range rows {
			if t.Tests != nil && !slices.Contains(t.Tests, r.Test) {
				continue
			}
			x, ok := r.Ratio(t.Of, t.Over)
			verdict := "met"
			switch {
			case !ok:
				verdict, all = "no peak", false
			case x < t.Min:
				verdict, all = "MISSED", false
			}
			if _, err := fmt.Fprintf(w, "  %-18s %s  %s\n", label(r), ratioText(x, ok), verdict); err != nil {
				return false, err
			}
		}
	}
	return all, nil
}

func label(r Row) string {
	if r.N > 0 {
		return fmt.Sprintf("%s N=%d", r.Test, r.N)
	}
	return r.Test
}

func rps(c Cell) string {
	if !c.OK {
		return "—"
	}
	return fmt.Sprintf("%.0f", c.RPS)
}

func ratioText(x float64, ok bool) string {
	if !ok {
		return "—"
	}
	return fmt.Sprintf("%.2f×", x)
}

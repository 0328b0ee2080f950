// Package ratio compares the framework variants of one run: per test at its
// headline N (a page test at every size), each variant's peak RPS, CPU time
// per request and per-round figures at the peak level, and their ratios.
package ratio

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/montanaflynn/stats"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
)

// Cell is one variant's figures on one row (a test at one N).
type Cell struct {
	// RPS is the peak (the best eligible level's median over rounds),
	// requests/s; OK is false when the variant has no peak on the test.
	RPS float64
	OK  bool
	// CPUms is the server's CPU time per request at the peak level, the
	// median over rounds, in ms.
	CPUms float64
}

// Row is one test at one of its Ns (a page size, or the headline N,
// suite.HeadlineOf): the cells by variant.
type Row struct {
	Test  string
	N     int
	Cells map[model.ID]Cell
}

// Table returns one Row per test of f's suite and N of Ns (a page test one
// per size), in suite order; the cells come from RowRounds.
func Table(f *results.File) []Row {
	rounds := RowRounds(f)
	var rows []Row
	for _, t := range f.Suite.Tests {
		for _, n := range Ns(t) {
			r := Row{Test: t.Name, N: n, Cells: map[model.ID]Cell{}}
			for k, x := range rounds {
				if k.Test != t.Name || k.N != n {
					continue
				}
				c := Cell{OK: x.OK}
				if x.OK {
					c.RPS = x.Peak
					c.CPUms, _ = stats.Median(slices.Collect(maps.Values(x.CPUms))) // NumPy's default interpolation
				}
				r.Cells[k.ID] = c
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// Ratio is a's peak RPS over b's on r; ok is false when either has no peak.
func (r Row) Ratio(a, b model.ID) (float64, bool) {
	ca, cb := r.Cells[a], r.Cells[b]
	if !ca.OK || !cb.OK || cb.RPS == 0 {
		return 0, false
	}
	return ca.RPS / cb.RPS, true
}

// Write prints rows as a table: peak RPS per variant in columns, the first
// column's ratio to each other one and its CPU ms per request; "—" where a
// variant has no peak.
func Write(w io.Writer, rows []Row, columns []model.ID) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	head := []string{"test"}
	for _, c := range columns {
		head = append(head, c.String())
	}
	for _, c := range columns[1:] {
		head = append(head, "÷ "+c.String())
	}
	head = append(head, "CPU ms/req "+columns[0].String())
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, r := range rows {
		line := []string{Label(r.Test, r.N)}
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
	return tw.Flush()
}

// Label names a row: "json", "queries N=20", "page N=1000".
func Label(test string, n int) string {
	if n > 0 {
		return fmt.Sprintf("%s N=%d", test, n)
	}
	return test
}

// RPSText writes requests/s as the tables do: whole numbers from 100 up,
// one decimal below (a 10,000-row page at 4.2, not 4).
func RPSText(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

func rps(c Cell) string {
	if !c.OK {
		return "—"
	}
	return RPSText(c.RPS)
}
func ratioText(x float64, ok bool) string {
	if !ok {
		return "—"
	}
	return fmt.Sprintf("%.2f×", x)
}

// Package ratio picks the rows of one run that the tables show (model.Row:
// each test at its headline N, a page test at every size) and writes the
// engine's ratio table between its variants: each one's peak RPS, the first
// one's ratio to the others and its CPU time per request, and p99 at the
// levels two variants share.
package ratio

import (
	"fmt"
	"io"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/texttab"
)

// Row is one test at one of its Ns (a page size, or the headline N,
// suite.HeadlineOf): each variant's row there (model.Row) by variant; a
// variant without a series on it has none.
type Row struct {
	Test  string
	N     int
	Cells map[model.ID]model.Row
}

// Table returns one Row per test of f's suite and N of Ns (a page test one
// per size), in suite order; the cells come from Rows.
func Table(f *results.File) []Row {
	rows := Rows(f)
	var out []Row
	for _, t := range f.Suite.Tests {
		for _, n := range Ns(t) {
			r := Row{Test: t.Name, N: n, Cells: map[model.ID]model.Row{}}
			for k, x := range rows {
				if k.Test == t.Name && k.N == n {
					r.Cells[k.ID] = x
				}
			}
			out = append(out, r)
		}
	}
	return out
}

// Ratio is a's peak RPS over b's on r (model.Row.RatioTo); ok is false
// when either has no peak.
func (r Row) Ratio(a, b model.ID) (float64, bool) { return r.Cells[a].RatioTo(r.Cells[b]) }

// Write prints rows as a table: peak RPS per variant in columns, the first
// column's ratio to each other one and its CPU ms per request; "—" where a
// variant has no peak.
func Write(w io.Writer, rows []Row, columns []model.ID) error {
	t := texttab.Table{Header: []string{"test"}}
	for _, c := range columns {
		t.Header = append(t.Header, c.String())
	}
	for _, c := range columns[1:] {
		t.Header = append(t.Header, "÷ "+c.String())
	}
	t.Header = append(t.Header, "CPU ms/req "+columns[0].String())
	t.Align = texttab.AllRight(len(t.Header))
	for _, r := range rows {
		line := []string{model.Label(r.Test, r.N)}
		for _, c := range columns {
			line = append(line, rps(r.Cells[c]))
		}
		for _, c := range columns[1:] {
			line = append(line, ratioText(r.Ratio(columns[0], c)))
		}
		cpu := "—"
		if c := r.Cells[columns[0]]; c.OK {
			cpu = fmt.Sprintf("%.3f", c.CPUms())
		}
		t.Row(append(line, cpu)...)
	}
	return texttab.Text(w, t)
}

// RPSText writes requests/s as the tables do: whole numbers from 100 up,
// one decimal below (a 10,000-row page at 4.2, not 4).
func RPSText(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

func rps(c model.Row) string {
	if !c.OK {
		return "—"
	}
	return RPSText(c.Peak)
}
func ratioText(x float64, ok bool) string {
	if !ok {
		return "—"
	}
	return fmt.Sprintf("%.2f×", x)
}

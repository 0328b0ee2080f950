package ratio

import (
	"slices"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/suite"
)

// HeadlineRows are the rows (model.Row) of every variant on every suite
// test of f at its headline N (suite.HeadlineOf), by key; no constant-rate
// samples. Two runtimes of one variant share a key: the later series in
// sample order wins.
func HeadlineRows(f *results.File) map[model.RowKey]model.Row {
	return rowsOf(f, func(t results.Test, n int) bool { return n == suite.HeadlineOf(t.Queries) })
}

// Rows is HeadlineRows at every N of Ns: a page test's every size besides
// the headline N of the others (the rows Table shows).
func Rows(f *results.File) map[model.RowKey]model.Row {
	return rowsOf(f, func(t results.Test, n int) bool { return slices.Contains(Ns(t), n) })
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

func rowsOf(f *results.File, keep func(t results.Test, n int) bool) map[model.RowKey]model.Row {
	tests := map[string]results.Test{}
	for _, t := range f.Suite.Tests {
		tests[t.Name] = t
	}
	out := map[model.RowKey]model.Row{}
	for _, p := range f.Peaks().List {
		t, ok := tests[p.Test]
		if !ok || !keep(t, p.N) {
			continue
		}
		r := model.RowOf(p)
		out[r.RowKey] = r
	}
	return out
}

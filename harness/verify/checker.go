package verify

import "github.com/tfbench/tfbench/harness/model"

// Checker returns the check the load generator applies under load
// (load.Options.Check) with no reference body or World:
// LoadChecker(LoadRef{Type: t, Rows: rows}) (rows ≤ 0: 1..500; a page's
// ids and count only, see PageChecker). Only a fail is an error; the check
// is safe for concurrent use.
func Checker(t model.TestType, rows int) func(status int, head, body []byte) error {
	return LoadChecker(LoadRef{Type: t, Rows: rows})
}

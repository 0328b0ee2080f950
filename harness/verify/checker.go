package verify

import (
	"errors"
	"net/http"
	"strings"

	"github.com/tfbench/tfbench/harness/model"
)

// Checker returns the check the load generator applies under load
// (load.Options.Check): ResponseRows for t with rows (≤ 0: 1..500; a page's
// ids and count only, see PageChecker). Only a fail is an error, its reasons
// joined by "; "; the check is safe for concurrent use.
func Checker(t model.TestType, rows int) func(status int, header http.Header, body []byte) error {
	return func(status int, header http.Header, body []byte) error {
		r := ResponseRows(t, rows, status, header, body)
		if r.Status != model.Fail {
			return nil
		}
		return errors.New(strings.Join(r.Reasons, "; "))
	}
}

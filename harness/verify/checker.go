package verify

import (
	"errors"
	"net/http"
	"strings"

	"github.com/tfbench/tfbench/harness/model"
)

// Checker returns the check the load generator applies to a sample of
// responses under load (load.Options.Check): the per-response rules of
// test type t (Response, or ResponseRows with rows for queries and updates;
// rows <= 0 accepts 1..500; page: ids and count only, PageChecker checks
// the values too). Only a fail is an error, its reasons joined by
// "; "; a warn passes, as it does before load. The check is safe for
// concurrent use.
func Checker(t model.TestType, rows int) func(status int, header http.Header, body []byte) error {
	return func(status int, header http.Header, body []byte) error {
		r := ResponseRows(t, rows, status, header, body)
		if r.Status != model.Fail {
			return nil
		}
		return errors.New(strings.Join(r.Reasons, "; "))
	}
}

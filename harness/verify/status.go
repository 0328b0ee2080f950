package verify

import (
	"fmt"

	"github.com/tfbench/tfbench/harness/model"
)

// Result is the verdict for one test (or one response) and why.
type Result struct {
	// Status is the worst verdict of all rules checked.
	Status model.Verdict
	// Reasons holds one line per warn or fail, in the order found, each
	// naming the request and the rule it comes from; empty on pass.
	Reasons []string
	// PageBytes is the body size in bytes of the page checked: for
	// fortunes the first response, for page the one at the largest size
	// (the headline N); 0 for the other test types.
	PageBytes int
}

// pass returns an empty passing Result.
func pass() Result { return Result{Status: model.Pass} }

// add records a warn or fail with its reason.
func (r *Result) add(s model.Verdict, format string, args ...any) {
	r.Status = model.Worse(r.Status, s)
	r.Reasons = append(r.Reasons, fmt.Sprintf(format, args...))
}

// addCapped is add with the verdict capped at most: TFB's queries=501 case
// reports body problems as warn only.
func (r *Result) addCapped(s, most model.Verdict, format string, args ...any) {
	r.add(s.Capped(most), format, args...)
}

// merge folds o's verdict and reasons into r, each reason prefixed.
func (r *Result) merge(o Result, prefix string) {
	r.Status = model.Worse(r.Status, o.Status)
	for _, reason := range o.Reasons {
		r.Reasons = append(r.Reasons, prefix+reason)
	}
}

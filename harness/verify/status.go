package verify

import "fmt"

// Status is a verification verdict: "pass", "warn" or "fail". A fail means
// the test is not measured; a warn means it is measured and flagged.
type Status string

// The three verdicts, from best to worst.
const (
	Pass Status = "pass"
	Warn Status = "warn"
	Fail Status = "fail"
)

// rank orders verdicts: pass (and an unset Status) < warn < fail.
func (s Status) rank() int {
	switch s {
	case Fail:
		return 2
	case Warn:
		return 1
	}
	return 0
}

// Worse returns the worse of two verdicts (fail > warn > pass). An empty
// Status counts as pass.
func Worse(a, b Status) Status {
	if b.rank() > a.rank() {
		return b
	}
	if a == "" {
		return Pass
	}
	return a
}

// Result is the verdict for one test (or one response) and why.
type Result struct {
	// Status is the worst verdict of all rules checked.
	Status Status
	// Reasons holds one line per warn or fail, in the order found, each
	// naming the request and the rule it comes from; empty on pass.
	Reasons []string
	// PageBytes is the body size in bytes of the page checked: for
	// fortunes the first response, for page the one at the largest size
	// (the headline N); 0 for the other test types.
	PageBytes int
}

// pass returns an empty passing Result.
func pass() Result { return Result{Status: Pass} }

// add records a warn or fail with its reason.
func (r *Result) add(s Status, format string, args ...any) {
	r.Status = Worse(r.Status, s)
	r.Reasons = append(r.Reasons, fmt.Sprintf(format, args...))
}

// addCapped is add with the verdict capped at most: TFB's queries=501 case
// reports body problems as warn only.
func (r *Result) addCapped(s, most Status, format string, args ...any) {
	if s.rank() > most.rank() {
		s = most
	}
	r.add(s, format, args...)
}

// merge folds o's verdict and reasons into r, each reason prefixed.
func (r *Result) merge(o Result, prefix string) {
	r.Status = Worse(r.Status, o.Status)
	for _, reason := range o.Reasons {
		r.Reasons = append(r.Reasons, prefix+reason)
	}
}

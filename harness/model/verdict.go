package model

// Verdict is a verification verdict: pass, warn, fail, or n/a for a test
// that does not apply (a cache-hit test on an adapter without a cached
// page route: not measured, not a failure). A fail is not measured.
type Verdict string

// The verdicts, from best to worst, and NotApplicable.
const (
	Pass          Verdict = "pass"
	Warn          Verdict = "warn"
	Fail          Verdict = "fail"
	NotApplicable Verdict = "n/a"
)

// rank orders verdicts: pass (and an unset Verdict) < warn < fail.
func (v Verdict) rank() int {
	switch v {
	case Fail:
		return 2
	case Warn:
		return 1
	}
	return 0
}

// Worse returns the worse of a and b (fail > warn > pass); an empty
// Verdict counts as pass.
func Worse(a, b Verdict) Verdict {
	if b.rank() > a.rank() {
		return b
	}
	if a == "" {
		return Pass
	}
	return a
}

// Capped is v at most as bad as most.
func (v Verdict) Capped(most Verdict) Verdict {
	if v.rank() > most.rank() {
		return most
	}
	return v
}

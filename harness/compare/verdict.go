package compare

// The verdict rule over a table's rows: rankstat decides from the numbers,
// this file words the outcome (Why, Limit).

import (
	"fmt"
	"strings"

	"github.com/tfbench/tfbench/harness/rankstat"
)

// decide applies the verdict rule to t.Rows: each side's Reason is step 1,
// Rank does steps 2–5 with the table's rows as the family.
func decide(t *Table) {
	pairs := make([]Pair, len(t.Rows))
	for i, r := range t.Rows {
		var why []string
		for _, s := range []struct {
			name string
			sd   Side
		}{{t.Base.Name, r.Base}, {t.New.Name, r.New}} {
			if s.sd.Reason != "" {
				why = append(why, s.name+": "+s.sd.Reason)
			}
		}
		if r.across != "" {
			why = append(why, "hosts differ: "+r.across)
		}
		pairs[i] = Pair{Base: r.Base.Values, New: r.New.Values, Why: strings.Join(why, "; ")}
	}
	f := rank(pairs, t.Options)
	for i, out := range f.Outcomes {
		r := &t.Rows[i]
		r.Change, r.Tested, r.U, r.P, r.PHolm, r.Verdict, r.Why = out.Change, out.Tested, out.U, out.P, out.PHolm, out.Verdict, out.Why
	}
	t.Detectable, t.Limit = f.Detectable, f.Limit
}

// Pair is one row of a Holm family: both sides' per-round values in one
// unit (e.g. requests/s at each side's peak level). A Why ("base: no peak:
// …") makes the row unknown and leaves it out of the family.
type Pair struct {
	Base, New []float64
	Why       string
}

// Outcome is one Pair under the verdict rule; its fields mean what Row's
// fields of the same names mean (Change is median(New) ÷ median(Base) − 1).
type Outcome struct {
	Change      float64
	Tested      bool
	U, P, PHolm float64
	Verdict     Verdict
	Why         string
}

// Family is the verdict rule over one family of pairs: Outcomes in the
// pairs' order; Detectable and Limit as Table's.
type Family struct {
	Outcomes   []Outcome
	Detectable bool
	Limit      string
}

// Rank applies the verdict rule (package doc) to pairs as one Holm family,
// with o's Alpha and MinChange and o's names in Why; higher values are
// faster. It refuses options out of range.
func Rank(pairs []Pair, o Options) (Family, error) {
	o, err := o.check()
	if err != nil {
		return Family{}, err
	}
	return rank(pairs, o), nil
}

func rank(pairs []Pair, o Options) Family {
	sp := make([]rankstat.Pair, len(pairs))
	for i, pr := range pairs {
		sp[i] = rankstat.Pair{Base: pr.Base, New: pr.New, Excluded: pr.Why != ""}
	}
	sf := rankstat.Rank(sp, o.Alpha, o.MinChange)
	f := Family{Outcomes: make([]Outcome, len(pairs)), Detectable: sf.Detectable}
	if sf.Tested > 0 && !sf.Detectable {
		f.Limit = limitText(sf.N1, sf.N2, sf.Tested, o.Alpha)
	}
	for i, so := range sf.Outcomes {
		f.Outcomes[i] = Outcome{Change: so.Change, Tested: so.Tested, U: so.U, P: so.P, PHolm: so.PHolm,
			Verdict: so.Verdict, Why: why(pairs[i], so, f.Limit, o)}
	}
	return f
}

// why words an outcome's rankstat.Reason.
func why(pr Pair, so rankstat.Outcome, limit string, o Options) string {
	switch so.Reason {
	case rankstat.Excluded:
		return pr.Why
	case rankstat.TooFewRounds:
		var why []string
		for _, s := range []struct {
			name   string
			values []float64
		}{{o.BaseName, pr.Base}, {o.NewName, pr.New}} {
			if n := len(s.values); n < MinRounds {
				why = append(why, fmt.Sprintf("%d rounds in %s", n, s.name))
			}
		}
		why[len(why)-1] += fmt.Sprintf(", need %d", MinRounds)
		return strings.Join(why, "; ")
	case rankstat.TestFailed:
		return so.Err.Error()
	case rankstat.Undetectable:
		return limit
	case rankstat.AllEqual:
		return "all rounds equal on both sides"
	case rankstat.NotSignificant:
		return fmt.Sprintf("not significant: p_holm %s ≥ α %g", pText(so.PHolm), o.Alpha)
	case rankstat.Beyond:
		return fmt.Sprintf("p_holm %s < α %g, change %s beyond ±%s", pText(so.PHolm), o.Alpha, pct(so.Change), minText(o.MinChange))
	case rankstat.Within:
		return fmt.Sprintf("significant (p_holm %s < α %g) but change %s within ±%s", pText(so.PHolm), o.Alpha, pct(so.Change), minText(o.MinChange))
	}
	return ""
}

// limitText says that m tested rows with n1 and n2 rounds cannot reach α
// after Holm, and the rounds per side that would.
func limitText(n1, n2, m int, alpha float64) string {
	have := fmt.Sprintf("%d rounds per side", n1)
	if n1 != n2 {
		have = fmt.Sprintf("%d rounds in base and %d in new", n1, n2)
	}
	return fmt.Sprintf("%s cannot reach α = %g over %d rows; use ≥ %d rounds", have, alpha, m, rankstat.RoundsNeeded(n1, n2, m, alpha))
}

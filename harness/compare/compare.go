// Package compare tells, per framework variant and test, whether a new run
// is faster, slower or the same as a base run, like benchstat: Sets compares
// two results files (tfbench compare), Variants two variants of one run (ab).
//
// Verdict rule (docs/comparing.md, Compare two runs): per-round
// values at each side's peak level, two-sided Mann-Whitney U, Holm over rows;
// p_holm < α and a median change ≥ MinChange is slower/faster, else same;
// unknown without a peak, with < MinRounds a side, when the rank test fails
// (its error is the row's Why), or when no row can reach α.
package compare

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/rankstat"
	"github.com/tfbench/tfbench/harness/results"
)

// Verdict is a row's outcome (rankstat.Verdict).
type Verdict = rankstat.Verdict

// Verdicts (package doc, Verdict rule).
const (
	Faster  = rankstat.Faster
	Slower  = rankstat.Slower
	Same    = rankstat.Same
	Unknown = rankstat.Unknown
)

// Basis is what the rank test compares per round.
type Basis string

// Bases: BasisRPS tests per-round RPS (requests/s) at each side's peak
// level; BasisRatio tests per-round RPS ÷ the reference's RPS of the same
// run and round (dimensionless).
const (
	BasisRPS   Basis = "rps"
	BasisRatio Basis = "ratio"
)

// MinRounds is the fewest per-round values a side needs for a verdict: with
// 5 rounds per side the smallest two-sided p is 2/C(10, 5) = 0.0079
// (rankstat.MinRounds).
const MinRounds = rankstat.MinRounds

// ErrRefused is wrapped by the error Sets returns for results that never
// compare (different method versions or suite hashes); the message names
// both files and values. `tfbench compare` exits with status 2 on it.
var ErrRefused = errors.New("results do not compare")

// Options set the verdict rule's thresholds and the names used in messages.
type Options struct {
	// Alpha is the significance level for Holm-adjusted p, 0 < Alpha < 1
	// (default 0.05).
	Alpha float64 `json:"alpha"`
	// MinChange is the smallest change of the median that counts as faster
	// or slower, a share 0 ≤ MinChange < 1 (default 0.05 = 5%).
	MinChange float64 `json:"min_change"`
	// Basis is BasisRPS (default when empty) or BasisRatio.
	Basis Basis `json:"basis"`
	// Reference is the variant ratios are taken against, as
	// "framework/variant" (default model.Reference); check parses it.
	Reference string `json:"reference"`
	// BaseName and NewName name the two inputs (file paths) in messages and
	// the markdown header; default "base" and "new" (Variants: the two
	// variants' names).
	BaseName string `json:"base_name"`
	NewName  string `json:"new_name"`
}

// ref is Reference parsed (check validated it).
func (o Options) ref() model.ID {
	id, _ := model.ParseID(o.Reference)
	return id
}

// DefaultOptions are the verdict rule's defaults: α = 0.05, min change 5%,
// basis rps, reference go-stdlib/default.
func DefaultOptions() Options {
	return Options{Alpha: rankstat.Alpha, MinChange: rankstat.MinChange, Basis: BasisRPS, Reference: model.Reference.String()}
}

// check fills the empty Basis, Reference and names and rejects values out
// of range.
func (o Options) check() (Options, error) {
	if o.Basis == "" {
		o.Basis = BasisRPS
	}
	if o.Reference == "" {
		o.Reference = model.Reference.String()
	}
	_, refErr := model.ParseID(o.Reference)
	if o.BaseName == "" {
		o.BaseName = "base"
	}
	if o.NewName == "" {
		o.NewName = "new"
	}
	switch {
	case o.Basis != BasisRPS && o.Basis != BasisRatio:
		return o, fmt.Errorf("basis %q: want %q or %q", o.Basis, BasisRPS, BasisRatio)
	case !(o.Alpha > 0 && o.Alpha < 1):
		return o, fmt.Errorf("alpha %g: want 0 < α < 1", o.Alpha)
	case !(o.MinChange >= 0 && o.MinChange < 1):
		return o, fmt.Errorf("min change %g: want a share 0 ≤ min < 1 (0.05 = 5%%)", o.MinChange)
	case refErr != nil:
		return o, fmt.Errorf("reference %q: want framework/variant", o.Reference)
	}
	return o, nil
}

// Side is one side's figures of a row.
type Side struct {
	// Run is the label of the run that measured the row (results.Run).
	Run string `json:"run"`
	// Name is the row's framework variant on this side, "framework/variant".
	Name string `json:"name"`
	// Build is the variant's build hash in that run (results.Framework).
	Build string `json:"build,omitempty"`
	// OK is true when the side has a peak.
	OK bool `json:"ok"`
	// Reason says why the side cannot be tested: no peak (and why), or in
	// basis ratio no reference peak in its run; empty when it can.
	Reason string `json:"reason,omitempty"`
	// Peak is the median RPS over rounds at the peak level (requests/s);
	// Connections and Pipeline are that level's.
	Peak        float64 `json:"peak_rps"`
	Connections int     `json:"connections"`
	Pipeline    int     `json:"pipeline"`
	// CPUms is the server's CPU time per request at the peak level, the
	// median over rounds, in ms.
	CPUms float64 `json:"cpu_ms_per_request"`
	// RefRatio is Peak ÷ the reference's peak on the same test and N in the
	// same run; 0 when that run has no reference peak.
	RefRatio float64 `json:"ref_ratio"`
	// Values are the per-round figures the rank test uses (basis rps:
	// requests/s; basis ratio: RPS ÷ reference RPS), Rounds their round
	// numbers, ascending.
	Values []float64 `json:"values"`
	Rounds []int     `json:"rounds"`
	// GeneratorSaturated is true when the load generator was saturated in
	// a round at the peak level.
	GeneratorSaturated bool `json:"generator_saturated"`
}

// Row is one framework variant on one test at its headline N, compared.
type Row struct {
	model.ID
	Test string `json:"test"`
	N    int    `json:"n"`
	Base Side   `json:"base"`
	New  Side   `json:"new"`
	// Ratio is New.Peak ÷ Base.Peak; NormRatio is New.RefRatio ÷
	// Base.RefRatio (each side's peak normalized by its own run's
	// reference). 0 when not available.
	Ratio     float64 `json:"ratio"`
	NormRatio float64 `json:"norm_ratio"`
	// Change is median(New.Values) ÷ median(Base.Values) − 1 (−0.098 =
	// 9.8% slower); 0 when a side has no values.
	Change float64 `json:"change"`
	// Tested is true when the rank test gave a p; only then are U
	// (round pairs with new > base, ties ½), P (two-sided Mann-Whitney) and
	// PHolm (Holm-adjusted over the table's tested rows) set.
	Tested bool    `json:"tested"`
	U      float64 `json:"u"`
	P      float64 `json:"p"`
	PHolm  float64 `json:"p_holm"`
	// SameBuild is true when both sides' build hashes are equal: the same
	// code was measured twice.
	SameBuild bool    `json:"same_build"`
	Verdict   Verdict `json:"verdict"`
	Why       string  `json:"why"`
	// across is set by Sets: the hardware facts in which the two sides'
	// hosts differ, which make the row unknown.
	across string
}

// Key is the row's key.
func (r Row) Key() model.RowKey {
	return model.RowKey{ID: r.ID, Test: r.Test, N: r.N}
}

// RunMeta describes one run of a side.
type RunMeta struct {
	Label   string     `json:"label"`
	RunID   string     `json:"run_id"`
	Rounds  int        `json:"rounds"` // the suite's rounds in that run
	Started time.Time  `json:"started"`
	Host    probe.Host `json:"host"`
}

// Meta describes one side of a comparison.
type Meta struct {
	Name          string    `json:"name"` // Options.BaseName or NewName
	MethodVersion int       `json:"method_version"`
	Suite         string    `json:"suite"`
	SuiteHash     string    `json:"suite_hash"`
	Runs          []RunMeta `json:"runs"`
}

// Table is one comparison: its rows are the Holm family.
type Table struct {
	Base    Meta    `json:"base"`
	New     Meta    `json:"new"`
	Options Options `json:"options"`
	// BaseVariant and NewVariant are set by Variants: the two variants of
	// one run that were compared.
	BaseVariant string `json:"base_variant,omitempty"`
	NewVariant  string `json:"new_variant,omitempty"`
	// Rows are sorted by framework variant, then test in suite order, then
	// run label.
	Rows []Row `json:"rows"`
	// Detectable is true when a row was tested and the rounds can reach α
	// after Holm (m × 2/C(n1+n2, n1) < α, rankstat.MinP); Limit says why not
	// and how many rounds would do.
	Detectable bool   `json:"detectable"`
	Limit      string `json:"limit,omitempty"`
	// Warnings can change a verdict's meaning (hosts differ, saturated
	// generator, basis rps across hosts); Notes are informational (same
	// build, hostnames, rows only on one side).
	Warnings []string `json:"warnings"`
	Notes    []string `json:"notes"`
	// Equivalence is tfbench ab's byte-equivalence verdicts, from the run
	// file Variants compared (results.File.Equivalence); empty otherwise.
	Equivalence []results.Equivalence `json:"equivalence,omitempty"`
}

// ErrRegression is wrapped by Regression's error: a row is slower. tfbench
// compare and ab return it after writing the table, and exit with status 1
// (not 2, a broken input) on it.
var ErrRegression = errors.New("slower than base")

// Regression is an error wrapping ErrRegression naming t's slower rows
// (the first five, "nextjs/default queries N=20"), nil when none is slower.
func (t *Table) Regression() error {
	var slower []string
	for _, r := range t.Rows {
		if r.Verdict == Slower {
			slower = append(slower, r.ID.String()+" "+r.Key().Label())
		}
	}
	if len(slower) == 0 {
		return nil
	}
	n := len(slower)
	if n > 5 {
		slower = append(slower[:5], "…")
	}
	return fmt.Errorf("%d of %d rows %w: %s", n, len(t.Rows), ErrRegression, strings.Join(slower, ", "))
}

// Regressed reports whether any row is slower.
func (t *Table) Regressed() bool { return t.Count(Slower) > 0 }

// Count is the number of rows with verdict v.
func (t *Table) Count(v Verdict) int {
	n := 0
	for _, r := range t.Rows {
		if r.Verdict == v {
			n++
		}
	}
	return n
}

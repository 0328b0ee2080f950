// Package compare tells, per framework variant and test, whether a new run
// is faster, slower or the same as a base run, from the per-round figures at
// each side's peak level, the way benchstat does for Go benchmarks.
// `tfbench compare` compares two results files (plain or merged, Sets);
// `tfbench ab` compares two variants measured in one run (Variants); Rank is
// the rule's statistics alone over any family of per-round pairs (the render
// engine's targets, tools/engine-ratios).
//
// Verdict rule (issue 6), for each row: a framework variant on a suite test
// at its headline N (ratio.Key), present in both sides:
//
//  1. a side with no peak (build or start error, verification fail, no level
//     that passed the gate in every round) → unknown; Why names it.
//  2. fewer than MinRounds per-round values on a side (rounds at the peak
//     level; basis ratio: rounds present for both the row and the reference)
//     → unknown ("4 rounds in new, need 5"); a verdict is never a guess.
//  3. p is the two-sided Mann-Whitney U test of the two sides' per-round
//     values (aclements/go-moremath stats.MannWhitneyUTest, exact
//     distribution for these sizes); all values equal (ErrSamplesEqual) →
//     p = 1.
//  4. Holm–Bonferroni over the rows that reached step 3 (the family is one
//     compare table). When even the smallest p those rows' rounds can give,
//     2/C(n1+n2, n1), times the family size is not below α, no row can be
//     significant: every such row is unknown and Table.Limit says how many
//     rounds would do.
//  5. change = median(new)/median(base) − 1 on the verdict basis;
//     p_holm < α and change ≤ −min → slower; p_holm < α and change ≥ +min →
//     faster; otherwise same (not significant, or significant but smaller
//     than min, like benchstat's "~"), with p and change shown.
//
// Basis rps (the default) tests each round's RPS at the side's own peak
// level. Basis ratio tests each round's RPS divided by the reference's
// (go-stdlib/default) RPS of the same run and round (ratio.PerRoundRatio):
// it removes the machine's speed, so runs from different hosts compare;
// the reference's own rows are left out then.
//
// The statistics (medians, the rank test, Holm–Bonferroni, the verdict from
// numbers) are package rankstat's, with no wording; this package builds the
// rows from results and words the outcomes (Why, Limit, warnings, notes);
// format.go renders a Table as markdown (through texttab) or JSON.
//
// Results measured by different method versions or suites never compare
// (ErrRefused). Different hosts, a saturated load generator and rps basis
// across hosts are warnings; equal builds and hostnames are notes.
package compare

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/rankstat"
	"github.com/tfbench/tfbench/harness/ratio"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/suite"
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
	// Reference is the "framework/variant" ratios are taken against
	// (default ratio.Reference, go-stdlib/default).
	Reference string `json:"reference"`
	// BaseName and NewName name the two inputs (file paths) in messages and
	// the markdown header; default "base" and "new" (Variants: the two
	// variants' names).
	BaseName string `json:"base_name"`
	NewName  string `json:"new_name"`
}

// DefaultOptions are the verdict rule's defaults: α = 0.05, min change 5%,
// basis rps, reference go-stdlib/default.
func DefaultOptions() Options {
	return Options{Alpha: 0.05, MinChange: 0.05, Basis: BasisRPS, Reference: ratio.Reference}
}

// check fills the empty Basis, Reference and names and rejects values out
// of range.
func (o Options) check() (Options, error) {
	if o.Basis == "" {
		o.Basis = BasisRPS
	}
	if o.Reference == "" {
		o.Reference = ratio.Reference
	}
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
	case !strings.Contains(o.Reference, "/"):
		return o, fmt.Errorf("reference %q: want framework/variant", o.Reference)
	}
	return o, nil
}

// Variant names one framework variant; String spells it "framework/variant".
type Variant struct {
	Framework string `json:"framework"`
	Variant   string `json:"variant"`
}

// String is "framework/variant".
func (v Variant) String() string { return v.Framework + "/" + v.Variant }

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
	Framework string `json:"framework"`
	Variant   string `json:"variant"`
	Test      string `json:"test"`
	N         int    `json:"n"`
	Base      Side   `json:"base"`
	New       Side   `json:"new"`
	// Ratio is New.Peak ÷ Base.Peak; NormRatio is New.RefRatio ÷
	// Base.RefRatio (each side's peak normalized by its own run's
	// reference). 0 when not available.
	Ratio     float64 `json:"ratio"`
	NormRatio float64 `json:"norm_ratio"`
	// Change is median(New.Values) ÷ median(Base.Values) − 1 (−0.098 =
	// 9.8% slower); 0 when a side has no values.
	Change float64 `json:"change"`
	// Tested is true when the row reached the rank test; only then are U,
	// P and PHolm set. U counts (new, base) round pairs with new > base,
	// ties ½; P is the two-sided Mann-Whitney p, PHolm Holm-adjusted over
	// the table's tested rows.
	Tested bool    `json:"tested"`
	U      float64 `json:"u"`
	P      float64 `json:"p"`
	PHolm  float64 `json:"p_holm"`
	// SameBuild is true when both sides' build hashes are equal: the same
	// code was measured twice.
	SameBuild bool    `json:"same_build"`
	Verdict   Verdict `json:"verdict"`
	Why       string  `json:"why"`
}

// Key is the row's ratio.Key.
func (r Row) Key() ratio.Key {
	return ratio.Key{Framework: r.Framework, Variant: r.Variant, Test: r.Test, N: r.N}
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
	// Detectable is true when at least one row was tested and the tested
	// rows' rounds can reach significance after Holm (m × 2/C(n1+n2, n1) < α
	// for the row with the most rounds). Limit says why not when rows were
	// tested but cannot be ("5 rounds per side cannot reach α = 0.05 over 7
	// rows; use ≥ 6 rounds").
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

// rowKey keys a row: the reference of a merged side (one per run) also by
// its run label in basis rps.
type rowKey struct {
	ratio.Key
	Run string
}

// side is one input Set with its per-run peaks.
type side struct {
	name  string
	set   *results.Set
	peaks []map[ratio.Key]ratio.Rounds // by run index
	multi bool
}

// Sets compares base with next, the new side (results files, plain or
// merged; Options.BaseName and NewName name them), by the verdict rule.
// Rows are the framework variants at each test's headline N that both sides
// ran; a variant or test only one side ran is a note. Errors: options out
// of range; an empty Set; ErrRefused (wrapped, naming both files and
// values) when the method versions or the suite hashes differ.
func Sets(base, next *results.Set, o Options) (*Table, error) {
	o, err := o.check()
	if err != nil {
		return nil, err
	}
	for _, s := range []struct {
		name string
		set  *results.Set
	}{{o.BaseName, base}, {o.NewName, next}} {
		if s.set == nil || len(s.set.Runs) == 0 {
			return nil, fmt.Errorf("%s: no runs", s.name)
		}
	}
	if b, n := base.MethodVersion(), next.MethodVersion(); b != n {
		return nil, fmt.Errorf("%w: %s: method version %d, %s: method version %d: results measured by different methods never compare",
			ErrRefused, o.BaseName, b, o.NewName, n)
	}
	if b, n := base.SuiteHash(), next.SuiteHash(); b != n {
		bs, ns := base.Runs[0].File.Suite.Name, next.Runs[0].File.Suite.Name
		return nil, fmt.Errorf("%w: %s: suite %s (sha256 %s), %s: suite %s (sha256 %s): results of different suites never compare",
			ErrRefused, o.BaseName, bs, short(b), o.NewName, ns, short(n))
	}
	t := &Table{Base: metaOf(o.BaseName, base), New: metaOf(o.NewName, next), Options: o}
	bs, ns := sideOf(o.BaseName, base), sideOf(o.NewName, next)

	tests, order := commonTests(t, base, next)
	bRows, nRows := bs.rows(o), ns.rows(o)
	keys := map[rowKey]bool{}
	for k := range bRows {
		keys[k] = true
	}
	for k := range nRows {
		keys[k] = true
	}
	only := map[string][]string{} // note text → variants
	for k := range keys {
		if !tests[k.Test] {
			continue
		}
		b, bok := bRows[k]
		n, nok := nRows[k]
		if !bok {
			if b, bok = bs.missing(k, o); !bok {
				only["only in "+o.NewName] = append(only["only in "+o.NewName], variantLabel(k))
				continue
			}
		}
		if !nok {
			if n, nok = ns.missing(k, o); !nok {
				only["only in "+o.BaseName] = append(only["only in "+o.BaseName], variantLabel(k))
				continue
			}
		}
		t.Rows = append(t.Rows, newRow(k.Key, b, n))
	}
	slices.SortFunc(t.Rows, func(a, b Row) int {
		return cmpRows(a, b, order)
	})
	decide(t)
	t.warn(bs, ns)
	if len(t.Rows) == 0 {
		t.Warnings = append(t.Warnings, "no framework variant and test is in both: nothing compared (in basis rps the reference of a merged file is matched by run label)")
	}
	for _, which := range slices.Sorted(maps.Keys(only)) {
		vs := slices.Compact(slices.Sorted(slices.Values(only[which])))
		t.Notes = append(t.Notes, fmt.Sprintf("%s (not compared): %s", which, strings.Join(vs, ", ")))
	}
	if o.Basis == BasisRatio {
		t.Notes = append(t.Notes, fmt.Sprintf("basis ratio: the reference %s is the divisor, its own rows are left out", o.Reference))
	}
	return t, nil
}

// Variants compares two framework variants measured in one run file, per
// suite test at its headline N, by the verdict rule with basis rps (both
// were measured on one machine, rounds interleaved): the table `tfbench ab`
// prints; rows are f's suite tests, keyed by next's variant. Errors:
// options out of range, a basis other than rps, base equal to next, a
// variant the run did not measure.
func Variants(f *results.File, base, next Variant, o Options) (*Table, error) {
	o, err := o.check()
	if err != nil {
		return nil, err
	}
	if o.Basis != BasisRPS {
		return nil, fmt.Errorf("basis %s: two variants of one run compare with basis rps", o.Basis)
	}
	if base == next {
		return nil, fmt.Errorf("%s compared with itself: name two different variants", base)
	}
	if o.BaseName == "base" && o.NewName == "new" {
		o.BaseName, o.NewName = base.String(), next.String()
	}
	run := results.Run{Label: f.RunID, File: f}
	set := &results.Set{Runs: []results.Run{run}}
	for _, v := range []Variant{base, next} {
		if _, ok := set.Owner(v.Framework, v.Variant); !ok {
			return nil, fmt.Errorf("run %s measured no %s", f.RunID, v)
		}
	}
	t := &Table{Base: metaOf(o.BaseName, set), New: metaOf(o.NewName, set), Options: o,
		BaseVariant: base.String(), NewVariant: next.String(), Equivalence: f.Equivalence}
	s := sideOf(o.BaseName, set)
	for _, test := range f.Suite.Tests {
		n := suite.HeadlineOf(test.Queries)
		kb := ratio.Key{Framework: base.Framework, Variant: base.Variant, Test: test.Name, N: n}
		kn := ratio.Key{Framework: next.Framework, Variant: next.Variant, Test: test.Name, N: n}
		b, _ := s.at(0, kb, o)
		nw, _ := s.at(0, kn, o)
		t.Rows = append(t.Rows, newRow(kn, b, nw))
	}
	decide(t)
	for i := range t.Rows {
		t.saturation(t.Rows[i])
	}
	if b, n := build(f, base), build(f, next); b != "" && b == n {
		t.Notes = append(t.Notes, fmt.Sprintf("%s and %s have the same build (build inputs sha256 %s): they differ only in how they are started", base, next, short(b)))
	}
	return t, nil
}

func metaOf(name string, s *results.Set) Meta {
	f := s.Runs[0].File
	m := Meta{Name: name, MethodVersion: s.MethodVersion(), Suite: f.Suite.Name, SuiteHash: s.SuiteHash()}
	for _, r := range s.Runs {
		m.Runs = append(m.Runs, RunMeta{Label: r.Label, RunID: r.File.RunID, Rounds: r.File.Suite.Rounds,
			Started: r.File.Started, Host: r.File.Host})
	}
	return m
}

func sideOf(name string, s *results.Set) *side {
	sd := &side{name: name, set: s, multi: len(s.Runs) > 1}
	for _, r := range s.Runs {
		sd.peaks = append(sd.peaks, ratio.PeakRounds(r.File))
	}
	return sd
}

// rows returns the side's rows by key: every variant at its tests' headline
// N, the reference keyed by run label when the side has several runs (basis
// rps) or left out (basis ratio).
func (s *side) rows(o Options) map[rowKey]Side {
	out := map[rowKey]Side{}
	for i, r := range s.set.Runs {
		for k := range s.peaks[i] {
			rk := rowKey{Key: k}
			if k.Name() == o.Reference {
				if o.Basis == BasisRatio {
					continue
				}
				if s.multi {
					rk.Run = r.Label
				}
			}
			out[rk], _ = s.at(i, k, o)
		}
	}
	return out
}

// at builds the Side of key k in run i; ok is false when run i has no peak
// series for k (the Side then says why).
func (s *side) at(i int, k ratio.Key, o Options) (Side, bool) {
	run := s.set.Runs[i]
	v := Variant{k.Framework, k.Variant}
	sd := Side{Run: run.Label, Name: v.String(), Build: build(run.File, v)}
	r, ok := s.peaks[i][k]
	if !ok {
		sd.Reason = MissingReason(run.File, k)
		return sd, false
	}
	if !r.OK {
		sd.Reason = "no peak: " + r.Reason
		return sd, true
	}
	sd.OK = true
	sd.Peak, sd.Connections, sd.Pipeline = r.Peak, r.Connections, r.Pipeline
	sd.CPUms = rankstat.Median(slices.Collect(maps.Values(r.CPUms)))
	sd.GeneratorSaturated = r.GeneratorSaturated
	refKey := k
	refKey.Framework, refKey.Variant, _ = strings.Cut(o.Reference, "/")
	ref, refOK := s.peaks[i][refKey]
	if refOK && ref.OK && ref.Peak > 0 {
		sd.RefRatio = r.Peak / ref.Peak
	}
	switch o.Basis {
	case BasisRatio:
		if !refOK || !ref.OK {
			why := "no samples"
			if refOK {
				why = ref.Reason
			}
			sd.Reason = fmt.Sprintf("no %s peak on %s in run %s (%s)", o.Reference, testLabel(k.Test, k.N), run.Label, why)
			return sd, true
		}
		sd.Values, sd.Rounds = ratio.PerRoundRatio(r, ref)
	default:
		sd.Values, sd.Rounds = r.Values(), slices.Sorted(maps.Keys(r.RPS))
	}
	return sd, true
}

// missing is the Side of key k for a side that has no series for it: ok is
// false when no run of the side measured k's framework variant at all (or,
// for the reference keyed by run, has k's run label).
func (s *side) missing(k rowKey, o Options) (Side, bool) {
	for i, r := range s.set.Runs {
		switch {
		case k.Run != "":
			if r.Label != k.Run {
				continue
			}
		case k.Name() == o.Reference && s.multi:
			continue // the reference of a merged side is keyed by run
		default:
			if _, ok := s.set.Owner(k.Framework, k.Variant); !ok {
				return Side{}, false
			}
			if !measures(r.File, k.Key) {
				continue
			}
		}
		sd, _ := s.at(i, k.Key, o)
		return sd, true
	}
	return Side{}, false
}

func measures(f *results.File, k ratio.Key) bool {
	for _, fw := range f.Frameworks {
		if fw.Name == k.Framework && fw.Variant == k.Variant {
			return true
		}
	}
	for _, sm := range f.Samples {
		if sm.Framework == k.Framework && sm.Variant == k.Variant {
			return true
		}
	}
	return false
}

// MissingReason says why f has no peak series for k: the framework's build
// or start error, its verification failure, or no samples.
func MissingReason(f *results.File, k ratio.Key) string {
	for _, fw := range f.Frameworks {
		if fw.Name == k.Framework && fw.Variant == k.Variant && fw.Error != "" {
			return "could not build or start: " + fw.Error
		}
	}
	if v, ok := f.Verification(k.Framework, k.Variant, k.Test); ok && v.Status == "fail" {
		return "verification failed: " + strings.Join(v.Reasons, "; ")
	}
	if k.N > 0 {
		return fmt.Sprintf("no samples of %s at N=%d", k.Test, k.N)
	}
	return "no samples of " + k.Test
}

func build(f *results.File, v Variant) string {
	for _, fw := range f.Frameworks {
		if fw.Name == v.Framework && fw.Variant == v.Variant {
			return fw.Build
		}
	}
	return ""
}

// commonTests returns the tests both sides' suites have and their order
// (base suite order first); tests on one side only become notes.
func commonTests(t *Table, base, next *results.Set) (map[string]bool, map[string]int) {
	names := func(s *results.Set) []string {
		var out []string
		for _, r := range s.Runs {
			for _, x := range r.File.Suite.Tests {
				if !slices.Contains(out, x.Name) {
					out = append(out, x.Name)
				}
			}
		}
		return out
	}
	bn, nn := names(base), names(next)
	common, order := map[string]bool{}, map[string]int{}
	for i, n := range append(bn, nn...) {
		if _, ok := order[n]; !ok {
			order[n] = i
		}
		if slices.Contains(bn, n) && slices.Contains(nn, n) {
			common[n] = true
		}
	}
	for _, x := range []struct {
		name   string
		these  []string
		others []string
	}{{t.Base.Name, bn, nn}, {t.New.Name, nn, bn}} {
		var only []string
		for _, n := range x.these {
			if !slices.Contains(x.others, n) {
				only = append(only, n)
			}
		}
		if len(only) > 0 {
			t.Notes = append(t.Notes, fmt.Sprintf("tests only in %s (not compared): %s", x.name, strings.Join(only, ", ")))
		}
	}
	return common, order
}

func newRow(k ratio.Key, b, n Side) Row {
	r := Row{Framework: k.Framework, Variant: k.Variant, Test: k.Test, N: k.N, Base: b, New: n}
	if b.OK && n.OK && b.Peak > 0 {
		r.Ratio = n.Peak / b.Peak
	}
	if b.RefRatio > 0 && n.RefRatio > 0 {
		r.NormRatio = n.RefRatio / b.RefRatio
	}
	r.SameBuild = b.Build != "" && b.Build == n.Build
	return r
}

func cmpRows(a, b Row, order map[string]int) int {
	if c := strings.Compare(a.Framework+"/"+a.Variant, b.Framework+"/"+b.Variant); c != 0 {
		return c
	}
	if c := order[a.Test] - order[b.Test]; c != 0 {
		return c
	}
	if c := a.N - b.N; c != 0 {
		return c
	}
	return strings.Compare(a.New.Run, b.New.Run)
}

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
		pairs[i] = Pair{Base: r.Base.Values, New: r.New.Values, Why: strings.Join(why, "; ")}
	}
	f := rank(pairs, t.Options)
	for i, out := range f.Outcomes {
		r := &t.Rows[i]
		r.Change, r.Tested, r.U, r.P, r.PHolm, r.Verdict, r.Why = out.Change, out.Tested, out.U, out.P, out.PHolm, out.Verdict, out.Why
	}
	t.Detectable, t.Limit = f.Detectable, f.Limit
}

// Pair is one row of a Holm family: the per-round values of the two sides
// (Base and New, in one unit, e.g. requests/s at each side's own peak
// level). Why, when set, is why the row cannot be tested (verdict rule,
// step 1: "base: no peak: …"); the row is then unknown and not in the family.
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

// Rank applies steps 2–5 of the verdict rule (package doc) to pairs, one
// Holm–Bonferroni family, with o's Alpha and MinChange; BaseName and
// NewName name the sides in Why ("4 rounds in new, need 5"). Higher values
// are faster. Errors: options out of range.
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

// warn adds the host, saturation and build warnings and notes of a Sets
// table.
func (t *Table) warn(bs, ns *side) {
	hosts := func(s *side) map[string]probe.Host {
		m := map[string]probe.Host{}
		for _, r := range s.set.Runs {
			m[r.Label] = r.File.Host
		}
		return m
	}
	bh, nh := hosts(bs), hosts(ns)
	seen := map[[2]string]bool{}
	acrossHosts := false
	var same []string
	for _, r := range t.Rows {
		t.saturation(r)
		if r.SameBuild && !slices.Contains(same, r.Base.Name) {
			same = append(same, r.Base.Name)
		}
		pair := [2]string{r.Base.Run, r.New.Run}
		if seen[pair] {
			continue
		}
		seen[pair] = true
		b, n := bh[pair[0]], nh[pair[1]]
		if d := hostDiff(b, n); d != "" {
			acrossHosts = true
			t.Warnings = append(t.Warnings, fmt.Sprintf("hosts differ (%s run %s, %s run %s): %s", t.Base.Name, pair[0], t.New.Name, pair[1], d))
		} else if b.Hostname != n.Hostname {
			t.Notes = append(t.Notes, fmt.Sprintf("hostnames differ (%s run %s on %q, %s run %s on %q), hardware the same",
				t.Base.Name, pair[0], b.Hostname, t.New.Name, pair[1], n.Hostname))
		}
	}
	if acrossHosts && t.Options.Basis == BasisRPS {
		t.Warnings = append(t.Warnings, "basis rps compares requests/s measured on different hosts: use --basis ratio")
	}
	if len(same) > 0 {
		t.Notes = append(t.Notes, "same build on both sides (equal build hashes, the same code measured twice): "+strings.Join(same, ", "))
	}
}

// saturation warns when the load generator was saturated on a side of r.
func (t *Table) saturation(r Row) {
	var sides []string
	if r.Base.GeneratorSaturated {
		sides = append(sides, t.Base.Name)
	}
	if r.New.GeneratorSaturated {
		sides = append(sides, t.New.Name)
	}
	if len(sides) > 0 {
		t.Warnings = append(t.Warnings, fmt.Sprintf("%s %s: load generator saturated in %s (those rounds measured the generator, not the server)",
			r.Base.Name, testLabel(r.Test, r.N), strings.Join(sides, " and ")))
	}
}

// hostDiff names the hardware facts in which a and b differ: cpu_model,
// logical_cpus, memory_bytes, arch; "" when none do.
func hostDiff(a, b probe.Host) string {
	var d []string
	if a.CPUModel != b.CPUModel {
		d = append(d, fmt.Sprintf("cpu_model %q vs %q", a.CPUModel, b.CPUModel))
	}
	if a.LogicalCPUs != b.LogicalCPUs {
		d = append(d, fmt.Sprintf("logical_cpus %d vs %d", a.LogicalCPUs, b.LogicalCPUs))
	}
	if a.MemoryBytes != b.MemoryBytes {
		d = append(d, fmt.Sprintf("memory_bytes %d vs %d", a.MemoryBytes, b.MemoryBytes))
	}
	if a.Arch != b.Arch {
		d = append(d, fmt.Sprintf("arch %q vs %q", a.Arch, b.Arch))
	}
	return strings.Join(d, "; ")
}

// variantLabel is a row key's variant as notes spell it: "nextjs/default",
// with " (run L)" for a reference keyed by run.
func variantLabel(k rowKey) string {
	if k.Run != "" {
		return k.Name() + " (run " + k.Run + ")"
	}
	return k.Name()
}

func testLabel(test string, n int) string {
	if n > 0 {
		return fmt.Sprintf("%s N=%d", test, n)
	}
	return test
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

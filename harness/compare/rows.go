package compare

// Row building: the two sides' rows from results (per-round figures at each
// side's peak level, rows matched by key), the warnings and notes.

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/ratio"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/internal/words"
)

// sideKey matches the rows of two sides: the row's key (model.RowKey) and,
// for the reference of a merged side in basis rps, the run label, since
// such a side has one reference row per run.
type sideKey struct {
	model.RowKey
	Run string
}

// side is one input Set with its per-run peaks.
type side struct {
	name  string
	set   *results.Set
	peaks []map[model.RowKey]model.Row // by run index
	multi bool
}

// Sets compares base with next (results files, plain or merged) by the
// verdict rule, a row per variant and test both ran at its headline N. It
// refuses an empty Set, and wraps ErrRefused for other methods or suites.
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
			ErrRefused, o.BaseName, bs, words.Commit(b), o.NewName, ns, words.Commit(n))
	}
	t := &Table{Base: metaOf(o.BaseName, base), New: metaOf(o.NewName, next), Options: o}
	bs, ns := sideOf(o.BaseName, base), sideOf(o.NewName, next)

	tests, order := commonTests(t, base, next)
	bRows, nRows := bs.rows(o), ns.rows(o)
	keys := map[sideKey]bool{}
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
		t.Rows = append(t.Rows, newRow(k.RowKey, b, n))
	}
	slices.SortFunc(t.Rows, func(a, b Row) int {
		return cmpRows(a, b, order)
	})
	acrossHosts(t, bs, ns)
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

// Variants compares two variants measured in one run file (the table
// tfbench ab prints), per suite test at its headline N, by the verdict rule
// with basis rps only; rows are keyed by next's variant.
func Variants(f *results.File, base, next model.ID, o Options) (*Table, error) {
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
	for _, v := range []model.ID{base, next} {
		if _, ok := set.Owner(v); !ok {
			return nil, fmt.Errorf("run %s measured no %s", f.RunID, v)
		}
	}
	t := &Table{Base: metaOf(o.BaseName, set), New: metaOf(o.NewName, set), Options: o,
		BaseVariant: base.String(), NewVariant: next.String(), Equivalence: f.Equivalence}
	s := sideOf(o.BaseName, set)
	for _, test := range f.Suite.Tests {
		if test.Type == model.Coldstart { // starts, not samples: the report's coldstart section
			continue
		}
		n := suite.HeadlineOf(test.Queries)
		kb := model.RowKey{ID: base, Test: test.Name, N: n}
		kn := model.RowKey{ID: next, Test: test.Name, N: n}
		b, _ := s.at(0, kb, o)
		nw, _ := s.at(0, kn, o)
		t.Rows = append(t.Rows, newRow(kn, b, nw))
	}
	decide(t)
	for i := range t.Rows {
		t.saturation(t.Rows[i])
	}
	if b, n := build(f, base), build(f, next); b != "" && b == n {
		t.Notes = append(t.Notes, fmt.Sprintf("%s and %s have the same build (build inputs sha256 %s): they differ only in how they are started", base, next, words.Commit(b)))
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
		sd.peaks = append(sd.peaks, ratio.HeadlineRows(r.File))
	}
	return sd
}

// rows returns the side's rows by key: every variant at its tests' headline
// N, the reference keyed by run label when the side has several runs (basis
// rps) or left out (basis ratio).
func (s *side) rows(o Options) map[sideKey]Side {
	out := map[sideKey]Side{}
	for i, r := range s.set.Runs {
		for k := range s.peaks[i] {
			rk := sideKey{RowKey: k}
			if k.ID == o.ref() {
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
func (s *side) at(i int, k model.RowKey, o Options) (Side, bool) {
	run := s.set.Runs[i]
	sd := Side{Run: run.Label, Name: k.ID.String(), Build: build(run.File, k.ID)}
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
	sd.CPUms = r.CPUms()
	sd.GeneratorSaturated = r.GeneratorSaturated()
	refKey := model.RowKey{ID: o.ref(), Test: k.Test, N: k.N}
	ref, refOK := s.peaks[i][refKey]
	sd.RefRatio, _ = r.RatioTo(ref)
	switch o.Basis {
	case BasisRatio:
		if !refOK || !ref.OK {
			why := "no samples"
			if refOK {
				why = ref.Reason
			}
			sd.Reason = fmt.Sprintf("no %s peak on %s in run %s (%s)", o.Reference, k.Label(), run.Label, why)
			return sd, true
		}
		sd.Values, sd.Rounds = r.RoundRatios(ref)
	default:
		sd.Values, sd.Rounds = r.Values(), r.Rounds()
	}
	return sd, true
}

// missing is the Side of key k for a side that has no series for it: ok is
// false when no run of the side measured k's framework variant at all (or,
// for the reference keyed by run, has k's run label).
func (s *side) missing(k sideKey, o Options) (Side, bool) {
	for i, r := range s.set.Runs {
		switch {
		case k.Run != "":
			if r.Label != k.Run {
				continue
			}
		case k.ID == o.ref() && s.multi:
			continue // the reference of a merged side is keyed by run
		default:
			if _, ok := s.set.Owner(k.ID); !ok {
				return Side{}, false
			}
			if !measures(r.File, k.RowKey) {
				continue
			}
		}
		sd, _ := s.at(i, k.RowKey, o)
		return sd, true
	}
	return Side{}, false
}

func measures(f *results.File, k model.RowKey) bool {
	return slices.Contains(f.Measured(), k.ID)
}

// MissingReason says why f has no peak series for k: the framework's build
// or start error, its verification failure, or no samples.
func MissingReason(f *results.File, k model.RowKey) string {
	for _, fw := range f.Frameworks {
		if fw.ID() == k.ID && fw.Error != "" {
			return "could not build or start: " + fw.Error
		}
	}
	if v, ok := f.Verification(k.ID, k.Test); ok && v.Status == model.Fail {
		return "verification failed: " + strings.Join(v.Reasons, "; ")
	}
	if k.N > 0 {
		return fmt.Sprintf("no samples of %s at N=%d", k.Test, k.N)
	}
	return "no samples of " + k.Test
}

func build(f *results.File, v model.ID) string {
	for _, fw := range f.Frameworks {
		if fw.ID() == v {
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

func newRow(k model.RowKey, b, n Side) Row {
	r := Row{ID: k.ID, Test: k.Test, N: k.N, Base: b, New: n}
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
	if c := strings.Compare(a.ID.String(), b.ID.String()); c != 0 {
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

// hostsOf maps a side's run labels to the hosts they measured on.
func hostsOf(s *side) map[string]probe.Host {
	m := map[string]probe.Host{}
	for _, r := range s.set.Runs {
		m[r.Label] = r.File.Host
	}
	return m
}

// filesOf maps a side's run labels to their files.
func filesOf(s *side) map[string]*results.File {
	m := map[string]*results.File{}
	for _, r := range s.set.Runs {
		m[r.Label] = r.File
	}
	return m
}

// provenanceDiff names what else two runs' provenance differs in, beside
// the hardware hostDiff covers, so a change the compared code did not make
// is named: the source commit and its tree, tfbench, Go, OS, kernel,
// virtualization, the pinned CPUs' cores and governors, boost; "" when
// nothing does or a side is missing.
func provenanceDiff(a, b *results.File) string {
	if a == nil || b == nil {
		return ""
	}
	var d []string
	diff := func(what, x, y string) {
		if x != y {
			d = append(d, fmt.Sprintf("%s %q vs %q", what, x, y))
		}
	}
	src := func(s *results.Source) string {
		switch {
		case s == nil:
			return ""
		case s.Dirty:
			return words.Commit(s.Commit) + " +dirty " + words.Commit(s.DiffSHA256)
		}
		return words.Commit(s.Commit)
	}
	topology := func(h probe.Host) string {
		var parts []string
		for _, c := range h.CPUs {
			p := fmt.Sprintf("CPU %d (%s) siblings %s", c.ID, c.Role, c.Siblings)
			if c.Governor != "" {
				p += " governor " + c.Governor
			}
			parts = append(parts, p)
		}
		if h.SharedCores {
			parts = append(parts, "shared cores")
		}
		return strings.Join(parts, ", ")
	}
	ah, bh := a.Host, b.Host
	diff("commit", src(a.Source), src(b.Source))
	diff("tfbench", a.Tfbench, b.Tfbench)
	diff("go", ah.GoVersion, bh.GoVersion)
	diff("os", ah.OS, bh.OS)
	diff("kernel", ah.Kernel, bh.Kernel)
	diff("virtual", ah.Virtual, bh.Virtual)
	diff("cpus", topology(ah), topology(bh))
	diff("boost", ah.Boost, bh.Boost)
	return strings.Join(d, "; ")
}

// acrossHosts sets each row's across: the hardware facts in which the
// hosts of its two runs differ. decide makes such a row unknown: rounds
// sample one machine's noise, not a change of machine (docs/comparing.md).
func acrossHosts(t *Table, bs, ns *side) {
	bh, nh := hostsOf(bs), hostsOf(ns)
	for i := range t.Rows {
		r := &t.Rows[i]
		r.across = hardwareDiff(bh[r.Base.Run], nh[r.New.Run])
	}
}

// warn adds the host, saturation and build warnings and notes of a Sets
// table.
func (t *Table) warn(bs, ns *side) {
	bh, nh := hostsOf(bs), hostsOf(ns)
	bf, nf := filesOf(bs), filesOf(ns)
	seen := map[[2]string]bool{}
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
		if d := provenanceDiff(bf[pair[0]], nf[pair[1]]); d != "" {
			t.Notes = append(t.Notes, fmt.Sprintf("provenance differs (%s run %s, %s run %s): %s", t.Base.Name, pair[0], t.New.Name, pair[1], d))
		}
		b, n := bh[pair[0]], nh[pair[1]]
		if d := hostDiff(b, n); d != "" {
			what := "hosts differ"
			if hardwareDiff(b, n) != "" {
				what = "hosts differ, rows unknown"
			}
			t.Warnings = append(t.Warnings, fmt.Sprintf("%s (%s run %s, %s run %s): %s", what, t.Base.Name, pair[0], t.New.Name, pair[1], d))
		} else if b.Hostname != n.Hostname {
			t.Notes = append(t.Notes, fmt.Sprintf("hostnames differ (%s run %s on %q, %s run %s on %q), hardware the same",
				t.Base.Name, pair[0], b.Hostname, t.New.Name, pair[1], n.Hostname))
		}
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
			r.Base.Name, model.Label(r.Test, r.N), strings.Join(sides, " and ")))
	}
}

// hardwareDiff names the facts in which a and b differ that make their
// figures incomparable: cpu_model, logical_cpus, arch, runner; "" when
// none do.
func hardwareDiff(a, b probe.Host) string {
	var d []string
	if a.CPUModel != b.CPUModel {
		d = append(d, fmt.Sprintf("cpu_model %q vs %q", a.CPUModel, b.CPUModel))
	}
	if a.LogicalCPUs != b.LogicalCPUs {
		d = append(d, fmt.Sprintf("logical_cpus %d vs %d", a.LogicalCPUs, b.LogicalCPUs))
	}
	if a.Arch != b.Arch {
		d = append(d, fmt.Sprintf("arch %q vs %q", a.Arch, b.Arch))
	}
	if a.Runner != b.Runner {
		d = append(d, fmt.Sprintf("runner %q vs %q", a.Runner, b.Runner))
	}
	return strings.Join(d, "; ")
}

// hostDiff is hardwareDiff plus memory_bytes, which only warns (a VM's
// reported total varies by a few MB between boots).
func hostDiff(a, b probe.Host) string {
	d := hardwareDiff(a, b)
	if a.MemoryBytes != b.MemoryBytes {
		m := fmt.Sprintf("memory_bytes %d vs %d", a.MemoryBytes, b.MemoryBytes)
		if d == "" {
			return m
		}
		return d + "; " + m
	}
	return d
}

// variantLabel is a row key's variant as notes spell it: "nextjs/default",
// with " (run L)" for a reference keyed by run.
func variantLabel(k sideKey) string {
	if k.Run != "" {
		return k.ID.String() + " (run " + k.Run + ")"
	}
	return k.ID.String()
}

package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/ratio"
	"github.com/tfbench/tfbench/harness/report"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/target"
)

// markdown is --markdown on paths: the page writeMarkdown makes, on stdout;
// exit 0 once written, 2 on bad usage or an unreadable file.
func markdown(paths []string, stdout, stderr io.Writer) int {
	if slices.ContainsFunc(paths, func(p string) bool { return strings.HasPrefix(p, "-") }) {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	var files []*results.File
	for _, p := range paths {
		f, err := results.Read(p)
		if err != nil {
			fmt.Fprintln(stderr, "engine-ratios:", err)
			return 2
		}
		files = append(files, f)
	}
	var b strings.Builder
	if err := writeMarkdown(&b, files, compare.DefaultOptions()); err != nil {
		fmt.Fprintln(stderr, "engine-ratios:", err)
		return 2
	}
	io.WriteString(stdout, b.String())
	return 0
}

// writeMarkdown writes the engine's page from files (one run each, in
// order): engine/pool's peak RPS against go-stdlib and node-http (and
// engine/serialized when a run has it) per test of every run, then each of
// target.EngineTargets judged on the first run whose suite holds all its
// tests (else the first holding any, else the first run).
func writeMarkdown(w io.Writer, files []*results.File, o compare.Options) error {
	var b strings.Builder
	b.WriteString("# The render engine against go-stdlib and node-http\n\n")
	// The provenance line every published page opens with: one sentence
	// per run (report.Provenance).
	var prov []string
	for _, f := range files {
		prov = append(prov, report.Provenance(&results.Set{Runs: []results.Run{{File: f}}}))
	}
	fmt.Fprintf(&b, "%s\n\n", strings.Join(prov, " "))
	var from []string
	for _, f := range files {
		var tests []string
		for _, t := range f.Suite.Tests {
			tests = append(tests, t.Name)
		}
		rounds := fmt.Sprintf("%d rounds", f.Suite.Rounds)
		if f.Suite.Rounds == 1 {
			rounds = "1 round"
		}
		from = append(from, fmt.Sprintf("run `%s` (suite %s, %s, commit %s: %s)", f.RunID, f.Suite.Name, rounds, sourceText(f), strings.Join(tests, ", ")))
	}
	fmt.Fprintf(&b, "engine/pool against the reference go-stdlib and the Node floor node-http, from %s. `tools/engine-ratios --markdown` wrote this page.\n\n", joinAnd(from))
	for _, f := range files {
		if !f.Host.Pinned() {
			fmt.Fprintf(&b, "CPU sets of run `%s`: %s. The targets are per core: not met on this run, whatever its rows say.\n\n", f.RunID, probe.NotPinned)
		}
	}

	cols := []model.ID{enginePool, model.Reference, nodeHTTP}
	serialized := model.ID{Framework: "engine", Variant: "serialized"}
	for _, f := range files {
		if slices.ContainsFunc(f.Frameworks, func(x results.Framework) bool { return x.ID() == serialized }) {
			cols = []model.ID{enginePool, serialized, model.Reference, nodeHTTP}
			break
		}
	}
	b.WriteString("## Peak RPS and ratios\n\n")
	fmt.Fprintf(&b, "Peak RPS: the median over rounds at each variant's own peak level, in requests/s, with its min–max over those rounds; ÷: %s's peak over the other's, with the min–max of the ratio taken within each round (rounds are interleaved); CPU ms/req: %s's server CPU time per request at its peak, median over rounds; —: no peak (not measured, or no level passed the gate in every round).\n\n", enginePool, enginePool)
	head := []string{"test"}
	align := []string{":--"}
	for _, c := range cols {
		head, align = append(head, c.String()), append(align, "--:")
	}
	for _, c := range cols[1:] {
		head, align = append(head, "÷ "+c.String()), append(align, "--:")
	}
	head, align = append(head, "CPU ms/req"), append(align, "--:")
	fmt.Fprintf(&b, "| %s |\n|%s|\n", strings.Join(head, " | "), strings.Join(align, "|"))
	for _, f := range files {
		for _, r := range ratio.Table(f) {
			line := []string{model.Label(r.Test, r.N)}
			for _, c := range cols {
				line = append(line, cellText(r.Cells[c]))
			}
			for _, c := range cols[1:] {
				line = append(line, ratioText(r.Cells[cols[0]], r.Cells[c]))
			}
			cpu := "—"
			if c := r.Cells[cols[0]]; c.OK {
				cpu = fmt.Sprintf("%.3f", c.CPUms())
			}
			fmt.Fprintf(&b, "| %s |\n", strings.Join(append(line, cpu), " | "))
		}
	}

	b.WriteString("\n## Targets\n\n")
	fmt.Fprintf(&b, "Each target is judged on the run that holds its tests, by compare's rank test: two-sided Mann-Whitney U over the per-round values at each variant's own peak level, Holm–Bonferroni within each target, α = %g, min change %g%%. A row is met when faster, or same with the ratio ≥ 1.00× (p99: below 1.00×; p99 at each level: at or below 1.00×); not shown when same otherwise; missed when slower; unknown without a verdict. %s A target is met when every row is, not met when a row is missed or not shown, unknown otherwise. %s %s\n\n", o.Alpha, o.MinChange*100, target.MinRuleText, target.ProbeRuleText, target.LevelRuleText)
	var few []string
	for _, f := range files {
		if f.Suite.Rounds < compare.MinRounds {
			few = append(few, fmt.Sprintf("run `%s` has %d", f.RunID, f.Suite.Rounds))
		}
	}
	if len(few) > 0 {
		fmt.Fprintf(&b, "The rank test needs %d rounds a side; %s, too few for any verdict. `go tool task bench:engine` measures the engine in %d rounds and judges the targets there.\n\n", compare.MinRounds, joinAnd(few), compare.MinRounds)
	}
	counts := map[string]int{}
	for _, t := range target.EngineTargets {
		f := fileFor(t, files)
		rs, err := target.Judge(f, []target.Target{t}, o)
		if err != nil {
			return err
		}
		r := rs[0]
		st := standing(r)
		counts[strings.SplitN(st, " (", 2)[0]]++
		unit := target.Unit(r.Target)
		tested := 0
		for _, x := range r.Rows {
			if x.Tested {
				tested++
			}
		}
		fmt.Fprintf(&b, "### %s: %s\n\n", r.Name, st)
		fmt.Fprintf(&b, "Run `%s`; %s; medians over rounds with their min–max; Holm over the %d tested rows of %d.", f.RunID, unit, tested, len(r.Rows))
		if r.Limit != "" {
			fmt.Fprintf(&b, " No verdict possible: %s.", r.Limit)
		}
		b.WriteString("\n\n")
		fmt.Fprintf(&b, "| test | %s | %s | ratio | change | p | p (Holm) | verdict | target |\n|:--|--:|--:|--:|--:|--:|--:|:--|:--|\n", r.Of, r.Over)
		for _, x := range r.Rows {
			ratioT, change, p, ph := "—", "—", "—", "—"
			if x.Ratio > 0 {
				ratioT, change = fmt.Sprintf("%.2f×", x.Ratio), fmt.Sprintf("%+.1f%%", x.Change*100)
			}
			if x.Tested {
				p, ph = target.PText(x.P), target.PText(x.PHolm)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", x.Label(),
				valueText(r.Metric, x.OfMedian, x.OfValues), valueText(r.Metric, x.OverMedian, x.OverValues),
				ratioT, change, p, ph, x.Verdict, rowText(r, x))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%d of %d targets met, %d not met, %d unknown.\n", counts["met"], len(target.EngineTargets), counts["not met"], counts["unknown"])
	_, err := io.WriteString(w, b.String())
	return err
}

// fileFor is the run a target is judged on (writeMarkdown).
func fileFor(t target.Target, files []*results.File) *results.File {
	has := func(f *results.File, name string) bool {
		return slices.ContainsFunc(f.Suite.Tests, func(x results.Test) bool { return x.Name == name })
	}
	for _, f := range files {
		if !slices.ContainsFunc(t.Tests, func(name string) bool { return !has(f, name) }) {
			return f
		}
	}
	for _, f := range files {
		if slices.ContainsFunc(t.Tests, func(name string) bool { return has(f, name) }) {
			return f
		}
	}
	return files[0]
}

// rowText is a row's target cell: its status, and for an unknown row why
// ("unknown: 3 rounds, the rank test needs 5" when a side has too few).
func rowText(r target.Result, x target.Row) string {
	if x.Status != target.Unknown {
		return string(x.Status)
	}
	if x.OfRounds > 0 && x.OverRounds > 0 && min(x.OfRounds, x.OverRounds) < compare.MinRounds {
		return "unknown: " + roundsText(x.OfRounds, x.OverRounds)
	}
	if x.Why != "" && x.Why != r.Limit {
		return "unknown: " + x.Why
	}
	return "unknown"
}

// roundsText says a row had too few rounds for the rank test.
func roundsText(of, over int) string {
	if of == over {
		return fmt.Sprintf("%d rounds, the rank test needs %d", of, compare.MinRounds)
	}
	return fmt.Sprintf("%d and %d rounds, the rank test needs %d a side", of, over, compare.MinRounds)
}

// standing is a target's verdict: "met"; "not met (…)" when a row is
// missed or not shown, with the rows' counts; else "unknown (…)": too few
// rounds when a row had them, else the one reason its unknown rows share,
// else the counts.
func standing(r target.Result) string {
	if r.Met() {
		return "met"
	}
	var counts []string
	for _, s := range []target.Status{target.Met, target.NotShown, target.Missed, target.Unknown} {
		if n := r.Count(s); n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n, s))
		}
	}
	if r.Count(target.Missed)+r.Count(target.NotShown) > 0 {
		return "not met (" + strings.Join(counts, ", ") + ")"
	}
	// Too few rounds leaves every row without a verdict: that is the
	// reason, whatever else a row lacks.
	var reasons []string
	for _, x := range r.Rows {
		if x.Status != target.Unknown {
			continue
		}
		if x.OfRounds > 0 && x.OverRounds > 0 && min(x.OfRounds, x.OverRounds) < compare.MinRounds {
			return "unknown (" + roundsText(x.OfRounds, x.OverRounds) + ")"
		}
		if why := strings.TrimPrefix(rowText(r, x), "unknown: "); !slices.Contains(reasons, why) {
			reasons = append(reasons, why)
		}
	}
	if len(reasons) == 1 && reasons[0] != "unknown" && r.Count(target.Met) == 0 {
		return "unknown (" + reasons[0] + ")"
	}
	return "unknown (" + strings.Join(counts, ", ") + ")"
}

// sourceText is a run's commit, 12 digits, "+dirty" for a dirty tree;
// "unknown" when it records none.
func sourceText(f *results.File) string {
	if f.Source == nil || f.Source.Commit == "" {
		return "unknown"
	}
	c := f.Source.Commit
	if len(c) > 12 {
		c = c[:12]
	}
	if f.Source.Dirty {
		c += "+dirty"
	}
	return "`" + c + "`"
}

// cellText is a peak with its min–max over rounds: "60000 (55000–62000)";
// "—" without a peak.
func cellText(r model.Row) string {
	if !r.OK {
		return "—"
	}
	return fmt.Sprintf("%s (%s–%s)", ratio.RPSText(r.Peak), ratio.RPSText(r.MinRPS), ratio.RPSText(r.MaxRPS))
}

// valueText is a target row's median (target.Value) with its min–max over
// the row's per-round values vs: RPS, or p99 in ms for a P99 or ProbeP99
// target.
func valueText(m target.Metric, median float64, vs []float64) string {
	n := len(vs)
	v := target.Value(m, median, n)
	if n == 0 {
		return v
	}
	return fmt.Sprintf("%s (%s–%s)", v, strings.TrimSuffix(target.Value(m, slices.Min(vs), n), " ms"), target.Value(m, slices.Max(vs), n))
}

// ratioText is x's ratio to y (model.Row.RatioTo) with the min–max of the
// per-round ratio (RoundRatios): "0.91× (0.85–0.97)"; "—" without one.
func ratioText(x, y model.Row) string {
	v, ok := x.RatioTo(y)
	if !ok {
		return "—"
	}
	rs, _ := x.RoundRatios(y)
	if len(rs) == 0 {
		return fmt.Sprintf("%.2f×", v)
	}
	return fmt.Sprintf("%.2f× (%.2f–%.2f)", v, slices.Min(rs), slices.Max(rs))
}

// joinAnd joins items as a sentence: "a", "a and b", "a, b and c".
func joinAnd(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

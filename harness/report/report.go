// Package report renders a results file as markdown for a docs site: a
// machine and method header, the frameworks that ran, and per test the peak
// RPS, its range, level, latency, server cost and verification verdict.
// A number appears only for a test that passed verification (pass or warn)
// at a level whose every round passed the gate (docs/design.md, Peak); else
// "—" and the reason.
package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/montanaflynn/stats"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/texttab"
)

// Markdown writes the whole report for f to w.
func Markdown(w io.Writer, f *results.File) error {
	b := &builder{w: w, f: f, peaks: f.Peaks()}
	var ts []TestTable
	for _, t := range f.Suite.Tests {
		rows, _ := b.rowsFor(t.Name, headlineOf(t))
		ts = append(ts, TestTable{Test: t, Rows: rows})
	}
	b.header(spreadText(spreadOf(ts, ""), ""))
	b.frameworks()
	for _, t := range f.Suite.Tests {
		if t.Type == model.Coldstart {
			b.coldstart(t) // coldstart.go
			continue
		}
		b.test(t)
	}
	return b.err
}

type builder struct {
	w     io.Writer
	f     *results.File
	peaks *model.Peaks
	err   error
}

func (b *builder) printf(format string, a ...any) {
	if b.err == nil {
		_, b.err = fmt.Fprintf(b.w, format, a...)
	}
}

func (b *builder) table(header []string, rows [][]string, align []texttab.Align) {
	if b.err == nil {
		b.err = texttab.Markdown(b.w, texttab.Table{Header: header, Rows: rows, Align: align})
	}
}

// header writes the title, the provenance line, warn (the spread warning,
// when set), the command and the machine and method table.
func (b *builder) header(warn string) {
	f := b.f
	b.printf("# tfbench: %s\n\n", f.Suite.Name)
	b.printf("%s Status: %s.\n\n", Provenance(&results.Set{Runs: []results.Run{{File: f}}}), f.Status)
	if warn != "" {
		b.printf("%s\n\n", warn)
	}
	if len(f.Command) > 0 {
		b.printf("Command: `%s`\n\n", strings.Join(f.Command, " "))
		if subset := subsetFlags(f.Command); subset != "" {
			b.printf("**A subset:** this run was limited with %s; frameworks or tests it left out are not in this report.\n\n", subset)
		}
	}
	b.printf("%s", shardText(f))
	b.printf("## Machine and method\n\n")
	rows := machineRows(f)
	b.table([]string{"What", "Value"}, rows, nil)
	b.printf("\n")
}

// machineRows are the "What | Value" rows that describe f's machine and
// method: CPU, memory, OS, CPU sets, suite, settings, gate and definitions.
func machineRows(f *results.File) [][]string {
	h := f.Host
	cpus := fmt.Sprintf("%s, %d logical CPUs", orDash(h.CPUModel), h.LogicalCPUs)
	sets := fmt.Sprintf("load generator on CPU %s, servers on CPU %s", h.GeneratorCPUs, h.ServerCPUs)
	switch {
	case !h.Pinned():
		sets = probe.NotPinned + " (no CPU affinity on " + orDash(h.OS) + "); RPS is not per core"
	case !h.Disjoint:
		sets += " (not disjoint: too few CPUs, the generator competes with the server)"
	}
	if f.TwoHosts() {
		return append(twoHostRows(f), methodRows(f, h)...)
	}
	rows := [][]string{
		{"CPU", cpus},
		{"Memory", fmt.Sprintf("%.1f GiB", float64(h.MemoryBytes)/(1<<30))},
		{"OS, kernel", strings.TrimSpace(h.OS + ", " + h.Kernel + " " + h.Arch)},
	}
	if h.Virtual != "" {
		rows = append(rows, []string{"Virtualization", h.Virtual})
	}
	rows = append(rows, []string{"Harness", harnessText(f, h)}, []string{"CPU sets", sets})
	if t := topologyText(h); t != "" {
		rows = append(rows, []string{"CPU topology", t})
	}
	if s := f.Source; s != nil {
		rows = append(rows, []string{"Source", sourceText(*s)})
	}
	return append(rows, methodRows(f, h)...)
}

// harnessText is the harness's Go version and, when recorded, tfbench's own
// (its first 12 characters, "+dirty" kept).
func harnessText(f *results.File, h probe.Host) string {
	if f.Tfbench == "" {
		return h.GoVersion
	}
	v, dirty := strings.CutSuffix(f.Tfbench, "+dirty")
	v = short(v)
	if dirty {
		v += "+dirty"
	}
	return h.GoVersion + ", tfbench " + v
}

// topologyText describes the pinned CPUs' cores, governors and boost state
// (probe.ReadTopology): "CPU 0 (generator): SMT siblings 0,2, governor
// performance; …; boost on"; empty when nothing was read.
func topologyText(h probe.Host) string {
	var parts []string
	for _, c := range h.CPUs {
		var facts []string
		if c.Siblings != "" {
			facts = append(facts, "SMT siblings "+c.Siblings)
		}
		if c.Governor != "" {
			facts = append(facts, "governor "+c.Governor)
		}
		if len(facts) > 0 {
			parts = append(parts, fmt.Sprintf("CPU %d (%s): %s", c.ID, c.Role, strings.Join(facts, ", ")))
		}
	}
	if h.Boost != "" {
		parts = append(parts, "boost "+h.Boost)
	}
	if h.SharedCores {
		parts = append(parts, "**the generator and a server share a core: figures are per SMT thread, not per core**")
	}
	return strings.Join(parts, "; ")
}

// sourceText is the commit a run measured: the full SHA, "+dirty" and the
// diff's hash (its first 12 hex digits) when the tree had changes.
func sourceText(s results.Source) string {
	if !s.Dirty {
		return "`" + s.Commit + "`"
	}
	out := "`" + s.Commit + "` +dirty"
	if s.DiffSHA256 != "" {
		out += fmt.Sprintf(" (diff sha256 %s)", short(s.DiffSHA256))
	}
	return out
}

// twoHostRows describe a two-host run's machines (issue 18): each host's
// CPU, memory and OS, the network path between them, whole-machine CPU
// sets.
func twoHostRows(f *results.File) [][]string {
	g, s := f.Host, *f.ServerHost
	machine := func(h probe.Host) string {
		return fmt.Sprintf("%s: %s, %d logical CPUs, %.1f GiB; %s", orDash(h.Hostname), orDash(h.CPUModel), h.LogicalCPUs, float64(h.MemoryBytes)/(1<<30), strings.TrimSpace(h.OS+", "+h.Kernel+" "+h.Arch))
	}
	net := "not measured"
	if n := f.Network; n != nil {
		net = fmt.Sprintf("%s, address %s: RTT %.3f ms (median TCP connect), link %.0f MB/s measured before the first sample; a sample whose response bodies reach 90%% of it fails the gate as a harness fault", n.Transport, n.Address, n.RTT, n.LinkBytes/1e6)
	}
	return [][]string{
		{"Hosts", "two hosts: the load generator on one machine, the servers on another"},
		{"Generator host", machine(g)},
		{"Server host", machine(s)},
		{"Network", net},
		{"Harness", g.GoVersion},
		{"CPU sets", cpuSets(g, s)},
	}
}

// cpuSets is a two-host run's CPU sets row: whole machines, or shared
// when the "server host" was the generator's machine (Disjoint false).
func cpuSets(g, s probe.Host) string {
	if !g.Disjoint {
		return fmt.Sprintf("one machine: the server host is the generator's, so the load generator and the servers share CPU %s", orDash(g.GeneratorCPUs))
	}
	return fmt.Sprintf("whole machines: load generator on CPU %s of its host, servers on CPU %s of theirs", orDash(g.GeneratorCPUs), orDash(s.ServerCPUs))
}

// methodRows are the rows after the machine's: suite, settings, gate and
// definitions.
func methodRows(f *results.File, h probe.Host) [][]string {
	if f.TwoHosts() {
		h = *f.ServerHost
	}
	return [][]string{
		{"Suite", fmt.Sprintf("`%s` (%s, sha256 %s), %s, frameworks shuffled per round", f.Suite.Name, f.Suite.File, short(f.Suite.Hash), plural(f.Suite.Rounds, "round"))},
		{"Tests", testSettings(sampledTests(f.Suite.Tests))},
		{"Gate", gateText(sampledTests(f.Suite.Tests))},
		{"Checks", checksText(f.MethodVersion, f.Samples)},
		{"Window", windowText(f.Suite.Tests)},
		{"Peak", "per level, the median RPS over rounds (a level with any failed round is not eligible); the peak is the highest such median; range = min–max over rounds at that level; a level above it that failed only on a saturated generator CPU set shows beside it as a lower bound, \"≥ N at c=…, generator-bound\""},
		{"Latency", "p50/p99 at the peak level from the rounds' merged HDR histograms (µs resolution, 3 significant digits), and p99 at every level (the median of the rounds' p99); a closed loop at saturation, so latency restates throughput"},
		{"Medians", "over rounds, interpolated like NumPy's default (montanaflynn/stats)"},
		{"Server cost", "CPU time of the server's process tree during the window per response (ms); RSS = " + rssDefinition(h.OS)},
		{"Method", fmt.Sprintf("method version %d, results schema %d", f.MethodVersion, f.SchemaVersion)},
	}
}

// windowText is the report's Window row: which responses a window counts
// (docs/method.md, Window), per the suite's sample_warmup.
func windowText(tests []results.Test) string {
	for _, t := range tests {
		if t.SampleWarmup > 0 {
			return "a closed-loop window opens on load already running on its connections (sample_warmup) and counts every response completed in it, whenever sent; otherwise only responses to requests sent and answered inside the window count; RPS = counted responses / window"
		}
	}
	return "only responses to requests sent and answered inside the window count; RPS = counted responses / window"
}

// checksText says how many of the run's counted responses were checked under
// load against their test's rule (method version 6 checks every one, engine
// raw; engine hey checks none; before, each connection's first and 1 in 100),
// and how many samples chose theirs at random.
func checksText(method int, samples []model.Sample) string {
	var responses, checked, failed int64
	random := 0
	for _, s := range samples {
		responses += s.Responses
		checked += s.Checked
		failed += s.Errors["check"]
		if s.CheckSeed != 0 {
			random++
		}
	}
	if method < 6 {
		return fmt.Sprintf("each connection's first response and 1 in 100 after it (method version %d)", method)
	}
	var b strings.Builder
	if checked >= responses {
		fmt.Fprintf(&b, "every counted response checked under load against its test's rule (%s)", texttab.Thousands(float64(responses)))
	} else {
		fmt.Fprintf(&b, "%s of %s counted responses checked under load against their test's rule (%s; engine hey checks none)",
			texttab.Thousands(float64(checked)), texttab.Thousands(float64(responses)), checkedShare(model.Sample{Responses: responses, Checked: checked}))
	}
	if random > 0 {
		fmt.Fprintf(&b, "; %s checked a random share (its seed in results.json)", plural(random, "sample"))
	}
	fmt.Fprintf(&b, "; %s failed", texttab.Thousands(float64(failed)))
	return b.String()
}

// rssDefinition is what the RSS column means on a host whose OS is os
// (probe.Host.OS): the kernel's high-water mark on Linux, sampled on macOS.
func rssDefinition(os string) string {
	if strings.HasPrefix(os, "darwin") {
		return "the highest resident memory of the tree sampled before and after each window (macOS keeps no high-water mark; a peak between samples is missed)"
	}
	return "peak resident memory (VmHWM) of the tree"
}

func (b *builder) frameworks() {
	b.printf("## Frameworks\n\n")
	b.table(frameworksHeader, frameworkRows(b.f), nil)
	b.printf("\n")
}

var frameworksHeader = []string{"Framework", "Variant", "Versions (lockfile)", "Runtime", "Rendering", "Start", "Status"}

// frameworkRows are one row per framework variant of f: name, variant,
// locked versions, runtime, rendering model, start command, status.
func frameworkRows(f *results.File) [][]string {
	var rows [][]string
	for _, fw := range f.Frameworks {
		status := "ran"
		if fw.Error != "" {
			status = "not measured: " + fw.Error
		}
		rows = append(rows, []string{fw.Name, fw.Variant, orDash(fw.VersionText()), fw.Runtime, fw.Rendering, "`" + fw.Start + "`", status})
	}
	return rows
}

// rowsFor returns the rows of test at N in rank order (Tables' order) and
// how they were ranked.
func (b *builder) rowsFor(test string, n int) ([]Row, Ranking) {
	rows := rowsAt(b.f.RunID, b.f, b.peaks, test, n)
	g := rank(rows, false)
	return rows, g
}

func (b *builder) test(t results.Test) {
	b.printf("## %s\n\n", t.Name)
	b.printf("%s.\n\n", testText(t))
	if t.Type == model.Page {
		b.pageTest(t)
		return
	}
	rows, g := b.rowsFor(t.Name, suite.HeadlineOf(t.Queries))
	header := []string{"Framework", "Variant", "Peak RPS", "Rank", "Range (min–max)", "Connections", "p50 ms", "p99 ms", "CPU ms/req", "RSS MB"}
	align := []texttab.Align{texttab.Left, texttab.Left, texttab.Right, texttab.Right, texttab.Right, texttab.Right, texttab.Right, texttab.Right, texttab.Right, texttab.Right}
	header = append(header, MemoryColumns...)
	align = append(align, texttab.Right, texttab.Right, texttab.Right, texttab.Right)
	if t.Type == "fortunes" {
		header = append(header, "Page bytes")
		align = append(align, texttab.Right)
	}
	header = append(header, "Verification")
	align = append(align, texttab.Left)
	var lines [][]string
	var notes []string
	for _, r := range rows {
		lines = append(lines, cells(r, t))
		for _, note := range r.Notes {
			notes = append(notes, fmt.Sprintf("- %s (%s): %s", inline(r.Framework), inline(r.Variant), noteText(note)))
		}
	}
	b.table(header, lines, align)
	b.printf("\n%s\n\n", rankingText(g))
	b.printf("%s\n\n", memoryLegend)
	if header, lines, align := levelTable(rows, false, msf); header != nil {
		b.printf("%s\n\n", levelLegend)
		b.table(header, lines, align)
		b.printf("\n")
	}
	for _, n := range leakNotes(b.f.Samples, t.Name) {
		notes = append(notes, "- "+n)
	}
	if len(t.Queries) > 1 {
		b.byN(t)
	}
	if t.Rate > 0 {
		notes = append(notes, b.rateTable(t)...)
	}
	if len(notes) > 0 {
		b.printf("Notes:\n\n%s\n\n", strings.Join(notes, "\n"))
	}
	if t.Type == model.Stream {
		b.streamTimeline(t) // stream.go
	}
}

// pageTest writes the rest of a page test's section: how it ran, the peak
// RPS by N, then per size its closed-loop and constant-rate tables, and the
// notes.
func (b *builder) pageTest(t results.Test) {
	if text := pageText(t, probePathOf([]*results.File{b.f}, t.Name)); text != "" {
		b.printf("%s\n\n", text)
	}
	b.printf("%s %s\n\n", pageLegend, memoryLegend)
	if len(t.Queries) > 1 {
		b.byN(t)
	}
	tt := TestTable{Test: t, N: headlineOf(t), Sizes: sizesOf(b.f.RunID, b.f, b.peaks, t)}
	notes := b.pageSizes(tt, func(header []string, rows [][]string, align []texttab.Align) {
		b.table(header, rows, align)
		b.printf("\n")
	}, func(s string) string { return s })
	leaks := leakNotes(b.f.Samples, t.Name)
	b.leaks(leaks, notes)
	if notes || len(leaks) > 0 {
		b.printf("\n")
	}
}

// testText describes a test's settings in one sentence (without the final
// period): type, path, connections, pipeline depth, N and the headline N.
func testText(t results.Test) string {
	desc := fmt.Sprintf("Type `%s`, `%s`, %s connections", t.Type, t.Path, joinInts(t.Concurrency))
	if t.Pipeline > 1 {
		desc += fmt.Sprintf(", pipeline depth %d", t.Pipeline)
	}
	if len(t.Queries) > 0 {
		desc += fmt.Sprintf(", N = %s; the headline is N = %d", joinInts(t.Queries), suite.HeadlineOf(t.Queries))
	}
	return desc
}

// cells renders one row of the markdown report's test table.
func cells(r Row, t results.Test) []string {
	dash := "—"
	line := []string{r.Framework, r.Variant}
	if !r.OK {
		line = append(line, withBound(r, dash, texttab.Thousands), dash, boundRange(r, texttab.Thousands), dash, dash, dash, dash, dash)
		line = append(line, r.Memory.cells(false)...)
	} else {
		line = append(line,
			withBound(r, texttab.Thousands(r.PeakRPS), texttab.Thousands),
			rankCell(r),
			texttab.Thousands(r.MinRPS)+"–"+texttab.Thousands(r.MaxRPS),
			strconv.Itoa(r.Connections),
			msf(r.P50ms), msf(r.P99ms),
			fmt.Sprintf("%.3f", r.CPUms),
			mb(r.RSSBytes),
		)
		line = append(line, r.Memory.cells(true)...)
	}
	if t.Type == "fortunes" {
		if r.PageBytes > 0 {
			line = append(line, strconv.Itoa(r.PageBytes))
		} else {
			line = append(line, dash)
		}
	}
	return append(line, string(r.Verification))
}

// byN writes the peak RPS of every N for a queries or updates test (a page
// test's sizes), each with its min–max over rounds.
func (b *builder) byN(t results.Test) {
	b.printf("Peak RPS by N (min–max over the rounds at the peak level):\n\n")
	header := []string{"Framework", "Variant"}
	align := []texttab.Align{texttab.Left, texttab.Left}
	for _, n := range t.Queries {
		header = append(header, fmt.Sprintf("N = %d", n))
		align = append(align, texttab.Right)
	}
	byN := make([][]Row, len(t.Queries))
	for i, n := range t.Queries {
		byN[i], _ = b.rowsFor(t.Name, n)
	}
	var rows [][]string
	format := texttab.Thousands
	if t.Type == model.Page {
		format = texttab.RPS
	}
	head, _ := b.rowsFor(t.Name, headlineOf(t))
	for _, r := range head {
		line := []string{r.Framework, r.Variant}
		for i := range t.Queries {
			cell := "—"
			for _, rn := range byN[i] {
				if rn.Framework == r.Framework && rn.Variant == r.Variant && (rn.OK || rn.Bound != nil) {
					cell = withBound(rn, peakCell(rn, format), format)
				}
			}
			line = append(line, cell)
		}
		rows = append(rows, line)
	}
	b.table(header, rows, align)
	b.printf("\n")
}

// peakCell writes a row's peak RPS with its min–max over rounds, both
// ends always: "78,100 (74,012–85,990)", "200 (200–200)".
func peakCell(r Row, format func(float64) string) string {
	return format(r.PeakRPS) + " (" + format(r.MinRPS) + "–" + format(r.MaxRPS) + ")"
}

// rateTable writes the latency of every framework variant at the test's
// common constant rate (wrk2's method: corrected for coordinated omission),
// merged over rounds, and returns the notes that explain its cells.
func (b *builder) rateTable(t results.Test) []string {
	b.printf("Latency at a constant %g requests/s over %d connections (from each request's intended send time; merged over rounds):\n\n", t.Rate, t.RateConnections)
	header := []string{"Framework", "Variant", "Achieved RPS", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms", "p99 uncorrected ms"}
	align := []texttab.Align{texttab.Left, texttab.Left, texttab.Right, texttab.Right, texttab.Right, texttab.Right, texttab.Right, texttab.Right, texttab.Right}
	var rows [][]string
	var notes []string
	for _, fw := range b.f.Frameworks {
		var ss []model.Sample
		for _, s := range b.f.Samples {
			if s.Rate > 0 && s.Framework == fw.Name && s.Variant == fw.Variant && s.Test == t.Name {
				ss = append(ss, s)
			}
		}
		if len(ss) == 0 {
			continue
		}
		line := []string{fw.Name, fw.Variant}
		var rps []float64
		failed := ""
		for _, s := range ss {
			rps = append(rps, s.RPS)
			if !s.Gate.Passed && failed == "" {
				failed = fmt.Sprintf("round %d: %s", s.Round, s.Gate.Reason)
			}
		}
		achieved, _ := stats.Median(rps)
		h := model.MergeHistograms(ss, func(s model.Sample) []byte { return s.Histogram })
		u := model.MergeHistograms(ss, func(s model.Sample) []byte { return s.UncorrectedHistogram })
		if failed != "" || h == nil || u == nil {
			if failed == "" {
				failed = "no latency recorded"
			}
			rows = append(rows, append(line, "—", "—", "—", "—", "—", "—", "—"))
			notes = append(notes, fmt.Sprintf("- %s (%s): constant rate: %s", fw.Name, fw.Variant, failed))
			continue
		}
		if achieved < 0.95*t.Rate {
			notes = append(notes, fmt.Sprintf("- %s (%s): sustained only %s of the %g requests/s asked for: its latency grows with the backlog", fw.Name, fw.Variant, texttab.Thousands(achieved), t.Rate))
		}
		q := func(x *hdrhistogram.Histogram, p float64) string { return ms(x.ValueAtQuantile(p)) }
		rows = append(rows, append(line, texttab.Thousands(achieved), q(h, 50), q(h, 90), q(h, 99), q(h, 99.9), ms(h.Max()), q(u, 99)))
	}
	b.table(header, rows, align)
	b.printf("\n")
	return notes
}

func testSettings(ts []results.Test) string {
	if len(ts) == 0 {
		return "—"
	}
	t := ts[0]
	return fmt.Sprintf("%s measured per level and round, %s warmup per test and round at the highest level, %s timeout; levels per test below",
		secs(t.Duration), secs(t.Warmup), secs(t.Timeout))
}

func gateText(ts []results.Test) string {
	if len(ts) == 0 {
		return "—"
	}
	t := ts[0]
	return fmt.Sprintf("a sample counts when it has ≥ %d responses, no socket errors and ≥ %g%% status 200", t.MinResponses, 100*t.Gate)
}

func secs(s float64) string { return (time.Duration(s * float64(time.Second))).String() }

func ms(us int64) string {
	if us < 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f", float64(us)/1000)
}

// msf formats a latency in ms with two decimals; "—" when negative (none).
func msf(v float64) string {
	if v < 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f", v)
}

// mb formats bytes as MiB with one decimal, as the tables' "RSS MB".
func mb(b uint64) string { return fmt.Sprintf("%.1f", float64(b)/(1<<20)) }

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ", ")
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// plural writes "1 round", "3 rounds".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// subsetFlags returns the flags of a recorded command line that limit a
// run to some frameworks or tests ("`--frameworks nextjs`, `--tests json`"),
// or "" when it ran everything.
func subsetFlags(cmd []string) string {
	var out []string
	for i, a := range cmd {
		for _, f := range []string{"--frameworks", "-frameworks", "--tests", "-tests"} {
			switch {
			case a == f && i+1 < len(cmd):
				out = append(out, "`"+a+" "+cmd[i+1]+"`")
			case strings.HasPrefix(a, f+"="):
				out = append(out, "`"+a+"`")
			}
		}
	}
	return strings.Join(out, ", ")
}

// shardText is the paragraph that says a run measured one shard of its
// plan (results.File.Shard "I/N", bench --shard), or "" for the whole plan:
// "**Shard 2 of 8:** …", naming the reference every shard runs.
func shardText(f *results.File) string {
	sh, err := model.ParseShard(f.Shard)
	if err != nil {
		return ""
	}
	i, n := sh.I, sh.N
	return fmt.Sprintf("**Shard %d of %d:** this run measured one of %d slices of the plan's framework variants (`--shard %s`) and the reference %s; "+
		"`tfbench merge` of the %d shards' results gives the whole plan's tables.\n\n", i, n, n, f.Shard, model.Reference, n)
}

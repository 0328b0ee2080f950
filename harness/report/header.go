package report

// The report's header: title, provenance, the command and subset, the
// shard, and the machine and method table.

import (
	"fmt"
	"strings"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/texttab"
	"github.com/tfbench/tfbench/internal/words"
)

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
	cpus := fmt.Sprintf("%s, %d logical CPUs", words.OrDash(h.CPUModel), h.LogicalCPUs)
	sets := fmt.Sprintf("load generator on CPU %s, servers on CPU %s", h.GeneratorCPUs, h.ServerCPUs)
	switch {
	case !h.Pinned():
		sets = probe.NotPinned + " (no CPU affinity on " + words.OrDash(h.OS) + "); RPS is not per core"
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
	v = words.Commit(v)
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
		out += fmt.Sprintf(" (diff sha256 %s)", words.Commit(s.DiffSHA256))
	}
	return out
}

// twoHostRows describe a two-host run's machines (generator and servers on
// two hosts, --server-host): each host's CPU, memory and OS, the network
// path between them, whole-machine CPU sets.
func twoHostRows(f *results.File) [][]string {
	g, s := f.Host, *f.ServerHost
	machine := func(h probe.Host) string {
		return fmt.Sprintf("%s: %s, %d logical CPUs, %.1f GiB; %s", words.OrDash(h.Hostname), words.OrDash(h.CPUModel), h.LogicalCPUs, float64(h.MemoryBytes)/(1<<30), strings.TrimSpace(h.OS+", "+h.Kernel+" "+h.Arch))
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
		return fmt.Sprintf("one machine: the server host is the generator's, so the load generator and the servers share CPU %s", words.OrDash(g.GeneratorCPUs))
	}
	return fmt.Sprintf("whole machines: load generator on CPU %s of its host, servers on CPU %s of theirs", words.OrDash(g.GeneratorCPUs), words.OrDash(s.ServerCPUs))
}

// methodRows are the rows after the machine's: suite, settings, gate and
// definitions.
func methodRows(f *results.File, h probe.Host) [][]string {
	if f.TwoHosts() {
		h = *f.ServerHost
	}
	return [][]string{
		{"Suite", fmt.Sprintf("`%s` (%s, sha256 %s), %s, frameworks shuffled per round", f.Suite.Name, f.Suite.File, words.Commit(f.Suite.Hash), words.Plural(f.Suite.Rounds, "round"))},
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
		fmt.Fprintf(&b, "; %s checked a random share (its seed in results.json)", words.Plural(random, "sample"))
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

package loadgencmp

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"

	"github.com/tfbench/tfbench/harness/internal/cpuset"
)

// The targets (issue 3, item 2), ours/wrk ratios of medians.
const (
	// TargetRPSRatio is the lowest tfbench/wrk RPS ratio that meets the
	// target: RPS >= 0.95 × wrk's.
	TargetRPSRatio = 0.95
	// TargetCPURatio is the highest tfbench/wrk ratio of CPU seconds per
	// request that meets the target: no more CPU per request than wrk.
	TargetCPURatio = 1.00
)

// Verdict is one cell's comparison: tfbench/wrk ratios of the medians and
// whether each meets its target.
type Verdict struct {
	RPSRatio float64 // median RPS, tfbench / wrk
	CPURatio float64 // median CPU s per request, tfbench / wrk
	RPSMet   bool    // RPSRatio >= TargetRPSRatio
	CPUMet   bool    // CPURatio <= TargetCPURatio
}

// Verdict compares c's medians. A cell without runs of either generator has
// NaN ratios and meets neither target.
func (c *Cell) Verdict() Verdict {
	ours, theirs := summaries(c.Tfbench), summaries(c.Wrk)
	v := Verdict{RPSRatio: math.NaN(), CPURatio: math.NaN()}
	if ours.rps.N == 0 || theirs.rps.N == 0 {
		return v
	}
	v.RPSRatio = ours.rps.Median / theirs.rps.Median
	v.CPURatio = ours.cpu.Median / theirs.cpu.Median
	v.RPSMet = v.RPSRatio >= TargetRPSRatio
	v.CPUMet = v.CPURatio <= TargetCPURatio
	return v
}

// runSummaries is one generator's runs of one cell, summarized.
type runSummaries struct {
	rps, cpu       Summary // requests/s; CPU s per 100,000 requests
	genUse, srvUse Summary // CPU use over the run's wall time, %: generator, server
	errors         int64
}

func summaries(runs []Run) runSummaries {
	var rps, cpu, gen, srv []float64
	var s runSummaries
	for _, r := range runs {
		rps = append(rps, r.RPS)
		cpu = append(cpu, r.CPUPer100k())
		if r.Wall > 0 {
			gen = append(gen, 100*r.CPU.Seconds()/r.Wall.Seconds())
			srv = append(srv, 100*r.ServerCPU.Seconds()/r.Wall.Seconds())
		}
		s.errors += r.Errors
	}
	s.rps, s.cpu, s.genUse, s.srvUse = Summarize(rps), Summarize(cpu), Summarize(gen), Summarize(srv)
	return s
}

// Write prints the comparison of cells as plain-text tables: per cell and
// generator the median and min–max range of RPS and of CPU seconds per
// 100,000 requests, the median CPU use of generator and server (% of one
// CPU over the run's wall time) and the errors; then per cell the
// tfbench/wrk ratios of the medians with PASS or MISS per target; then one
// line saying whether every cell meets both targets. It returns whether
// they all do, and w's first error.
func Write(w io.Writer, cfg Config, cells []*Cell) (bool, error) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "tfbench load vs wrk: %d interleaved rounds of %s per generator, setting and server; generator CPUs %s (wrk -t%d), server CPUs %s\n\n",
		cfg.Rounds, cfg.Duration, cpus(cfg.Generator), cfg.threads(), cpus(cfg.Server))
	fmt.Fprintln(tw, "setting\tserver\tgenerator\tRPS median\tRPS min–max\tCPU s/100k req median\tCPU s/100k req min–max\tgenerator CPU use\tserver CPU use\terrors")
	for _, c := range cells {
		for _, g := range []struct {
			name string
			runs []Run
		}{{Tfbench, c.Tfbench}, {Wrk, c.Wrk}} {
			s := summaries(g.runs)
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s–%s\t%.4f\t%.4f–%.4f\t%.0f%%\t%.0f%%\t%d\n",
				c.Setting, c.Server, g.name,
				thousands(s.rps.Median), thousands(s.rps.Min), thousands(s.rps.Max),
				s.cpu.Median, s.cpu.Min, s.cpu.Max, s.genUse.Median, s.srvUse.Median, s.errors)
		}
	}
	fmt.Fprintf(tw, "\nratios tfbench/wrk of the medians; targets: RPS ratio >= %.2f, CPU per request ratio <= %.2f\n", TargetRPSRatio, TargetCPURatio)
	fmt.Fprintln(tw, "setting\tserver\tRPS ratio\tRPS target\tCPU/request ratio\tCPU target")
	all, rpsMet, cpuMet := true, 0, 0
	for _, c := range cells {
		v := c.Verdict()
		fmt.Fprintf(tw, "%s\t%s\t%.3f\t%s\t%.3f\t%s\n", c.Setting, c.Server, v.RPSRatio, pass(v.RPSMet), v.CPURatio, pass(v.CPUMet))
		if v.RPSMet {
			rpsMet++
		}
		if v.CPUMet {
			cpuMet++
		}
		all = all && v.RPSMet && v.CPUMet
	}
	fmt.Fprintf(tw, "\ntargets: %s (RPS >= %.2f × wrk's met in %d of %d cells; CPU per request <= wrk's met in %d of %d cells)\n",
		pass(all), TargetRPSRatio, rpsMet, len(cells), cpuMet, len(cells))
	return all, tw.Flush()
}

// pass is PASS or MISS.
func pass(ok bool) string {
	if ok {
		return "PASS"
	}
	return "MISS"
}

// cpus formats a CPU set in the kernel's list format; "all (unpinned)"
// when empty.
func cpus(s cpuset.Set) string {
	if v := s.String(); v != "" {
		return v
	}
	return "all (unpinned)"
}

// thousands formats x rounded to a whole number with commas between
// thousands: 1234567.6 is "1,234,568".
func thousands(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	s := strconv.FormatInt(int64(math.Round(math.Abs(x))), 10)
	out := make([]byte, 0, len(s)+len(s)/3+1)
	if x < 0 && s != "0" {
		out = append(out, '-')
	}
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

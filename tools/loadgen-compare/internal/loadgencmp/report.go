package loadgencmp

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/tfbench/tfbench/harness/texttab"
	"github.com/tfbench/tfbench/internal/cpuset"
)

// runSummaries is one generator's runs of one cell, summarized.
type runSummaries struct {
	rps, cpu       Summary // requests/s; CPU s per 100,000 requests
	genUse, srvUse Summary // CPU use over the run's wall time, %: generator, server
	errors         int64
	// served is the server's counts of the runs with one (Run.Counted);
	// gapMin and gapMax the least and largest Run.Gap of those.
	served         Summary
	gapMin, gapMax int64
}

func summaries(runs []Run) runSummaries {
	var rps, cpu, gen, srv, served []float64
	var s runSummaries
	for _, r := range runs {
		if r.Counted {
			if len(served) == 0 {
				s.gapMin, s.gapMax = r.Gap(), r.Gap()
			}
			s.gapMin, s.gapMax = min(s.gapMin, r.Gap()), max(s.gapMax, r.Gap())
			served = append(served, float64(r.Served))
		}
		rps = append(rps, r.RPS)
		cpu = append(cpu, r.CPUPer100k())
		if r.Wall > 0 {
			gen = append(gen, 100*r.CPU.Seconds()/r.Wall.Seconds())
			srv = append(srv, 100*r.ServerCPU.Seconds()/r.Wall.Seconds())
		}
		s.errors += r.Errors
	}
	s.rps, s.cpu, s.genUse, s.srvUse = Summarize(rps), Summarize(cpu), Summarize(gen), Summarize(srv)
	s.served = Summarize(served)
	return s
}

// servedCols are the table's server count columns for s: the median count
// and the range of the gaps (server − generator), "-" for a server that
// does not count.
func (s runSummaries) servedCols() (median, gaps string) {
	if s.served.N == 0 {
		return "-", "-"
	}
	return thousands(s.served.Median), thousands(float64(s.gapMin)) + "–" + thousands(float64(s.gapMax))
}

// Write prints cells as plain-text tables (per generator RPS and CPU
// seconds per 100,000 responses, CPU use in % of one CPU, the server's
// count of responses and its gap to the generator's; per cell the ratios,
// tfbench's largest gap against connections × depth, PASS or MISS); it
// reports whether all pass, and w's first error.
func Write(w io.Writer, cfg Config, cells []*Cell) (bool, error) {
	fmt.Fprintf(w, "tfbench load vs wrk: %d interleaved rounds of %s per generator and cell; generator CPUs %s (wrk -t%d), server CPUs %s\n\n",
		cfg.Rounds, cfg.Duration, cpus(cfg.Generator), cfg.threads(), cpus(cfg.Server))
	runs := texttab.Table{Header: []string{"server", "test", "setting", "generator", "RPS median", "RPS min–max", "CPU s/100k resp median", "CPU s/100k resp min–max", "generator CPU use", "server CPU use", "errors", "server count median", "gap min–max"}}
	for _, c := range cells {
		for _, g := range []struct {
			name string
			runs []Run
		}{{Tfbench, c.Tfbench}, {Wrk, c.Wrk}} {
			s := summaries(g.runs)
			served, gaps := s.servedCols()
			runs.Row(c.Server, c.Test(), c.Setting.String(), g.name,
				thousands(s.rps.Median), thousands(s.rps.Min)+"–"+thousands(s.rps.Max),
				fmt.Sprintf("%.4f", s.cpu.Median), fmt.Sprintf("%.4f–%.4f", s.cpu.Min, s.cpu.Max),
				fmt.Sprintf("%.0f%%", s.genUse.Median), fmt.Sprintf("%.0f%%", s.srvUse.Median), fmt.Sprint(s.errors), served, gaps)
		}
	}
	if err := texttab.Text(w, runs); err != nil {
		return false, err
	}
	fmt.Fprintln(w, "\nratios tfbench/wrk of the medians against each cell's targets (fixed-response servers: issue 3; adapters: issue 13); gap max: the most")
	fmt.Fprintln(w, "responses a fixed-response server wrote in a round beyond tfbench's count, against 0 to connections × depth (issue 33)")
	ratios := texttab.Table{Header: []string{"server", "test", "setting", "RPS ratio", "RPS target", "CPU/resp ratio", "CPU target", "gap max", "gap target", "cell"}}
	var errs, counts, wrkCounts []string
	passed, rpsMet, cpuMet, withErrors, withCounts := 0, 0, 0, 0, 0
	for _, c := range cells {
		v := c.Verdict()
		var why []string
		if len(v.Errors) > 0 {
			why = append(why, "errors")
			withErrors++
			for _, e := range v.Errors {
				errs = append(errs, fmt.Sprintf("  %s: %s", c, e))
			}
		}
		if len(v.Counts) > 0 {
			why = append(why, "count")
			withCounts++
			for _, e := range v.Counts {
				counts = append(counts, fmt.Sprintf("  %s: %s", c, e))
			}
		}
		for _, e := range v.WrkCounts {
			wrkCounts = append(wrkCounts, fmt.Sprintf("  %s: %s", c, e))
		}
		cell := pass(v.Pass())
		if len(why) > 0 {
			cell += ": " + strings.Join(why, ", ")
		}
		gapMax, gapTarget := "-", "-"
		if s := summaries(c.Tfbench); s.served.N > 0 {
			gapMax = thousands(float64(s.gapMax))
			gapTarget = fmt.Sprintf("0–%s %s", thousands(float64(c.Setting.InFlight())), pass(len(v.Counts) == 0))
		}
		ratios.Row(c.Server, c.Test(), c.Setting.String(),
			fmt.Sprintf("%.3f", v.RPSRatio), fmt.Sprintf(">= %.2f %s", c.Target.RPS, pass(v.RPSMet)),
			fmt.Sprintf("%.3f", v.CPURatio), fmt.Sprintf("<= %.2f %s", c.Target.CPU, pass(v.CPUMet)), gapMax, gapTarget, cell)
		passed, rpsMet, cpuMet = passed+b2i(v.Pass()), rpsMet+b2i(v.RPSMet), cpuMet+b2i(v.CPUMet)
	}
	if err := texttab.Text(w, ratios); err != nil {
		return false, err
	}
	if len(errs) > 0 {
		fmt.Fprintf(w, "\nruns with errors (a figure with failed requests is not a figure: the cell misses)\n%s\n", strings.Join(errs, "\n"))
	}
	if len(counts) > 0 {
		fmt.Fprintf(w, "\ntfbench runs that break the count rule (no more responses than the server wrote, at most connections × depth fewer: the cell misses)\n%s\n",
			strings.Join(counts, "\n"))
	}
	if len(wrkCounts) > 0 {
		fmt.Fprintf(w, "\nwrk runs that counted more responses than the server wrote (said, not a target)\n%s\n", strings.Join(wrkCounts, "\n"))
	}
	all := passed == len(cells)
	_, err := fmt.Fprintf(w, "\ntargets: %s (%d of %d cells pass; RPS target met in %d, CPU per response target met in %d, errors in %d, count rule broken in %d)\n",
		pass(all), passed, len(cells), rpsMet, cpuMet, withErrors, withCounts)
	return all, err
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
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

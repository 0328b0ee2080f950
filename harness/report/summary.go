package report

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/texttab"
)

// Summary writes one sample as the few lines tfbench load prints: counts,
// requests/s, statuses, error classes with examples, latency, TTFB and probe
// percentiles in ms, and the generator's CPU time.
func Summary(w io.Writer, target string, s model.Sample) error {
	var b strings.Builder
	mode := fmt.Sprintf("%d connections, pipeline depth %d", s.Connections, s.Pipeline)
	if s.Rate > 0 {
		mode = fmt.Sprintf("constant rate %g requests/s over %d connections", s.Rate, s.Connections)
	}
	fmt.Fprintf(&b, "GET %s\n  engine %s, %s, %gs window\n", target, s.Engine, mode, s.Window)
	fmt.Fprintf(&b, "  responses   %s in the window, %s RPS, %s status 200\n", texttab.Thousands(float64(s.Responses)), texttab.Thousands(s.RPS), texttab.Thousands(float64(s.Success)))
	if len(s.StatusCounts) > 1 || (len(s.StatusCounts) == 1 && s.StatusCounts["200"] == 0) {
		fmt.Fprintf(&b, "  statuses    %s\n", sortedCounts(s.StatusCounts))
	}
	if len(s.Errors) == 0 {
		b.WriteString("  errors      none\n")
	} else {
		fmt.Fprintf(&b, "  errors      %s\n", sortedCounts(s.Errors))
		classes := make([]string, 0, len(s.Examples))
		for c := range s.Examples {
			classes = append(classes, c)
		}
		sort.Strings(classes)
		for _, c := range classes {
			fmt.Fprintf(&b, "    %s: %s\n", c, s.Examples[c])
		}
	}
	if s.Checked > 0 {
		fmt.Fprintf(&b, "  checked     %s of %s responses under load (%s), %d failed", texttab.Thousands(float64(s.Checked)),
			texttab.Thousands(float64(s.Responses)), checkedShare(s), s.Errors["check"])
		if s.CheckSeed != 0 {
			fmt.Fprintf(&b, "; chosen at random, seed %d", s.CheckSeed)
		}
		b.WriteString("\n")
	}
	label := "latency"
	if s.Uncorrected != nil {
		label = "corrected"
	}
	fmt.Fprintf(&b, "  %-11s %s\n", label, latencyLine(s.Latency))
	if s.Uncorrected != nil {
		fmt.Fprintf(&b, "  uncorrected %s\n", latencyLine(*s.Uncorrected))
	}
	if s.TTFB != nil {
		fmt.Fprintf(&b, "  TTFB        %s\n", latencyLine(*s.TTFB))
	}
	if p := s.Probe; p != nil {
		errs := "errors none"
		if len(p.Errors) > 0 {
			errs = "errors " + sortedCounts(p.Errors)
		}
		fmt.Fprintf(&b, "  probe       GET %s every %g ms: %s responses, %s status 200, %s; p50 %.3f ms, p99 %.3f, max %.3f ms\n",
			p.Path, p.Interval, texttab.Thousands(float64(p.Responses)), texttab.Thousands(float64(p.Success)), errs, p.Latency.P50, p.Latency.P99, p.Latency.Max)
		classes := make([]string, 0, len(p.Examples))
		for c := range p.Examples {
			classes = append(classes, c)
		}
		sort.Strings(classes)
		for _, c := range classes {
			fmt.Fprintf(&b, "    probe %s: %s\n", c, p.Examples[c])
		}
	}
	sat := "no"
	if s.GeneratorSaturated {
		sat = "yes: the figures may measure the generator, not the server"
	}
	perReq := 0.0
	if s.Responses > 0 {
		perReq = 1e6 * s.GeneratorCPU / float64(s.Responses)
	}
	fmt.Fprintf(&b, "  generator   %.2f s CPU (%.1f µs per response), saturated: %s\n", s.GeneratorCPU, perReq, sat)
	_, err := io.WriteString(w, b.String())
	return err
}

func latencyLine(l model.Latency) string {
	return fmt.Sprintf("p50 %.3f ms, p90 %.3f, p99 %.3f, p99.9 %.3f, max %.3f ms", l.P50, l.P90, l.P99, l.P999, l.Max)
}

// sortedCounts renders a count map as "200: 90, 500: 10" in key order.
func sortedCounts(m map[string]int64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// checkedShare is the share of s's responses checked under load, "100%" when
// every one was, else to one decimal ("1.0%"), never rounded up to 100%.
func checkedShare(s model.Sample) string {
	if s.Responses == 0 || s.Checked >= s.Responses {
		return "100%"
	}
	return fmt.Sprintf("%.1f%%", math.Min(99.9, math.Floor(1000*float64(s.Checked)/float64(s.Responses))/10))
}

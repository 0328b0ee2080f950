package report

import (
	"encoding/csv"
	"io"
	"slices"
	"strconv"
	"strings"
)

// CSVHeader is the first line of CSV's output, one column per Row field;
// units are in the names (rps requests/s, ms, bytes); rank is the table's
// rank with ties (tied true when shared; empty when unranked), and the
// ratio_to_go_stdlib columns are dimensionless, lo and hi its per-round
// min–max.
var CSVHeader = []string{"test", "n", "run", "framework", "variant", "runtime", "peak_rps", "rank", "tied", "ratio_to_go_stdlib", "ratio_lo", "ratio_hi",
	"connections", "pipeline", "p50_ms", "p99_ms", "cpu_ms_per_request", "rss_bytes", "page_bytes", "verification",
	"min_rps", "max_rps", "rounds", "notes"}

// PageCSVColumns are appended to CSVHeader when ts holds a page test: TTFB,
// probe and event-loop percentiles in ms at the peak level, empty for the
// other tests and where not recorded.
var PageCSVColumns = []string{"ttfb_p50_ms", "ttfb_p99_ms", "probe_p99_ms", "probe_max_ms", "event_loop_p99_ms", "event_loop_max_ms"}

// BoundCSVColumns end every line: the row's lower bound from a
// generator-bound level (Row.Bound: median RPS, its min–max over rounds, the
// level), empty without one.
var BoundCSVColumns = []string{"lower_bound_rps", "lower_bound_min_rps", "lower_bound_max_rps", "lower_bound_connections", "lower_bound_pipeline"}

// CSV writes CSVHeader (and PageCSVColumns, then MemoryCSVColumns, then BoundCSVColumns) and one line per Row of ts in
// table order, a page test's for every size, queries' and updates' for
// every N; numbers are plain (whole requests/s, ms with three decimals),
// cells without a figure empty.
func CSV(w io.Writer, ts []TestTable) error {
	cw := csv.NewWriter(w)
	page := false
	for _, t := range ts {
		page = page || t.Sizes != nil
	}
	header := CSVHeader
	if page {
		header = append(slices.Clone(header), PageCSVColumns...)
	}
	header = append(slices.Clone(header), MemoryCSVColumns...)
	header = append(header, BoundCSVColumns...)
	if err := cw.Write(header); err != nil {
		return err
	}
	write := func(name string, n int, r Row) error {
		line := csvLine(name, n, r)
		if page {
			line = append(line, pageCSV(r)...)
		}
		line = append(line, r.Memory.csv(r.OK)...)
		return cw.Write(append(line, boundCSV(r)...))
	}
	for _, t := range ts {
		sizes := t.Sizes
		if sizes == nil {
			sizes = t.PerN
		}
		if sizes == nil {
			for _, r := range t.Rows {
				if err := write(t.Test.Name, t.N, r); err != nil {
					return err
				}
			}
			continue
		}
		for _, sz := range sizes {
			for _, r := range sz.Rows {
				if err := write(t.Test.Name, sz.N, r); err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// boundCSV are a row's BoundCSVColumns cells.
func boundCSV(r Row) []string {
	b := r.Bound
	if b == nil {
		return make([]string, len(BoundCSVColumns))
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }
	return []string{f(b.RPS), f(b.MinRPS), f(b.MaxRPS), strconv.Itoa(b.Connections), strconv.Itoa(b.Pipeline)}
}

// pageCSV are a row's PageCSVColumns cells.
func pageCSV(r Row) []string {
	out := make([]string, 6)
	for i, v := range []float64{r.TTFBP50ms, r.TTFBP99ms, r.ProbeP99ms, r.ProbeMaxms, r.LoopP99ms, r.LoopMaxms} {
		if r.OK && v >= 0 {
			out[i] = strconv.FormatFloat(v, 'f', 3, 64)
		}
	}
	return out
}

func csvLine(test string, n int, r Row) []string {
	f := func(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }
	var peak, rank, tied, ratio, ratioLo, ratioHi, conns, pipe, p50, p99, cpu, rss, lo, hi, rounds, page string
	if r.OK {
		peak, conns, pipe = f(r.PeakRPS, 0), strconv.Itoa(r.Connections), strconv.Itoa(r.Pipeline)
		cpu, rss = f(r.CPUms, 3), strconv.FormatUint(r.RSSBytes, 10)
		lo, hi, rounds = f(r.MinRPS, 0), f(r.MaxRPS, 0), strconv.Itoa(r.Rounds)
		if r.Rank > 0 {
			rank, tied = strconv.Itoa(r.Rank), strconv.FormatBool(r.Tied)
		}
		if r.RatioToRef > 0 {
			ratio = f(r.RatioToRef, 3)
		}
		if r.RatioHi > 0 {
			ratioLo, ratioHi = f(r.RatioLo, 3), f(r.RatioHi, 3)
		}
		if r.P50ms >= 0 {
			p50, p99 = f(r.P50ms, 3), f(r.P99ms, 3)
		}
	}
	if r.PageBytes > 0 {
		page = strconv.Itoa(r.PageBytes)
	}
	return []string{test, strconv.Itoa(n), r.Run, r.Framework, r.Variant, r.Runtime, peak, rank, tied, ratio, ratioLo, ratioHi,
		conns, pipe, p50, p99, cpu, rss, page, string(r.Verification), lo, hi, rounds, strings.Join(r.Notes, "; ")}
}

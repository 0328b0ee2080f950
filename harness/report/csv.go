package report

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
)

// CSVHeader is the first line of CSV's output: one column per Row field.
// Units: requests/s (rps), percent (pct_of_best), ms (p50_ms, p99_ms,
// cpu_ms_per_request), bytes (rss_bytes, page_bytes); ratio_to_go_stdlib
// is dimensionless.
var CSVHeader = []string{"test", "n", "run", "framework", "variant", "runtime", "peak_rps", "pct_of_best", "ratio_to_go_stdlib",
	"connections", "pipeline", "p50_ms", "p99_ms", "cpu_ms_per_request", "rss_bytes", "page_bytes", "verification",
	"min_rps", "max_rps", "rounds", "notes"}

// CSV writes every row of ts with encoding/csv: CSVHeader, then one line per
// Row in table order. Numbers are plain (no thousands separators): RPS
// rounded to whole requests/s, % of best with one decimal, the ratio with
// three, latency in ms with three (µs resolution), CPU ms per request with
// three. Cells a row has no figure for are empty (a row without figures
// keeps only its names, page bytes, verdict and notes); notes are joined
// with "; ". It returns w's write error.
func CSV(w io.Writer, ts []TestTable) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	for _, t := range ts {
		for _, r := range t.Rows {
			if err := cw.Write(csvLine(t, r)); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvLine(t TestTable, r Row) []string {
	f := func(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }
	var peak, pct, ratio, conns, pipe, p50, p99, cpu, rss, lo, hi, rounds, page string
	if r.OK {
		peak, conns, pipe = f(r.PeakRPS, 0), strconv.Itoa(r.Connections), strconv.Itoa(r.Pipeline)
		cpu, rss = f(r.CPUms, 3), strconv.FormatUint(r.RSSBytes, 10)
		lo, hi, rounds = f(r.MinRPS, 0), f(r.MaxRPS, 0), strconv.Itoa(r.Rounds)
		if r.PctOfBest > 0 {
			pct = f(r.PctOfBest, 1)
		}
		if r.RatioToRef > 0 {
			ratio = f(r.RatioToRef, 3)
		}
		if r.P50ms >= 0 {
			p50, p99 = f(r.P50ms, 3), f(r.P99ms, 3)
		}
	}
	if r.PageBytes > 0 {
		page = strconv.Itoa(r.PageBytes)
	}
	return []string{t.Test.Name, strconv.Itoa(t.N), r.Run, r.Framework, r.Variant, r.Runtime, peak, pct, ratio,
		conns, pipe, p50, p99, cpu, rss, page, r.Verification, lo, hi, rounds, strings.Join(r.Notes, "; ")}
}

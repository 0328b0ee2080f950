package report

import (
	"bytes"
	"fmt"
	"github.com/montanaflynn/stats"
	"slices"
	"sort"
	"strconv"

	"github.com/tfbench/tfbench/harness/chart"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/texttab"
)

// A stream test's page (docs/ssr.md, "The streamed page") adds to the
// test's page, per size, when the shell and each part arrived: under load at
// the variant's peak level and at the low rate, each figure the median over
// rounds of the sample's p50 or p99 (ms from the request's start), and a
// chart per size of the shell's and each part's arrival (p50) under load,
// one line per variant (the p99s are in the table).

// streamFig is one variant's stream figures at one N and one kind of sample
// (the peak level, or the constant rate): medians over rounds.
type streamFig struct {
	Label              string // "c=16" or "3/s"
	Rounds             int
	Shell, Last        [2]float64 // p50, p99 ms
	Part               [][2]float64
	BytesPerFlush      float64
	Flushes            float64
	OneFlush, Response int64
}

// streamLine is one variant's row group at one N: n/a with its reason, or
// its figures under load and at the low rate (nil when not measured).
type streamLine struct {
	Run      string
	ID       model.ID
	NA       string
	Load     *streamFig
	Rate     *streamFig
	Verified model.Verdict
}

// streamLines gathers test's lines at n from every run of s, in framework
// order.
func streamLines(s *results.Set, test string, n int) []streamLine {
	var out []streamLine
	for _, r := range s.Runs {
		f := r.File
		for _, fw := range f.Frameworks {
			l := streamLine{Run: r.Label, ID: fw.ID()}
			for _, v := range f.Verifications {
				if v.ID == l.ID && v.Test == test {
					l.Verified = v.Status
					if v.Status == model.NotApplicable && len(v.Reasons) > 0 {
						l.NA = v.Reasons[0]
					}
				}
			}
			var load, rate []model.Sample
			for _, smp := range f.Samples {
				if smp.ID != l.ID || smp.Test != test || smp.N != n || smp.Stream == nil {
					continue
				}
				if smp.Rate > 0 {
					rate = append(rate, smp)
				} else if smp.Gate.Passed {
					load = append(load, smp)
				}
			}
			l.Load = streamPeak(load)
			if len(rate) > 0 {
				l.Rate = streamFigOf(rate, strconv.FormatFloat(rate[0].Rate, 'g', -1, 64)+"/s")
			}
			if l.NA == "" && l.Verified == "" && l.Load == nil && l.Rate == nil {
				continue // a variant that never ran this test
			}
			out = append(out, l)
		}
	}
	return out
}

// streamPeak is the figures at the level with the highest median RPS over
// its rounds (nil without samples).
func streamPeak(samples []model.Sample) *streamFig {
	by := map[int][]model.Sample{}
	for _, s := range samples {
		by[s.Connections] = append(by[s.Connections], s)
	}
	best, bestRPS := 0, -1.0
	levels := make([]int, 0, len(by))
	for c := range by {
		levels = append(levels, c)
	}
	sort.Ints(levels)
	for _, c := range levels {
		var rps []float64
		for _, s := range by[c] {
			rps = append(rps, s.RPS)
		}
		if m, _ := stats.Median(rps); m > bestRPS { // 0 for none
			best, bestRPS = c, m
		}
	}
	if bestRPS < 0 {
		return nil
	}
	return streamFigOf(by[best], "c="+strconv.Itoa(best))
}

// streamFigOf takes the median over samples (rounds) of each figure.
func streamFigOf(samples []model.Sample, label string) *streamFig {
	f := &streamFig{Label: label, Rounds: len(samples)}
	pick := func(get func(*model.StreamRecord) float64) float64 {
		var v []float64
		for _, s := range samples {
			v = append(v, get(s.Stream))
		}
		m, _ := stats.Median(v) // 0 for none
		return m
	}
	f.Shell = [2]float64{pick(func(r *model.StreamRecord) float64 { return r.Shell.P50 }), pick(func(r *model.StreamRecord) float64 { return r.Shell.P99 })}
	f.Last = [2]float64{pick(func(r *model.StreamRecord) float64 { return r.Last.P50 }), pick(func(r *model.StreamRecord) float64 { return r.Last.P99 })}
	parts := 0
	for _, s := range samples {
		parts = max(parts, len(s.Stream.Part))
		f.OneFlush += s.Stream.OneFlush
		f.Response += s.Stream.Responses
	}
	for k := range parts {
		at := func(r *model.StreamRecord, p99 bool) float64 {
			if k >= len(r.Part) {
				return 0
			}
			if p99 {
				return r.Part[k].P99
			}
			return r.Part[k].P50
		}
		f.Part = append(f.Part, [2]float64{pick(func(r *model.StreamRecord) float64 { return at(r, false) }), pick(func(r *model.StreamRecord) float64 { return at(r, true) })})
	}
	f.BytesPerFlush = pick(func(r *model.StreamRecord) float64 { return r.BytesPerFlush })
	f.Flushes = pick(func(r *model.StreamRecord) float64 { return r.Flushes })
	return f
}

// streamVerdict says whether a low-rate figure streamed: "not streamed: ..."
// when every response of every round came in one flush.
func streamVerdict(f *streamFig) string {
	if f.Response > 0 && f.OneFlush == f.Response {
		return fmt.Sprintf("not streamed: the whole page arrived in one flush (%d of %d responses)", f.Response, f.Response)
	}
	return fmt.Sprintf("streamed (%d of %d responses in one flush)", f.OneFlush, f.Response)
}

// streamChart is one size's chart: its file name and SVG.
type streamChart struct {
	name, title string
	svg         []byte
}

// streamSection writes a stream test's timeline tables, one per size, to b
// and, withCharts (the site), returns the charts it links
// (stream-SLUG-N.svg).
func streamSection(b *builder, s *results.Set, t TestTable, withCharts bool) ([]streamChart, error) {
	merged := len(s.Runs) > 1
	var charts []streamChart
	b.printf("## Stream timeline\n\n")
	b.printf("Each page of N rows comes in %d parts (fewer when N is smaller), the shell first. **Shell** is the first byte's arrival, **part k** the arrival of the read that brought the last of part k's rows (rows are read by id wherever the framework's streaming puts them), **last** the last byte's, each in ms from the request's start as p50 / p99 of the sample (the median over rounds). **Sample** is the variant's peak level (c=N connections: the level with the highest median RPS that passed the gate) or the low-rate sample (3/s: the suite's rate, at the largest size only), where **Streamed** gives the verdict. The p99s are the median over rounds of each sample's p99, so they differ from the test table's p99, which comes from the rounds' merged histograms. **B/flush** is the mean body bytes per read that brought body bytes, **flushes** the reads per response (reads that found more waiting count as one). At the low rate a variant whose every response arrived in one flush is *not streamed* (not a failure). The parts' arrivals are what the generator's reads saw: on loopback, writes close together arrive in one read.\n\n", t.Test.Parts)
	for _, n := range t.Test.Queries {
		lines := streamLines(s, t.Test.Name, n)
		if len(lines) == 0 {
			continue
		}
		parts := 0
		for _, l := range lines {
			for _, f := range []*streamFig{l.Load, l.Rate} {
				if f != nil {
					parts = max(parts, len(f.Part))
				}
			}
		}
		b.printf("### %s rows\n\n", texttab.Thousands(float64(n)))
		var header []string
		var align []texttab.Align
		col := func(name string, a texttab.Align) { header, align = append(header, name), append(align, a) }
		if merged {
			col("Run", texttab.Left)
		}
		col("Framework", texttab.Left)
		col("Variant", texttab.Left)
		col("Sample", texttab.Left)
		col("Shell ms", texttab.Right)
		for k := range parts {
			col(fmt.Sprintf("Part %d ms", k), texttab.Right)
		}
		col("Last ms", texttab.Right)
		col("B/flush", texttab.Right)
		col("Flushes", texttab.Right)
		col("Streamed", texttab.Left)
		var rows [][]string
		var series [][]float64
		var names []chart.TimeSeries
		for _, l := range lines {
			lead := []string{l.ID.Framework, l.ID.Variant}
			if merged {
				lead = append([]string{l.Run}, lead...)
			}
			if l.NA != "" || l.Verified == model.NotApplicable || l.Verified == model.Fail || (l.Load == nil && l.Rate == nil) {
				why := "not measured"
				switch {
				case l.Verified == model.NotApplicable:
					why = "n/a: " + l.NA
				case l.Verified == model.Fail:
					why = "verification failed"
				}
				line := append(slices.Clone(lead), why)
				for range 4 + parts + 1 {
					line = append(line, "—")
				}
				rows = append(rows, line)
				continue
			}
			for _, f := range []*streamFig{l.Load, l.Rate} {
				if f == nil {
					continue
				}
				line := append(slices.Clone(lead), f.Label, pair(f.Shell))
				for k := range parts {
					if k < len(f.Part) {
						line = append(line, pair(f.Part[k]))
					} else {
						line = append(line, "—")
					}
				}
				verdict := "—"
				if f == l.Rate {
					verdict = streamVerdict(f)
				}
				line = append(line, pair(f.Last), texttab.Thousands(f.BytesPerFlush), fmt.Sprintf("%.1f", f.Flushes), verdict)
				rows = append(rows, line)
			}
			if f := l.Load; f != nil && len(f.Part) == parts {
				sr := chart.TimeSeries{Name: l.ID.String(), Key: l.ID.String()}
				if merged {
					sr.Name += " (" + l.Run + ")"
				}
				sr.Values = append(sr.Values, f.Shell[0])
				for _, p := range f.Part {
					sr.Values = append(sr.Values, p[0])
				}
				series = append(series, append(sr.Values[:0:0], sr.Values...))
				names = append(names, sr)
			}
		}
		siteTable(b, header, rows, align)
		if len(names) > 0 && withCharts {
			c := streamChart{name: fmt.Sprintf("stream-%s-%d.svg", t.Slug, n), title: fmt.Sprintf("%s: arrival at %s rows, peak level (p50)", t.Test.Name, texttab.Thousands(float64(n)))}
			labels := []string{"shell"}
			for k := range parts {
				labels = append(labels, fmt.Sprintf("part %d", k))
			}
			for i := range names {
				names[i].Values = series[i]
			}
			var svg bytes.Buffer
			if err := chart.Trend(&svg, chart.Timeline{Title: c.title, YTitle: "ms from the request's start (p50)", Labels: labels, Series: names}); err != nil {
				return nil, fmt.Errorf("stream chart %s: %w", c.name, err)
			}
			c.svg = svg.Bytes()
			charts = append(charts, c)
			b.printf("![%s](%s)\n\n", linkText(c.title), c.name)
		}
	}
	return charts, b.err
}

// pair writes a p50 / p99 pair in ms.
func pair(v [2]float64) string { return sig(v[0]) + " / " + sig(v[1]) }

// streamTimeline is the stream section of the single-file report (Markdown):
// the tables without charts.
func (b *builder) streamTimeline(t results.Test) {
	streamSection(b, &results.Set{Runs: []results.Run{{Label: b.f.RunID, File: b.f}}}, TestTable{Test: t, Slug: Slug(t.Name)}, false)
}

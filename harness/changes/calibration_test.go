package changes

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tfbench/tfbench/harness/texttab"
	"github.com/tfbench/tfbench/internal/golden"
)

// Calibration settings (docs/ci.md "Change points"): CalNights nights per
// synthetic series, CalSeries series per case and noise level (A/A:
// CalAASeries, for its small rate), log-normal noise of sd Sigmas (the
// quartiles and median of this machine's night-to-night spread of the
// ratio to go-stdlib).
const (
	CalNights   = 100
	CalSeries   = 200
	CalAASeries = 1000
	// calSlack: a step counts as found by a change within ±3 nights.
	calSlack = 3
)

var Sigmas = []float64{0.035, 0.07, 0.12}

// calCase is one kind of synthetic series: level(i) is night i's level
// (1 before any change); a change with Index in [from, to] is the one
// planted (found), any other a false alarm; from < 0: nothing is planted.
type calCase struct {
	name     string
	level    func(i int) float64
	from, to int
	series   int  // CalSeries when 0
	outlier  bool // [from, to] is around an outlier: a change there is found, and a false alarm
}

func step(name string, size float64, at int) calCase {
	return calCase{name, func(i int) float64 {
		if i >= at {
			return 1 + size
		}
		return 1
	}, at - calSlack, at + calSlack, 0, false}
}

// drift falls by size over 30 nights from night at on, then stays.
func drift(name string, size float64, at int) calCase {
	return calCase{name, func(i int) float64 {
		return 1 + size*min(1, max(0, float64(i-at+1)/30))
	}, at, at + 30, 0, false}
}

func calCases() []calCase {
	cs := []calCase{{"A/A (no change)", func(int) float64 { return 1 }, -1, -1, CalAASeries, false}}
	cs = append(cs, calCase{"one night at −30% (night 50)", func(i int) float64 {
		if i == 50 {
			return 0.7
		}
		return 1
	}, 50 - calSlack, 50 + calSlack, 0, true})
	for _, at := range []int{50, 90} {
		for _, s := range []float64{0.03, 0.05, 0.10, 0.20} {
			cs = append(cs, step(fmt.Sprintf("step −%.0f%% at night %d", s*100, at), -s, at))
		}
	}
	cs = append(cs, drift("drift −10% over nights 40–69", -0.10, 40), drift("drift −20% over nights 40–69", -0.20, 40))
	return cs
}

// calResult is one case at one σ: of series, those in which the planted
// change was found, and false alarms (every change outside the planted
// window) in all.
type calResult struct{ series, found, alarms int }

// DetectionRate is the share of series where the planted change was found.
func (r calResult) DetectionRate() float64 { return float64(r.found) / float64(r.series) }

// AlarmsPer100 is false alarms per 100 nights per row (series).
func (r calResult) AlarmsPer100() float64 {
	return float64(r.alarms) / float64(r.series) * 100 / CalNights
}

// runCase runs c's series at sigma with the fixed seed (case number, σ
// number) of math/rand/v2's PCG: noise exp(σ·Z), Z standard normal.
func runCase(c calCase, ci, si int, sigma float64) calResult {
	r := rand.New(rand.NewPCG(uint64(ci), uint64(si)))
	res := calResult{series: cmp.Or(c.series, CalSeries)}
	values := make([]float64, CalNights)
	for range res.series {
		for i := range values {
			values[i] = c.level(i) * math.Exp(sigma*r.NormFloat64())
		}
		found := false
		for _, ch := range Detect(values, Options{}) {
			if c.from >= 0 && ch.Index >= c.from && ch.Index <= c.to {
				found = true // a drift may be found as two or three steps
				if !c.outlier {
					continue
				}
			}
			res.alarms++
		}
		if found {
			res.found++
		}
	}
	return res
}

// calibrate runs every case at every σ, the σs in parallel.
func calibrate() ([]calCase, [][]calResult) {
	cases := calCases()
	out := make([][]calResult, len(cases))
	for i := range out {
		out[i] = make([]calResult, len(Sigmas))
	}
	var wg sync.WaitGroup
	for si, s := range Sigmas {
		wg.Go(func() {
			for ci, c := range cases {
				out[ci][si] = runCase(c, ci, si, s)
			}
		})
	}
	wg.Wait()
	return cases, out
}

// calibrationTable is the golden table: per case, at each σ, the share of
// series where the planted change was found and false alarms per 100
// nights per row.
func calibrationTable(cases []calCase, res [][]calResult) string {
	header := []string{"Series of 100 nights"}
	align := []texttab.Align{texttab.Left}
	for _, s := range Sigmas {
		header = append(header, fmt.Sprintf("σ %s: found", pct(s)), "false alarms")
		align = append(align, texttab.Right, texttab.Right)
	}
	var rows [][]string
	for ci, c := range cases {
		row := []string{c.name}
		for si := range Sigmas {
			r := res[ci][si]
			found := "—"
			if c.from >= 0 && !c.outlier {
				found = fmt.Sprintf("%.1f%%", 100*r.DetectionRate())
			}
			row = append(row, found, fmt.Sprintf("%.3f", r.AlarmsPer100()))
		}
		rows = append(rows, row)
	}
	var b bytes.Buffer
	if err := texttab.Markdown(&b, texttab.Table{Header: header, Align: align, Rows: rows}); err != nil {
		panic(err)
	}
	return b.String()
}

func pct(s float64) string {
	return strings.TrimSuffix(strings.TrimSuffix(fmt.Sprintf("%.1f", s*100), "0"), ".") + "%"
}

// TestCalibration runs the synthetic histories with fixed seeds, pins the
// table (testdata/calibration.golden, docs/ci.md) and asserts the targets:
// A/A false alarms at most 1 per 100 nights per 50 rows at every σ, a
// single outlier no change, a 20% step at night 50 found in ≥ 95% of
// series at σ 7%.
func TestCalibration(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the calibration runs 7,200 series")
	}
	cases, res := calibrate()
	table := calibrationTable(cases, res)
	t.Logf("\n%s", table)
	golden.Check(t, "calibration.golden", table)
	for si, s := range Sigmas {
		if r := res[0][si]; r.AlarmsPer100() > 0.02 {
			t.Errorf("A/A at σ %s: %.3f false alarms per 100 nights per row, want ≤ 0.02 (1 per 50 rows)", pct(s), r.AlarmsPer100())
		}
		if r := res[1][si]; r.found > 0 {
			t.Errorf("one night at −30%% at σ %s: a change within %d nights of it in %d of %d series, want none", pct(s), calSlack, r.found, r.series)
		}
	}
	for ci, c := range cases {
		if c.name == "step −20% at night 50" {
			if r := res[ci][1]; r.DetectionRate() < 0.95 {
				t.Errorf("%s at σ 7%%: found in %.1f%% of series, want ≥ 95%%", c.name, 100*r.DetectionRate())
			}
		}
	}
}

// TestDocsCalibration: docs/ci.md shows the calibration table as the
// golden holds it.
func TestDocsCalibration(t *testing.T) {
	table, err := os.ReadFile(filepath.Join("testdata", "calibration.golden"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "\n## Change points\n") || !strings.Contains(string(doc), "\n\n"+string(table)+"\n") {
		t.Errorf("docs/ci.md has no section \"Change points\" holding testdata/calibration.golden's table as a paragraph of its own:\n%s", table)
	}
}

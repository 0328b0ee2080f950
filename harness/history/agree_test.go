package history_test

import (
	"math"
	"testing"

	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/history"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/report"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/internal/runfixture"
)

// TestFiguresAgree: the report, compare and the history take a row's
// figures from model.Row, so on the published run they give the same peak
// RPS, level, ratio to go-stdlib and CPU ms per request for the same row,
// and the history's median figures are model.Row's, rounded as it stores
// them. Each figure's definition is docs/method.md's "The figures of a row".
func TestFiguresAgree(t *testing.T) {
	path := runfixture.Results(t)
	set, err := results.ReadSet(path)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := set.Single()
	peaks := f.Peaks()

	tables, err := report.Tables(set)
	if err != nil {
		t.Fatal(err)
	}
	reported := map[model.RowKey]report.Row{}
	for _, tt := range tables {
		for _, r := range tt.Rows {
			if r.OK {
				reported[model.RowKey{ID: r.ID, Test: tt.Test.Name, N: tt.N}] = r
			}
		}
	}
	cmp, err := compare.Sets(set, set, compare.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	compared := map[model.RowKey]compare.Side{}
	for _, r := range cmp.Rows {
		if r.Base.OK {
			compared[r.Key()] = r.Base
		}
	}
	night, err := history.From([]string{path}, "2026-12-02", "")
	if err != nil {
		t.Fatal(err)
	}

	all := 0
	for _, h := range night.Rows {
		k := h.Key()
		row, ok := peaks.Row(k)
		if !ok || !row.OK {
			t.Fatalf("%s %s: in the history, no model row", k.ID, k.Label())
		}
		ref, _ := peaks.Row(k.Reference())
		// The history's own figures: model.Row's, rounded.
		if want := math.Round(row.Peak*10) / 10; h.PeakRPS != want {
			t.Errorf("%s %s: history peak %v, model %v", k.ID, k.Label(), h.PeakRPS, want)
		}
		if want := math.Round(row.MedianP99()*1e3) / 1e3; h.MedianP99 != want {
			t.Errorf("%s %s: history p99 %v, model median p99 %v", k.ID, k.Label(), h.MedianP99, want)
		}
		if m, ok := row.MedianRatio(ref); k.ID != model.Reference && (!ok || h.MedianRatio == nil || *h.MedianRatio != math.Round(m*1e4)/1e4) {
			t.Errorf("%s %s: history ratio %v, model median ratio %v %v", k.ID, k.Label(), h.MedianRatio, m, ok)
		}
		if h.Connections != row.Connections || h.Pipeline != row.Pipeline {
			t.Errorf("%s %s: history level %d×%d, model %d×%d", k.ID, k.Label(), h.Connections, h.Pipeline, row.Connections, row.Pipeline)
		}
		rr, inReport := reported[k]
		cs, inCompare := compared[k]
		if !inReport || !inCompare {
			continue // a page size the report or compare shows elsewhere
		}
		all++
		ratio, _ := row.RatioTo(ref)
		if rr.PeakRPS != row.Peak || cs.Peak != row.Peak {
			t.Errorf("%s %s: peak RPS report %v, compare %v, model %v", k.ID, k.Label(), rr.PeakRPS, cs.Peak, row.Peak)
		}
		if rr.RatioToRef != ratio || cs.RefRatio != ratio {
			t.Errorf("%s %s: ratio to go-stdlib report %v, compare %v, model %v", k.ID, k.Label(), rr.RatioToRef, cs.RefRatio, ratio)
		}
		if rr.CPUms != row.CPUms() || cs.CPUms != row.CPUms() {
			t.Errorf("%s %s: CPU ms/req report %v, compare %v, model %v", k.ID, k.Label(), rr.CPUms, cs.CPUms, row.CPUms())
		}
		if rr.Connections != row.Connections || cs.Connections != row.Connections {
			t.Errorf("%s %s: level report %d, compare %d, model %d", k.ID, k.Label(), rr.Connections, cs.Connections, row.Connections)
		}
		if _, p99, _ := row.Percentiles(); rr.P99ms != p99 {
			t.Errorf("%s %s: report p99 %v, model merged p99 %v", k.ID, k.Label(), rr.P99ms, p99)
		}
	}
	t.Logf("%d rows in the report, compare and the history", all)
	if all < 20 {
		t.Errorf("%d rows in all three; want the run's rows (nine variants × its tests)", all)
	}

	// One row by value, so agreement is not agreement on zero.
	k := model.RowKey{ID: model.MustID("nextjs/default"), Test: "json"}
	row, _ := peaks.Row(k)
	ref, _ := peaks.Row(k.Reference())
	ratio, _ := row.RatioTo(ref)
	median, _ := row.MedianRatio(ref)
	if row.Peak != 3097.8 || row.Connections != 256 || math.Round(ratio*1e4) != 397 || math.Round(median*1e4) != 394 || row.MedianP99() != 152.063 {
		t.Errorf("%s %s: peak %v c=%d ratio %v median ratio %v median p99 %v; want 3097.8, c=256, 0.0397, 0.0394, 152.063",
			k.ID, k.Label(), row.Peak, row.Connections, ratio, median, row.MedianP99())
	}
	for _, h := range night.Rows {
		if h.Key() == k && (h.PeakRPS != 3097.8 || *h.MedianRatio != 0.0394 || h.MedianP99 != 152.063) {
			t.Errorf("history %s %s: %+v", k.ID, k.Label(), h)
		}
	}
	if r := reported[k]; r.PeakRPS != 3097.8 || math.Round(r.RatioToRef*1e4) != 397 {
		t.Errorf("report %s %s: peak %v ratio %v", k.ID, k.Label(), r.PeakRPS, r.RatioToRef)
	}
}

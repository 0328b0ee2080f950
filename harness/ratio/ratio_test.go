package ratio

import (
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
)

// sample is one passing round of fw/variant on test at c connections.
func sample(fw, variant, test string, n, c, round int, rps, cpu float64) model.Sample {
	s := model.Sample{RPS: rps, CPUPerRequest: cpu, Gate: model.GateResult{Passed: true}}
	s.Framework, s.Variant, s.Test, s.N, s.Connections, s.Round = fw, variant, test, n, c, round
	return s
}

func fixture() *results.File {
	f := &results.File{Suite: results.Suite{Tests: []results.Test{
		{Name: "json", Type: "json"},
		{Name: "queries", Type: "queries", Queries: []int{1, 20}},
		{Name: "page", Type: "page", Queries: []int{10, 10000}},
	}}}
	add := func(fw, variant, test string, n int, rps [3]float64, cpu float64) {
		for i, r := range rps {
			f.Samples = append(f.Samples, sample(fw, variant, test, n, 16, i+1, r, cpu+float64(i)*0.001))
		}
	}
	add("engine", "pool", "json", 0, [3]float64{45000, 46000, 47000}, 0.020)
	add("go-stdlib", "default", "json", 0, [3]float64{50000, 50000, 51000}, 0.018)
	add("node-http", "default", "json", 0, [3]float64{55000, 56000, 57000}, 0.017)
	add("engine", "pool", "queries", 20, [3]float64{8000, 8100, 8200}, 0.2)
	add("engine", "pool", "queries", 1, [3]float64{30000, 30000, 30000}, 0.05) // not the headline N
	add("node-http", "default", "queries", 20, [3]float64{7000, 7000, 7000}, 0.25)
	// go-stdlib's queries failed the gate in a round: no peak.
	bad := sample("go-stdlib", "default", "queries", 20, 16, 1, 6000, 0.3)
	bad.Gate = model.GateResult{Reason: "socket errors: read 1"}
	f.Samples = append(f.Samples, bad)
	// The page test: a row per size, the 10,000-row page under 100 RPS.
	add("engine", "pool", "page", 10, [3]float64{9000, 9100, 9200}, 0.1)
	add("engine", "pool", "page", 10000, [3]float64{41.5, 42.4, 43}, 20)
	add("node-http", "default", "page", 10, [3]float64{8000, 8000, 8000}, 0.12)
	add("node-http", "default", "page", 10000, [3]float64{60, 61, 62}, 15)
	return f
}

func TestTableAndWrite(t *testing.T) {
	rows := Table(fixture())
	if len(rows) != 4 || rows[1].N != 20 || rows[2].N != 10 || rows[3].N != 10000 {
		t.Fatalf("rows %+v; want json, queries N=20, page N=10 and N=10000", rows)
	}
	if c := rows[0].Cells[model.MustID("engine/pool")]; !c.OK || c.Peak != 46000 || c.CPUms() != 0.021 {
		t.Errorf("engine json cell %+v, want the median 46000 RPS, 0.021 ms", c)
	}
	if x, ok := rows[0].Ratio(model.MustID("engine/pool"), model.MustID("go-stdlib/default")); !ok || x != 0.92 {
		t.Errorf("json ratio %v %v, want 0.92", x, ok)
	}
	if _, ok := rows[1].Ratio(model.MustID("engine/pool"), model.MustID("go-stdlib/default")); ok {
		t.Error("a ratio over a variant without a peak")
	}
	var b strings.Builder
	if err := Write(&b, rows, []model.ID{model.MustID("engine/pool"), model.Reference, model.MustID("node-http/default")}); err != nil {
		t.Fatal(err)
	}
	want := `          test  engine/pool  go-stdlib/default  node-http/default  ÷ go-stdlib/default  ÷ node-http/default  CPU ms/req engine/pool
          json        46000              50000              56000                0.92×                0.82×                   0.021
  queries N=20         8100                  —               7000                    —                1.16×                   0.201
     page N=10         9100                  —               8000                    —                1.14×                   0.101
  page N=10000         42.4                  —               61.0                    —                0.70×                  20.001
`
	if got := b.String(); got != want {
		t.Errorf("Write printed\n%s\nwant\n%s", got, want)
	}
}

package ratio

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
)

// TestSameLevelP99: each level both variants measured, with the median
// p99 over rounds and the peak marks; a level only one measured, other Ns
// and page tests are left out.
func TestSameLevelP99(t *testing.T) {
	f := &results.File{Suite: results.Suite{Tests: []results.Test{
		{Name: "json", Type: "json"},
		{Name: "queries", Type: "queries", Queries: []int{1, 20}},
		{Name: "page", Type: "page", Queries: []int{10}},
	}}}
	add := func(fw, test string, n, c int, rps, p99 []float64) {
		for i := range rps {
			s := sample(fw, "default", test, n, c, i+1, rps[i], 0.02)
			s.Latency.P99 = p99[i]
			f.Samples = append(f.Samples, s)
		}
	}
	add("engine", "json", 0, 16, []float64{40, 41, 42}, []float64{1.5, 1.4, 1.6})
	add("engine", "json", 0, 64, []float64{45, 46, 47}, []float64{4, 4.1, 3.9})
	add("engine", "json", 0, 256, []float64{30, 30, 30}, []float64{16, 16, 16})
	add("node", "json", 0, 16, []float64{25, 26, 24}, []float64{2, 1.9, 2.1})
	add("node", "json", 0, 64, []float64{24, 24, 24}, []float64{6, 6.2, 6.1})
	add("engine", "queries", 1, 64, []float64{9, 9, 9}, []float64{1, 1, 1})
	add("node", "queries", 1, 64, []float64{9, 9, 9}, []float64{2, 2, 2})
	add("engine", "queries", 20, 64, []float64{5, 5, 5}, []float64{20, 22, 21})
	add("node", "queries", 20, 64, []float64{4, 4, 4}, []float64{30, 31, 32})
	add("engine", "page", 10, 4, []float64{9, 9, 9}, []float64{1, 1, 1})
	add("node", "page", 10, 4, []float64{9, 9, 9}, []float64{2, 2, 2})
	got := SameLevelP99(f, model.MustID("engine/default"), model.MustID("node/default"))
	want := []LevelP99{
		{Test: "json", Connections: 16, A: 1.5, B: 2, BPeak: true},
		{Test: "json", Connections: 64, A: 4, B: 6.1, APeak: true},
		{Test: "queries", N: 20, Connections: 64, A: 21, B: 31, APeak: true, BPeak: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("SameLevelP99 =\n%+v\nwant\n%+v", got, want)
	}
	var b strings.Builder
	if err := WriteLevels(&b, got, model.MustID("engine/default"), model.MustID("node/default")); err != nil {
		t.Fatal(err)
	}
	wantText := "          test  connections  engine/default  node/default  ratio\n" +
		"          json           16        1.50 ms       2.00 ms*  0.75×\n" +
		"          json           64        4.00 ms*      6.10 ms   0.66×\n" +
		"  queries N=20           64        21.0 ms*      31.0 ms*  0.68×\n"
	if b.String() != wantText {
		t.Errorf("WriteLevels =\n%s\nwant\n%s", b.String(), wantText)
	}
}

package history

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
)

func ptr(v float64) *float64 { return &v }

// night1 is From(night1-shard1.json, night1-shard2.json): compare's base
// run (nextjs at 2,000 RPS, 1/25 of go-stdlib's 50,000 in every round) and
// a second runner's node-http beside its own go-stdlib (per-round ratios
// .525 .5 .487 .5 .5: median 0.5); go-stdlib's row is the first run's.
var night1 = Night{
	Date: "2026-12-01", Commit: "abc123", MethodVersion: 2, Suite: Suite{Name: "compare-fixture", Hash: "6f1c0ffee0ddba11"},
	Runs: []Run{
		{Label: "20261201-s1", RunID: "20261201-s1", Shard: "1/2", Host: Host{CPUModel: "AMD EPYC", LogicalCPUs: 2, Hostname: "ci"}},
		{Label: "20261201-s2", RunID: "20261201-s2", Shard: "2/2", Host: Host{CPUModel: "Intel Xeon", LogicalCPUs: 4, Hostname: "ci-2"}},
	},
	Rows: []Row{
		{ID: model.Reference, Test: "json", Connections: 16, Pipeline: 1, Run: "20261201-s1", PeakRPS: 50000, MedianP99: 1.2},
		{ID: model.MustID("nextjs/default"), Test: "json", Connections: 16, Pipeline: 1, Run: "20261201-s1", PeakRPS: 2000, MedianRatio: ptr(0.04), MedianP99: 20},
		{ID: model.MustID("node-http/default"), Test: "json", Connections: 16, Pipeline: 1, Run: "20261201-s2", PeakRPS: 20250, MedianRatio: ptr(0.5), MedianP99: 5},
	},
}

func TestFrom(t *testing.T) {
	got, err := From([]string{"testdata/night1-shard1.json", "testdata/night1-shard2.json"}, "2026-12-01", "abc123")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, night1) {
		t.Errorf("From =\n%s\nwant\n%s", js(t, got), js(t, night1))
	}
	// The merged file of the same two runs is the same night, the runs
	// labelled as tfbench merge labelled them.
	merged, err := From([]string{"testdata/night1-merged.json"}, "2026-12-01", "abc123")
	if err != nil {
		t.Fatal(err)
	}
	want := night1
	want.Runs = []Run{night1.Runs[0], night1.Runs[1]}
	want.Runs[0].Label, want.Runs[1].Label = "night1-shard1", "night1-shard2"
	want.Rows = append([]Row(nil), night1.Rows...)
	for i := range want.Rows {
		want.Rows[i].Run = map[string]string{"20261201-s1": "night1-shard1", "20261201-s2": "night1-shard2"}[want.Rows[i].Run]
	}
	if !reflect.DeepEqual(merged, want) {
		t.Errorf("From(merged) =\n%s\nwant\n%s", js(t, merged), js(t, want))
	}
	// Compare's slow run: nextjs's per-round ratios 0.0317 0.0322 0.0318
	// 0.0321 0.0319, median 0.0319.
	n2, err := From([]string{"testdata/night2-shard1.json"}, "2026-12-02", "")
	if err != nil {
		t.Fatal(err)
	}
	if r := n2.Rows[1]; r.ID.Framework != "nextjs" || r.PeakRPS != 1600 || r.MedianRatio == nil || *r.MedianRatio != 0.0319 || r.MedianP99 != 25 {
		t.Errorf("night 2's nextjs row = %s", js(t, r))
	}
}

func TestFromErrors(t *testing.T) {
	for _, c := range []struct {
		paths []string
		date  string
		want  string
	}{
		{[]string{"testdata/night1-shard1.json"}, "2026-13-01", `date "2026-13-01" is not YYYY-MM-DD`},
		{[]string{"testdata/night1-shard1.json"}, "1 Dec 2026", `date "1 Dec 2026" is not YYYY-MM-DD`},
		{nil, "2026-12-01", "no results file"},
		{[]string{"testdata/none.json"}, "2026-12-01", "open testdata/none.json: no such file or directory"},
		{[]string{"testdata/night1-shard1.json", "testdata/night3-method1.json"}, "2026-12-01",
			"20261201-s1: method version 2, 20261203-s1: method version 1: results measured by different methods never merge"},
	} {
		if _, err := From(c.paths, c.date, ""); err == nil || err.Error() != c.want {
			t.Errorf("From(%q, %q) = %v, want %q", c.paths, c.date, err, c.want)
		}
	}
}

func TestAppend(t *testing.T) {
	h := &History{Schema: 1}
	n2 := Night{Date: "2026-12-02", MethodVersion: 2}
	n3 := Night{Date: "2026-12-03", MethodVersion: 2}
	h = Append(Append(h, n3), n2)
	h2 := Append(h, night1)
	if got := dates(h2); got != "2026-12-01 2026-12-02 2026-12-03" {
		t.Errorf("nights %s, want sorted by date", got)
	}
	if got := dates(h); got != "2026-12-02 2026-12-03" {
		t.Errorf("Append changed its input: %s", got)
	}
	// A re-run of 2026-12-02 replaces that night.
	rerun := Night{Date: "2026-12-02", MethodVersion: 2, Commit: "def"}
	h3 := Append(h2, rerun)
	if got := dates(h3); got != "2026-12-01 2026-12-02 2026-12-03" || h3.Nights[1].Commit != "def" {
		t.Errorf("after a re-run: nights %s, 2026-12-02's commit %q", got, h3.Nights[1].Commit)
	}
}

func dates(h *History) string {
	var d []string
	for _, n := range h.Nights {
		d = append(d, n.Date)
	}
	return strings.Join(d, " ")
}

// TestLoadWrite: a missing file is an empty history; what Write writes
// Load reads back equal; no temporary file is left.
func TestLoadWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "history.json")
	h, err := Load(path)
	if err != nil || h.Schema != 1 || len(h.Nights) != 0 {
		t.Fatalf("Load(missing) = %+v, %v; want an empty history", h, err)
	}
	h = Append(h, night1)
	if err := Write(path, h); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, h) {
		t.Errorf("read back\n%s\nwant\n%s", js(t, back), js(t, h))
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d files in the folder, want history.json alone", len(entries))
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), "{\n \"schema\": 1,\n \"nights\": [\n  {\n   \"date\": \"2026-12-01\",\n   \"commit\": \"abc123\",") {
		t.Errorf("history.json begins\n%.200s", data)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ content, want string }{
		{"{", "%s: not a tfbench history file: unexpected end of JSON input"},
		{`{"schema": 2, "nights": []}`, "%s: history schema 2, this tfbench reads schema 1"},
		{`{"schema": 1, "nights": [{"date": "2026-12-1"}]}`, `%s: night 1: date "2026-12-1" is not YYYY-MM-DD`},
		{`{"schema": 1, "nights": [{"date": "2026-12-01"}, {"date": "2026-12-01"}]}`, "%s: two nights dated 2026-12-01"},
	} {
		path := filepath.Join(dir, "history.json")
		if err := os.WriteFile(path, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		want := strings.ReplaceAll(c.want, "%s", path)
		if _, err := Load(path); err == nil || err.Error() != want {
			t.Errorf("Load(%s) = %v, want %q", c.content, err, want)
		}
	}
}

func js(t *testing.T, v any) string {
	t.Helper()
	data, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

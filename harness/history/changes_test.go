package history

import (
	"crypto/sha1"
	"encoding/hex"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/internal/golden"
)

// stepHistory is testdata/step-history.json: 40 nights from 2026-11-01,
// noise log-normal σ 3% (seed 37), with planted changes: node-http's json
// ratio −15% (RPS with it, p99 +20%) from night 25 (2026-11-26);
// nextjs's page N=1000 ratio +25% (p99 −20%) from night 15 (2026-11-16), a
// gain; node-http has no row on night 10; the method changes at night 35
// (2026-12-06), so the last 5 nights are a stretch of their own.
func stepHistory() *History {
	r := rand.New(rand.NewPCG(37, 37))
	noise := func(v float64) float64 { return v * math.Exp(0.03*r.NormFloat64()) }
	h := &History{Schema: SchemaVersion}
	day, _ := time.Parse(DateLayout, "2026-11-01")
	node, nextjs := model.MustID("node-http/default"), model.MustID("nextjs/default")
	for i := range 40 {
		date := day.AddDate(0, 0, i).Format(DateLayout)
		sum := sha1.Sum([]byte(date))
		n := Night{Date: date, Commit: hex.EncodeToString(sum[:]), MethodVersion: 2, Suite: Suite{Name: "nightly", Hash: "5ca1ab1e"}}
		if i >= 35 {
			n.MethodVersion = 3
		}
		label := strings.ReplaceAll(date, "-", "") + "-s1"
		n.Runs = []Run{{Label: label, RunID: label, Host: Host{CPUModel: "AMD EPYC", LogicalCPUs: 2, Hostname: "ci"}}}
		row := func(id model.ID, test string, nn int, rps, p99 float64, ratio float64) Row {
			x := Row{ID: id, Test: test, N: nn, Connections: 16, Pipeline: 1, Run: label, PeakRPS: roundTo(rps, 1e1), MedianP99: roundTo(p99, 1e3)}
			if ratio > 0 {
				x.MedianRatio = ptr(roundTo(ratio, 1e4))
			}
			return x
		}
		ref := noise(50000)
		n.Rows = append(n.Rows, row(model.Reference, "json", 0, ref, noise(1.2), 0))
		if i != 10 {
			ratio, p99 := noise(0.5), noise(5)
			if i >= 25 {
				ratio, p99 = ratio*0.85, p99*1.2
			}
			n.Rows = append(n.Rows, row(node, "json", 0, ref*ratio, p99, ratio))
		}
		page := noise(8000)
		n.Rows = append(n.Rows, row(model.Reference, "page", 1000, page, noise(8), 0))
		ratio, p99 := noise(0.2), noise(30)
		if i >= 15 {
			ratio, p99 = ratio*1.25, p99*0.8
		}
		n.Rows = append(n.Rows, row(nextjs, "page", 1000, page*ratio, p99, ratio))
		h = Append(h, n)
	}
	return h
}

// TestStepFixture: testdata/step-history.json is stepHistory (rewrite it
// with -update) and loads back equal.
func TestStepFixture(t *testing.T) {
	h := stepHistory()
	golden.Check(t, "step-history.json", js(t, h)+"\n")
	back, err := Load("testdata/step-history.json")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, h) {
		t.Error("step-history.json does not load back as stepHistory")
	}
}

// TestChanges: the planted changes of step-history.json and nothing else,
// newest first; the three fixture nights have none.
func TestChanges(t *testing.T) {
	h, err := Load("testdata/step-history.json")
	if err != nil {
		t.Fatal(err)
	}
	cps := Changes(h)
	var ids []string
	for _, c := range cps {
		ids = append(ids, c.ID)
	}
	want := []string{
		"2026-11-26-node-http-default-json-ratio", "2026-11-26-node-http-default-json-rps", "2026-11-26-node-http-default-json-p99",
		// The p99 gain is found a night late: noise.
		"2026-11-17-nextjs-default-page-1000-p99",
		"2026-11-16-nextjs-default-page-1000-ratio", "2026-11-16-nextjs-default-page-1000-rps",
	}
	if !slices.Equal(ids, want) {
		t.Fatalf("change points %q, want %q", ids, want)
	}
	c := cps[0]
	wantC := ChangePoint{ID: want[0], Framework: "node-http", Variant: "default", Test: "json", Figure: "ratio", Worse: true,
		Before: NightRef{"2026-11-25", "1592b410321216d384753b5f4ba3b8c31b0e1b43"}, After: NightRef{"2026-11-26", "9c7f0245f181bcfaab5140dc01fada21e08dd9a5"},
		Size: -0.1791, Lo: -0.201, Hi: -0.1407, P: 1.02e-06, NightsBefore: 14, NightsAfter: 10}
	if c != wantC {
		t.Errorf("the ratio's change point\n%+v\nwant\n%+v", c, wantC)
	}
	// Worse: a p99 rise is, a p99 fall and a ratio rise are not.
	for i, w := range []bool{true, true, true, false, false, false} {
		if cps[i].Worse != w {
			t.Errorf("%s: worse %v, want %v", cps[i].ID, cps[i].Worse, w)
		}
	}
	if got := Changes(threeNights(t)); len(got) != 0 {
		t.Errorf("the three fixture nights: %+v, want no change point", got)
	}
	if got := Changes(&History{Schema: SchemaVersion}); len(got) != 0 {
		t.Errorf("no nights: %+v", got)
	}
}

// TestChangesStretch: a step at a method break is no change point: the
// nights either side are searched apart.
func TestChangesStretch(t *testing.T) {
	h := stepHistory()
	// Nights 25 on (the step) measured by method 3: each stretch is flat.
	for i := range h.Nights {
		h.Nights[i].MethodVersion = 2
		if i >= 25 {
			h.Nights[i].MethodVersion = 3
		}
	}
	for _, c := range Changes(h) {
		if strings.Contains(c.ID, "node-http") {
			t.Errorf("%s found across the method break", c.ID)
		}
	}
}

func TestChangeID(t *testing.T) {
	for _, c := range []struct {
		id           model.ID
		test         string
		n            int
		figure, want string
	}{
		{model.MustID("node-http/default"), "json", 0, "ratio", "2026-12-04-node-http-default-json-ratio"},
		{model.MustID("nextjs/app_router"), "page", 1000, "p99", "2026-12-04-nextjs-app-router-page-1000-p99"},
	} {
		if got := ChangeID("2026-12-04", c.id, c.test, c.n, c.figure); got != c.want {
			t.Errorf("ChangeID = %q, want %q", got, c.want)
		}
	}
}

// TestChangePages pins changes.json, changes.md and the ratio's
// regression page of step-history.json; a published bisect.md is
// included with its headings moved under the page's.
func TestChangePages(t *testing.T) {
	h, err := Load("testdata/step-history.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	paths, err := Trends(dir, h)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range paths {
		rel, _ := filepath.Rel(dir, p)
		names = append(names, filepath.ToSlash(rel))
	}
	const id = "2026-11-26-node-http-default-json-ratio"
	want := []string{"index.md", "json-ratio.svg", "json-p99.svg", "page-1000-ratio.svg", "page-1000-p99.svg", "changes.json", "changes.md",
		"regressions/" + id + ".md", "regressions/" + id + ".svg",
		"regressions/2026-11-26-node-http-default-json-rps.md", "regressions/2026-11-26-node-http-default-json-rps.svg",
		"regressions/2026-11-26-node-http-default-json-p99.md", "regressions/2026-11-26-node-http-default-json-p99.svg"}
	if !slices.Equal(names, want) {
		t.Errorf("wrote %q\nwant %q", names, want)
	}
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	golden.Check(t, "step-changes.json", read("changes.json"))
	golden.Check(t, "step-changes.md", read("changes.md"))
	golden.Check(t, "step-regression.md", read("regressions/"+id+".md"))
	golden.Check(t, "step-index.md", read("index.md"))
	back, err := ReadChanges(filepath.Join(dir, "changes.json"))
	if err != nil || !reflect.DeepEqual(back, Changes(h)) {
		t.Errorf("ReadChanges = %v, %v; want Changes(h)", back, err)
	}
	// The charts ring the change points: node-http's ratio and p99, nextjs's.
	for name, label := range map[string]string{
		"json-ratio.svg": "node-http/default −17.9%", "json-p99.svg": "node-http/default +20.2%",
		"page-1000-ratio.svg": "nextjs/default +24.4%", "page-1000-p99.svg": "nextjs/default −19.4%",
		"regressions/" + id + ".svg": "−17.9%",
	} {
		if texts := svgTexts(t, filepath.Join(dir, name)); !slices.Contains(texts, label) {
			t.Errorf("%s has no ring label %q: %q", name, label, texts)
		}
		if data := read(name); strings.Count(data, `r="7"`) != 1 {
			t.Errorf("%s has %d rings, want 1", name, strings.Count(data, `r="7"`))
		}
	}

	// The bisect workflow publishes its page: the next run includes it.
	bisect := "# Bisect of node-http:default on json\n\n## Steps\n\n```sh\n# a comment, not a heading\n```\n\nFirst bad commit: `9c7f024`.\n"
	if err := os.MkdirAll(filepath.Join(dir, "regressions", id), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "regressions", id, "bisect.md"), []byte(bisect), 0o644)
	os.WriteFile(filepath.Join(dir, "regressions", id, "diff.folded"), []byte("main;f 1 2\n"), 0o644)
	if _, err := Trends(dir, h); err != nil {
		t.Fatal(err)
	}
	page := read("regressions/" + id + ".md")
	wantText := "## Bisect\n\n### Bisect of node-http:default on json\n\n#### Steps\n\n```sh\n# a comment, not a heading\n```\n\nFirst bad commit: `9c7f024`.\n\n" +
		"The differential folded stacks: [diff.folded](" + id + "/diff.folded).\n\n## Reproduce it locally\n"
	if !strings.Contains(page, wantText) {
		t.Errorf("the regression page does not include the bisect as\n%s\npage:\n%s", wantText, page)
	}
}

func TestReadChanges(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "changes.json")
	if cps, err := ReadChanges(path); err != nil || cps != nil {
		t.Errorf("a missing file: %v, %v; want none", cps, err)
	}
	for _, c := range []struct{ content, want string }{
		{"{", "%s: not a tfbench changes file: unexpected end of JSON input"},
		{`{"schema": 2, "changes": []}`, "%s: changes schema 2, this tfbench reads schema 1"},
	} {
		os.WriteFile(path, []byte(c.content), 0o644)
		if _, err := ReadChanges(path); err == nil || err.Error() != strings.ReplaceAll(c.want, "%s", path) {
			t.Errorf("ReadChanges(%s) = %v, want %q", c.content, err, c.want)
		}
	}
	if err := WriteChanges(path, nil); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "{\n \"schema\": 1,\n \"changes\": []\n}\n" {
		t.Errorf("an empty changes file:\n%s", data)
	}
}

// TestNewRegressions: worse ratio changes not in the previous file, nor
// moved there by a few nights; a better change, another figure, an old ID
// are not new.
func TestNewRegressions(t *testing.T) {
	h, err := Load("testdata/step-history.json")
	if err != nil {
		t.Fatal(err)
	}
	cur := Changes(h)
	got := NewRegressions(nil, cur)
	if len(got) != 1 || got[0].ID != "2026-11-26-node-http-default-json-ratio" {
		t.Errorf("NewRegressions(none before) = %+v, want node-http's ratio", got)
	}
	if got := NewRegressions(cur[:1], cur); len(got) != 0 {
		t.Errorf("NewRegressions(itself before) = %+v, want none", got)
	}
	// The same change, its first night moved by 2 days as nights arrived:
	// not new; moved by 5 (past MovedNights): new.
	c := got[0]
	for _, tc := range []struct {
		after string
		isNew bool
	}{{"2026-11-24", false}, {"2026-11-28", false}, {"2026-11-21", true}, {"2026-12-01", true}} {
		moved := c
		moved.After.Date = tc.after
		moved.ID = ChangeID(moved.After.Date, moved.Row(), moved.Test, moved.N, moved.Figure)
		if got := NewRegressions([]ChangePoint{moved}, []ChangePoint{c}); (len(got) == 1) != tc.isNew {
			t.Errorf("previous change at %s: NewRegressions = %+v, want new %v", tc.after, got, tc.isNew)
		}
	}
	other := c
	other.Figure, other.ID = FigureRPS, "y"
	if got := NewRegressions([]ChangePoint{other}, []ChangePoint{c}); len(got) != 1 {
		t.Errorf("a change of another figure made the ratio's not new: %+v", got)
	}
	ref := cur[0]
	ref.Framework, ref.ID = "go-stdlib", "x"
	if got := NewRegressions(nil, []ChangePoint{ref}); len(got) != 0 {
		t.Errorf("go-stdlib's change is new: %+v", got)
	}
}

// TestChangeIDClash: two variants whose names slug alike would share a
// regression page: Trends refuses.
func TestChangeIDClash(t *testing.T) {
	h := stepHistory()
	for i := range h.Nights {
		for _, r := range h.Nights[i].Rows {
			if r.ID.Framework == "node-http" {
				r.ID.Framework = "node_http"
				h.Nights[i].Rows = append(h.Nights[i].Rows, r)
				break
			}
		}
	}
	want := "trends: node-http/default json and node_http/default json would both be change 2026-11-26-node-http-default-json-ratio"
	if _, err := Trends(t.TempDir(), h); err == nil || err.Error() != want {
		t.Errorf("Trends = %v, want %q", err, want)
	}
}

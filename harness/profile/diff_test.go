package profile

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/tfbench/tfbench/internal/golden"
)

// checkStacks: p's stacks sum to its Total, none has (root) or (idle),
// and each leaf is one of its functions (name and file without line).
func checkStacks(t *testing.T, name string, p *Profile) {
	t.Helper()
	if len(p.Stacks) == 0 {
		t.Fatalf("%s: no stacks", name)
	}
	funcs := map[string]bool{}
	for _, f := range p.Funcs {
		funcs[site{name: f.Name}.frameWith(withoutLine(f.File))] = true
	}
	var sum time.Duration
	for _, st := range p.Stacks {
		sum += st.Self
		if st.Self <= 0 || len(st.Frames) == 0 {
			t.Errorf("%s: stack %q self %v", name, st.Frames, st.Self)
			continue
		}
		for _, f := range st.Frames {
			if f == "(root)" || f == "(idle)" {
				t.Errorf("%s: frame %q in %q", name, f, st.Frames)
			}
		}
		if leaf := st.Frames[len(st.Frames)-1]; !funcs[leaf] {
			t.Errorf("%s: leaf %q of %q is no function of the profile", name, leaf, st.Frames)
		}
	}
	if sum != p.Total {
		t.Errorf("%s: stacks sum to %v, total %v", name, sum, p.Total)
	}
	if !slices.IsSortedFunc(p.Stacks, func(a, b Stack) int { return slices.Compare(a.Frames, b.Frames) }) {
		t.Errorf("%s: stacks not in frame order", name)
	}
}

// TestStacksFixtures: the Node and Go fixtures' stacks add up to their
// sampled time, leaves are their functions; Sum adds stacks with the same
// frames (each doubled when a profile is summed with itself).
func TestStacksFixtures(t *testing.T) {
	node, gop := read(t, "testdata/node.cpuprofile"), read(t, "testdata/go.pprof")
	checkStacks(t, "node", node)
	checkStacks(t, "go", gop)
	sum := Sum(node, gop)
	checkStacks(t, "sum", sum)
	if len(sum.Stacks) != len(node.Stacks)+len(gop.Stacks) {
		t.Errorf("sum: %d stacks, want %d + %d", len(sum.Stacks), len(node.Stacks), len(gop.Stacks))
	}
	twice := Sum(node, node)
	if len(twice.Stacks) != len(node.Stacks) {
		t.Fatalf("node twice: %d stacks, want %d", len(twice.Stacks), len(node.Stacks))
	}
	for i, st := range twice.Stacks {
		if !slices.Equal(st.Frames, node.Stacks[i].Frames) || st.Self != 2*node.Stacks[i].Self {
			t.Errorf("node twice: stack %q %v, want %q %v", st.Frames, st.Self, node.Stacks[i].Frames, 2*node.Stacks[i].Self)
		}
	}
	// The Node fixture's app code runs under Node's module loader.
	want := []string{"(anonymous) (node:internal/main/run_main_module)", "executeUserEntryPoint (node:internal/modules/run_main)"}
	found := false
	for _, st := range node.Stacks {
		found = found || slices.Equal(st.Frames[:min(2, len(st.Frames))], want) && strings.HasPrefix(st.Frames[len(st.Frames)-1], "encode (@tiny/json/index.js)")
	}
	if !found {
		t.Errorf("node: no stack from %q to encode (@tiny/json/index.js)", want)
	}
}

// frameWith is a site's frame with file as shortened.
func (s site) frameWith(file string) string {
	return site{name: s.name, file: file}.frame("")
}

// TestStacksNode pins the stacks of a hand-made .cpuprofile: root first,
// without (root) and (idle), a builtin as "(native)", the same frames
// merged.
func TestStacksNode(t *testing.T) {
	p := read(t, "testdata/diff-b.cpuprofile")
	want := []Stack{
		{[]string{"(garbage collector)"}, 2 * time.Millisecond},
		{[]string{"(program)"}, time.Millisecond},
		{[]string{"handler (app/server.mjs)"}, time.Millisecond},
		{[]string{"handler (app/server.mjs)", "escapeHtml (app/server.mjs)"}, 6 * time.Millisecond},
		{[]string{"handler (app/server.mjs)", "escapeHtml (app/server.mjs)", "escapeOne (app/server.mjs)"}, 2 * time.Millisecond},
		{[]string{"handler (app/server.mjs)", "stringify (native)"}, time.Millisecond},
	}
	if !slices.EqualFunc(p.Stacks, want, func(a, b Stack) bool { return slices.Equal(a.Frames, b.Frames) && a.Self == b.Self }) {
		t.Errorf("stacks %q\nwant %q", p.Stacks, want)
	}
}

// TestStacksPprofInlined: a pprof sample's stack runs from its last
// location to its first, each location's inlined functions caller first;
// an unsymbolized location is its mapping's file.
func TestStacksPprofInlined(t *testing.T) {
	fns := []*profile.Function{
		{ID: 1, Name: "runtime.goexit", Filename: "/usr/local/go/src/runtime/asm_amd64.s", StartLine: 1700},
		{ID: 2, Name: "main.handler", Filename: "/src/app/main.go", StartLine: 12},
		{ID: 3, Name: "main.render", Filename: "/src/app/render.go", StartLine: 5},
		{ID: 4, Name: "main.escape", Filename: "/src/app/render.go", StartLine: 30},
	}
	libc := &profile.Mapping{ID: 1, File: "/usr/lib/x86_64-linux-gnu/libc.so.6"}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		Function:   fns, Mapping: []*profile.Mapping{libc},
		Location: []*profile.Location{
			{ID: 1, Address: 0x7f00, Mapping: libc},
			// main.escape and main.render inlined into main.handler.
			{ID: 2, Address: 0x1000, Line: []profile.Line{{Function: fns[3], Line: 31}, {Function: fns[2], Line: 7}, {Function: fns[1], Line: 14}}},
			{ID: 3, Address: 0x2000, Line: []profile.Line{{Function: fns[0], Line: 1701}}},
		},
	}
	p.Sample = []*profile.Sample{
		{Location: []*profile.Location{p.Location[0], p.Location[1], p.Location[2]}, Value: []int64{1, 10_000_000}},
		{Location: []*profile.Location{p.Location[1], p.Location[2]}, Value: []int64{2, 20_000_000}},
		{Location: []*profile.Location{p.Location[1], p.Location[2]}, Value: []int64{1, 10_000_000}},
	}
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "inlined.pprof")
	os.WriteFile(file, b.Bytes(), 0o644)
	got := read(t, file)
	root := []string{"runtime.goexit (runtime/asm_amd64.s)", "main.handler (app/main.go)", "main.render (app/render.go)", "main.escape (app/render.go)"}
	want := []Stack{
		{root, 30 * time.Millisecond},
		{append(slices.Clip(root), "[libc.so.6]"), 10 * time.Millisecond},
	}
	if !slices.EqualFunc(got.Stacks, want, func(a, b Stack) bool { return slices.Equal(a.Frames, b.Frames) && a.Self == b.Self }) {
		t.Errorf("stacks %q\nwant %q", got.Stacks, want)
	}
	checkStacks(t, "inlined", got)
}

// readDiffFixtures reads the hand-made profiles diff-a (6 ms sampled:
// handler 1, escapeHtml 2, stringify 1, GC 1, (program) 1; idle 2) and
// diff-b (13 ms: handler 1, escapeHtml 6, its new callee escapeOne 2,
// stringify 1, GC 2, (program) 1; handler and escapeHtml 2 lines lower).
func readDiffFixtures(t *testing.T) (a, b *Profile) {
	return read(t, "testdata/diff-a.cpuprofile"), read(t, "testdata/diff-b.cpuprofile")
}

// TestDiff pins the figures of diff-a over 4 requests against diff-b over
// 5: per request, sorted by |Δ|; a function moved down its file is one row.
func TestDiff(t *testing.T) {
	a, b := readDiffFixtures(t)
	d := Diff(a, b, 4, 5)
	if d.A.PerRequest != 1.5 || d.B.PerRequest != 2.6 || d.A.Requests != 4 || d.B.Requests != 5 || d.A.Profile != a || d.B.Profile != b || d.A.Label != "" || d.B.Label != "" {
		t.Errorf("sides %+v %+v", d.A, d.B)
	}
	if math.Abs(d.Delta()-1.1) > 1e-12 {
		t.Errorf("delta %v, want 1.1", d.Delta())
	}
	app, node, gc := AreaApp, AreaNode, AreaRuntime
	wantAreas := []DiffRow{
		{app, "", app, 0.75, 1.8, 1.05},
		{gc, "", gc, 0.25, 0.4, 0.15},
		{node, "", node, 0.5, 0.4, -0.1},
	}
	wantFuncs := []DiffRow{
		{"escapeHtml", "app/server.mjs", app, 0.5, 1.2, 0.7},
		{"escapeOne", "app/server.mjs", app, 0, 0.4, 0.4},
		{"(garbage collector)", "", gc, 0.25, 0.4, 0.15},
		{"(program)", "", node, 0.25, 0.2, -0.05},
		{"handler", "app/server.mjs", app, 0.25, 0.2, -0.05},
		{"stringify", "(native)", node, 0.25, 0.2, -0.05},
	}
	same := func(x, y DiffRow) bool {
		near := func(u, v float64) bool { return math.Abs(u-v) < 1e-12 }
		return x.Name == y.Name && x.File == y.File && x.Area == y.Area && near(x.A, y.A) && near(x.B, y.B) && near(x.Delta, y.Delta)
	}
	if !slices.EqualFunc(d.Areas, wantAreas, same) {
		t.Errorf("areas %+v\nwant %+v", d.Areas, wantAreas)
	}
	if !slices.EqualFunc(d.Funcs, wantFuncs, same) {
		t.Errorf("funcs %+v\nwant %+v", d.Funcs, wantFuncs)
	}
}

// TestDiffPanics: Diff refuses a side without requests.
func TestDiffPanics(t *testing.T) {
	a, b := readDiffFixtures(t)
	defer func() {
		if r := recover(); r != "profile.Diff: requests 0 and 5, want both > 0" {
			t.Errorf("recovered %v", r)
		}
	}()
	Diff(a, b, 0, 5)
}

// TestWriteDiffGolden pins WriteDiff of diff-a (4 requests) against diff-b
// (5) with every row, and with 1 row (the other two areas as "other").
func TestWriteDiffGolden(t *testing.T) {
	a, b := readDiffFixtures(t)
	for _, c := range []struct {
		name string
		top  int
	}{{"diff.golden", 0}, {"diff-top1.golden", 1}} {
		var out bytes.Buffer
		if err := WriteDiff(&out, Diff(a, b, 4, 5), c.top); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, c.name, out.String())
	}
}

// TestWriteFoldedDiff: a line per stack of either side, "stack A B" in ns
// per request, in stack order.
func TestWriteFoldedDiff(t *testing.T) {
	a, b := readDiffFixtures(t)
	var out bytes.Buffer
	if err := WriteFoldedDiff(&out, a, b, 4, 5); err != nil {
		t.Fatal(err)
	}
	want := `(garbage collector) 250000 400000
(program) 250000 200000
handler (app/server.mjs) 250000 200000
handler (app/server.mjs);escapeHtml (app/server.mjs) 500000 1200000
handler (app/server.mjs);escapeHtml (app/server.mjs);escapeOne (app/server.mjs) 0 400000
handler (app/server.mjs);stringify (native) 250000 200000
`
	if out.String() != want {
		t.Errorf("folded diff\n%s\nwant\n%s", out.String(), want)
	}
	golden.Check(t, "diff.folded", out.String())
}

// TestWriteFolded: plain folded stacks, ns per request or ns; a stack that
// rounds to 0 is left out, and ";" in a frame becomes ":".
func TestWriteFolded(t *testing.T) {
	a, _ := readDiffFixtures(t)
	for _, c := range []struct {
		requests int64
		want     string
	}{
		{4, "(garbage collector) 250000\n(program) 250000\nhandler (app/server.mjs) 250000\nhandler (app/server.mjs);escapeHtml (app/server.mjs) 500000\nhandler (app/server.mjs);stringify (native) 250000\n"},
		{0, "(garbage collector) 1000000\n(program) 1000000\nhandler (app/server.mjs) 1000000\nhandler (app/server.mjs);escapeHtml (app/server.mjs) 2000000\nhandler (app/server.mjs);stringify (native) 1000000\n"},
		{5_000_000, ""},
	} {
		var out bytes.Buffer
		if err := WriteFolded(&out, a, c.requests); err != nil {
			t.Fatal(err)
		}
		if out.String() != c.want {
			t.Errorf("requests %d: folded\n%s\nwant\n%s", c.requests, out.String(), c.want)
		}
	}
	odd := &Profile{Stacks: []Stack{{Frames: []string{"a;b", "c\nd"}, Self: 7}}}
	var out bytes.Buffer
	WriteFolded(&out, odd, 0)
	if out.String() != "a:b;c d 7\n" {
		t.Errorf("odd frames: %q", out.String())
	}
}

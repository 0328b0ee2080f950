package chart

import (
	"bytes"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-analyze/charts"

	"github.com/tfbench/tfbench/internal/golden"
)

// shipped are the framework variants of frameworks/*/framework.yaml.
var shipped = []string{
	"astro/default",
	"engine/pool", "engine/serialized", "engine/jsx-runtime", "engine/arrival",
	"go-stdlib/default",
	"nextjs/default", "nextjs/fast-webstreams",
	"node-http/default",
	"qwik/default",
	"react-router/serve", "react-router/custom-server",
	"solidstart/default",
	"vinext/default", "vinext/server-edge", "vinext/node26",
}

// TestShippedListsEveryAdapter: shipped names a variant of every adapter
// in frameworks/, so a new adapter joins TestStylesShipped.
func TestShippedListsEveryAdapter(t *testing.T) {
	dirs, err := os.ReadDir("../../frameworks")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		if !slices.ContainsFunc(shipped, func(s string) bool { return strings.HasPrefix(s, d.Name()+"/") }) {
			t.Errorf("frameworks/%s has no variant in shipped", d.Name())
		}
	}
}

// TestStylesShipped: every variant we ship, and two runs of one variant,
// in one chart get pairwise different looks (colour, dash), each in its
// name's colour: collisions are told apart by dashes alone.
func TestStylesShipped(t *testing.T) {
	keys := append(slices.Clone(shipped), "vinext/default", "go-stdlib/default")
	st := styles(keys)
	seen := map[string]string{}
	for i, s := range st {
		look := s.colour.String() + " dashed " + fmtDash(s.dash)
		if other, ok := seen[look]; ok {
			t.Errorf("%s and %s look alike: %s", keys[i], other, look)
		}
		seen[look] = keys[i]
		if s.colour != colourOf(keys[i]) {
			t.Errorf("%s drawn %s, want its name's colour %s", keys[i], s.colour, colourOf(keys[i]))
		}
	}
}

func fmtDash(d []float64) string {
	var parts []string
	for _, v := range d {
		parts = append(parts, strconv.FormatFloat(v, 'f', -1, 64))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// TestStylesCollision: names of one colour get solid, then the dashes in
// order of name, whatever the order of the series and whatever else the
// chart holds. go-stdlib/default and solidstart/default share a colour
// (FNV-1a % 10 = 4), as do astro/default, node-http/default and
// react-router/serve (6).
func TestStylesCollision(t *testing.T) {
	if colourIndex("go-stdlib/default") != 4 || colourIndex("solidstart/default") != 4 {
		t.Fatalf("colour indices %d and %d, want 4 and 4", colourIndex("go-stdlib/default"), colourIndex("solidstart/default"))
	}
	for _, keys := range [][]string{
		{"solidstart/default", "go-stdlib/default", "react-router/serve", "node-http/default", "astro/default"},
		{"astro/default", "node-http/default", "react-router/serve", "go-stdlib/default", "solidstart/default", "qwik/default"},
	} {
		got := map[string]string{}
		for i, s := range styles(keys) {
			got[keys[i]] = fmtDash(s.dash)
		}
		want := map[string]string{
			"go-stdlib/default": "[]", "solidstart/default": "[7 3]",
			"astro/default": "[]", "node-http/default": "[7 3]", "react-router/serve": "[2 3]",
		}
		for k, w := range want {
			if got[k] != w {
				t.Errorf("series %q: %s dashed %s, want %s", keys, k, got[k], w)
			}
		}
	}
	// Past the four dashes of a colour, the next colour.
	st := styles([]string{"x", "x", "x", "x", "x"})
	if st[4].colour != charts.ColorFromHex(palette[(colourIndex("x")+1)%len(palette)]) || st[4].dash != nil {
		t.Errorf("fifth look %v, want the next colour solid", st[4])
	}
}

// ssr is the golden chart of the SSR suite's twelve lines: the adapters'
// default variants, engine/pool, two runs of vinext/default and one of
// react-router/custom-server named with their run, so colours repeat and
// some lines and swatches are dashed.
var ssr = func() XY {
	c := XY{Title: "page: peak RPS by page bytes", XTitle: "page bytes (log scale)", YTitle: "peak RPS (log scale)", LogY: true}
	for i, name := range []string{"go-stdlib/default", "node-http/default", "nextjs/default", "vinext/default (ci-shard-3-of-8)", "vinext/default (ci-shard-4-of-8)",
		"react-router/serve", "react-router/custom-server (nightly-2026-12-02)", "astro/default", "qwik/default", "solidstart/default", "engine/pool", "engine/serialized"} {
		key, _, _ := strings.Cut(name, " (")
		y := 30000 / float64(i+1)
		c.Series = append(c.Series, Series{Name: name, Key: key, Points: []Point{
			{2000, y, y * 0.9, y * 1.05}, {20000, y / 4, y / 4 * 0.8, y / 4 * 1.1}, {200000, y / 30, 0, 0}}})
	}
	return c
}()

// TestLinesDashedLegend: the twelve lines' legend swatches are dashed as
// their lines are, every line's look differs, and no legend name runs
// into the next entry of its row even 15% wider (Slack).
func TestLinesDashedLegend(t *testing.T) {
	svg := renderXY(t, ssr)
	golden.Check(t, "lines-dashed.svg", string(svg))
	n := parse(t, svg)
	keys := make([]string, len(ssr.Series))
	for i, s := range ssr.Series {
		keys[i] = s.Key
	}
	st := styles(keys)
	legendTop := PlotTop + PlotHeight + 64
	swatch := regexp.MustCompile(`^M (\d+) (\d+)\s+L (\d+) (\d+)$`)
	type entry struct{ x, y int }
	var entries []entry
	dashed := 0
	for _, p := range n.Paths {
		m := swatch.FindStringSubmatch(p.D)
		if m == nil {
			continue
		}
		x1, _ := strconv.Atoi(m[1])
		y1, _ := strconv.Atoi(m[2])
		x2, _ := strconv.Atoi(m[3])
		if y1 < legendTop-4 || x2-x1 != SwatchWidth {
			continue
		}
		i := len(entries)
		entries = append(entries, entry{x1, y1})
		want, dash := "stroke-width:2;stroke:"+st[i].colour.String()+";fill:none", ""
		if st[i].dash != nil {
			dash = strings.ReplaceAll(strings.Trim(fmtDash(st[i].dash), "[]"), " ", ", ")
			dashed++
		}
		if p.Style != want || p.Dash != dash {
			t.Errorf("swatch of %s styled %q dashed %q, want %q dashed %q", ssr.Series[i].Name, p.Style, p.Dash, want, dash)
		}
	}
	if len(entries) != len(ssr.Series) || dashed == 0 {
		t.Fatalf("%d swatches (%d dashed), want %d with some dashed", len(entries), dashed, len(ssr.Series))
	}
	m := charts.NewPainter(charts.PainterOptions{OutputFormat: charts.ChartOutputSVG, Width: Width, Height: 100})
	for i, s := range ssr.Series {
		x, y := textAt(t, n, s.Name)
		if x != entries[i].x+SwatchWidth+6 || y != entries[i].y+4 {
			t.Errorf("%s's name at (%d, %d), want right of its swatch at (%d, %d)", s.Name, x, y, entries[i].x, entries[i].y)
		}
		end := x + textWidth(m, s.Name, charts.FontStyle{FontSize: 11})
		if end > Width {
			t.Errorf("%s's name ends at x %d, past the chart", s.Name, end)
		}
		if i+1 < len(entries) && entries[i+1].y == entries[i].y && end >= entries[i+1].x {
			t.Errorf("%s's name ends at x %d, into the next swatch at %d", s.Name, end, entries[i+1].x)
		}
	}
}

// TestSameColourAcrossCharts: a variant's colour is its name's in a chart
// of other lines, other order and another kind (bars).
func TestSameColourAcrossCharts(t *testing.T) {
	one := renderXY(t, XY{Title: "a", Series: []Series{{Name: "engine/pool", Points: []Point{{X: 1, Y: 1}}}, {Name: "qwik/default", Points: []Point{{X: 1, Y: 2}}}}})
	two := renderXY(t, XY{Title: "b", Series: []Series{{Name: "astro/default", Points: []Point{{X: 1, Y: 1}}}, {Name: "engine/pool", Points: []Point{{X: 1, Y: 2}}}}})
	bar := render(t, BarChart{Title: "c", Bars: []Bar{{Label: "engine/pool", X: 1}}})
	want := colourOf("engine/pool").String()
	for name, svg := range map[string][]byte{"first": one, "second": two, "bars": bar} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("%s chart has no %s (engine/pool's colour)", name, want)
		}
	}
	// engine/pool hashes to 2: #e15759.
	if want != "rgb(225,87,89)" {
		t.Errorf("engine/pool's colour %s, want rgb(225,87,89) (palette[2])", want)
	}
}

package chart

import (
	"hash/fnv"
	"slices"
	"strings"

	"github.com/go-analyze/charts"
)

// palette holds the series and bar colours (Tableau 10). A key's colour is
// palette[fnv32a(key) % 10]: the same framework variant has the same
// colour in every chart of every run.
var palette = []string{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"}

// dashes are the line patterns (px drawn, px skipped, …) that tell apart
// the lines of one chart whose keys hash to one colour: solid first.
var dashes = [][]float64{nil, {7, 3}, {2, 3}, {10, 3, 2, 3}}

// style is how one series is drawn: its colour and dash pattern (nil:
// solid), in its line and its legend swatch alike.
type style struct {
	colour charts.Color
	dash   []float64
}

// colourIndex is key's index into palette: FNV-1a (32 bit) of its bytes
// modulo the palette's length, the same on every machine and run.
func colourIndex(key string) int {
	h := fnv.New32a()
	h.Write([]byte(key))
	return int(h.Sum32() % uint32(len(palette)))
}

// colourOf is key's colour (colourIndex).
func colourOf(key string) charts.Color { return charts.ColorFromHex(palette[colourIndex(key)]) }

// styles gives the lines of one chart, named keys[i] (a key may repeat:
// one variant of several runs), looks that differ pairwise: each its key's
// colour, solid; lines whose colour is taken take the next dash pattern,
// in order of key then index, so the result does not depend on which
// other lines the chart has before them. Past len(dashes) lines of one
// colour, the next colour of the palette; past all 40 looks, they repeat.
func styles(keys []string) []style {
	order := make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(keys[a], keys[b]) })
	type look struct{ colour, dash int }
	used := map[look]bool{}
	out := make([]style, len(keys))
	for _, i := range order {
		if len(used) == len(palette)*len(dashes) {
			clear(used) // more lines than looks: they repeat
		}
		l := look{colourIndex(keys[i]), 0}
		for used[l] {
			l.dash++
			if l.dash == len(dashes) {
				l = look{(l.colour + 1) % len(palette), 0}
			}
		}
		used[l] = true
		out[i] = style{charts.ColorFromHex(palette[l.colour]), dashes[l.dash]}
	}
	return out
}

// line draws points joined in s's colour and dash, width px wide; nothing
// for fewer than two points.
func (s style) line(p *charts.Painter, points []charts.Point, width float64) {
	if len(points) < 2 {
		return
	}
	if s.dash == nil {
		p.LineStroke(points, s.colour, width)
		return
	}
	p.DashedLineStroke(points, s.colour, width, s.dash)
}

package profile

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/tfbench/tfbench/harness/texttab"
)

// DiffResult compares two profiles per request: self time per request of
// each function and area on side A and B, in ms, sorted by how much it
// changed (docs/profiles.md, Comparing two profiles).
type DiffResult struct {
	A, B Side
	// Areas and Funcs are sorted by |Delta|, largest first (ties by name,
	// then file).
	Areas, Funcs []DiffRow
}

// Side is one side of a diff: its profile, the requests its load
// completed and its sampled time per request in ms.
type Side struct {
	// Label says what the side is, for WriteDiff's "A = LABEL" line ("":
	// no such line); DiffRuns sets the selector, variant and test.
	Label      string
	Profile    *Profile
	Requests   int64
	PerRequest float64 // ms of sampled time (Total) per request
}

// DiffRow is one function's (Name, File, Area) or area's (Name = Area,
// File "") self time per request, ms, on each side, and Delta = B − A.
// A function's File is Func's without its line, so that an edit above it
// does not split it in two.
type DiffRow struct {
	Name, File, Area string
	A, B, Delta      float64
}

// Diff is a's and b's self time per request: reqA and reqB are the
// requests each profile's load completed (results.Profile.Requests); both
// must be over 0 (Diff panics otherwise: DiffRuns refuses such records).
func Diff(a, b *Profile, reqA, reqB int64) *DiffResult {
	if reqA <= 0 || reqB <= 0 {
		panic(fmt.Sprintf("profile.Diff: requests %d and %d, want both > 0", reqA, reqB))
	}
	d := &DiffResult{
		A: Side{Profile: a, Requests: reqA, PerRequest: perRequest(a.Total, reqA)},
		B: Side{Profile: b, Requests: reqB, PerRequest: perRequest(b.Total, reqB)},
	}
	type key struct{ name, file, area string }
	type pair struct{ a, b time.Duration }
	funcs, areas := map[key]*pair{}, map[string]*pair{}
	add := func(p *Profile, side int) {
		for _, f := range p.Funcs {
			k := key{f.Name, withoutLine(f.File), f.Area}
			if funcs[k] == nil {
				funcs[k] = &pair{}
			}
			if areas[f.Area] == nil {
				areas[f.Area] = &pair{}
			}
			if side == 0 {
				funcs[k].a += f.Self
				areas[f.Area].a += f.Self
			} else {
				funcs[k].b += f.Self
				areas[f.Area].b += f.Self
			}
		}
	}
	add(a, 0)
	add(b, 1)
	row := func(name, file, area string, p *pair) DiffRow {
		ra, rb := perRequest(p.a, reqA), perRequest(p.b, reqB)
		return DiffRow{Name: name, File: file, Area: area, A: ra, B: rb, Delta: rb - ra}
	}
	for k, p := range funcs {
		d.Funcs = append(d.Funcs, row(k.name, k.file, k.area, p))
	}
	for name, p := range areas {
		d.Areas = append(d.Areas, row(name, "", name, p))
	}
	sortRows(d.Funcs)
	sortRows(d.Areas)
	return d
}

// Delta is B's sampled time per request minus A's, ms.
func (d *DiffResult) Delta() float64 { return d.B.PerRequest - d.A.PerRequest }

func perRequest(t time.Duration, requests int64) float64 {
	return float64(t) / float64(time.Millisecond) / float64(requests)
}

func sortRows(rows []DiffRow) {
	slices.SortFunc(rows, func(x, y DiffRow) int {
		return cmp.Or(cmp.Compare(math.Abs(y.Delta), math.Abs(x.Delta)), cmp.Compare(x.Name, y.Name), cmp.Compare(x.File, y.File))
	})
}

// lineRE is the ":LINE" at the end of a Func's File.
var lineRE = regexp.MustCompile(`:\d+$`)

func withoutLine(file string) string { return lineRE.ReplaceAllString(file, "") }

// WriteDiff prints d: each side's label, files, sampled time, requests and
// ms per request, then the areas and the functions whose self time per
// request changed most, top rows each (0: all; further areas, when more
// than one, sum to "other").
func WriteDiff(w io.Writer, d *DiffResult, top int) error {
	for i, s := range []Side{d.A, d.B} {
		name := string(rune('A' + i))
		if s.Label != "" {
			fmt.Fprintf(w, "%s = %s\n", name, s.Label)
		}
		for _, f := range s.Profile.Files {
			fmt.Fprintf(w, "%s: %s: %s, %s samples over %s: %s sampled%s\n",
				name, f.Path, f.Format, humanize.Comma(f.Samples), seconds(f.Wall), ms(f.Total), idleText(f.Idle))
		}
		fmt.Fprintf(w, "%s: %s sampled over %s requests: %s ms/request\n",
			name, ms(s.Profile.Total), humanize.Comma(s.Requests), msReq(s.PerRequest))
	}
	fmt.Fprintf(w, "B − A: %s ms/request (%s of A)\n", signed(d.Delta()), pctOf(d.Delta(), d.A.PerRequest))
	num := func(r DiffRow) []string {
		return []string{msReq(r.A), msReq(r.B), signed(r.Delta), pctOf(r.Delta, d.A.PerRequest)}
	}
	rows := [][]string{}
	for i, r := range d.Areas {
		if top > 0 && i == top && len(d.Areas) > top+1 {
			var rest DiffRow
			for _, x := range d.Areas[i:] {
				rest.A, rest.B, rest.Delta = rest.A+x.A, rest.B+x.B, rest.Delta+x.Delta
			}
			rows = append(rows, append([]string{fmt.Sprintf("other (%d areas)", len(d.Areas)-i)}, num(rest)...))
			break
		}
		rows = append(rows, append([]string{r.Name}, num(r)...))
	}
	right := texttab.Right
	fmt.Fprintf(w, "\nself time per request by area:\n\n")
	if err := texttab.Markdown(w, texttab.Table{
		Header: []string{"area", "A ms/req", "B ms/req", "Δ ms/req", "Δ % of A's total"}, Rows: rows,
		Align: []texttab.Align{texttab.Left, right, right, right, right}}); err != nil {
		return err
	}
	funcs := d.Funcs
	if top > 0 && len(funcs) > top {
		funcs = funcs[:top]
	}
	rows = rows[:0]
	for _, r := range funcs {
		rows = append(rows, append([]string{r.Name, r.File}, num(r)...))
	}
	fmt.Fprintf(w, "\nfunctions whose self time per request changed most (%d of %d):\n\n", len(funcs), len(d.Funcs))
	return texttab.Markdown(w, texttab.Table{
		Header: []string{"function", "file", "A ms/req", "B ms/req", "Δ ms/req", "Δ % of A's total"}, Rows: rows,
		Align: []texttab.Align{texttab.Left, texttab.Left, right, right, right, right}})
}

// msReq is ms per request with four decimals (0.1 µs).
func msReq(v float64) string { return strconv.FormatFloat(v, 'f', 4, 64) }

// signed is msReq with its sign: +0.0123, -0.0040, 0.0000.
func signed(v float64) string {
	s := msReq(v)
	if s == msReq(0) || s == "-"+msReq(0) {
		return msReq(0)
	}
	if v > 0 {
		return "+" + s
	}
	return s
}

// pctOf is v as a signed percentage of total, "-" without a total.
func pctOf(v, total float64) string {
	if total <= 0 {
		return "-"
	}
	s := fmt.Sprintf("%+.1f%%", 100*v/total)
	if s == "+0.0%" || s == "-0.0%" {
		return "0.0%"
	}
	return s
}

// WriteFoldedDiff writes differential folded stacks, the format of Brendan
// Gregg's difffolded.pl that flamegraph.pl reads: a line "frame;…;leaf A B"
// per stack of either side, A and B its self time in ns per request
// (rounded), in stack order; stacks that round to 0 on both sides are left out.
func WriteFoldedDiff(w io.Writer, a, b *Profile, reqA, reqB int64) error {
	type pair struct{ a, b int64 }
	by := map[string]*pair{}
	var keys []string
	add := func(p *Profile, side int) {
		for _, st := range p.Stacks {
			k := folded(st.Frames)
			if by[k] == nil {
				by[k] = &pair{}
				keys = append(keys, k)
			}
			if side == 0 {
				by[k].a += int64(st.Self)
			} else {
				by[k].b += int64(st.Self)
			}
		}
	}
	add(a, 0)
	add(b, 1)
	slices.Sort(keys)
	for _, k := range keys {
		na, nb := nsPerRequest(by[k].a, reqA), nsPerRequest(by[k].b, reqB)
		if na == 0 && nb == 0 {
			continue
		}
		if _, err := fmt.Fprintf(w, "%s %d %d\n", k, na, nb); err != nil {
			return err
		}
	}
	return nil
}

// WriteFolded writes p's stacks as plain folded stacks, a line
// "frame;…;leaf N" per stack (speedscope and flamegraph.pl read them): N
// is its self time in ns per request with requests > 0, else in ns.
func WriteFolded(w io.Writer, p *Profile, requests int64) error {
	n := map[string]int64{}
	var keys []string
	for _, st := range p.Stacks {
		k := folded(st.Frames)
		if _, ok := n[k]; !ok {
			keys = append(keys, k)
		}
		n[k] += int64(st.Self)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := n[k]
		if requests > 0 {
			v = nsPerRequest(v, requests)
		}
		if v == 0 {
			continue
		}
		if _, err := fmt.Fprintf(w, "%s %d\n", k, v); err != nil {
			return err
		}
	}
	return nil
}

// folded joins frames with ";", which a frame may not hold (nor a line
// break): those become ":" and " ".
func folded(frames []string) string {
	clean := make([]string, len(frames))
	for i, f := range frames {
		clean[i] = strings.NewReplacer(";", ":", "\n", " ", "\r", " ").Replace(f)
	}
	return strings.Join(clean, ";")
}

// nsPerRequest is ns / requests, rounded to the nearest integer.
func nsPerRequest(ns, requests int64) int64 {
	return int64(math.Round(float64(ns) / float64(requests)))
}

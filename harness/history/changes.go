package history

// Change points over the history: per row and figure, inside
// each stretch of nights measured by one method and suite, the changes
// package's Detect; changes.json keeps them for the site and the nightly's
// bisect dispatch.

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/tfbench/tfbench/harness/changes"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/report"
	"github.com/tfbench/tfbench/harness/results"
)

// The figures of a row that change points follow: Ratio (to go-stdlib,
// the one to follow; lower is worse), RPS (peak; lower is worse) and P99
// (ms at the peak; higher is worse).
const (
	FigureRatio = "ratio"
	FigureRPS   = "rps"
	FigureP99   = "p99"
)

// figures in the order change points of one row are listed.
var figures = []string{FigureRatio, FigureRPS, FigureP99}

// ChangesFile is the change points' file in the trends folder.
const ChangesFile = "changes.json"

// NightRef names a night by date and commit (empty when not recorded).
type NightRef struct {
	Date   string `json:"date"`
	Commit string `json:"commit,omitempty"`
}

// ChangePoint is one change of one row's figure (the row: Framework,
// Variant, Test, N as a Row spells them): Before is the last night
// of the old level, After the first of the new; Size is median(after) ÷
// median(before) − 1 over NightsBefore and NightsAfter nights (rounded to
// 1e-4, Lo and Hi its 95% interval), P the rank test's p; Worse says it is
// a regression (lower ratio or RPS, higher p99).
type ChangePoint struct {
	ID           string   `json:"id"`
	Framework    string   `json:"framework"`
	Variant      string   `json:"variant"`
	Test         string   `json:"test"`
	N            int      `json:"n,omitempty"`
	Figure       string   `json:"figure"`
	Worse        bool     `json:"worse"`
	Before       NightRef `json:"before"`
	After        NightRef `json:"after"`
	Size         float64  `json:"size"`
	Lo           float64  `json:"lo"`
	Hi           float64  `json:"hi"`
	P            float64  `json:"p"`
	NightsBefore int      `json:"nights_before"`
	NightsAfter  int      `json:"nights_after"`
}

// Row is the change's framework variant.
func (c ChangePoint) Row() model.ID { return model.ID{Framework: c.Framework, Variant: c.Variant} }

// changesFile is changes.json: {"schema": 1, "changes": [...]}.
type changesFile struct {
	Schema  int           `json:"schema"`
	Changes []ChangePoint `json:"changes"`
}

// ChangeID is a change point's stable slug:
// <date-after>-<framework>-<variant>-<test>[-N]-<figure>.
func ChangeID(after string, id model.ID, test string, n int, figure string) string {
	parts := []string{after, report.Slug(id.Framework), report.Slug(id.Variant), report.Slug(test)}
	if n > 0 {
		parts = append(parts, fmt.Sprint(n))
	}
	return strings.Join(append(parts, figure), "-")
}

// Changes returns h's change points, newest first (by the night after;
// then in the history's row order, figures ratio, rps, p99). Each stretch
// of nights between method or suite breaks is searched on its own: a
// series skips the nights without its row.
func Changes(h *History) []ChangePoint {
	var out []ChangePoint
	start := 0
	for _, b := range append(breaksOf(h.Nights), methodBreak{Index: len(h.Nights)}) {
		out = append(out, stretchChanges(h.Nights[start:b.Index])...)
		start = b.Index
	}
	slices.SortStableFunc(out, func(a, b ChangePoint) int { return cmp.Compare(b.After.Date, a.After.Date) })
	return out
}

func stretchChanges(nights []Night) []ChangePoint {
	var rows []model.RowKey
	for _, n := range nights {
		for _, r := range n.Rows {
			if k := r.Key(); !slices.Contains(rows, k) {
				rows = append(rows, k)
			}
		}
	}
	var out []ChangePoint
	for _, k := range rows {
		for _, fig := range figures {
			var values []float64
			var at []int // at[i]: the night of values[i]
			for i, n := range nights {
				r, ok := n.row(k.ID, testAt{k.Test, k.N})
				if !ok {
					continue
				}
				v, ok := figure(r, fig)
				if !ok {
					continue
				}
				values, at = append(values, v), append(at, i)
			}
			for _, c := range changes.Detect(values, changes.Options{}) {
				before, after := nights[at[c.Index-1]], nights[at[c.Index]]
				out = append(out, ChangePoint{
					ID: ChangeID(after.Date, k.ID, k.Test, k.N, fig), Framework: k.Framework, Variant: k.Variant,
					Test: k.Test, N: k.N, Figure: fig, Worse: (c.Size < 0) != (fig == FigureP99),
					Before: NightRef{before.Date, before.Commit}, After: NightRef{after.Date, after.Commit},
					Size: roundTo(c.Size, 1e4), Lo: roundTo(c.Lo, 1e4), Hi: roundTo(c.Hi, 1e4), P: sig3(c.P),
					NightsBefore: c.Before, NightsAfter: c.After,
				})
			}
		}
	}
	return out
}

// figure is r's value of fig; false when r has none (go-stdlib's ratio).
func figure(r Row, fig string) (float64, bool) {
	switch fig {
	case FigureRatio:
		if r.MedianRatio == nil {
			return 0, false
		}
		return *r.MedianRatio, true
	case FigureRPS:
		return r.PeakRPS, true
	default:
		return r.MedianP99, true
	}
}

// sig3 rounds v to three significant digits.
func sig3(v float64) float64 {
	if v == 0 {
		return 0
	}
	e := math.Pow(10, 2-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*e) / e
}

// WriteChanges writes cps to path as {"schema": 1, "changes": [...]},
// atomically.
func WriteChanges(path string, cps []ChangePoint) error {
	data, err := json.MarshalIndent(changesFile{Schema: SchemaVersion, Changes: orEmpty(cps)}, "", " ")
	if err != nil {
		return err
	}
	return results.WriteFileAtomic(path, append(data, '\n'))
}

func orEmpty(cps []ChangePoint) []ChangePoint {
	if cps == nil {
		return []ChangePoint{}
	}
	return cps
}

// ReadChanges reads a changes file; a missing file holds none. Errors name
// the file.
func ReadChanges(path string) ([]ChangePoint, error) {
	var f changesFile
	if _, err := readVersioned(path, "changes", &f, &f.Schema); err != nil {
		return nil, err
	}
	return f.Changes, nil
}

// NewRegressions are the changes of cur that the nightly bisects: worse
// ratios (so never go-stdlib's) that prev does not hold. A change of prev
// on the same row and figure whose first night is at most MovedNights days
// away is the same change, moved as nights arrived: not new.
func NewRegressions(prev, cur []ChangePoint) []ChangePoint {
	var out []ChangePoint
	for _, c := range cur {
		if !c.Worse || c.Figure != FigureRatio || c.Row() == model.Reference {
			continue
		}
		if !slices.ContainsFunc(prev, func(p ChangePoint) bool { return sameChange(p, c) }) {
			out = append(out, c)
		}
	}
	return out
}

// MovedNights is how far, in days, a change's first night may move between
// two publishes and still be the same change: ED-PELT's shortest segment
// (changes.DefaultMinSegment), the nights a change needs to be proposed.
const MovedNights = changes.DefaultMinSegment

func sameChange(p, c ChangePoint) bool {
	if p.ID == c.ID {
		return true
	}
	if p.Row() != c.Row() || p.Test != c.Test || p.N != c.N || p.Figure != c.Figure || p.Worse != c.Worse {
		return false
	}
	a, errA := time.Parse(DateLayout, p.After.Date)
	b, errB := time.Parse(DateLayout, c.After.Date)
	return errA == nil && errB == nil && math.Abs(a.Sub(b).Hours()) <= 24*MovedNights
}

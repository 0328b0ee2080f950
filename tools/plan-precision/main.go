// Command plan-precision compares how precise two measurement plans' peaks
// are; go tool task bench:precision runs both plans interleaved, then this,
// which prints a markdown report on standard output:
//
//	go run ./tools/plan-precision --old A.json[,B.json...] --new C.json[,...] [--frameworks LIST]
//
// The old plan is the main suite's 3 rounds of 5 s windows (suites/tfb.yaml),
// the new one a candidate's (suites/tfb-fast.yaml), measured in one session. Each side is one or
// more results.json files concatenated into one run: the rounds of the k-th
// file are renumbered after those of the files before it, so three one-round
// runs make a 3-round side.
//
// For each cell (framework variant × test × N) it takes each side's peak as
// every report does (model.PeaksOf: the level with the highest median RPS
// over rounds among the levels that passed the gate in every round and were
// measured in every round; closed loop only) and prints a row: the rounds at the peak level, the level, the
// median, the min–max range over rounds and the spread (max − min) / median.
// Flags: "wider" when the new spread is larger than the old one; "moved" when
// |new median − old median| > old max − old min (the new peak moved by more
// than the old peak's range); "level" when the peak level (connections,
// pipeline depth) differs. Then the median spread of each side over the cells
// with a peak on both, and the wider and moved cells. A cell without a peak
// on a side, or measured on one side only, is listed as such and left out of
// the medians.
//
// --frameworks selects variants: framework/variant (engine/pool), the CLI's
// NAME:VARIANT (engine:pool) or NAME alone (every variant of NAME in the
// files); default go-stdlib/default, node-http/default, engine/pool,
// nextjs/default.
//
// Exit status 0 whatever the figures say (it states them, it does not
// judge) and for --help, 1 when an input file is missing or is not a
// results file (the error names it), 2 on a usage error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/montanaflynn/stats"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/texttab"
)

// defaultFrameworks are the variants compared unless --frameworks names others.
const defaultFrameworks = "go-stdlib/default,node-http/default,engine/pool,nextjs/default"

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the command on args (without the program name); it returns the
// exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("plan-precision", flag.ContinueOnError)
	fs.SetOutput(stderr)
	oldList := fs.String("old", "", "the old plan's results files, comma-separated, concatenated round after round")
	newList := fs.String("new", "", "the new plan's results files, comma-separated, concatenated round after round")
	fwList := fs.String("frameworks", defaultFrameworks, "variants: framework/variant, NAME:VARIANT or NAME (all its variants), comma-separated")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: plan-precision --old FILE[,FILE...] --new FILE[,FILE...] [--frameworks LIST]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "plan-precision: "+format+"\n", a...)
		fmt.Fprintln(stderr, "usage: plan-precision --old FILE[,FILE...] --new FILE[,FILE...] [--frameworks LIST]")
		return 2
	}
	if fs.NArg() > 0 {
		return usage("unexpected argument %q", fs.Arg(0))
	}
	if *oldList == "" || *newList == "" {
		return usage("--old and --new are both required")
	}
	oldPaths, err := splitList(*oldList)
	if err != nil {
		return usage("--old: %v", err)
	}
	newPaths, err := splitList(*newList)
	if err != nil {
		return usage("--new: %v", err)
	}
	sel, err := parseSelectors(*fwList)
	if err != nil {
		return usage("--frameworks: %v", err)
	}
	oldSide, err := readSide("old", oldPaths)
	if err != nil {
		fmt.Fprintln(stderr, "plan-precision: --old:", err)
		return 1
	}
	newSide, err := readSide("new", newPaths)
	if err != nil {
		fmt.Fprintln(stderr, "plan-precision: --new:", err)
		return 1
	}
	if err := write(stdout, analyse(oldSide, newSide, sel)); err != nil {
		fmt.Fprintln(stderr, "plan-precision:", err)
		return 1
	}
	return 0
}

// splitList splits a comma-separated list; an empty item is an error.
func splitList(s string) ([]string, error) {
	items := strings.Split(s, ",")
	for _, it := range items {
		if strings.TrimSpace(it) == "" {
			return nil, fmt.Errorf("empty item in %q", s)
		}
	}
	return items, nil
}

// selector picks variants: one variant, or every variant of Framework when
// Variant is "".
type selector struct{ Framework, Variant string }

func (s selector) match(id model.ID) bool {
	return id.Framework == s.Framework && (s.Variant == "" || id.Variant == s.Variant)
}

func (s selector) String() string {
	if s.Variant == "" {
		return s.Framework + " (every variant)"
	}
	return model.ID(s).String()
}

// parseSelectors reads --frameworks: framework/variant, NAME:VARIANT,
// NAME:* or NAME.
func parseSelectors(list string) ([]selector, error) {
	items, err := splitList(list)
	if err != nil {
		return nil, err
	}
	var out []selector
	for _, it := range items {
		it = strings.TrimSpace(it)
		var s selector
		switch {
		case strings.Contains(it, "/"):
			id, err := model.ParseID(it)
			if err != nil {
				return nil, err
			}
			s = selector(id)
		case strings.Contains(it, ":"):
			name, variant, _ := model.CutSelector(it)
			if name == "" || variant == "" {
				return nil, fmt.Errorf("%q is not NAME:VARIANT", it)
			}
			if variant == "*" {
				variant = ""
			}
			s = selector{name, variant}
		default:
			s = selector{Framework: it}
		}
		out = append(out, s)
	}
	return out, nil
}

// side is one plan: its files concatenated into one run.
type side struct {
	Name    string
	Files   []string
	Suites  []string // distinct suite names, in file order
	Hashes  int      // distinct suite hashes
	Rounds  int      // rounds after renumbering
	Samples []model.Sample
}

// readSide reads paths as one run (concat).
func readSide(name string, paths []string) (*side, error) {
	files := make([]*results.File, 0, len(paths))
	for _, p := range paths {
		set, err := results.ReadSet(p)
		if err != nil {
			return nil, err
		}
		if len(set.Runs) != 1 {
			return nil, fmt.Errorf("%s: a merged file of %d runs; give each run's results.json", p, len(set.Runs))
		}
		files = append(files, set.Runs[0].File)
	}
	s := &side{Name: name, Files: paths}
	s.Samples, s.Rounds = concat(files)
	hashes := map[string]bool{}
	for _, f := range files {
		if !slices.Contains(s.Suites, f.Suite.Name) {
			s.Suites = append(s.Suites, f.Suite.Name)
		}
		hashes[f.Suite.Hash] = true
	}
	s.Hashes = len(hashes)
	return s, nil
}

// concat joins the files' samples into one run: the rounds of each file are
// renumbered after those of the files before it (a file's rounds are its
// suite's rounds, or its highest sample round if that is higher). It
// returns the samples and the rounds in all.
func concat(files []*results.File) ([]model.Sample, int) {
	var out []model.Sample
	offset := 0
	for _, f := range files {
		rounds := f.Suite.Rounds
		for _, s := range f.Samples {
			rounds = max(rounds, s.Round)
			s.Round += offset
			out = append(out, s)
		}
		offset += rounds
	}
	return out, offset
}

// cellKey is a cell: variant × test × N.
type cellKey struct {
	model.ID
	Test string
	N    int
}

func (k cellKey) String() string {
	s := k.ID.String() + " " + k.Test
	if k.N > 0 {
		s += fmt.Sprintf(" N=%d", k.N)
	}
	return s
}

// cell is one cell's peaks on both sides; Has* is false when the side did
// not measure it.
type cell struct {
	Key              cellKey
	HasOld, HasNew   bool
	Old, New         model.Peak
	Wider, Moved, Lv bool
}

// both is true when the cell has a peak on both sides.
func (c cell) both() bool { return c.HasOld && c.HasNew && c.Old.OK && c.New.OK }

// analysis is the report's content.
type analysis struct {
	Old, New  *side
	Selectors []selector
	Absent    []selector // selected, measured on neither side
	Cells     []cell
}

// analyse pairs the selected cells of both sides and flags them.
func analyse(oldSide, newSide *side, sel []selector) analysis {
	a := analysis{Old: oldSide, New: newSide, Selectors: sel}
	oldPeaks := model.PeaksOf(oldSide.Samples)
	newPeaks := model.PeaksOf(newSide.Samples)
	// Cells in --frameworks order, then variant name, then the tests in the
	// order they were first measured (old side first), then N.
	testOrder := map[string]int{}
	var keys []cellKey
	seen := map[cellKey]bool{}
	for _, ps := range []*model.Peaks{oldPeaks, newPeaks} {
		for _, p := range ps.List {
			if _, ok := testOrder[p.Test]; !ok {
				testOrder[p.Test] = len(testOrder)
			}
			k := cellKey{p.ID, p.Test, p.N}
			if !seen[k] && selected(sel, p.ID) >= 0 {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	slices.SortStableFunc(keys, func(x, y cellKey) int {
		if d := selected(sel, x.ID) - selected(sel, y.ID); d != 0 {
			return d
		}
		if d := strings.Compare(x.Variant, y.Variant); d != 0 {
			return d
		}
		if d := testOrder[x.Test] - testOrder[y.Test]; d != 0 {
			return d
		}
		return x.N - y.N
	})
	for _, s := range sel {
		if !slices.ContainsFunc(keys, func(k cellKey) bool { return s.match(k.ID) }) {
			a.Absent = append(a.Absent, s)
		}
	}
	for _, k := range keys {
		c := cell{Key: k}
		c.Old, c.HasOld = oldPeaks.At(k.ID, k.Test, k.N)
		c.New, c.HasNew = newPeaks.At(k.ID, k.Test, k.N)
		if c.both() {
			o, n := c.Old.Level, c.New.Level
			c.Wider = spread(n) > spread(o)
			c.Moved = math.Abs(n.Median-o.Median) > o.Max-o.Min
			c.Lv = o.Connections != n.Connections || o.Pipeline != n.Pipeline
		}
		a.Cells = append(a.Cells, c)
	}
	return a
}

// selected is the index of the first selector matching id, -1 for none.
func selected(sel []selector, id model.ID) int {
	return slices.IndexFunc(sel, func(s selector) bool { return s.match(id) })
}

// spread is a level's (max − min) / median over its rounds.
func spread(l model.Level) float64 { return (l.Max - l.Min) / l.Median }

// write prints the analysis as markdown.
func write(w io.Writer, a analysis) error {
	var b strings.Builder
	b.WriteString("# Peak precision: old plan against new plan\n\n")
	for _, s := range []*side{a.Old, a.New} {
		fmt.Fprintf(&b, "- %s: %s (suite %s), %d rounds in all\n", s.Name, fileList(s.Files), strings.Join(s.Suites, ", "), s.Rounds)
	}
	names := make([]string, len(a.Selectors))
	for i, s := range a.Selectors {
		names[i] = s.String()
	}
	fmt.Fprintf(&b, "- variants: %s\n\n", strings.Join(names, ", "))
	b.WriteString("A cell is variant × test × N. Its peak on each side is the one reports show (model.PeaksOf): " +
		"the level with the highest median RPS over rounds among the levels that passed the gate in every round and were measured in every round " +
		"(closed loop only; each side's files are one run, a file's rounds numbered after the files before it). " +
		"Rounds: rounds measured at the peak level. " +
		"Spread: (max − min) / median over those rounds. Δ median: new against old. " +
		"Flags: wider = new spread > old spread; moved = |new median − old median| > old max − old min " +
		"(the peak moved by more than the old range); level = the peak level differs.\n\n")
	for _, s := range []*side{a.Old, a.New} {
		if s.Hashes > 1 {
			fmt.Fprintf(&b, "Note: the %s side's files come from %d different suite files.\n\n", s.Name, s.Hashes)
		}
	}
	var t texttab.Table
	for _, c := range []struct {
		name string
		a    texttab.Align
	}{
		{"Cell", texttab.Left},
		{"Old rounds", texttab.Right}, {"Old level", texttab.Right}, {"Old median", texttab.Right}, {"Old range", texttab.Right}, {"Old spread", texttab.Right},
		{"New rounds", texttab.Right}, {"New level", texttab.Right}, {"New median", texttab.Right}, {"New range", texttab.Right}, {"New spread", texttab.Right},
		{"Δ median", texttab.Right}, {"Flags", texttab.Left},
	} {
		t.Col(c.name, c.a)
	}
	var oldSpreads, newSpreads []float64
	var wider, moved, missing []string
	for _, c := range a.Cells {
		if !c.both() {
			missing = append(missing, c.Key.String()+": "+whyMissing(c))
			continue
		}
		o, n := c.Old.Level, c.New.Level
		oldSpreads = append(oldSpreads, spread(o))
		newSpreads = append(newSpreads, spread(n))
		var flags []string
		if c.Wider {
			flags = append(flags, "wider")
			wider = append(wider, c.Key.String())
		}
		if c.Moved {
			flags = append(flags, "moved")
			moved = append(moved, c.Key.String())
		}
		if c.Lv {
			flags = append(flags, "level")
		}
		t.Row(c.Key.String(),
			fmt.Sprint(len(o.Samples)), level(o), texttab.RPS(o.Median), rng(o), pct(spread(o)),
			fmt.Sprint(len(n.Samples)), level(n), texttab.RPS(n.Median), rng(n), pct(spread(n)),
			fmt.Sprintf("%+.2f%%", 100*(n.Median-o.Median)/o.Median), strings.Join(flags, ", "))
	}
	if len(t.Rows) > 0 {
		if err := texttab.Markdown(&b, t); err != nil {
			return err
		}
		b.WriteString("\n")
	}
	if len(missing) > 0 {
		b.WriteString("Cells without a peak on a side (left out of the medians):\n\n")
		for _, m := range missing {
			fmt.Fprintf(&b, "- %s\n", m)
		}
		b.WriteString("\n")
	}
	for _, s := range a.Absent {
		fmt.Fprintf(&b, "Not measured on either side: %s.\n\n", s)
	}
	fmt.Fprintf(&b, "- Cells compared: %d of %d (%d without a peak on a side)\n", len(oldSpreads), len(a.Cells), len(missing))
	if len(oldSpreads) > 0 {
		mo, _ := stats.Median(oldSpreads)
		mn, _ := stats.Median(newSpreads)
		verdict := "equal"
		switch {
		case mn > mo:
			verdict = "new wider than old"
		case mn < mo:
			verdict = "old wider than new"
		}
		fmt.Fprintf(&b, "- Median spread: old %s, new %s: %s\n", pct(mo), pct(mn), verdict)
	}
	fmt.Fprintf(&b, "- Wider cells (new spread > old spread): %d%s\n", len(wider), listed(wider))
	fmt.Fprintf(&b, "- Moved cells (|new median − old median| > old max − old min): %d%s\n", len(moved), listed(moved))
	_, err := io.WriteString(w, b.String())
	return err
}

// whyMissing says why a cell has no row.
func whyMissing(c cell) string {
	switch {
	case !c.HasOld:
		return "measured in new only"
	case !c.HasNew:
		return "measured in old only"
	}
	var why []string
	if !c.Old.OK {
		why = append(why, "no peak in old: "+c.Old.Reason)
	}
	if !c.New.OK {
		why = append(why, "no peak in new: "+c.New.Reason)
	}
	return strings.Join(why, "; ")
}

// fileList names files by their base names.
func fileList(paths []string) string {
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = filepath.Base(p)
	}
	return strings.Join(names, ", ")
}

// level is a level's connections, with its pipeline depth when > 1.
func level(l model.Level) string {
	if l.Pipeline > 1 {
		return fmt.Sprintf("%d×%d", l.Connections, l.Pipeline)
	}
	return fmt.Sprint(l.Connections)
}

func rng(l model.Level) string { return texttab.RPS(l.Min) + "–" + texttab.RPS(l.Max) }

func pct(v float64) string { return fmt.Sprintf("%.2f%%", 100*v) }

func listed(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return " (" + strings.Join(names, "; ") + ")"
}

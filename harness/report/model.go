package report

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/internal/words"
)

// Row is one framework variant on one test at one N (the headline N in
// Tables), as every report format shows it: the single markdown report, the
// site's pages and charts, and the CSV.
type Row struct {
	// Run is the label of the run that measured the row (results.Run.Label:
	// the run ID for a plain results.json, the CI job or machine in a merged
	// file).
	Run string
	// ID and Runtime name the variant as it ran (results.Framework;
	// Runtime e.g. "node 24.22.3").
	model.ID
	Runtime string
	// OK is true when the row has figures: verified pass or warn and a
	// peak (a level whose every round passed the success gate). Otherwise
	// the figures below are zero and Why says why.
	OK  bool
	Why string
	// PeakRPS is the peak: the highest median RPS (requests/s) over the
	// eligible levels (model.Peaks); MinRPS and MaxRPS its range over the
	// rounds at that level, Rounds their count.
	PeakRPS, MinRPS, MaxRPS float64
	Rounds                  int
	// Rank is the row's place in its table with ties (rank.go): 1 + the
	// rows ahead of it by the table's Ranking; Tied when another row has
	// the same Rank. 0 for a row that is not ranked (no figures, or a
	// merged row without a reference).
	Rank int
	Tied bool
	// RatioToRef is PeakRPS over model.Reference's peak RPS on the same
	// test and N in the same run (model.Row.RatioTo; 1.06 = 6% more); 0
	// without a measured and verified reference. RatioLo and RatioHi are
	// the min–max of the per-round ratio (model.Row.RoundRatios); 0 without.
	RatioToRef, RatioLo, RatioHi float64
	// row is the model row the figures come from (zero without a peak);
	// roundRatios its per-round ratios to the reference, round order.
	row         model.Row
	roundRatios []float64
	// Connections (concurrency) and Pipeline (pipeline depth, 1 = none)
	// are the peak level's.
	Connections, Pipeline int
	// P50ms and P99ms are latency percentiles in ms at the peak level, from
	// the rounds' merged HDR histograms; -1 when none could be read.
	P50ms, P99ms float64
	// CPUms is the server's CPU time per request in ms, the median over the
	// rounds at the peak level; RSSBytes the largest peak resident memory
	// (VmHWM) of the server's process tree over those rounds, in bytes.
	CPUms    float64
	RSSBytes uint64
	// GeneratorSaturated is true when the load generator's CPU was
	// saturated in a round at the peak level (the figure may measure it).
	GeneratorSaturated bool
	// PageBytes is the size in bytes of the page verification fetched (0
	// when not recorded); for a page test the mean body bytes of the counted
	// responses at the peak level, else verification's at the headline N.
	PageBytes int
	// TTFBP50ms, TTFBP99ms, ProbeP99ms, ProbeMaxms (merged histograms) and
	// LoopP99ms, LoopMaxms (worst round) are ms at the peak level; -1 when
	// no sample recorded them.
	TTFBP50ms, TTFBP99ms, ProbeP99ms, ProbeMaxms, LoopP99ms, LoopMaxms float64
	// Memory is the server's memory and GC at the peak level (memory.go).
	Memory RowMemory
	// Levels are every measured level's p99 (levels.go), nil for a variant
	// not measured or not verified (fail, n/a); Bound is the peak's lower
	// bound from a generator-bound level (model.Peak.LowerBound), nil
	// without one: it is set on a row without figures (OK false) too.
	Levels []LevelP99
	Bound  *Bound
	// Verification is the verdict, or NotVerified.
	Verification model.Verdict
	// Notes spell out the row: verification reasons ("warn: …"), why it
	// was not measured, a saturated generator. Plain text (may hold "<").
	Notes []string
}

// NotVerified is Row.Verification of a variant with no verdict.
const NotVerified model.Verdict = "not verified"

// TestTable is one suite test at its headline N with one Row per framework
// variant of every run.
type TestTable struct {
	Test results.Test
	// N is the headline N (suite.HeadlineOf: 20 for queries and updates
	// when measured; 0 for the other types).
	N int
	// Slug names the test's page and chart (Slug(Test.Name)).
	Slug string
	// Merged is true when the rows come from several runs (a merged Set):
	// ranks then order RatioToRef, and pages show a Run column.
	Merged bool
	// Rows are sorted by Rank, then by the basis ranked, descending; rows
	// without a rank after them, rows without figures last; ties keep run
	// and framework order. Ranking says how the ranks were decided.
	Rows    []Row
	Ranking Ranking
	// PerN are a queries or updates test's rows at every N of the suite
	// (ranked like Rows), the headline's among them; nil for other tests.
	PerN []Size
	// Rate are the constant-rate rows of a test other than a page test at
	// its headline N (a page test has them per Size); nil without.
	Rate []RateRow
	// Sizes are a page test's tables, one per N (rows per page) in suite
	// order, the headline's rows among them; nil for the other types.
	Sizes []Size
}

// Size is a page test at one N (World rows per page): a Row per framework
// variant ranked like TestTable.Rows, and the constant-rate rows (none when
// the run measured no constant-rate sample at this N).
type Size struct {
	N       int
	Rows    []Row
	Ranking Ranking
	Rate    []RateRow
}

// RateRow is one framework variant's constant-rate samples of a page test
// at one N (docs/ssr.md: 3 pages/s plus a probe every 20 ms, three rounds,
// each cell a range): every figure is its min–max over the rounds.
type RateRow struct {
	Run string
	model.ID
	// Rounds counts the samples; Why, when set, says why the row has no
	// figures (a round failed the gate, no latency recorded).
	Rounds int
	Why    string
	// Achieved is the requests/s each round sustained; the rest are ms: P50
	// and P99 from each request's intended send time, CPU per request, the
	// probe's latency and the event loop's max delay.
	Achieved, P50, P99, CPU, ProbeP50, ProbeP99, ProbeMax, LoopMax Range
}

// Range is a figure's min and max over rounds; OK is false when no round
// recorded it.
type Range struct {
	Min, Max float64
	OK       bool
}

// add widens r to hold v.
func (r *Range) add(v float64) {
	if !r.OK {
		r.Min, r.Max, r.OK = v, v, true
		return
	}
	r.Min, r.Max = min(r.Min, v), max(r.Max, v)
}

// Tables returns one TestTable per test of s's suite, in suite order. It
// refuses test names that cannot name a page or chart (none, index.md, or
// another test's); errors name the tests.
func Tables(s *results.Set) ([]TestTable, error) {
	if len(s.Runs) == 0 {
		return nil, fmt.Errorf("report: no runs")
	}
	// The tests of every run, in order of first appearance: runs of one
	// suite may have measured different subsets (--tests).
	var tests []results.Test
	has := make([]map[string]bool, len(s.Runs))
	for i, r := range s.Runs {
		has[i] = map[string]bool{}
		for _, t := range r.File.Suite.Tests {
			has[i][t.Name] = true
			if !slices.ContainsFunc(tests, func(x results.Test) bool { return x.Name == t.Name }) {
				tests = append(tests, t)
			}
		}
	}
	if err := checkSlugs(tests); err != nil {
		return nil, err
	}
	merged := len(s.Runs) > 1
	peaks := make([]*model.Peaks, len(s.Runs))
	for i, r := range s.Runs {
		peaks[i] = r.File.Peaks()
	}
	out := make([]TestTable, 0, len(tests))
	at := func(t results.Test, n int) ([]Row, Ranking) {
		var rows []Row
		for i, r := range s.Runs {
			if has[i][t.Name] {
				rows = append(rows, rowsAt(r.Label, r.File, peaks[i], t.Name, n)...)
			}
		}
		return rows, rank(rows, merged)
	}
	rate := func(t results.Test, n int) []RateRow {
		var out []RateRow
		for i, r := range s.Runs {
			if has[i][t.Name] {
				out = append(out, rateRows(r.Label, r.File, t.Name, n)...)
			}
		}
		return out
	}
	for _, t := range tests {
		if t.Type == model.Coldstart { // no samples: its own page (coldstart.go)
			continue
		}
		n := headlineOf(t)
		tt := TestTable{Test: t, N: n, Slug: Slug(t.Name), Merged: merged}
		tt.Rows, tt.Ranking = at(t, n)
		switch {
		case t.Type == model.Page:
			for _, n := range t.Queries {
				sz := Size{N: n, Rate: rate(t, n)}
				sz.Rows, sz.Ranking = at(t, n)
				tt.Sizes = append(tt.Sizes, sz)
			}
		default:
			tt.Rate = rate(t, n)
			if len(t.Queries) > 1 {
				for _, n := range t.Queries {
					sz := Size{N: n}
					sz.Rows, sz.Ranking = at(t, n)
					tt.PerN = append(tt.PerN, sz)
				}
			}
		}
		out = append(out, tt)
	}
	return out, nil
}

// headlineOf is a test's headline N: the largest rows value of a page
// test (suite: the headline of a page test is its largest size), the
// queries headline of queries and updates (suite.HeadlineOf), 0 otherwise.
func headlineOf(t results.Test) int {
	if t.Type == model.Page && len(t.Queries) > 0 {
		return slices.Max(t.Queries)
	}
	return suite.HeadlineOf(t.Queries)
}

// rowsAt builds one Row per framework variant of f on test at N, in f's
// framework order, with RatioToRef and its range set; Rank is left to rank.
func rowsAt(run string, f *results.File, peaks *model.Peaks, test string, n int) []Row {
	out := make([]Row, 0, len(f.Frameworks))
	for _, fw := range f.Frameworks {
		var peak *model.Peak
		if p, ok := peaks.At(fw.ID(), test, n); ok {
			peak = &p
		}
		ver, hasV := f.Verification(fw.ID(), test)
		r := rowOf(run, fw, peak, ver, hasV)
		if t, ok := testOf(f, test); ok && t.Type.IsPage() { // page bytes and TTFB per N, from the samples
			pageFigures(&r, peak, n == headlineOf(t))
		}
		out = append(out, r)
	}
	var ref *Row
	for i, r := range out {
		if r.OK && r.ID == model.Reference && r.PeakRPS > 0 {
			ref = &out[i]
		}
	}
	if ref != nil {
		for i := range out {
			if out[i].OK {
				ratios(&out[i], *ref)
			}
		}
	}
	return out
}

// rowOf fills a Row from a variant's peak and verdict; its Notes come in
// the order the markdown report prints them: verification reasons first.
func rowOf(run string, fw results.Framework, peak *model.Peak, ver results.Verification, hasV bool) Row {
	r := Row{Run: run, ID: fw.ID(), Runtime: fw.Runtime, Verification: NotVerified, P50ms: -1, P99ms: -1,
		TTFBP50ms: -1, TTFBP99ms: -1, ProbeP99ms: -1, ProbeMaxms: -1, LoopP99ms: -1, LoopMaxms: -1}
	if hasV {
		r.Verification = ver.Status
		r.PageBytes = ver.PageBytes
		for _, why := range ver.Reasons {
			r.Notes = append(r.Notes, string(ver.Status)+": "+why)
		}
	}
	r.OK = peak != nil && peak.OK && hasV && ver.Status != model.Fail
	if peak != nil && hasV && (ver.Status == model.Pass || ver.Status == model.Warn) {
		r.Levels, r.Bound = levelsOf(peak), boundOf(peak)
	}
	if !r.OK {
		note := true
		switch {
		case fw.Error != "":
			r.Why = "not measured: " + fw.Error
		case !hasV:
			r.Why = "not measured: no verification verdict"
		case ver.Status == model.NotApplicable:
			r.Why = "not applicable"
			if len(ver.Reasons) > 0 {
				r.Why += ": " + ver.Reasons[0]
			}
			r.Notes = nil // the reason is the note
			note = true
		case ver.Status == model.Fail:
			r.Why = "verification failed"
			if len(ver.Reasons) > 0 {
				r.Why += ": " + ver.Reasons[0]
			}
			note = false // the fail reasons are already notes
		case peak == nil:
			r.Why = "not measured: no samples"
		default:
			r.Why = "no peak: " + peak.Reason
		}
		if note {
			r.Notes = append(r.Notes, r.Why)
		}
		if r.Bound != nil {
			r.Notes = append(r.Notes, boundNote(*r.Bound, false))
		}
		return r
	}
	row := model.RowOf(*peak)
	r.row = row
	r.PeakRPS, r.MinRPS, r.MaxRPS, r.Rounds = row.Peak, row.MinRPS, row.MaxRPS, len(row.Samples)
	r.Connections, r.Pipeline = row.Connections, row.Pipeline
	if p50, p99, ok := row.Percentiles(); ok {
		r.P50ms, r.P99ms = p50, p99
	}
	r.CPUms, r.RSSBytes, r.GeneratorSaturated = row.CPUms(), row.RSS(), row.GeneratorSaturated()
	r.Memory = memoryOf(row.Samples)
	r.Notes = append(r.Notes, ineligible(peak)...)
	if r.Bound != nil {
		r.Notes = append(r.Notes, boundNote(*r.Bound, true))
	}
	if r.GeneratorSaturated {
		r.Notes = append(r.Notes, fmt.Sprintf("the load generator's CPU was saturated at %d connections: the figure may measure the generator", row.Connections))
	}
	return r
}

// ineligible notes every level a failed round kept out of the peak, with
// that round's gate reason: why the peak is from another level.
func ineligible(peak *model.Peak) []string {
	var notes []string
	for _, l := range peak.Levels {
		if l.Eligible {
			continue
		}
		at := words.Plural(l.Connections, "connection")
		if l.Pipeline > 1 {
			at += fmt.Sprintf(" × depth %d", l.Pipeline)
		}
		for _, s := range l.Samples {
			if !s.Gate.Passed {
				notes = append(notes, fmt.Sprintf("%s: not eligible, round %d: %s", at, s.Round, s.Gate.Reason))
				break
			}
		}
	}
	return notes
}

// testOf returns f's suite test named name.
func testOf(f *results.File, name string) (results.Test, bool) {
	for _, t := range f.Suite.Tests {
		if t.Name == name {
			return t, true
		}
	}
	return results.Test{}, false
}

// pageFigures fills a page test's row from its peak level: mean page bytes
// (verification's only at the headline N), TTFB and probe percentiles from
// merged histograms, and the worst event-loop delay.
func pageFigures(r *Row, peak *model.Peak, headline bool) {
	if !headline {
		r.PageBytes = 0
	}
	if !r.OK {
		return
	}
	ss := peak.Level.Samples
	var body, responses int64
	for _, s := range ss {
		body += s.BodyBytes
		responses += s.Responses
	}
	if body > 0 && responses > 0 {
		r.PageBytes = int(math.Round(float64(body) / float64(responses)))
	}
	if h := model.MergeHistograms(ss, func(s model.Sample) []byte { return s.TTFBHistogram }); h != nil {
		r.TTFBP50ms, r.TTFBP99ms = float64(h.ValueAtQuantile(50))/1000, float64(h.ValueAtQuantile(99))/1000
	}
	if h := model.MergeHistograms(ss, probeHistogram); h != nil {
		r.ProbeP99ms, r.ProbeMaxms = float64(h.ValueAtQuantile(99))/1000, float64(h.Max())/1000
		if n := probeShort(ss); n != "" {
			r.Notes = append(r.Notes, n)
		}
	}
	for _, s := range ss {
		if s.EventLoop != nil {
			r.LoopP99ms, r.LoopMaxms = max(r.LoopP99ms, s.EventLoop.P99), max(r.LoopMaxms, s.EventLoop.Max)
		}
	}
}

// probeShort notes the sample of ss whose probe was answered least when
// that is under 90% of its schedule (window ÷ interval): the probe figures
// then cover only the answered requests.
func probeShort(ss []model.Sample) string {
	note, share := "", 0.9
	for _, s := range ss {
		if s.Probe == nil || s.Probe.Interval <= 0 {
			continue
		}
		due := int64(math.Floor(s.Window * 1000 / s.Probe.Interval))
		if f := float64(s.Probe.Responses) / float64(due); due > 0 && f < share {
			share = f
			note = fmt.Sprintf("probe: %d of %d scheduled requests answered in round %d's window: the server answered it slower than it came, and its p99 and max cover the answered ones only", s.Probe.Responses, due, s.Round)
		}
	}
	return note
}

func probeHistogram(s model.Sample) []byte {
	if s.Probe == nil {
		return nil
	}
	return s.Probe.Histogram
}

// rateRows are one RateRow per framework variant of f with constant-rate
// samples of test at N, in f's framework order.
func rateRows(run string, f *results.File, test string, n int) []RateRow {
	var out []RateRow
	for _, fw := range f.Frameworks {
		var ss []model.Sample
		for _, s := range f.Samples {
			if s.Rate > 0 && s.ID == fw.ID() && s.Test == test && s.N == n {
				ss = append(ss, s)
			}
		}
		if len(ss) == 0 {
			continue
		}
		sort.SliceStable(ss, func(i, j int) bool { return ss[i].Round < ss[j].Round })
		r := RateRow{Run: run, ID: fw.ID(), Rounds: len(ss)}
		for _, s := range ss {
			if !s.Gate.Passed {
				r.Why = fmt.Sprintf("round %d: %s", s.Round, s.Gate.Reason)
				break
			}
			h := model.MergeHistograms([]model.Sample{s}, func(s model.Sample) []byte { return s.Histogram })
			if h == nil {
				r.Why = fmt.Sprintf("round %d: no latency recorded", s.Round)
				break
			}
			r.Achieved.add(s.RPS)
			r.P50.add(float64(h.ValueAtQuantile(50)) / 1000)
			r.P99.add(float64(h.ValueAtQuantile(99)) / 1000)
			r.CPU.add(s.CPUPerRequest)
			if p := model.MergeHistograms([]model.Sample{s}, probeHistogram); p != nil {
				r.ProbeP50.add(float64(p.ValueAtQuantile(50)) / 1000)
				r.ProbeP99.add(float64(p.ValueAtQuantile(99)) / 1000)
				r.ProbeMax.add(float64(p.Max()) / 1000)
			}
			if s.EventLoop != nil {
				r.LoopMax.add(s.EventLoop.Max)
			}
		}
		if r.Why != "" {
			r.Achieved, r.P50, r.P99, r.CPU, r.ProbeP50, r.ProbeP99, r.ProbeMax, r.LoopMax = Range{}, Range{}, Range{}, Range{}, Range{}, Range{}, Range{}, Range{}
		}
		out = append(out, r)
	}
	return out
}

// Slug is the page name of a test: its name in lower case with every run
// of characters other than a–z and 0–9 replaced by one "-", trimmed of
// "-" ("Fortunes (SSR)" → "fortunes-ssr"); "" when none is left.
func Slug(name string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(name) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(c)
			dash = false
		} else {
			dash = true
		}
	}
	return b.String()
}

// checkSlugs refuses test names that cannot name a page of their own.
func checkSlugs(tests []results.Test) error {
	seen := map[string]string{}
	for _, t := range tests {
		s := Slug(t.Name)
		switch {
		case s == "":
			return fmt.Errorf("test %q has no letters or digits to name its page; rename it in the suite", t.Name)
		case s == "index":
			return fmt.Errorf("test %q would be page index.md, the site's index; rename it in the suite", t.Name)
		}
		if other, ok := seen[s]; ok {
			return fmt.Errorf("tests %q and %q would both be page %s.md; rename one in the suite", other, t.Name, s)
		}
		seen[s] = t.Name
	}
	// A page test's charts are <slug>-rps.svg, <slug>-cpu.svg and <slug>-alloc.svg.
	for _, t := range tests {
		if t.Type != model.Page {
			continue
		}
		for _, c := range []string{"-rps", "-cpu", "-alloc"} {
			if other, ok := seen[Slug(t.Name)+c]; ok {
				return fmt.Errorf("tests %q and %q would both write chart %s.svg; rename one in the suite", t.Name, other, Slug(t.Name)+c)
			}
		}
	}
	return nil
}

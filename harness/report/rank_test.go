package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/rankstat"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/texttab"
)

// rankRow is a measured row of framework name whose rounds 1.. read rps;
// its peak the median, its range their min–max.
func rankRow(name string, rps ...float64) Row {
	r := Row{ID: model.ID{Framework: name, Variant: "default"}, OK: true, Rounds: len(rps)}
	r.row = model.Row{OK: true, Peak: rankstat.Median(rps)}
	for i, v := range rps {
		r.row.Samples = append(r.row.Samples, model.Sample{Key: model.Key{Round: i + 1}, RPS: v})
		if i == 0 || v < r.MinRPS {
			r.MinRPS = v
		}
		r.MaxRPS = max(r.MaxRPS, v)
	}
	r.PeakRPS = rankstat.Median(rps)
	return r
}

// ranks renders rows as "name:rank" in their order after rank.
func ranks(rows []Row) string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Framework+":"+rankCell(r))
	}
	return strings.Join(out, " ")
}

// TestRankRanges: with 3 rounds compare's rank test cannot reach α, so a
// row is ahead only when its every round beats the other's best; a rank
// is 1 + the rows ahead, so a row can tie with one above it and not with
// another.
func TestRankRanges(t *testing.T) {
	rows := []Row{
		rankRow("c", 45, 65, 66),       // below a's 74, overlaps b's 90
		rankRow("b", 65, 77, 90),       // overlaps a
		rankRow("a", 74, 78, 85),       // best median
		rankRow("d", 10, 11, 12),       // below all
		{ID: model.ID{Framework: "x"}}, // no figures
		rankRow("e", 11.5, 11.5, 11.5), // inside d's range: tied
	}
	g := rank(rows, false)
	if got, want := ranks(rows), "a:=1 b:=1 c:2 e:=4 d:=4 x:—"; got != want {
		t.Errorf("ranks %q, want %q", got, want)
	}
	if want := (Ranking{Rows: 5, Pairs: 10, Rounds: 3, MinP: 0.1}); g != want {
		t.Errorf("ranking %+v, want %+v", g, want)
	}
	if got, want := rankingText(g), `**Rank** is 1 + the rows whose every round was faster than this row's fastest (min–max ranges apart); "=2" is a rank two or more rows share. Ranges decide because compare's rank test cannot reach α = 0.05 here: with 3 rounds its smallest p is 0.10.`; got != want {
		t.Errorf("rankingText\n got %s\nwant %s", got, want)
	}
	// One round is no range: nothing can be told apart.
	one := []Row{rankRow("a", 100), rankRow("b", 50)}
	g = rank(one, false)
	if got, want := ranks(one), "a:=1 b:=1"; got != want {
		t.Errorf("one round: ranks %q, want %q", got, want)
	}
	if got, want := rankingText(g), `**Rank** is 1 + the rows whose every round was faster than this row's fastest (min–max ranges apart); "=2" is a rank two or more rows share. With 1 round no range can be told apart, so every row shares rank 1.`; got != want {
		t.Errorf("one round: rankingText\n got %s\nwant %s", got, want)
	}
}

// TestRankTest: with 5 rounds and few enough pairs for Holm, compare's
// rule ranks: fully separated rounds are ahead (p = 2/252 × 3 pairs =
// 0.024 < 0.05), interleaved ones tie, and a separated change under 5% is
// the same.
func TestRankTest(t *testing.T) {
	rows := []Row{
		rankRow("slow", 50, 51, 52, 53, 54),
		rankRow("fast", 100, 101, 102, 103, 104),
		rankRow("mixed", 99, 100.5, 101.5, 102.5, 105), // interleaved with fast
	}
	g := rank(rows, false)
	if !g.RankTest || g.Pairs != 3 || g.Rounds != 5 {
		t.Fatalf("ranking %+v, want the rank test over 3 pairs of 5 rounds", g)
	}
	if got, want := ranks(rows), "fast:=1 mixed:=1 slow:3"; got != want {
		t.Errorf("ranks %q, want %q", got, want)
	}
	if got, want := rankingText(g), `**Rank** is 1 + the rows ahead by compare's rank test (Mann-Whitney U over the rounds, Holm–Bonferroni over the 3 pairs, α = 0.05, a change of at least 5%); "=2" is a rank two or more rows share.`; got != want {
		t.Errorf("rankingText\n got %s\nwant %s", got, want)
	}
	// Separated but 2% apart: significant, within the minimum change.
	near := []Row{rankRow("a", 100, 100.2, 100.4, 100.6, 100.8), rankRow("b", 102, 102.2, 102.4, 102.6, 102.8)}
	rank(near, false)
	if got, want := ranks(near), "b:=1 a:=1"; got != want {
		t.Errorf("2%% apart: ranks %q, want %q", got, want)
	}
	// 5 rounds but 9 rows (36 pairs): Holm puts even the smallest p, 0.0079
	// × 36, above α, so ranges decide, and the text says why.
	var many []Row
	for i := range 9 {
		b := float64(100 * (i + 1))
		many = append(many, rankRow(fmt.Sprint(i), b, b+1, b+2, b+3, b+4))
	}
	g = rank(many, false)
	if g.RankTest {
		t.Fatal("36 pairs of 5 rounds: the rank test cannot reach α, want ranges")
	}
	if got, want := ranks(many), "8:1 7:2 6:3 5:4 4:5 3:6 2:7 1:8 0:9"; got != want {
		t.Errorf("ranks %q, want %q", got, want)
	}
	if got := rankingText(g); !strings.HasSuffix(got, "with 5 rounds its smallest p is 0.0079, × 36 pairs by Holm–Bonferroni.") {
		t.Errorf("rankingText %q", got)
	}
}

// TestRankMergedRatios: across runs the per-round ratio to each run's own
// reference is ranked; a row of a run without the reference is not.
func TestRankMergedRatios(t *testing.T) {
	ref := rankRow("go-stdlib", 100, 200, 300)
	fast := rankRow("fast", 150, 300, 450) // 1.5 in every round
	ratios(&fast, ref)
	ratios(&ref, ref)
	lone := rankRow("lone", 999, 999, 999)
	rows := []Row{ref, lone, fast}
	rank(rows, true)
	if got, want := ranks(rows), "fast:1 go-stdlib:2 lone:—"; got != want {
		t.Errorf("ranks %q, want %q", got, want)
	}
	if got, want := ratioCell(rows[0]), "1.50× (1.50–1.50)"; got != want {
		t.Errorf("ratioCell %q, want %q", got, want)
	}
	if got, want := summaryCell(rows[2], true, texttab.Thousands), "999 (999–999)"; got != want {
		t.Errorf("summaryCell of a row without a reference %q, want %q", got, want)
	}
}

// TestSpreadWarning: the report opens with a warning when the median
// spread of its peaks over rounds is above 20%, not at or below it.
func TestSpreadWarning(t *testing.T) {
	ts := []TestTable{{Rows: []Row{rankRow("a", 70, 100, 130), rankRow("b", 90, 100, 110), rankRow("c", 75, 100, 125)}}}
	s := spreadOf(ts, "")
	if !s.OK || s.Rows != 3 || s.Median != 0.5 {
		t.Fatalf("spread %+v, want the median of 0.6, 0.2, 0.5", s)
	}
	want := "**Noisy rounds:** the rounds of a peak spread by a median 50% of it ((max − min) / median over 3 rows), above the 20% this report warns at: differences smaller than the ranges are not evidence, and ranks tie more often. A quieter machine (docs/platforms.md) or more rounds (`--rounds`) narrows them."
	if got := spreadText(s, ""); got != want {
		t.Errorf("spreadText\n got %s\nwant %s", got, want)
	}
	if got := spreadText(Spread{Median: 0.20, Rows: 3, OK: true}, ""); got != "" {
		t.Errorf("20%% spread warned: %s", got)
	}
	// The report and the site's index carry it under the provenance line.
	f := siteFixture(t)
	for i := range f.Samples {
		if f.Samples[i].Round == 2 {
			f.Samples[i].RPS *= 1.6
		}
	}
	var md bytes.Buffer
	if err := Markdown(&md, f); err != nil {
		t.Fatal(err)
	}
	index := site(t, single(f))["index.md"]
	for name, page := range map[string]string{"report": md.String(), "index.md": index} {
		if !strings.Contains(page, "**Noisy rounds:** the rounds of a peak spread by a median") {
			t.Errorf("%s has no spread warning:\n%.600s", name, page)
		}
	}
	if strings.Contains(site(t, single(siteFixture(t)))["index.md"], "Noisy rounds") {
		t.Error("the quiet fixture warns")
	}
}

// TestSummaryWithoutReference: SSR runs merged where go-stdlib has no
// figure (its page-hit route does not exist) show raw peaks, never a
// column of "—".
func TestSummaryWithoutReference(t *testing.T) {
	a := keep(pageFixture(t), 1, "nextjs")
	b := keep(pageFixture(t), 2, "node-http")
	b.RunID = "ssr2"
	s, err := results.Merge([]results.Run{{Label: "ci-a", File: a}, {Label: "ci-b", File: b}})
	if err != nil {
		t.Fatal(err)
	}
	index := squeeze(site(t, s)["index.md"])
	if want := "| ci-a | nextjs | default | 78.0 (76.0–80.0) | 824 (816–832) |"; !strings.Contains(index, want) {
		t.Errorf("index.md lacks %q:\n%s", want, index)
	}
}

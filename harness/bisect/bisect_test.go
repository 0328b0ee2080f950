package bisect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/internal/golden"
)

// history makes GOOD and n commits after it, each changing the adapter's
// tree (key "tN"), commit i with i+1 adapter files changed.
func history(n int) (Commit, []Commit) {
	good := Commit{SHA: "g000000000", Short: "g000000", Subject: "good", Key: "t0", Date: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
	var list []Commit
	for i := range n {
		files := make([]string, i+1)
		for j := range files {
			files[j] = fmt.Sprintf("frameworks/x/f%d.go", j)
		}
		list = append(list, Commit{SHA: fmt.Sprintf("c%d00000000", i), Short: fmt.Sprintf("c%d00000", i), Subject: fmt.Sprintf("change %d", i),
			Key: fmt.Sprintf("t%d", i+1), Files: files, Date: good.Date.Add(time.Duration(i+1) * time.Hour)})
	}
	return good, list
}

// planted measures a commit as slower when it is at or after the planted
// position (by its key's number), else same; it counts the calls.
func planted(list []Commit, at int, calls *int) Measure {
	index := map[string]int{}
	for i, c := range list {
		index[c.SHA] = i
	}
	return func(_ context.Context, c Commit, rounds int) (Outcome, error) {
		*calls++
		if index[c.SHA] >= at {
			return Outcome{Verdict: compare.Slower, Ratio: 0.5, P: 0.0079, RunID: fmt.Sprintf("run%d", *calls)}, nil
		}
		return Outcome{Verdict: compare.Same, Ratio: 1.01, P: 0.69, RunID: fmt.Sprintf("run%d", *calls)}, nil
	}
}

// TestBisectSearchPlanted: a planted bad commit at every position of 1 to 8
// candidates is found with at most ⌈log2 n⌉ + 1 A/B steps and at least
// ⌊log2 n⌋ + 1 (step 0 included); its parent is the candidate before it
// (GOOD for the first).
func TestBisectSearchPlanted(t *testing.T) {
	for n := 1; n <= 8; n++ {
		for at := range n {
			good, list := history(n)
			r := New("x:default", "json", 0, []string{"frameworks/x"}, good, list)
			calls := 0
			if err := Search(context.Background(), r, 5, planted(list, at, &calls), nil); err != nil {
				t.Fatal(err)
			}
			most, least := int(math.Ceil(math.Log2(float64(n))))+1, int(math.Floor(math.Log2(float64(n))))+1
			if r.Status != Found || r.Culprit == nil || r.Culprit.SHA != list[at].SHA || calls > most || calls < least || len(r.Steps) != calls {
				t.Fatalf("n %d, planted at %d: status %s, culprit %+v, %d calls and %d steps, want %d to %d", n, at, r.Status, r.Culprit, calls, len(r.Steps), least, most)
			}
			parent := good
			if at > 0 {
				parent = list[at-1]
			}
			if r.Parent.SHA != parent.SHA {
				t.Errorf("n %d, planted at %d: parent %s, want %s", n, at, r.Parent.Short, parent.Short)
			}
			if s := r.Steps[0]; s.Step != 0 || s.Commit.SHA != list[n-1].SHA || s.Files != n || s.Bad == nil || !*s.Bad {
				t.Errorf("n %d: step 0 %+v", n, s)
			}
		}
	}
}

// TestBisectCollapse: commits that leave the adapter's tree as it was (a
// README change) are not candidates; a commit restoring an earlier tree is.
func TestBisectCollapse(t *testing.T) {
	good := Commit{Short: "g", Key: "A"}
	list := []Commit{{Short: "1", Key: "A"}, {Short: "2", Key: "B"}, {Short: "3", Key: "B"}, {Short: "4", Key: "C"}, {Short: "5", Key: "C"}, {Short: "6", Key: "B"}}
	var got []string
	for _, c := range Candidates(good, list) {
		got = append(got, c.Short)
	}
	if strings.Join(got, ",") != "2,4,6" {
		t.Errorf("candidates %v, want 2, 4, 6", got)
	}
}

// TestBisectNotSlower: BAD measured the same as GOOD ends after step 0
// with nothing to bisect.
func TestBisectNotSlower(t *testing.T) {
	good, list := history(4)
	r := New("x:default", "json", 0, []string{"frameworks/x"}, good, list)
	calls := 0
	if err := Search(context.Background(), r, 5, planted(list, 99, &calls), nil); err != nil {
		t.Fatal(err)
	}
	want := "BAD c300000 is not slower than GOOD g000000 on json (verdict same, ratio 1.010): nothing to bisect."
	if r.Status != NotSlower || r.Message != want || calls != 1 || r.Culprit != nil {
		t.Errorf("status %s, message %q, %d calls, culprit %v", r.Status, r.Message, calls, r.Culprit)
	}
}

// TestBisectUnchanged: without a commit changing the adapter, nothing is
// measured and the message says the change is elsewhere.
func TestBisectUnchanged(t *testing.T) {
	good := Commit{Short: "g000000", Key: "A"}
	list := []Commit{{Short: "1111111", Key: "A"}, {Short: "2222222", Key: "A"}}
	r := New("x:default", "json", 20, []string{"frameworks/x"}, good, list)
	calls := 0
	if err := Search(context.Background(), r, 5, planted(list, 0, &calls), nil); err != nil {
		t.Fatal(err)
	}
	want := "The adapter frameworks/x did not change between GOOD g000000 and BAD 2222222: the change is outside frameworks/x (the harness, the runner, go-stdlib or the dataset)."
	if r.Status != Unchanged || r.Message != want || calls != 0 {
		t.Errorf("status %s, message %q, %d calls", r.Status, r.Message, calls)
	}

	// Changed and changed back: the same tree at both ends.
	list = []Commit{{Short: "1111111", Key: "B"}, {Short: "2222222", Key: "A"}}
	r = New("x:default", "json", 0, []string{"frameworks/x"}, good, list)
	if err := Search(context.Background(), r, 5, planted(list, 0, &calls), nil); err != nil {
		t.Fatal(err)
	}
	want = "The adapter frameworks/x is the same at both ends (2 commits changed it and back) between GOOD g000000 and BAD 2222222: the change is outside frameworks/x (the harness, the runner, go-stdlib or the dataset)."
	if r.Status != Unchanged || r.Message != want || calls != 0 {
		t.Errorf("status %s, message %q, %d calls", r.Status, r.Message, calls)
	}
}

// TestBisectUndecidedRetry: a step without a verdict is measured again with
// twice the rounds; a verdict then continues the search, none stops it with
// the range left.
func TestBisectUndecidedRetry(t *testing.T) {
	good, list := history(4)
	var rounds []int
	unknown := 1 // unknown answers left for c100000
	measure := func(_ context.Context, c Commit, n int) (Outcome, error) {
		rounds = append(rounds, n)
		if c.Short == "c100000" && unknown > 0 {
			unknown--
			return Outcome{Verdict: compare.Unknown, Why: "5 rounds per side cannot reach α"}, nil
		}
		if c.Key >= "t3" {
			return Outcome{Verdict: compare.Slower, Ratio: 0.5, P: 0.0079}, nil
		}
		return Outcome{Verdict: compare.Same, Ratio: 1, P: 0.5}, nil
	}
	r := New("x:default", "json", 0, []string{"frameworks/x"}, good, list)
	if err := Search(context.Background(), r, 5, measure, nil); err != nil {
		t.Fatal(err)
	}
	// step 0: c3 (5); step 1: c1 unknown (5), retried (10): same; step 2: c2 (5): slower.
	if r.Status != Found || r.Culprit.Short != "c200000" || fmt.Sprint(rounds) != "[5 5 10 5]" || !r.Steps[2].Retry || r.Steps[1].Bad != nil {
		t.Errorf("status %s, culprit %v, rounds %v, steps %+v", r.Status, r.Culprit, rounds, r.Steps)
	}

	// Step 0 without a verdict twice: nothing bisected, every candidate left.
	rounds = nil
	r = New("x:default", "json", 0, []string{"frameworks/x"}, good, list)
	never := func(_ context.Context, c Commit, n int) (Outcome, error) {
		rounds = append(rounds, n)
		return Outcome{Verdict: compare.Unknown, Why: "new: no peak: every level failed the gate"}, nil
	}
	if err := Search(context.Background(), r, 5, never, nil); err != nil {
		t.Fatal(err)
	}
	want := "BAD c300000 against GOOD g000000 on json gave no verdict, also with 10 rounds: new: no peak: every level failed the gate. Nothing was bisected."
	if r.Status != Undecided || r.Message != want || len(r.Left) != 4 || fmt.Sprint(rounds) != "[5 10]" {
		t.Errorf("step 0: status %s, message %q, left %d, rounds %v", r.Status, r.Message, len(r.Left), rounds)
	}

	unknown, rounds = 2, nil
	r = New("x:default", "json", 0, []string{"frameworks/x"}, good, list)
	if err := Search(context.Background(), r, 5, measure, nil); err != nil {
		t.Fatal(err)
	}
	want = "Step 1 (c100000) gave no verdict, also with 10 rounds: 5 rounds per side cannot reach α. The first bad commit is one of the 4 commits after g000000 up to c300000 that change the adapter: c000000, c100000, c200000, c300000."
	if r.Status != Undecided || r.Message != want || len(r.Left) != 4 || fmt.Sprint(rounds) != "[5 5 10]" {
		t.Errorf("status %s, message %q, left %d, rounds %v", r.Status, r.Message, len(r.Left), rounds)
	}
}

// TestBisectWritesEveryStep: bisect.json and bisect.md are rewritten after
// every step: an update that fails on the third write stops the search, and
// the files on disk hold the two steps measured; the markdown of a found
// culprit (a dependency bump, a profile diff whose header lines keep a line
// each) is a golden file.
func TestBisectWritesEveryStep(t *testing.T) {
	dir := t.TempDir()
	good, list := history(5)
	writes := 0
	update := func(r *Result) error {
		writes++
		if writes == 3 {
			return errors.New("disk full")
		}
		return Write(dir, r)
	}
	calls := 0
	r := New("x:default", "json", 0, []string{"frameworks/x"}, good, list)
	err := Search(context.Background(), r, 5, planted(list, 3, &calls), update)
	if err == nil || err.Error() != "disk full" {
		t.Fatalf("err %v, want disk full", err)
	}
	data, err := os.ReadFile(filepath.Join(dir, JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	var back Result
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Status != Running || len(back.Steps) != 2 || back.Steps[1].Commit.Short != "c100000" || back.Schema != 1 {
		t.Errorf("bisect.json: status %s, %d steps %+v", back.Status, len(back.Steps), back.Steps)
	}

	calls = 0
	r = New("x:default", "json", 0, []string{"frameworks/x"}, good, list)
	r.Suite, r.Options = "suites/nightly.yaml", compare.Options{Alpha: 0.01, MinChange: 0.05}
	err = Search(context.Background(), r, 5, planted(list, 3, &calls), func(r *Result) error { return Write(dir, r) })
	if err != nil {
		t.Fatal(err)
	}
	r.Bump = &Bump{Files: []string{"frameworks/x/package-lock.json"}, Moves: []Move{{File: "frameworks/x/package-lock.json", Package: "left-pad", Before: "1.0.0", After: "1.1.0"}}}
	r.Profile = "A = run#x/default@base\nA: 10.0 ms sampled over 100 requests: 0.1000 ms/request\n\nby area:\n\n| area | A ms/req |\n|:--|--:|\n| the app | 0.1000 |\n"
	r.Commands = []string{"tfbench bisect --good g000000 --bad c400000 --adapter x:default --test json"}
	if err := Write(dir, r); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "found.md", string(md))
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/bisect"
	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/internal/gittest"
)

// serverLine is the line of go-stdlib's main.go the history's edits go
// before (slowedCopy's too).
const serverLine = `w.Header().Set("Server", serverName)`

// plantedSpin is the planted slowdown's function, appended to main.go: 20
// ms of the server's CPU time a request. It bounds the server at 50
// requests/s at 1 connection whatever the machine does; unlike a sleep it is
// on the CPU, so the profiled step's diff can name it; and it counts CPU
// time, not wall time, which a busy machine would fill with other work.
const plantedSpin = `

// plantedSpin burns 20 ms of the process's CPU time: the bisect test's
// planted slowdown.
func plantedSpin() {
	x := uint64(1)
	for start := spinCPU(); spinCPU()-start < 20*time.Millisecond; {
		for range 10000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	spinSink = x
}

// spinCPU is the process's user and system CPU time so far.
func spinCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

var spinSink uint64
`

// adapterCommit replaces the repository's frameworks/go-stdlib with a copy
// of the real adapter whose main.go has before inserted ahead of
// serverLine (and plantedSpin appended when spin), plus extra files, and
// commits it all.
func adapterCommit(t *testing.T, r *gittest.Repo, message, before string, spin bool, extra map[string]string) string {
	t.Helper()
	fw := filepath.Join(r.Dir, "frameworks")
	if err := os.RemoveAll(filepath.Join(fw, "go-stdlib")); err != nil {
		t.Fatal(err)
	}
	dir := editedCopy(t, fw, serverLine, before+serverLine)
	if spin {
		f, err := os.OpenFile(filepath.Join(dir, "main.go"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.WriteString(plantedSpin)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return r.Commit(message, extra)
}

// plantedHistory is the end-to-end tests' git history of go-stdlib: good; a
// README change outside the adapter; a harmless comment in it; the planted
// 20 ms of CPU a request (plantedSpin); another harmless file. It returns
// the repository and the four adapter commits.
func plantedHistory(t *testing.T) (r *gittest.Repo, good, comment, spin, notes string) {
	t.Helper()
	r = gittest.New(t, t.TempDir())
	good = adapterCommit(t, r, "good", "", false, map[string]string{"README.md": "a history to bisect\n"})
	r.Commit("docs: readme", map[string]string{"README.md": "a history to bisect, changed\n"})
	comment = adapterCommit(t, r, "go-stdlib: a comment", "// a harmless comment\n\t\t", false, nil)
	spin = adapterCommit(t, r, "go-stdlib: 20 ms of CPU a request", "// a harmless comment\n\t\tplantedSpin()\n\t\t", true, nil)
	notes = adapterCommit(t, r, "go-stdlib: notes", "// a harmless comment\n\t\tplantedSpin()\n\t\t", true, map[string]string{"frameworks/go-stdlib/NOTES.md": "notes\n"})
	return r, good, comment, spin, notes
}

// TestBisectPlanted is the end-to-end bisect: a git history of go-stdlib
// (good; a README change outside the adapter; a harmless comment in it;
// the planted 20 ms of CPU a request, plantedSpin; another harmless file)
// bisected on json at 1 connection (testdata/ab.yaml, 5 rounds). The
// README commit collapses; step 0 confirms BAD slower, step 1 finds the
// comment good, step 2 the spin bad: the first bad commit is the spin's.
// The last step profiles the spin's parent against it, and the profile diff
// puts main.plantedSpin first among the functions. Nothing is left running
// and the repository is untouched.
func TestBisectPlanted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs go-stdlib 8 times, 5 rounds a step")
	}
	r, good, comment, sleep, notes := plantedHistory(t)

	work := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"bisect", "--repo", r.Dir, "--good", good[:7], "--bad", "main", "--adapter", "go-stdlib", "--test", "json",
		"--suite", "testdata/ab.yaml", "--work", work}
	code := cli(context.Background(), args, &stdout, &stderr)
	t.Logf("stdout:\n%s", stdout.String())
	if code != 0 {
		t.Fatalf("exit %d, want 0 (a first bad commit)\nstderr:\n%s", code, stderr.String())
	}
	out := filepath.Join(work, "bisect", fmt.Sprintf("%.7s-%.7s-go-stdlib-json", good, notes))
	data, err := os.ReadFile(filepath.Join(out, bisect.JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	var res bisect.Result
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	if res.Status != bisect.Found || res.Culprit == nil || res.Culprit.SHA != sleep || res.Parent.SHA != comment || res.Commits != 4 || len(res.Candidates) != 3 {
		t.Fatalf("status %s, culprit %+v, parent %+v, %d commits, %d candidates", res.Status, res.Culprit, res.Parent, res.Commits, len(res.Candidates))
	}
	type row struct {
		step    int
		sha     string
		verdict compare.Verdict
		profile bool
	}
	var got []row
	for _, s := range res.Steps {
		v := s.Verdict
		if s.Step == 1 && v != compare.Slower {
			v = "not slower" // same or faster: the comment is good either way
		}
		got = append(got, row{s.Step, s.Commit.SHA, v, s.Profile})
	}
	want := []row{{0, notes, compare.Slower, false}, {1, comment, "not slower", false}, {2, sleep, compare.Slower, false}, {3, sleep, compare.Slower, true}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("steps %v\nwant %v", got, want)
	}
	for _, s := range res.Steps {
		if s.RunID == "" || s.Rounds != 5 || (s.Verdict == compare.Slower && (s.Ratio > 0.5 || s.P > 0.01)) {
			t.Errorf("step %d: %+v", s.Step, s)
		}
	}
	if res.Steps[1].Files != 1 || res.Steps[0].Files != 2 {
		t.Errorf("adapter files: step 0 %d (want 2: main.go, NOTES.md), step 1 %d (want 1)", res.Steps[0].Files, res.Steps[1].Files)
	}
	first := fmt.Sprintf("The first bad commit is %.7s \"go-stdlib: 20 ms of CPU a request\"", sleep)
	for _, want := range []string{first, "slower: confirmed", "same: good", "slower: bad", fmt.Sprintf("| profile | %.7s go-stdlib: 20 ms of CPU a request |", sleep)} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
	md, err := os.ReadFile(filepath.Join(out, bisect.MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# tfbench bisect: go-stdlib on json", "Status: **found**.", first, "## Reproduce", "## Profile diff", "| main.plantedSpin ",
		fmt.Sprintf("tfbench profile --diff %s#go-stdlib/default@base %s#go-stdlib/default@new --test json", runDir(work, res.Steps[3].RunID), runDir(work, res.Steps[3].RunID))} {
		if !strings.Contains(string(md), want) {
			t.Errorf("bisect.md lacks %q:\n%s", want, md)
		}
	}
	checkProfileDiff(t, out, res, stdout.String())
	if left := processesUnder(work); len(left) > 0 {
		t.Errorf("processes left: %v", left)
	}
	if st := r.Git("status", "--porcelain"); st != "" {
		t.Errorf("the repository changed:\n%s", st)
	}
	if wt := r.Git("worktree", "list"); strings.Contains(wt, "\n") {
		t.Errorf("worktrees left:\n%s", wt)
	}
}

// runDir is a run's folder under work.
func runDir(work, id string) string { return filepath.Join(work, "runs", id) }

// checkProfileDiff checks the profiled step's diff in bisect.json, on
// stdout and in OUT/diff.folded.
func checkProfileDiff(t *testing.T, out string, res bisect.Result, stdout string) {
	t.Helper()
	if res.ProfileError != "" || res.Profile == "" {
		t.Fatalf("no profile diff: %q", res.ProfileError)
	}
	// The functions table's first row is the planted function, grown by
	// about 20 ms a request (more than 10 whatever the machine does).
	_, funcs, ok := strings.Cut(res.Profile, "functions whose self time per request changed most")
	var first []string
	for _, l := range strings.Split(funcs, "\n") {
		if strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "| function") {
			first = strings.Split(l, "|")
			break
		}
	}
	if !ok || len(first) < 6 || strings.TrimSpace(first[1]) != "main.plantedSpin" {
		t.Fatalf("the profile diff does not put main.plantedSpin first:\n%s", res.Profile)
	}
	if d, err := strconv.ParseFloat(strings.TrimPrefix(strings.TrimSpace(first[5]), "+"), 64); err != nil || d < 10 {
		t.Errorf("main.plantedSpin grew by %q ms/request (%v), want over 10", first[5], err)
	}
	if !strings.Contains(stdout, "main.plantedSpin") {
		t.Errorf("stdout lacks the profile diff")
	}
	folded, err := os.ReadFile(filepath.Join(out, "diff.folded"))
	if err != nil || !strings.Contains(string(folded), "main.plantedSpin") {
		t.Errorf("diff.folded: %v, no main.plantedSpin stack", err)
	}
}

// TestBisectUnchanged: a range whose commits leave frameworks/NAME as it
// was measures nothing and exits 2, saying the change is elsewhere.
func TestBisectUnchanged(t *testing.T) {
	r := gittest.New(t, t.TempDir())
	good := r.Commit("good", map[string]string{"frameworks/go-stdlib/main.go": "package main\n", "README.md": "1\n"})
	bad := r.Commit("readme", map[string]string{"README.md": "2\n"})
	work := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := cli(context.Background(), []string{"bisect", "--repo", r.Dir, "--good", good, "--bad", bad, "--adapter", "go-stdlib", "--test", "json", "--suite", "testdata/ab.yaml", "--work", work}, &stdout, &stderr)
	msg := fmt.Sprintf("The adapter frameworks/go-stdlib did not change between GOOD %.7s and BAD %.7s: the change is outside frameworks/go-stdlib (the harness, the runner or the dataset).", good, bad)
	if code != 2 || stderr.String() != "tfbench bisect: no first bad commit (unchanged): "+msg+"\n" {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), msg) {
		t.Errorf("stdout:\n%s", stdout.String())
	}
	data, err := os.ReadFile(filepath.Join(work, "bisect", fmt.Sprintf("%.7s-%.7s-go-stdlib-json", good, bad), bisect.JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	var res bisect.Result
	if err := json.Unmarshal(data, &res); err != nil || res.Status != bisect.Unchanged || len(res.Steps) != 0 {
		t.Errorf("bisect.json: %+v, %v", res, err)
	}
}

// TestBisectUnknownVariant: a variant the adapter does not have is refused
// at both ends before any step is measured.
func TestBisectUnknownVariant(t *testing.T) {
	r, good, _, _, notes := plantedHistory(t)
	work := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := cli(context.Background(), []string{"bisect", "--repo", r.Dir, "--good", good, "--bad", notes, "--adapter", "go-stdlib:nope", "--test", "json",
		"--suite", "testdata/ab.yaml", "--work", work}, &stdout, &stderr)
	want := fmt.Sprintf("tfbench bisect: GOOD %.7s and BAD %.7s: framework go-stdlib: no variant \"nope\"", good, notes)
	if code != 1 || !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("exit %d, stderr %q, want %q…", code, stderr.String(), want)
	}
	if _, err := os.Stat(filepath.Join(work, "runs")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a run was started: %v", err)
	}
}

// TestBisectUsage: the required flags, a GOOD that is not an ancestor of
// BAD, an adapter missing at one end, a test the suite lacks or an N it
// lacks: exit 2 for the flags, 1 for the others, nothing measured.
func TestBisectUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := cli(context.Background(), []string{"bisect", "--good", "a"}, &stdout, &stderr); code != 2 || !strings.HasPrefix(stderr.String(), "bisect needs --bad, --adapter, --test\nUsage: tfbench bisect ") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	r := gittest.New(t, t.TempDir())
	a := r.Commit("a", map[string]string{"frameworks/go-stdlib/x": "1\n"})
	b := r.Commit("b", map[string]string{"frameworks/go-stdlib/x": "2\n"})
	c := r.Commit("c", map[string]string{"frameworks/go-stdlib/x": "", "frameworks/other/x": "1\n"})
	r.Git("rm", "-q", "-r", "frameworks/go-stdlib")
	r.Git("commit", "-q", "-m", "d")
	d := r.Git("rev-parse", "HEAD")
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"--good", b, "--bad", a, "--test", "json"}, fmt.Sprintf("tfbench bisect: --good %s (%.7s) is not an ancestor of --bad %s (%.7s): bisect needs GOOD older than BAD on one line of history\n", b, b, a, a)},
		{[]string{"--good", a, "--bad", b, "--test", "json", "--n", "20"}, "tfbench bisect: testdata/ab.yaml: test json has no N=20 (its N: none)\n"},
		{[]string{"--good", c, "--bad", d, "--test", "json"}, fmt.Sprintf("tfbench bisect: %s has no frameworks/go-stdlib at BAD %.7s: both ends need the adapter\n", r.Dir, d)},
		{[]string{"--good", a, "--bad", b, "--test", "db"}, "tfbench bisect: testdata/ab.yaml: no test named \"db\" (have json)\n"},
	} {
		stdout.Reset()
		stderr.Reset()
		args := append([]string{"bisect", "--repo", r.Dir, "--adapter", "go-stdlib", "--suite", "testdata/ab.yaml", "--work", t.TempDir()}, c.args...)
		if code := cli(context.Background(), args, &stdout, &stderr); code != 1 || !strings.HasPrefix(stderr.String(), c.err) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, stderr.String(), c.err)
		}
	}
}

// TestBisectInterrupt cancels a bisect (as Ctrl-C does) once step 0 is in
// bisect.json: exit 1 saying where the steps are, bisect.json keeps step 0
// with the status interrupted, and no server or build outlives it.
func TestBisectInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs go-stdlib twice, 5 rounds, then a step interrupted")
	}
	r, good, _, _, notes := plantedHistory(t)
	work := t.TempDir()
	out := filepath.Join(work, "out")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := cliAsync(ctx, []string{"bisect", "--repo", r.Dir, "--good", good, "--bad", notes, "--adapter", "go-stdlib", "--test", "json",
		"--suite", "testdata/ab.yaml", "--work", work, "--out", out})
	read := func() bisect.Result {
		var res bisect.Result
		if data, err := os.ReadFile(filepath.Join(out, bisect.JSONFile)); err == nil {
			_ = json.Unmarshal(data, &res) // replaced whole (atomically): never half written
		}
		return res
	}
	deadline := time.Now().Add(5 * time.Minute)
	for len(read().Steps) == 0 {
		select {
		case o := <-done:
			t.Fatalf("bisect ended (exit %d) before step 0 was recorded:\n%s\n%s", o.code, o.stdout, o.stderr)
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("no step recorded within 5 minutes")
		}
	}
	time.Sleep(2 * time.Second) // into step 1's builds or rounds
	cancel()
	var o cliOutcome
	select {
	case o = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("bisect did not end within 2 minutes of the interrupt")
	}
	want := "tfbench bisect: interrupted; the steps measured so far are in " + filepath.Join(out, bisect.MarkdownFile) + "\n"
	if o.code != 1 || !strings.HasSuffix(o.stderr, want) {
		t.Errorf("exit %d, stderr %q; want 1 and %q", o.code, o.stderr, want)
	}
	res := read()
	if res.Status != bisect.Interrupted || len(res.Steps) != 1 || res.Steps[0].Verdict != compare.Slower || !strings.HasPrefix(res.Message, "Interrupted: Step 1 (") {
		t.Errorf("bisect.json: status %s, steps %+v, message %q", res.Status, res.Steps, res.Message)
	}
	if left := processesUnder(work); len(left) > 0 {
		t.Errorf("processes left: %v", left)
	}
}

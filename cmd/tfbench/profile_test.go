package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/internal/golden"
)

// profileFixtures is the folder of harness/profile's profileFixtures and golden files.
const profileFixtures = "../../harness/profile/testdata/"

// wantGolden is harness/profile's golden file name with the profileFixtures'
// paths as this package's tests name them.
func wantGolden(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(profileFixtures + name)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), "testdata/", profileFixtures)
}

// TestProfileCommand: tfbench profile prints harness/profile's golden
// output for one Node and one Go profile, the two summed (--top 5) and one
// report per file (--each).
func TestProfileCommand(t *testing.T) {
	node, gop := profileFixtures+"node.cpuprofile", profileFixtures+"go.pprof"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{node}, wantGolden(t, "node.golden")},
		{[]string{gop, "--top", "20"}, wantGolden(t, "go.golden")},
		{[]string{"--top", "5", node, gop}, wantGolden(t, "sum.golden")},
		{[]string{"--each", node, gop}, wantGolden(t, "node.golden") + "\n" + wantGolden(t, "go.golden")},
	} {
		var stdout, stderr bytes.Buffer
		if code := cli(context.Background(), append([]string{"profile"}, c.args...), &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr.String())
		}
		if stdout.String() != c.want {
			t.Errorf("%v: output\n%s\nwant\n%s", c.args, stdout.String(), c.want)
		}
	}
}

// TestProfileCommandErrors: a file that is no profile exits 1 naming it;
// no FILE or a negative --top is a usage error (exit 2).
func TestProfileCommandErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "results.json")
	os.WriteFile(bad, []byte(`{"schema_version":1}`), 0o644)
	for _, c := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{profileFixtures + "node.cpuprofile", bad}, 1, "tfbench profile: " + bad + `: not a Node .cpuprofile or pprof profile: JSON without a "nodes" list` + "\n"},
		{nil, 2, "profile needs at least one FILE\n"},
		{[]string{"--top", "-1", bad}, 2, "--top -1: want 0 (all) or more\n"},
	} {
		var stdout, stderr bytes.Buffer
		code := cli(context.Background(), append([]string{"profile"}, c.args...), &stdout, &stderr)
		if code != c.code || !strings.HasPrefix(stderr.String(), c.stderr) || stdout.Len() > 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d, stderr starting %q", c.args, code, stdout.String(), stderr.String(), c.code, c.stderr)
		}
	}
}

// profileRuns is the folder of the fixture runs of the --diff tests: ab,
// an ab run's results.json whose profiles record has node-http's
// default@base and default@new on json (harness/profile's diff-a.cpuprofile
// over 4 requests and diff-b.cpuprofile over 5) and on fortunes (base only:
// new's record has an error); old, a run written before profile records
// had requests.
const profileRuns = "testdata/profile-diff/"

// TestProfileDiffCommand: profile --diff prints the per-request diff of
// the ab run's two sides (golden), writes the differential folded stacks
// with --folded (harness/profile's diff.folded), and takes a run folder
// or its results.json.
func TestProfileDiffCommand(t *testing.T) {
	folded := filepath.Join(t.TempDir(), "diff.folded")
	base, next := profileRuns+"ab#node-http/default@base", profileRuns+"ab/results.json#node-http/default@new"
	var stdout, stderr bytes.Buffer
	args := []string{"profile", "--diff", base, next, "--test", "json", "--top", "3", "--folded", folded}
	if code := cli(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	golden.Check(t, "profile-diff.golden", strings.ReplaceAll(stdout.String(), folded, "FOLDED"))
	got, err := os.ReadFile(folded)
	if err != nil {
		t.Fatal(err)
	}
	if want := readFile(t, profileFixtures+"diff.folded"); string(got) != want {
		t.Errorf("folded stacks\n%s\nwant\n%s", got, want)
	}
}

// TestProfileFoldedCommand: profile --folded FILE writes the plain folded
// stacks of the files summed, in ns, after the usual report.
func TestProfileFoldedCommand(t *testing.T) {
	folded := filepath.Join(t.TempDir(), "a.folded")
	var stdout, stderr bytes.Buffer
	if code := cli(context.Background(), []string{"profile", "--folded", folded, profileFixtures + "diff-a.cpuprofile"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.HasSuffix(stdout.String(), "\nfolded stacks (ns of self time): "+folded+"\n") {
		t.Errorf("output\n%s", stdout.String())
	}
	want := "(garbage collector) 1000000\n(program) 1000000\nhandler (app/server.mjs) 1000000\nhandler (app/server.mjs);escapeHtml (app/server.mjs) 2000000\nhandler (app/server.mjs);stringify (native) 1000000\n"
	if got := readFile(t, folded); got != want {
		t.Errorf("folded\n%s\nwant\n%s", got, want)
	}
}

// TestProfileDiffCommandErrors: a run that names no single profile exits 1
// saying which run and what is missing; wrong arguments are usage errors.
func TestProfileDiffCommandErrors(t *testing.T) {
	ab, old := profileRuns+"ab", profileRuns+"old"
	res := ab + "/results.json"
	for _, c := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{ab, ab + "#node-http/default@new"}, 1, "tfbench profile: " + res + ": profiled node-http/default@base, node-http/default@new: pick one with " + ab + "#FRAMEWORK/VARIANT\n"},
		{[]string{ab + "#node-http/default@base", ab + "#node-http/default@new"}, 1, "tfbench profile: " + res + ": node-http/default@base profiled tests json, fortunes: pick one with --test\n"},
		{[]string{ab + "#node-http/default@base", ab + "#node-http/default@new", "--test", "fortunes"}, 1, "tfbench profile: " + res + ": node-http/default@new fortunes: no profile: no profile written (the server ended with exit status 1)\n"},
		{[]string{ab + "#node-http/default@base", ab + "#node-http/default@new", "--test", "db"}, 1, "tfbench profile: " + res + ": node-http/default@base has no profile of test db: it has json, fortunes\n"},
		{[]string{old, ab + "#node-http/default@new"}, 1, "tfbench profile: " + old + "/results.json: node-http/default json: no requests recorded (a run made before tfbench recorded them): no per-request figures\n"},
		{[]string{ab + "#go-stdlib", old}, 1, "tfbench profile: " + res + ": no profile of go-stdlib: it profiled node-http/default@base, node-http/default@new\n"},
		{[]string{"#x", old}, 1, `tfbench profile: "#x": want RUN[#FRAMEWORK/VARIANT], RUN a run folder or its results.json` + "\n"},
		{[]string{ab}, 2, "profile --diff needs two runs, A B; got 1\n"},
		{[]string{ab, old, "--each"}, 2, "--each does not go with --diff\n"},
	} {
		var stdout, stderr bytes.Buffer
		code := cli(context.Background(), append([]string{"profile", "--diff"}, c.args...), &stdout, &stderr)
		if code != c.code || !strings.HasPrefix(stderr.String(), c.stderr) || stdout.Len() > 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d, stderr starting %q", c.args, code, stdout.String(), stderr.String(), c.code, c.stderr)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := cli(context.Background(), []string{"profile", "--test", "json", profileFixtures + "go.pprof"}, &stdout, &stderr); code != 2 || !strings.HasPrefix(stderr.String(), "--test goes with --diff\n") {
		t.Errorf("--test without --diff: exit %d, stderr %q", code, stderr.String())
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

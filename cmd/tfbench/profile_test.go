package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

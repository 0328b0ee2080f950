package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/internal/testenv"
)

// TestReadmeCommands runs the README's two commands in that order on a copy
// of the repository, as a new user does on a fresh clone: `go tool task
// bench` on a tiny suite (testdata/suites/readme.yaml, go-stdlib alone),
// stopped by Ctrl-C (SIGINT to its process group, as a terminal sends it)
// once the first sample is in results.json, must leave reports/ byte for
// byte as it was; run again to the end it writes its run to
// .tfbench/runs/ID/ (results.json and report.md), says where, and leaves
// reports/ byte for byte as it was too: only go tool task publish writes
// there (tools/publish). Then the tests that read published results
// (report, compare, results, the docs' links, the report command) must
// pass there. No process a run started outlives it.
//
// The copy is the work tree as git sees it (tracked and untracked files,
// not ignored ones such as .tfbench/), uncommitted changes included: the
// code under test is this test's, in development as on CI's fresh clone.
func TestReadmeCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tfbench and go-stdlib in a copy of the repository and runs go tool task bench twice")
	}
	start := time.Now()
	clone := copyRepo(t)
	t.Logf("copied the repository to %s in %s", clone, time.Since(start).Round(time.Millisecond))
	published := readTree(t, filepath.Join(clone, "reports"))
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	latest := filepath.Join(clone, ".tfbench", "runs", "latest", "results.json")

	// Stopped once the first sample is written.
	began := time.Now()
	c := startIn(t, clone, goBin, "tool", "task", "bench", "SUITE=cmd/tfbench/testdata/suites/readme.yaml", "--", "--frameworks", "go-stdlib")
	c.untilWithin(t, "a sample in "+latest, 10*time.Minute, func() bool {
		f, err := results.Read(latest)
		return err == nil && len(f.Samples) > 0
	})
	if err := syscall.Kill(-c.cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	code := c.wait(t, 2*time.Minute)
	t.Logf("interrupted run: exit %d after %s", code, time.Since(began).Round(time.Millisecond))
	f, err := results.Read(latest)
	if err != nil {
		t.Fatal(err)
	}
	out := c.stdout.String() + c.stderr.String()
	where := "report:  .tfbench/runs/" + f.RunID + "/report.md\n"
	if code == 0 || f.Status != results.Interrupted || !strings.Contains(out, where) {
		t.Errorf("interrupted bench: exit %d, status %s; want a non-zero exit, status interrupted and %q:\n%s", code, f.Status, where, out)
	}
	if diff := diffTrees(published, readTree(t, filepath.Join(clone, "reports"))); diff != "" {
		t.Errorf("the interrupted run changed reports/: %s", diff)
	}
	checkGone(t, c, clone)

	// Run to the end.
	began = time.Now()
	c = startIn(t, clone, goBin, "tool", "task", "bench", "SUITE=cmd/tfbench/testdata/suites/readme.yaml", "--", "--frameworks", "go-stdlib")
	code = c.wait(t, 10*time.Minute)
	t.Logf("complete run: exit %d after %s", code, time.Since(began).Round(time.Millisecond))
	out = c.stdout.String() + c.stderr.String()
	if code != 0 {
		t.Fatalf("bench: exit %d\n%s", code, out)
	}
	f, err = results.Read(latest)
	if err != nil {
		t.Fatal(err)
	}
	if f.Status != results.Complete || f.Suite.Name != "readme" || len(f.Samples) != 3 {
		t.Errorf("run %s: status %s, suite %s, %d samples; want complete, suite readme, 3 samples", f.RunID, f.Status, f.Suite.Name, len(f.Samples))
	}
	where = "results: .tfbench/runs/" + f.RunID + "/results.json\nreport:  .tfbench/runs/" + f.RunID + "/report.md\n"
	if !strings.Contains(out, where) {
		t.Errorf("the complete bench does not say where its run is (%q):\n%s", where, out)
	}
	if md, _ := os.ReadFile(filepath.Join(clone, ".tfbench", "runs", f.RunID, "report.md")); !strings.HasPrefix(string(md), "# tfbench: readme\n") {
		t.Errorf(".tfbench/runs/%s/report.md is not the run's report:\n%.300s", f.RunID, md)
	}
	if diff := diffTrees(published, readTree(t, filepath.Join(clone, "reports"))); diff != "" {
		t.Errorf("the complete run changed reports/ (only go tool task publish may): %s", diff)
	}
	checkGone(t, c, clone)

	// The tests that read published results.
	began = time.Now()
	for _, args := range [][]string{
		{"test", "-count=1", "./internal/runfixture", "./harness/results", "./harness/compare", "./harness/report", "./internal/docscheck"},
		{"test", "-count=1", "-run", "^TestReportCommand", "./cmd/tfbench"},
	} {
		cmd := exec.Command(goBin, args...)
		cmd.Dir = clone
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go %s after the runs: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	t.Logf("tests after the runs: %s; whole test %s", time.Since(began).Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
}

// copyRepo copies the repository's work tree (../..) as git lists it
// (testenv.CopyRepo).
func copyRepo(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return testenv.CopyRepo(t, root)
}

// readTree reads every file under dir, by path relative to it.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		files[rel], err = os.ReadFile(path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// diffTrees names the files added, removed or changed from a to b; "" when
// they are the same.
func diffTrees(a, b map[string][]byte) string {
	var d []string
	for name, data := range a {
		if other, ok := b[name]; !ok {
			d = append(d, name+" removed")
		} else if !bytes.Equal(data, other) {
			d = append(d, name+" changed")
		}
	}
	for name := range b {
		if _, ok := a[name]; !ok {
			d = append(d, name+" added")
		}
	}
	return strings.Join(d, ", ")
}

// startIn starts name args in dir as a process group of its own (as a
// shell runs a command line), killed whole at the test's cleanup if it is
// still there.
func startIn(t *testing.T, dir, name string, args ...string) *child {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c := spawn(t, cmd)
	t.Cleanup(func() {
		syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
		<-c.done
	})
	return c
}

// checkGone fails t when a process of c's group, or one whose executable or
// command line lies under dir (a server in a group of its own), is alive
// after c exited.
func checkGone(t *testing.T, c *child, dir string) {
	t.Helper()
	if err := syscall.Kill(-c.cmd.Process.Pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("processes of the task's group outlived it (kill -0: %v)", err)
	}
	if left := processesUnder(dir); len(left) > 0 {
		t.Errorf("processes the run started outlived it: %v", left)
	}
}

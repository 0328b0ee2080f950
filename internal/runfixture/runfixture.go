// Package runfixture locates the one published run that the tests of
// several packages read: testdata/run-RUNID.json and .md, the results and
// report `go tool task publish` published as reports/latest.json and .md.
// Tests read these copies, never reports/, which the next run replaces.
package runfixture

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// RunID is the fixture's run: the main job of 2 December 2026 (suites/tfb.yaml,
// nine variants, 3 rounds, 729 samples).
const RunID = "20261202-143809"

// Results is the absolute path of the run's results.json.
func Results(t testing.TB) string { return path(t, "run-"+RunID+".json") }

// Report is the absolute path of the markdown report bench wrote for the
// run (--report), byte for byte what `tfbench report` renders from Results.
func Report(t testing.TB) string { return path(t, "run-"+RunID+".md") }

// path finds name in this package's testdata/ from the module root, the
// first folder above the test's working directory (its package's folder)
// whose go.mod is module github.com/tfbench/tfbench.
func path(t testing.TB, name string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(string(b), "module github.com/tfbench/tfbench\n") {
			return filepath.Join(dir, "internal", "runfixture", "testdata", name)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("runfixture: no go.mod of module github.com/tfbench/tfbench above the test's working directory")
		}
		dir = parent
	}
}

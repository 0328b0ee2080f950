package runfixture_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/internal/runfixture"
)

// TestFixture: both paths are this package's testdata files, found from
// this package's folder as from any other; the results are the complete
// run RunID and the report names it.
func TestFixture(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := runfixture.Results(t), filepath.Join(wd, "testdata", "run-20261202-143809.json"); got != want {
		t.Errorf("Results = %s, want %s", got, want)
	}
	f, err := results.Read(runfixture.Results(t))
	if err != nil {
		t.Fatal(err)
	}
	if f.RunID != runfixture.RunID || f.Status != results.Complete || len(f.Samples) != 729 {
		t.Errorf("run %s, status %s, %d samples; want run %s complete with 729", f.RunID, f.Status, len(f.Samples), runfixture.RunID)
	}
	md, err := os.ReadFile(runfixture.Report(t))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "Run `20261202-143809`") {
		t.Errorf("report %s does not name run 20261202-143809", runfixture.Report(t))
	}
	t.Chdir(filepath.Join("..", "..", "harness", "report"))
	if got, want := runfixture.Report(t), filepath.Join(wd, "testdata", "run-20261202-143809.md"); got != want {
		t.Errorf("from harness/report: Report = %s, want %s", got, want)
	}
}

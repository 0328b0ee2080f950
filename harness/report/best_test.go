package report

import (
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/internal/runfixture"
)

// TestBestPerTest: one line per test of the published run, the variant with
// the highest peak at the headline N (the report's figures: go-stdlib's
// json peak is the report's 78,100), its level and how many had a peak; a
// test where no variant has one says so.
func TestBestPerTest(t *testing.T) {
	f, err := results.Read(runfixture.Results(t))
	if err != nil {
		t.Fatal(err)
	}
	want := `json: go-stdlib/default 78,100 RPS at c=16 (best of 9)
plaintext: node-http/default 109,885 RPS at c=256, pipeline 16 (best of 9)
db: node-http/default 57,922 RPS at c=16 (best of 9)
queries N=20: node-http/default 12,052 RPS at c=64 (best of 9)
fortunes: node-http/default 28,479 RPS at c=64 (best of 9)
updates N=20: node-http/default 4,759 RPS at c=64 (best of 9)`
	if got := strings.Join(BestPerTest(f), "\n"); got != want {
		t.Errorf("BestPerTest:\n%s\nwant\n%s", got, want)
	}
	for i := range f.Samples {
		if f.Samples[i].Test == "db" && f.Samples[i].Round == 2 {
			f.Samples[i].Gate = model.GateResult{Reason: "socket errors: read 1"}
		}
	}
	if got, want := BestPerTest(f)[2], "db: no variant has a peak (none measured, or no level passed the gate in every round)"; got != want {
		t.Errorf("db without a passing round 2: %q, want %q", got, want)
	}
}

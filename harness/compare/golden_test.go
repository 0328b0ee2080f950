package compare

import (
	"bytes"
	"testing"
	"time"

	"github.com/tfbench/tfbench/internal/golden"
)

// goldenFixture compares two runs on host a with every verdict: go-stdlib
// json the same, nextjs json 10% slower in new with a saturated generator,
// node-http json 20% faster in a new build, nextjs queries (N = 20) unknown
// with 4 rounds in new, and fastify measured in base only; the runs
// started on fixed dates.
func goldenFixture(t *testing.T) *Table {
	t.Helper()
	b := file("b", hostA, series{fw: "go-stdlib", variant: "default", test: "json", rps: seq(50000, 5), cpu: 0.02},
		series{fw: "nextjs", variant: "default", test: "json", rps: seq(100, 5), cpu: 0.5},
		series{fw: "node-http", variant: "default", test: "json", rps: seq(1000, 5), cpu: 0.1},
		series{fw: "fastify", variant: "default", test: "json", rps: seq(2000, 5), cpu: 0.08},
		series{fw: "nextjs", variant: "default", test: "queries", n: 20, rps: seq(100, 5), cpu: 0.5})
	n := file("n", hostA, series{fw: "go-stdlib", variant: "default", test: "json", rps: seq(50000, 5), cpu: 0.02},
		series{fw: "nextjs", variant: "default", test: "json", rps: seq(90, 5), cpu: 0.6, saturated: true},
		series{fw: "node-http", variant: "default", test: "json", rps: seq(1200, 5), cpu: 0.09},
		series{fw: "nextjs", variant: "default", test: "queries", n: 20, rps: seq(90, 4), cpu: 0.5})
	b.Started = time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC)
	n.Started = time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC)
	for i := range n.Frameworks {
		if n.Frameworks[i].Name == "node-http" {
			n.Frameworks[i].Build = "b2-node-http"
		}
	}
	o := DefaultOptions()
	o.BaseName, o.NewName = "base.json", "new.json"
	tab, err := Sets(one(b), one(n), o)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// TestCompareMarkdownGolden pins compare's markdown for goldenFixture
// (testdata/compare.md.golden): the sides, the rule, the verdict counts,
// the table, warnings and notes.
func TestCompareMarkdownGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := Markdown(&buf, goldenFixture(t)); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "compare.md.golden", buf.String())
}

// TestCompareJSONGolden pins compare's JSON for goldenFixture
// (testdata/compare.json.golden): every field of the table, its rows and
// per-round values, regressed and the verdict counts.
func TestCompareJSONGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := JSON(&buf, goldenFixture(t)); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "compare.json.golden", buf.String())
}

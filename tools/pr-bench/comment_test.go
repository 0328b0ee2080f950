package main

import (
	"slices"
	"testing"

	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/internal/golden"
)

// table is a compare table of rows with the given verdicts and changes.
func table(rows ...compare.Row) *compare.Table { return &compare.Table{Rows: rows} }

func row(test string, v compare.Verdict, change float64) compare.Row {
	return compare.Row{ID: model.ID{Framework: "go-stdlib", Variant: "default"}, Test: test, Verdict: v, Change: change}
}

// abMarkdown stands for compare's markdown (tfbench ab --out).
const abMarkdown = `# tfbench ab: node-http/default@base → node-http/default@new

- Run: run r1 on h (cpu, 2 logical CPUs, x86_64), 6 rounds

Verdicts: 1 slower, 0 faster, 1 same, 0 unknown.

| Test | Change | p | Verdict |
| --- | ---: | ---: | --- |
| json | -12.5% | 0.0022 | slower |
| db | -1.0% | 0.59 | same |

## Notes

- a note
`

func comment(jobs ...Job) Comment {
	return Comment{Base: "`origin/main` (1a2b3c4d)", Head: "`HEAD` (5e6f7a8b)", Plan: Plan{Adapters: []string{"node-http"}},
		Jobs: jobs, Config: Config{FailSlower: 0.10, Alpha: 0.05, MinChange: 0.05}, ConfigPath: ".github/pr-bench.yaml",
		Rounds: 6, ReportURL: "https://github.com/o/r/actions/runs/1"}
}

func TestCommentGolden(t *testing.T) {
	slower := Job{Title: "Adapter node-http: base build vs head build (tfbench ab, interleaved)",
		Table: table(row("json", compare.Slower, -0.125), row("db", compare.Same, -0.01)), Markdown: abMarkdown}
	within := Job{Title: slower.Title, Table: table(row("json", compare.Slower, -0.07), row("db", compare.Faster, 0.2)), Markdown: abMarkdown}
	for _, tc := range []struct {
		name string
		c    Comment
		exit int
	}{
		{"slower-past-threshold.md", comment(slower), exitSlower},
		{"slower-within-threshold.md", comment(within), exitPass},
		{"failed.md", comment(Job{Title: "Harness: base tfbench vs head tfbench on go-stdlib (rounds interleaved)",
			Err: "round 2, head: tfbench bench: exit status 2 (log: out/logs/head-round-2.log):\n    go-stdlib: build failed"},
			Job{Title: "Adapter astro: base build vs head build (tfbench ab, interleaved)", Note: "frameworks/astro is new in this pull request: no base build to compare with."}), exitError},
		{"docs-only.md", Comment{Base: "`origin/main` (1a2b3c4d)", Head: "`HEAD` (5e6f7a8b)",
			Plan: Plan{Unmeasured: []string{"docs/a.md", "docs/b.md", "docs/c.md", "docs/d.md", "docs/e.md", "docs/f.md",
				"docs/g.md", "docs/h.md", "docs/i.md", "docs/j.md", "docs/k.md", "README.md"}}}, exitPass},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.c.Exit(); got != tc.exit {
				t.Errorf("Exit() = %d, want %d", got, tc.exit)
			}
			golden.Check(t, tc.name, tc.c.Markdown())
		})
	}
}

func TestFailing(t *testing.T) {
	c := comment(Job{Table: table(
		row("json", compare.Slower, -0.10),   // exactly at the threshold: fails
		row("db", compare.Slower, -0.099),    // within it
		row("fortunes", compare.Same, -0.30), // not significant
		compare.Row{ID: model.ID{Framework: "go-stdlib", Variant: "default"}, Test: "queries", N: 20, Verdict: compare.Slower, Change: -0.5},
	)})
	want := []string{"go-stdlib/default json -10.0%", "go-stdlib/default queries (N=20) -50.0%"}
	if got := c.Failing(); !slices.Equal(got, want) {
		t.Errorf("Failing() = %q, want %q", got, want)
	}
}

package report

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/dustin/go-humanize"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/ratio"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/suite"
)

// BestPerTest is one line per suite test of f, in suite order, naming the
// variant with the highest peak RPS (model.Row.Peak) at the test's headline
// N (suite.HeadlineOf), what tfbench bench prints at the end; a test
// without any peak says so, a coldstart test gets ColdstartSummary.
func BestPerTest(f *results.File) []string {
	rows := ratio.HeadlineRows(f)
	keys := slices.SortedFunc(maps.Keys(rows), func(a, b model.RowKey) int { return strings.Compare(a.ID.String(), b.ID.String()) })
	var out []string
	for _, t := range f.Suite.Tests {
		if t.Type == model.Coldstart {
			out = append(out, ColdstartSummary(f, t.Name))
			continue
		}
		var best model.Row
		measured := 0
		for _, k := range keys {
			r := rows[k]
			if k.Test != t.Name || !r.OK {
				continue
			}
			measured++
			if r.Peak > best.Peak {
				best = r
			}
		}
		name := model.Label(t.Name, suite.HeadlineOf(t.Queries))
		if measured == 0 {
			out = append(out, name+": no variant has a peak (none measured, or no level passed the gate in every round)")
			continue
		}
		level := fmt.Sprintf("c=%d", best.Connections)
		if best.Pipeline > 1 {
			level += fmt.Sprintf(", pipeline %d", best.Pipeline)
		}
		line := fmt.Sprintf("%s: %s %s RPS at %s", name, best.ID, humanize.Comma(int64(math.Round(best.Peak))), level)
		if measured > 1 {
			line += fmt.Sprintf(" (best of %d)", measured)
		}
		out = append(out, line)
	}
	return out
}

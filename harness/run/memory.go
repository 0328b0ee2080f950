package run

import "github.com/tfbench/tfbench/harness/model"

// withShares fills m's per-window shares (docs/ssr.md, Memory and GC per
// request): KB allocated per response, GC time over window × threads in
// percent, RSS growth over the RSS at the reset. window is in seconds; a
// share whose base is 0 stays 0. nil stays nil.
func withShares(m *model.Memory, responses int64, window float64) *model.Memory {
	if m == nil {
		return nil
	}
	out := *m
	if responses > 0 {
		out.AllocPerRequest = float64(m.AllocBytes) / 1024 / float64(responses)
	}
	if window > 0 && m.Threads > 0 {
		out.GCPercent = 100 * m.GCms / (1000 * window * float64(m.Threads))
	}
	if m.RSSBefore > 0 {
		out.RSSGrowth = float64(m.RSSAfter-m.RSSBefore) / float64(m.RSSBefore)
	}
	return &out
}

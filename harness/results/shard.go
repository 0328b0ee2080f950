package results

import (
	"maps"
	"slices"

	"github.com/tfbench/tfbench/harness/model"
)

// MissingShards returns the shards "I/N" no run of s holds, for each shard
// count N among its runs' File.Shard (bench --shard), ordered by N then I;
// nil when no run is a shard or none is missing.
func (s *Set) MissingShards() []string {
	have := map[int]map[int]bool{} // N → I → present
	for _, r := range s.Runs {
		sh, err := model.ParseShard(r.File.Shard)
		if err != nil {
			continue
		}
		if have[sh.N] == nil {
			have[sh.N] = map[int]bool{}
		}
		have[sh.N][sh.I] = true
	}
	var out []string
	for _, n := range slices.Sorted(maps.Keys(have)) {
		for i := 1; i <= n; i++ {
			if !have[n][i] {
				out = append(out, model.Shard{I: i, N: n}.String())
			}
		}
	}
	return out
}

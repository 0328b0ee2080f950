package results

import (
	"fmt"
	"maps"
	"slices"
)

// MissingShards returns the shards "I/N" that no run of s holds, for each
// shard count N among its runs' File.Shard values (`bench --shard`), in
// order of N, then I: e.g. ["3/8"] for a merge of seven of eight nightly
// shards. nil when no run is a shard or every shard is there.
func (s *Set) MissingShards() []string {
	have := map[int]map[int]bool{} // N → I → present
	for _, r := range s.Runs {
		var i, n int
		if _, err := fmt.Sscanf(r.File.Shard, "%d/%d", &i, &n); err != nil || n < 1 {
			continue
		}
		if have[n] == nil {
			have[n] = map[int]bool{}
		}
		have[n][i] = true
	}
	var out []string
	for _, n := range slices.Sorted(maps.Keys(have)) {
		for i := 1; i <= n; i++ {
			if !have[n][i] {
				out = append(out, fmt.Sprintf("%d/%d", i, n))
			}
		}
	}
	return out
}

package main

import (
	"slices"
	"testing"
)

// TestShardItems cuts cmd/tfbench's shard fixture (go-stdlib, alpha:one,
// alpha:two, beta) as bench --shard does, without the reference.
func TestShardItems(t *testing.T) {
	dir := "../../cmd/tfbench/testdata/frameworks-shard"
	for _, tc := range []struct {
		shard string
		want  []string
	}{
		{"1/2", []string{"alpha:one", "alpha:two"}},
		{"2/2", []string{"beta:default"}},
		{"1/1", []string{"alpha:one", "alpha:two", "beta:default"}},
	} {
		got, err := shardItems(dir, tc.shard)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("shard %s: %q, want %q", tc.shard, got, tc.want)
		}
	}
	if _, err := shardItems(dir, "4/4"); err == nil || err.Error() != "--shard 4/4: 4 shards of 3 framework variants: N must be at most 3 (the reference go-stdlib/default is in every shard and not counted)" {
		t.Errorf("4/4: %v", err)
	}
}

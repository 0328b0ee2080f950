package run

import (
	"slices"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/model"
)

// shardSpecs are adapters a (3 variants), b (1), c (2, one by name) and
// the reference go-stdlib: Select gives 5 variants besides go-stdlib.
func shardSpecs() []*framework.Spec {
	return []*framework.Spec{
		{Name: "c", Variants: []framework.Variant{{Name: "zeta"}, {Name: "alpha"}, {Name: "x", ByName: true}}},
		{Name: "a", Variants: []framework.Variant{{Name: "pool"}, {Name: "serialized"}, {Name: "cluster"}}},
		{Name: "go-stdlib", Variants: []framework.Variant{{Name: "default"}}},
		{Name: "b", Variants: []framework.Variant{{Name: "default"}}},
	}
}

func targetNames(ts []Target) string {
	var out []string
	for _, t := range ts {
		out = append(out, t.ID().String())
	}
	return strings.Join(out, ",")
}

// TestShardTargets: 6 variants besides go-stdlib sorted by name
// (a/cluster a/pool a/serialized b/default c/alpha c/zeta) cut into
// contiguous slices, the first M mod N one longer, each with go-stdlib;
// every variant in exactly one shard; the same slices from the targets in
// reverse order.
func TestShardTargets(t *testing.T) {
	specs := shardSpecs()
	targets, err := Select(specs, nil, "frameworks")
	if err != nil {
		t.Fatal(err)
	}
	if len(targets) != 7 {
		t.Fatalf("%d targets: %s", len(targets), targetNames(targets))
	}
	want := map[int][]string{
		1: {"a/cluster,a/pool,a/serialized,b/default,c/alpha,c/zeta,go-stdlib/default"},
		2: {"a/cluster,a/pool,a/serialized,go-stdlib/default", "b/default,c/alpha,c/zeta,go-stdlib/default"},
		4: {"a/cluster,a/pool,go-stdlib/default", "a/serialized,b/default,go-stdlib/default", "c/alpha,go-stdlib/default", "c/zeta,go-stdlib/default"},
		6: {"a/cluster,go-stdlib/default", "a/pool,go-stdlib/default", "a/serialized,go-stdlib/default", "b/default,go-stdlib/default", "c/alpha,go-stdlib/default", "c/zeta,go-stdlib/default"},
	}
	reversed := slices.Clone(targets)
	slices.Reverse(reversed)
	for n, shards := range want {
		for i, w := range shards {
			s := model.Shard{I: i + 1, N: n}
			for _, in := range [][]Target{targets, reversed} {
				got, err := ShardTargets(s, in, specs, "frameworks")
				if err != nil || targetNames(got) != w {
					t.Errorf("shard %s: %s (%v), want %s", s, targetNames(got), err, w)
				}
			}
		}
	}
	// The zero Shard is the whole plan, in the order given.
	if got, err := ShardTargets(model.Shard{}, reversed, specs, "frameworks"); err != nil || targetNames(got) != targetNames(reversed) {
		t.Errorf("zero shard: %s (%v)", targetNames(got), err)
	}
}

// TestShardTargetsReference: --frameworks without go-stdlib still gets it
// in every shard (from the discovered adapters); a by-name variant named
// on the command line is sharded like any other.
func TestShardTargetsReference(t *testing.T) {
	specs := shardSpecs()
	targets, err := Select(specs, []string{"c:*", "b"}, "frameworks")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"b/default,c/alpha,go-stdlib/default", "c/x,c/zeta,go-stdlib/default"} {
		got, err := ShardTargets(model.Shard{I: i + 1, N: 2}, targets, specs, "frameworks")
		if err != nil || targetNames(got) != want {
			t.Errorf("shard %d/2: %s (%v), want %s", i+1, targetNames(got), err, want)
		}
	}
}

// TestShardTargetsErrors holds the errors' exact words. With N at most the
// count of variants besides the reference no slice is empty; the only
// empty shard is one with nothing but the reference to run.
func TestShardTargetsErrors(t *testing.T) {
	specs := shardSpecs()
	all, _ := Select(specs, nil, "frameworks")
	onlyRef, _ := Select(specs, []string{"go-stdlib"}, "frameworks")
	noRef := slices.DeleteFunc(slices.Clone(all), func(t Target) bool { return t.Spec.Name == "go-stdlib" })
	var noRefSpecs []*framework.Spec
	for _, s := range specs {
		if s.Name != "go-stdlib" {
			noRefSpecs = append(noRefSpecs, s)
		}
	}
	for _, c := range []struct {
		shard   model.Shard
		targets []Target
		specs   []*framework.Spec
		err     string
	}{
		{model.Shard{I: 1, N: 7}, all, specs, "--shard 1/7: 7 shards of 6 framework variants: N must be at most 6 (the reference go-stdlib/default is in every shard and not counted)"},
		{model.Shard{I: 1, N: 1}, onlyRef, specs, "--shard 1/1: no framework variant to shard besides the reference go-stdlib/default"},
		{model.Shard{I: 1, N: 1}, nil, specs, "--shard 1/1: no framework variant to shard besides the reference go-stdlib/default"},
		{model.Shard{I: 2, N: 3}, noRef, noRefSpecs, "--shard 2/3: no reference go-stdlib/default in frameworks: every shard runs it, so that each has its own ratios"},
	} {
		got, err := ShardTargets(c.shard, c.targets, c.specs, "frameworks")
		if err == nil || err.Error() != c.err {
			t.Errorf("shard %s of %s: %s, %v; want %q", c.shard, targetNames(c.targets), targetNames(got), err, c.err)
		}
	}
}

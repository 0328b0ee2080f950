package run

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/model"
)

// ShardTargets returns shard s of targets (Select's, after --frameworks): the
// targets other than the reference model.Reference, sorted by
// Name ("framework/variant"), cut into N contiguous slices in that order
// (the first M mod N slices of M targets hold one more), slice I of them,
// plus the reference, so that every shard is interleaved with its own
// go-stdlib as the nightly jobs are. The result is sorted by Name. The
// same targets give the same slices whatever their order; adding or
// removing an adapter moves the cuts. The reference comes from targets,
// or from specs (discovered in dir) when --frameworks left it out. The
// zero Shard returns targets as they are. Errors, naming the shard: no
// variant besides the reference, N above the count of the others (naming
// it), no reference in dir.
func ShardTargets(s model.Shard, targets []Target, specs []*framework.Spec, dir string) ([]Target, error) {
	if s.N == 0 {
		return targets, nil
	}
	var ref *Target
	var others []Target
	for _, t := range targets {
		if t.ID() == model.Reference {
			ref = &t
			continue
		}
		others = append(others, t)
	}
	if ref == nil {
		for _, sp := range specs {
			if sp.Name != model.Reference.Framework {
				continue
			}
			if v, err := sp.Variant(model.Reference.Variant); err == nil {
				ref = &Target{Spec: sp, Variant: v}
			}
		}
	}
	m := len(others)
	switch {
	case m == 0:
		return nil, fmt.Errorf("--shard %s: no framework variant to shard besides the reference %s", s, model.Reference)
	case s.N > m:
		return nil, fmt.Errorf("--shard %s: %d shards of %d framework variants: N must be at most %d (the reference %s is in every shard and not counted)",
			s, s.N, m, m, model.Reference)
	case ref == nil:
		return nil, fmt.Errorf("--shard %s: no reference %s in %s: every shard runs it, so that each has its own ratios", s, model.Reference, dir)
	}
	byName := func(a, b Target) int { return strings.Compare(a.ID().String(), b.ID().String()) }
	slices.SortStableFunc(others, byName)
	q, r := m/s.N, m%s.N
	start := (s.I-1)*q + min(s.I-1, r)
	size := q
	if s.I <= r {
		size++
	}
	out := append(slices.Clone(others[start:start+size]), *ref)
	slices.SortStableFunc(out, byName)
	return out, nil
}

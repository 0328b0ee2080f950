package run

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/model"
)

// ShardTargets returns shard s of targets: slice s.I of s.N contiguous slices
// of the non-reference targets sorted by name (the first M mod N one longer),
// plus model.Reference, from specs in dir if targets lack it, so each shard has
// its own ratios. The zero Shard returns targets as they are.
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

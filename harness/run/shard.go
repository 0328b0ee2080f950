package run

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/results"
)

// Shard is one slice of a run's plan by framework variant: the I-th
// (1-based) of N, as `tfbench bench --shard I/N` names it (issue 18). The
// zero Shard is the whole plan.
type Shard struct{ I, N int }

// shardRE is the --shard value's shape: "I/N", decimal digits only.
var shardRE = regexp.MustCompile(`^([0-9]+)/([0-9]+)$`)

// ParseShard reads a --shard value "I/N" (e.g. "2/8"). Errors, quoting the
// value: not I/N ("--shard 3: want I/N, e.g. 2/8"), N below 1, I outside
// 1..N.
func ParseShard(v string) (Shard, error) {
	m := shardRE.FindStringSubmatch(v)
	if m == nil {
		return Shard{}, fmt.Errorf("--shard %s: want I/N, e.g. 2/8", v)
	}
	i, ierr := strconv.Atoi(m[1])
	n, nerr := strconv.Atoi(m[2])
	switch {
	case ierr != nil || nerr != nil:
		return Shard{}, fmt.Errorf("--shard %s: want I/N, e.g. 2/8", v)
	case n < 1:
		return Shard{}, fmt.Errorf("--shard %s: N must be at least 1", v)
	case i < 1 || i > n:
		return Shard{}, fmt.Errorf("--shard %s: I must be from 1 to %d", v, n)
	}
	return Shard{I: i, N: n}, nil
}

// String is "I/N" as results.json records it (results.File.Shard), e.g.
// "2/8"; "" for the zero Shard.
func (s Shard) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}

// Targets returns shard s of targets (Select's, after --frameworks): the
// targets other than the reference results.ReferenceVariant, sorted by
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
func (s Shard) Targets(targets []Target, specs []*framework.Spec, dir string) ([]Target, error) {
	if s.N == 0 {
		return targets, nil
	}
	var ref *Target
	var others []Target
	for _, t := range targets {
		if t.Name() == results.ReferenceVariant {
			ref = &t
			continue
		}
		others = append(others, t)
	}
	if ref == nil {
		refFW, refVariant, _ := strings.Cut(results.ReferenceVariant, "/")
		for _, sp := range specs {
			if sp.Name != refFW {
				continue
			}
			if v, err := sp.Variant(refVariant); err == nil {
				ref = &Target{Spec: sp, Variant: v}
			}
		}
	}
	m := len(others)
	switch {
	case m == 0:
		return nil, fmt.Errorf("--shard %s: no framework variant to shard besides the reference %s", s, results.ReferenceVariant)
	case s.N > m:
		return nil, fmt.Errorf("--shard %s: %d shards of %d framework variants: N must be at most %d (the reference %s is in every shard and not counted)",
			s, s.N, m, m, results.ReferenceVariant)
	case ref == nil:
		return nil, fmt.Errorf("--shard %s: no reference %s in %s: every shard runs it, so that each has its own ratios", s, results.ReferenceVariant, dir)
	}
	byName := func(a, b Target) int { return strings.Compare(a.Name(), b.Name()) }
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

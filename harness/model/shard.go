package model

import (
	"fmt"
	"regexp"
	"strconv"
)

// Shard is one slice of a run's plan by framework variant: the I-th
// (1-based) of N, as `tfbench bench --shard I/N` names it (docs/shards.md). The
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

package sweep

import "math/rand/v2"

// Order returns the order in which to run n framework variants in a round: a
// permutation of 0..n-1 from a PCG seeded by (seed, round), reproducible from
// the recorded seed and different each round (docs/design.md, plan).
func Order(n int, seed int64, round int) []int {
	r := rand.New(rand.NewPCG(uint64(seed), uint64(round)))
	return r.Perm(n)
}

package rankstat

import (
	"cmp"
	"slices"
)

// Holm returns the Holm–Bonferroni adjusted p-values of p (Holm 1979, "A
// simple sequentially rejective multiple test procedure"), in p's order:
// sorted ascending, the i-th smallest (0-based) is multiplied by m − i, the
// running maximum keeps them monotone, and each is capped at 1. A hypothesis
// is rejected at level α when its adjusted p is below α; this controls the
// family-wise error rate like Bonferroni and rejects at least as much.
// Holm([0.01, 0.02, 0.04, 0.30]) = [0.04, 0.06, 0.08, 0.30].
func Holm(p []float64) []float64 {
	m := len(p)
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(p[a], p[b]) })
	adj := make([]float64, m)
	running := 0.0
	for i, j := range idx {
		v := min(1, float64(m-i)*p[j])
		running = max(running, v)
		adj[j] = running
	}
	return adj
}

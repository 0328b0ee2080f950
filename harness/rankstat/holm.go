package rankstat

import (
	"cmp"
	"slices"
)

// Holm returns the Holm–Bonferroni adjusted p-values of p in p's order
// (Holm 1979): the i-th smallest (0-based) times m − i, kept monotone by a
// running maximum, capped at 1; reject at α when the adjusted p is below α.
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

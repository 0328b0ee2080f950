package sweep

import (
	"slices"
	"testing"
)

func TestOrderIsAReproduciblePermutation(t *testing.T) {
	a := Order(6, 42, 1)
	if !slices.Equal(a, Order(6, 42, 1)) {
		t.Fatal("same seed and round gave different orders")
	}
	sorted := slices.Clone(a)
	slices.Sort(sorted)
	if !slices.Equal(sorted, []int{0, 1, 2, 3, 4, 5}) {
		t.Fatalf("%v is not a permutation of 0..5", a)
	}
	differs := false
	for round := 2; round <= 6; round++ {
		differs = differs || !slices.Equal(a, Order(6, 42, round))
	}
	if !differs {
		t.Error("five more rounds all repeated round 1's order")
	}
}

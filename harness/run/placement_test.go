package run

import (
	"testing"

	"github.com/tfbench/tfbench/internal/cpuset"
)

// TestPlacementNote: the line a run logs at its start when the generator and
// the servers do not have CPUs of their own (docs/platforms.md), none otherwise.
func TestPlacementNote(t *testing.T) {
	for _, c := range []struct {
		gen, srv cpuset.Set
		want     string
	}{
		{cpuset.Set{0}, cpuset.Set{1}, ""},
		{cpuset.Set{0}, cpuset.Set{0}, "CPU placement: one CPU: the load generator and the servers share CPU 0"},
		{nil, nil, "CPU placement: not pinned: generator and server share the machine's cores (no CPU affinity on this OS); RPS figures are not per core"},
	} {
		if got := placementNote(c.gen, c.srv); got != c.want {
			t.Errorf("placementNote(%v, %v) = %q, want %q", c.gen, c.srv, got, c.want)
		}
	}
}

package run

import (
	"fmt"

	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/internal/cpuset"
)

// sameMachine reports whether two host records are one machine: the same
// hostname and boot-independent facts (CPU model, memory).
func sameMachine(a, b probe.Host) bool {
	return a.Hostname != "" && a.Hostname == b.Hostname && a.CPUModel == b.CPUModel && a.MemoryBytes == b.MemoryBytes
}

// placementNote is the line a run logs at its start when the generator and
// the servers do not each have CPUs of their own, so the figures are not per
// core: no affinity (macOS) or one CPU. It is "" when the sets are disjoint.
func placementNote(gen, srv cpuset.Set) string {
	switch {
	case len(gen) == 0 && len(srv) == 0:
		return "CPU placement: " + probe.NotPinned + " (no CPU affinity on this OS); RPS figures are not per core"
	case !cpuset.Disjoint(gen, srv):
		return fmt.Sprintf("CPU placement: one CPU: the load generator and the servers share CPU %s", gen)
	}
	return ""
}

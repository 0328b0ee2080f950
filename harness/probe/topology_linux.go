package probe

import "github.com/tfbench/tfbench/internal/cpuset"

// ReadTopology reads the pinned CPUs' SMT siblings, governors and the boost
// state from /sys.
func ReadTopology(generator, server cpuset.Set) Topology {
	return topologyAt("/sys", generator, server)
}

//go:build !linux

package probe

import "github.com/tfbench/tfbench/internal/cpuset"

// ReadTopology is empty off Linux: no CPU is pinned there and there is no
// sysfs to read.
func ReadTopology(generator, server cpuset.Set) Topology { return Topology{} }

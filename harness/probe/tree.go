package probe

import (
	"context"
	"os"

	"github.com/shirou/gopsutil/v4/process"
)

// Usage is a reading of a process tree: total CPU time and the sum of the
// processes' peak resident set sizes (peakRSS: VmHWM on Linux, the highest
// sampled RSS on darwin).
type Usage struct {
	// CPU is user + system CPU time in seconds, summed over the tree's
	// live processes (a process that exited before the reading is missing):
	// nanosecond resolution on Linux (cpuTime), gopsutil's elsewhere.
	CPU float64
	// PeakRSS is the sum over the tree's processes of their peak resident
	// memory, in bytes: VmHWM on Linux; on darwin, which has no such mark,
	// the highest RSS any Tree reading has seen of the process (peakRSS).
	PeakRSS uint64
	// Processes is how many processes the tree held.
	Processes int
}

// Tree reads the process rooted at pid and all its descendants. A root
// that no longer exists is an error; descendants that vanish mid-walk are
// skipped.
func Tree(ctx context.Context, pid int) (Usage, error) {
	root, err := process.NewProcessWithContext(ctx, int32(pid))
	if err != nil {
		return Usage{}, err
	}
	var u Usage
	stack := []*process.Process{root}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if cpu, err := cpuTime(ctx, int(p.Pid)); err == nil {
			u.CPU += cpu
			u.Processes++
		} else if p == root {
			return Usage{}, err
		}
		if hwm, err := peakRSS(int(p.Pid)); err == nil {
			u.PeakRSS += hwm
		}
		kids, _ := p.ChildrenWithContext(ctx)
		stack = append(stack, kids...)
	}
	return u, nil
}

// Self reads this process's own CPU time (user + system, seconds): the
// load generator's cost.
func Self(ctx context.Context) (float64, error) {
	return cpuTime(ctx, os.Getpid())
}

// Saturated reports whether a generator that used cpu seconds of CPU over
// window seconds kept its cpus CPUs at least 90% busy: the sample measured
// the generator, not the server (docs/design.md, Generator health).
func Saturated(cpu, window float64, cpus int) bool {
	if window <= 0 || cpus <= 0 {
		return false
	}
	return cpu/(window*float64(cpus)) >= 0.9
}

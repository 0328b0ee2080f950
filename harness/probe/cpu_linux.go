package probe

import (
	"context"
	"fmt"

	"golang.org/x/sys/unix"
)

// cpuTime is pid's CPU time (user + system, all its threads, live and
// exited) in seconds, in nanoseconds from the kernel's process CPU clock
// (clock_getcpuclockid(3)): /proc/PID/stat counts 10 ms ticks, too coarse
// for a short sample of a lightly loaded server, which can read 0 there.
func cpuTime(_ context.Context, pid int) (float64, error) {
	// MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED), linux/posix-timers.h.
	clock := int32(^pid<<3 | 2)
	var ts unix.Timespec
	if err := unix.ClockGettime(clock, &ts); err != nil {
		return 0, fmt.Errorf("CPU clock of process %d: %w", pid, err)
	}
	return float64(ts.Nano()) / 1e9, nil
}

//go:build !linux

package probe

import (
	"context"

	"github.com/shirou/gopsutil/v4/process"
)

// cpuTime is pid's CPU time (user + system) in seconds, as gopsutil reads
// it; Linux has a nanosecond clock of its own (cpu_linux.go).
func cpuTime(ctx context.Context, pid int) (float64, error) {
	p, err := process.NewProcessWithContext(ctx, int32(pid))
	if err != nil {
		return 0, err
	}
	t, err := p.TimesWithContext(ctx)
	if err != nil {
		return 0, err
	}
	return t.User + t.System, nil
}

//go:build linux

package supervise

import (
	"context"

	gnet "github.com/shirou/gopsutil/v4/net"
)

// tcpSockets lists the TCP sockets of all processes (pid 0) or of one,
// from the kernel's tables (/proc/net/tcp*, owners from /proc/PID/fd).
func tcpSockets(ctx context.Context, pid int32) ([]gnet.ConnectionStat, error) {
	if pid == 0 {
		return gnet.ConnectionsWithoutUidsWithContext(ctx, "tcp")
	}
	return gnet.ConnectionsPidWithoutUidsWithContext(ctx, "tcp", pid)
}

//go:build darwin

package supervise

import (
	"context"

	gnet "github.com/shirou/gopsutil/v4/net"
)

// tcpSockets lists the TCP sockets of all processes (pid 0) or of one.
// gopsutil's WithoutUids calls are not implemented on darwin; the plain
// ones run lsof(8) (/usr/sbin/lsof, part of macOS), tens of milliseconds.
func tcpSockets(ctx context.Context, pid int32) ([]gnet.ConnectionStat, error) {
	if pid == 0 {
		return gnet.ConnectionsWithContext(ctx, "tcp")
	}
	return gnet.ConnectionsPidWithContext(ctx, "tcp", pid)
}

//go:build darwin

package syslimits

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// openFilesCap is the most RLIMIT_NOFILE may be raised to: the lower of
// the hard limit and kern.maxfilesperproc (setrlimit fails with EINVAL
// above it, even below the hard limit; older systems capped it at
// OPEN_MAX, 10240), its name and how to lift it.
func openFilesCap(hard uint64) (limit uint64, name, hint string) {
	perProc, err := unix.SysctlUint32("kern.maxfilesperproc")
	if err == nil && uint64(perProc) < hard {
		return uint64(perProc), "kern.maxfilesperproc", "sudo sysctl kern.maxfilesperproc=N"
	}
	return hard, "the hard limit", "ulimit -Hn"
}

// PortRange is the range of local ports (inclusive) the kernel picks from
// for outgoing connections: sysctl net.inet.ip.portrange.first and .last,
// e.g. 49152 65535. Errors: a sysctl cannot be read.
func PortRange() (lo, hi int, err error) {
	first, err := unix.SysctlUint32("net.inet.ip.portrange.first")
	if err != nil {
		return 0, 0, fmt.Errorf("local port range: sysctl net.inet.ip.portrange.first: %w", err)
	}
	last, err := unix.SysctlUint32("net.inet.ip.portrange.last")
	if err != nil {
		return 0, 0, fmt.Errorf("local port range: sysctl net.inet.ip.portrange.last: %w", err)
	}
	return int(first), int(last), nil
}

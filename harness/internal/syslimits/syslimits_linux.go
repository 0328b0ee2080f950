//go:build linux

package syslimits

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// openFilesCap is the most RLIMIT_NOFILE may be raised to without
// privilege, its name and how to lift it: the hard limit hard.
func openFilesCap(hard uint64) (limit uint64, name, hint string) {
	return hard, "the hard limit", "ulimit -Hn"
}

// PortRange is the range of local ports (inclusive) the kernel picks from
// for outgoing connections: /proc/sys/net/ipv4/ip_local_port_range, e.g.
// 32768 60999. Errors: the file is unreadable or not two port numbers.
func PortRange() (lo, hi int, err error) {
	const path = "/proc/sys/net/ipv4/ip_local_port_range"
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, fmt.Errorf("local port range: %w", err)
	}
	return parseRange(path, strings.Fields(string(b)))
}

func parseRange(src string, f []string) (lo, hi int, err error) {
	if len(f) == 2 {
		lo, err1 := strconv.Atoi(f[0])
		hi, err2 := strconv.Atoi(f[1])
		if err1 == nil && err2 == nil {
			return lo, hi, nil
		}
	}
	return 0, 0, fmt.Errorf("local port range: %s holds %q, not two port numbers", src, strings.Join(f, " "))
}

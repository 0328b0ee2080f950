package load

import (
	"fmt"
	"testing"

	"golang.org/x/sys/unix"
)

// wantPortRange is the local port range a generator error's hint names:
// "net.inet.ip.portrange FIRST-LAST" from sysctl.
func wantPortRange(t *testing.T) string {
	t.Helper()
	first, err := unix.SysctlUint32("net.inet.ip.portrange.first")
	if err != nil {
		t.Fatal(err)
	}
	last, err := unix.SysctlUint32("net.inet.ip.portrange.last")
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("net.inet.ip.portrange %d-%d", first, last)
}

// twoPortsHook skips: darwin cannot restrict one socket's local ports
// (Linux's IP_LOCAL_PORT_RANGE).
func twoPortsHook(t *testing.T) func(fd int) error {
	t.Skip("no per-socket local port range on darwin (IP_LOCAL_PORT_RANGE is Linux's)")
	return nil
}

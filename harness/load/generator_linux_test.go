package load

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// procPortRange is " LO-HI" as the system's ip_local_port_range gives it.
func procPortRange(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		t.Fatal(err)
	}
	f := bytes.Fields(b)
	if len(f) != 2 {
		t.Fatalf("ip_local_port_range %q, want two numbers", b)
	}
	return fmt.Sprintf(" %s-%s", f[0], f[1])
}

// wantPortRange is the local port range a generator error's hint names:
// "ip_local_port_range LO-HI".
func wantPortRange(t *testing.T) string { return "ip_local_port_range" + procPortRange(t) }

// twoPortsHook returns a sockoptHook that restricts each socket to two free
// local ports with IP_LOCAL_PORT_RANGE; it skips the test before Linux 6.3.
func twoPortsHook(t *testing.T) func(fd int) error {
	lo := twoFreePorts(t)
	rangeHook := func(fd int) error {
		return unix.SetsockoptInt(fd, unix.IPPROTO_IP, unix.IP_LOCAL_PORT_RANGE, lo|(lo+1)<<16)
	}
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	err = rangeHook(fd)
	unix.Close(fd)
	if errors.Is(err, unix.ENOPROTOOPT) {
		t.Skip("IP_LOCAL_PORT_RANGE needs Linux 6.3 or later")
	} else if err != nil {
		t.Fatal(err)
	}
	return rangeHook
}

// twoFreePorts returns a local port lo such that lo and lo+1, both inside
// ip_local_port_range, are bound by nothing on 127.0.0.1 right now.
func twoFreePorts(t *testing.T) int {
	t.Helper()
	var hi int
	if _, err := fmt.Sscanf(procPortRange(t), " %d-%d", new(int), &hi); err != nil {
		t.Fatal(err)
	}
	for range 20 {
		l1, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lo := l1.Addr().(*net.TCPAddr).Port
		l2, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(lo+1))
		l1.Close()
		if err == nil {
			l2.Close()
			if lo+1 <= hi {
				return lo
			}
		}
	}
	t.Fatal("no two adjacent free local ports in 20 tries")
	return 0
}

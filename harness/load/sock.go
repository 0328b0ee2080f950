package load

import (
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// sockaddr resolves addr ("host:port") to the socket address engine raw's
// event loop connects to: the first address net.ResolveTCPAddr gives
// (IPv4 preferred). Errors are net's resolver errors.
func sockaddr(addr string) (unix.Sockaddr, error) {
	a, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		return nil, err
	}
	if ip4 := a.IP.To4(); ip4 != nil {
		sa := &unix.SockaddrInet4{Port: a.Port}
		copy(sa.Addr[:], ip4)
		return sa, nil
	}
	sa := &unix.SockaddrInet6{Port: a.Port}
	copy(sa.Addr[:], a.IP.To16())
	if a.Zone != "" {
		ifi, err := net.InterfaceByName(a.Zone)
		if err != nil {
			return nil, fmt.Errorf("zone of %s: %w", addr, err)
		}
		sa.ZoneId = uint32(ifi.Index)
	}
	return sa, nil
}

// sockoptHook, when set, runs on every socket engine raw opens before its
// connect, its error the connect's. Tests set it (before Run, reset after) to
// restrict local ports or inject an errno such as EADDRNOTAVAIL.
var sockoptHook func(fd int) error

// dial opens a non-blocking TCP socket (newSocket; TCP_NODELAY as Go's net and
// wrk set it) and starts connecting it to sa; inProgress means writability will
// report the end (connectError). On an error no socket is left open.
func dial(sa unix.Sockaddr) (fd int, inProgress bool, err error) {
	family := unix.AF_INET
	if _, ok := sa.(*unix.SockaddrInet6); ok {
		family = unix.AF_INET6
	}
	fd, err = newSocket(family)
	if err != nil {
		return -1, false, err
	}
	if err := unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1); err != nil {
		unix.Close(fd)
		return -1, false, err
	}
	if sockoptHook != nil {
		if err := sockoptHook(fd); err != nil {
			unix.Close(fd)
			return -1, false, err
		}
	}
	for {
		err = unix.Connect(fd, sa)
		if err != unix.EINTR {
			break
		}
	}
	switch err {
	case nil:
		return fd, false, nil
	case unix.EINPROGRESS:
		return fd, true, nil
	}
	unix.Close(fd)
	return -1, false, err
}

// connectError returns the outcome of a non-blocking connect on fd once it
// is writable: nil, or the error (e.g. ECONNREFUSED).
func connectError(fd int) error {
	v, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_ERROR)
	if err != nil {
		return err
	}
	if v != 0 {
		return unix.Errno(v)
	}
	return nil
}

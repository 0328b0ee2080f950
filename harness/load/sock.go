package load

import (
	"fmt"
	"io"
	"net"
	"time"
	"unsafe"

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

// sockoptHook, when not nil, runs on every socket engine raw opens (dial,
// and the constant-rate dialer's Control), before its connect; an error it
// returns is the connect's. Tests set it (before Run,
// reset after) to restrict a socket's local ports (IP_LOCAL_PORT_RANGE) or
// to inject an errno such as EADDRNOTAVAIL.
var sockoptHook func(fd int) error

// dial opens a non-blocking TCP socket (close-on-exec, TCP_NODELAY as Go's
// net and wrk set it) and starts connecting it to sa. It returns the socket
// and whether the connect is still in progress (then writability reports its
// end, and connectError its outcome); on an error no socket is left open.
func dial(sa unix.Sockaddr) (fd int, inProgress bool, err error) {
	family := unix.AF_INET
	if _, ok := sa.(*unix.SockaddrInet6); ok {
		family = unix.AF_INET6
	}
	fd, err = unix.Socket(family, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
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

// readFD reads from the non-blocking socket fd into b (len(b) > 0) with one
// read(2). It returns io.EOF when the peer closed its side, unix.EAGAIN when
// nothing is there. It uses a raw system call: a read of a non-blocking
// socket does not block, so the scheduler need not be told (this saves the
// runtime's entersyscall/exitsyscall on every read).
func readFD(fd int, b []byte) (int, error) {
	for {
		n, _, e := unix.RawSyscall(unix.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)))
		switch {
		case e == unix.EINTR:
			continue
		case e != 0:
			return 0, e
		case n == 0:
			return 0, io.EOF
		}
		return int(n), nil
	}
}

// writeFD writes b to the non-blocking socket fd with one write(2) (raw, as
// readFD) and returns how many bytes the socket took; unix.EAGAIN with 0
// when its buffer is full.
func writeFD(fd int, b []byte) (int, error) {
	for {
		n, _, e := unix.RawSyscall(unix.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)))
		switch {
		case e == unix.EINTR:
			continue
		case e != 0:
			return 0, e
		}
		return int(n), nil
	}
}

// epollWait is epoll_wait(2) on ep as a raw system call (epoll_pwait with no
// signal mask, which every Linux architecture has): the events ready within
// msec milliseconds (0: a poll; -1: no limit), unix.EINTR when a signal came
// first.
func epollWait(ep int, evs []unix.EpollEvent, msec int) (int, error) {
	n, _, e := unix.RawSyscall6(unix.SYS_EPOLL_PWAIT, uintptr(ep), uintptr(unsafe.Pointer(unsafe.SliceData(evs))), uintptr(len(evs)), uintptr(msec), 0, 0)
	if e != 0 {
		return 0, e
	}
	return int(n), nil
}

// sleep sleeps d on CLOCK_MONOTONIC as a raw system call, so the runtime
// neither hands off the P nor wakes sysmon; only for naps of microseconds.
// A signal ends it early.
func sleep(d time.Duration) {
	ts := unix.NsecToTimespec(int64(d))
	unix.RawSyscall6(unix.SYS_CLOCK_NANOSLEEP, unix.CLOCK_MONOTONIC, 0, uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
}

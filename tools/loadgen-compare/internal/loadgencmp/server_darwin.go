package loadgencmp

import (
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

// tcpSocket opens an IPv4 TCP socket, non-blocking and close-on-exec. macOS
// has no SOCK_NONBLOCK or SOCK_CLOEXEC: both are set after socket(2), the
// close-on-exec under syscall.ForkLock as package net does.
func tcpSocket() (int, error) {
	syscall.ForkLock.RLock()
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	if err == nil {
		unix.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return -1, fmt.Errorf("socket: %w", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return -1, fmt.Errorf("fcntl O_NONBLOCK: %w", err)
	}
	return fd, nil
}

// acceptCall names accept's system call in Serve's errors.
const acceptCall = "accept"

// accept takes one connection from lfd as Linux's accept4 with
// SOCK_NONBLOCK|SOCK_CLOEXEC does, plus SO_NOSIGPIPE so that a write to a
// closed peer fails with EPIPE instead of raising SIGPIPE.
func accept(lfd int) (int, error) {
	syscall.ForkLock.RLock()
	cfd, _, err := unix.Accept(lfd)
	if err == nil {
		unix.CloseOnExec(cfd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return -1, err
	}
	if err := unix.SetNonblock(cfd, true); err != nil {
		unix.Close(cfd)
		return -1, fmt.Errorf("fcntl O_NONBLOCK: %w", err)
	}
	unix.SetsockoptInt(cfd, unix.SOL_SOCKET, unix.SO_NOSIGPIPE, 1)
	return cfd, nil
}

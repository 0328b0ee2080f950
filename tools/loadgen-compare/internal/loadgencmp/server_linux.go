package loadgencmp

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// tcpSocket opens an IPv4 TCP socket, non-blocking and close-on-exec in the
// one socket(2) call; the error names the call.
func tcpSocket() (int, error) {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("socket: %w", err)
	}
	return fd, nil
}

// acceptCall names accept's system call in Serve's errors.
const acceptCall = "accept4"

// accept takes one connection from lfd, non-blocking and close-on-exec, in
// one accept4(2) call; the error is the call's errno.
func accept(lfd int) (int, error) {
	cfd, _, err := unix.Accept4(lfd, unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC)
	return cfd, err
}

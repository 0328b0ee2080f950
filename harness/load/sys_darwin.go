package load

import (
	"fmt"
	"io"
	"runtime"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// newSocket opens a non-blocking, close-on-exec TCP socket of family with
// SO_NOSIGPIPE (darwin has neither SOCK_CLOEXEC nor MSG_NOSIGNAL): close-on-exec
// is set under syscall.ForkLock, as Go's net does, so no child inherits it.
func newSocket(family int) (int, error) {
	syscall.ForkLock.RLock()
	fd, err := unix.Socket(family, unix.SOCK_STREAM, 0)
	if err == nil {
		unix.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return -1, err
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return -1, err
	}
	if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_NOSIGPIPE, 1); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// readFD reads from non-blocking socket fd into b (len(b) > 0) with one read(2):
// io.EOF when the peer closed, unix.EAGAIN when nothing is there. darwin has no
// raw system calls, so it goes through libSystem (unix.Read).
func readFD(fd int, b []byte) (int, error) {
	for {
		n, err := unix.Read(fd, b)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// writeFD writes b to the non-blocking socket fd with one write(2) (as
// readFD) and returns how many bytes the socket took; unix.EAGAIN with 0
// when its buffer is full.
func writeFD(fd int, b []byte) (int, error) {
	for {
		n, err := unix.Write(fd, b)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return 0, err
		}
		return n, nil
	}
}

// sleep naps d with time.Sleep: darwin has no clock_nanosleep to call raw.
func sleep(d time.Duration) { time.Sleep(d) }

// setTimerSlack does nothing: darwin has no per-thread timer slack
// (PR_SET_TIMERSLACK is Linux's), so a nap may overshoot by the kernel's
// timer coalescing.
func setTimerSlack(time.Duration) {}

// processCPUs is how many CPUs the process may run on: darwin has no CPU
// affinity, so all of them (runtime.NumCPU).
func processCPUs() (int, bool) { return runtime.NumCPU(), true }

// portRangeHint names the local ports connect picks from, for a generator
// error's hint: "net.inet.ip.portrange 49152-65535" from the sysctls
// net.inet.ip.portrange.first and .last (the name alone if unreadable).
func portRangeHint() string {
	const name = "net.inet.ip.portrange"
	first, err := unix.SysctlUint32(name + ".first")
	if err != nil {
		return name
	}
	last, err := unix.SysctlUint32(name + ".last")
	if err != nil {
		return name
	}
	return fmt.Sprintf("%s %d-%d", name, first, last)
}

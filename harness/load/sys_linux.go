package load

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// newSocket opens a non-blocking, close-on-exec TCP socket of family
// (unix.AF_INET, unix.AF_INET6) in one socket(2).
func newSocket(family int) (int, error) {
	return unix.Socket(family, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
}

// readFD reads from non-blocking socket fd into b (len(b) > 0) with one raw
// read(2), which cannot block, saving entersyscall/exitsyscall: io.EOF when the
// peer closed, unix.EAGAIN when nothing is there.
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

// sleep sleeps d on CLOCK_MONOTONIC as a raw system call, so the runtime
// neither hands off the P nor wakes sysmon; only for naps of microseconds.
// A signal ends it early.
func sleep(d time.Duration) {
	ts := unix.NsecToTimespec(int64(d))
	unix.RawSyscall6(unix.SYS_CLOCK_NANOSLEEP, unix.CLOCK_MONOTONIC, 0, uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
}

// setTimerSlack sets the calling thread's timer slack (PR_SET_TIMERSLACK)
// to d; 0 restores the thread's default (50 µs).
func setTimerSlack(d time.Duration) {
	unix.Prctl(unix.PR_SET_TIMERSLACK, uintptr(d), 0, 0, 0)
}

// processCPUs is how many CPUs the process may run on: its affinity mask
// (sched_getaffinity); false if it cannot be read.
func processCPUs() (int, bool) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return 0, false
	}
	return set.Count(), true
}

// portRangeHint names the local ports connect picks from, for a generator error's
// hint: "ip_local_port_range 32768-60999" from /proc (the name alone if unreadable).
func portRangeHint() string {
	const name = "ip_local_port_range"
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return name
	}
	f := bytes.Fields(b)
	if len(f) != 2 {
		return name
	}
	return fmt.Sprintf("%s %s-%s", name, f[0], f[1])
}

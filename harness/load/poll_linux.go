package load

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// poller is a worker's level-triggered epoll set: sockets by connection index as
// epoll data, the wake-up eventfd as wakeIndex; non-blocking and a file in Go's
// network poller (f, c), so that block parks the goroutine.
type poller struct {
	ep  int
	f   *os.File
	c   syscall.RawConn
	evs []unix.EpollEvent // the events of the last poll, wait or block
}

// epollEvents are the epoll events of each interest.
var epollEvents = [...]uint32{noInterest: 0, readInterest: unix.EPOLLIN, writeInterest: unix.EPOLLOUT}

// init makes p's epoll set, with room for n events per wait (conns, the
// most connections it will hold, is kqueue's concern only).
func (p *poller) init(n, conns int) error {
	ep, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return fmt.Errorf("load: epoll_create1: %w", err)
	}
	if err := unix.SetNonblock(ep, true); err != nil {
		unix.Close(ep)
		return fmt.Errorf("load: epoll set non-blocking: %w", err)
	}
	p.ep, p.f = ep, os.NewFile(uintptr(ep), "epoll")
	if p.c, err = p.f.SyscallConn(); err != nil {
		p.f.Close()
		return fmt.Errorf("load: epoll set: %w", err)
	}
	p.evs = make([]unix.EpollEvent, n)
	return nil
}

// close closes the epoll set.
func (p *poller) close() { p.f.Close() }

// watch adds wk's eventfd to the set as wakeIndex.
func (p *poller) watch(wk *waker) error {
	if err := unix.EpollCtl(p.ep, unix.EPOLL_CTL_ADD, wk.fd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: wakeIndex}); err != nil {
		return fmt.Errorf("load: epoll_ctl add eventfd: %w", err)
	}
	return nil
}

// add registers socket fd of the connection at index for in.
func (p *poller) add(fd, index int, in interest) error {
	if err := unix.EpollCtl(p.ep, unix.EPOLL_CTL_ADD, fd, &unix.EpollEvent{Events: epollEvents[in], Fd: int32(index)}); err != nil {
		return fmt.Errorf("epoll_ctl: %w", err)
	}
	return nil
}

// change makes registered socket fd's interest to (from: what it is).
func (p *poller) change(fd, index int, from, to interest) error {
	if err := unix.EpollCtl(p.ep, unix.EPOLL_CTL_MOD, fd, &unix.EpollEvent{Events: epollEvents[to], Fd: int32(index)}); err != nil {
		return fmt.Errorf("epoll_ctl: %w", err)
	}
	return nil
}

// poll puts the events ready now in p.evs and returns how many.
func (p *poller) poll() (int, error) { return epollWait(p.ep, p.evs, 0) }

// wait is poll that waits up to timeout (rounded up to a millisecond) in a
// blocking epoll_wait; open uses it before the window.
func (p *poller) wait(timeout time.Duration) (int, error) {
	return unix.EpollWait(p.ep, p.evs, ceilMillis(timeout))
}

// block waits up to timeout for events, returned as poll does (0 at the timeout),
// parked in Go's network poller: a blocking epoll_wait would make sysmon take and
// hand back the P every wait (~2× wrk's CPU per response at c=1).
func (p *poller) block(timeout time.Duration) (int, error) {
	if err := p.f.SetReadDeadline(time.Now().Add(timeout)); err != nil {
		return 0, err
	}
	var n int
	var err error
	rerr := p.c.Read(func(uintptr) bool {
		n, err = epollWait(p.ep, p.evs, 0)
		return n > 0 || err != nil
	})
	if errors.Is(rerr, os.ErrDeadlineExceeded) {
		return 0, nil
	}
	if rerr != nil {
		return 0, rerr
	}
	return n, err
}

// event is the i-th event of the last poll: the connection's index (or
// wakeIndex), and no cause or fault: epoll reports a hang-up or an error as
// readiness, and the read, write or SO_ERROR that follows finds it.
func (p *poller) event(i int) (index int, cause unix.Errno, fault bool) {
	return int(p.evs[i].Fd), 0, false
}

// waker wakes every worker's loop at once: an eventfd that each epoll set
// watches, written once and never read (level-triggered: it stays ready).
type waker struct{ fd int }

// newWaker makes the eventfd ("load: eventfd: too many open files").
func newWaker() (*waker, error) {
	fd, err := unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK)
	if err != nil {
		return nil, fmt.Errorf("load: eventfd: %w", err)
	}
	return &waker{fd: fd}, nil
}

// wake makes the eventfd readable: its counter += 1.
func (wk *waker) wake() {
	var one [8]byte
	binary.NativeEndian.PutUint64(one[:], 1)
	unix.Write(wk.fd, one[:])
}

// close closes the eventfd.
func (wk *waker) close() { unix.Close(wk.fd) }

// epollWait is epoll_wait(2) on ep as a raw system call (epoll_pwait, no signal
// mask): the events ready within msec ms (0: a poll; -1: no limit), or unix.EINTR.
func epollWait(ep int, evs []unix.EpollEvent, msec int) (int, error) {
	n, _, e := unix.RawSyscall6(unix.SYS_EPOLL_PWAIT, uintptr(ep), uintptr(unsafe.Pointer(unsafe.SliceData(evs))), uintptr(len(evs)), uintptr(msec), 0, 0)
	if e != 0 {
		return 0, e
	}
	return int(n), nil
}

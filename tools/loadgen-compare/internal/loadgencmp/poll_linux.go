package loadgencmp

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// Names of the system calls in Serve's errors.
const (
	pollAdd  = "epoll_ctl add"
	pollWait = "epoll_wait"
)

// poller is Serve's level-triggered epoll set, each descriptor registered
// with itself as the epoll data.
type poller struct {
	ep  int
	evs []unix.EpollEvent // the events of the last wait
}

// init makes the epoll set (close-on-exec), with room for n events a wait.
func (p *poller) init(n int) error {
	ep, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return fmt.Errorf("epoll_create1: %w", err)
	}
	p.ep, p.evs = ep, make([]unix.EpollEvent, n)
	return nil
}

// close closes the epoll set.
func (p *poller) close() { unix.Close(p.ep) }

// add registers fd for reading (EPOLLIN).
func (p *poller) add(fd int) error {
	return unix.EpollCtl(p.ep, unix.EPOLL_CTL_ADD, fd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(fd)})
}

// want makes registered fd's interest writing (EPOLLOUT) or reading
// (EPOLLIN), in one EPOLL_CTL_MOD.
func (p *poller) want(fd int, write bool) error {
	ev := unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(fd)}
	if write {
		ev.Events = unix.EPOLLOUT
	}
	return unix.EpollCtl(p.ep, unix.EPOLL_CTL_MOD, fd, &ev)
}

// wait returns how many descriptors are ready, in one epoll_wait(2) call
// that blocks until one is if block, else returns at once (0: none);
// fd(i) is the i-th. A hang-up or an error counts as ready.
func (p *poller) wait(block bool) (int, error) {
	timeout := 0
	if block {
		timeout = -1
	}
	return unix.EpollWait(p.ep, p.evs, timeout)
}

// fd is the descriptor of the i-th event of the last wait.
func (p *poller) fd(i int) int { return int(p.evs[i].Fd) }

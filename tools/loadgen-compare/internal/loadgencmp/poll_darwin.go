package loadgencmp

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// Names of the system calls in Serve's errors.
const (
	pollAdd  = "kevent add"
	pollWait = "kevent"
)

// poller is Serve's kqueue: EVFILT_READ level-triggered (no EV_CLEAR), each
// change in a kevent(2) call of its own, so that a failed change is that
// call's error, never an EV_ERROR event among the ready ones.
type poller struct {
	kq      int
	evs     []unix.Kevent_t  // the events of the last wait
	changes [2]unix.Kevent_t // reused: a change allocates nothing
}

// init makes the kqueue (not inherited by fork(2): no close-on-exec needed),
// with room for n events a wait.
func (p *poller) init(n int) error {
	kq, err := unix.Kqueue()
	if err != nil {
		return fmt.Errorf("kqueue: %w", err)
	}
	p.kq, p.evs = kq, make([]unix.Kevent_t, n)
	return nil
}

// close closes the kqueue.
func (p *poller) close() { unix.Close(p.kq) }

// ctl applies the first n of p.changes in one kevent call.
func (p *poller) ctl(n int) error {
	for {
		_, err := unix.Kevent(p.kq, p.changes[:n], nil, nil)
		if err != unix.EINTR {
			return err
		}
	}
}

// add registers fd's EVFILT_READ.
func (p *poller) add(fd int) error {
	unix.SetKevent(&p.changes[0], fd, unix.EVFILT_READ, unix.EV_ADD)
	return p.ctl(1)
}

// want waits for fd to take more bytes (EVFILT_READ disabled, EVFILT_WRITE
// enabled) or for requests (the other way round), in one kevent call.
func (p *poller) want(fd int, write bool) error {
	if write {
		unix.SetKevent(&p.changes[0], fd, unix.EVFILT_READ, unix.EV_DISABLE)
		unix.SetKevent(&p.changes[1], fd, unix.EVFILT_WRITE, unix.EV_ADD|unix.EV_ENABLE)
	} else {
		unix.SetKevent(&p.changes[0], fd, unix.EVFILT_WRITE, unix.EV_DISABLE)
		unix.SetKevent(&p.changes[1], fd, unix.EVFILT_READ, unix.EV_ENABLE)
	}
	return p.ctl(2)
}

// wait returns how many descriptors are ready, in one kevent(2) call that
// blocks until one is if block, else returns at once (0: none); fd(i) is
// the i-th. EV_EOF keeps a descriptor ready.
func (p *poller) wait(block bool) (int, error) {
	if block {
		return unix.Kevent(p.kq, nil, p.evs, nil)
	}
	return unix.Kevent(p.kq, nil, p.evs, &unix.Timespec{})
}

// fd is the descriptor of the i-th event of the last wait.
func (p *poller) fd(i int) int { return int(p.evs[i].Ident) }

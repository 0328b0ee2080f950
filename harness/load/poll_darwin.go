package load

// kqueue(2): sockets use EVFILT_READ/EVFILT_WRITE, EV_ADD|EV_ENABLE and EV_DISABLE, no
// EV_CLEAR (level-triggered like the epoll set); one kevent call per change, with EV_RECEIPT
// (each change answered, EV_ERROR with errno in data; no event drained). EV_EOF keeps the
// socket ready, errno in fflags (read/write/SO_ERROR find it); EV_ERROR in the event list is
// a fault. udata points at the connection's index; wake-up: EVFILT_USER + NOTE_TRIGGER, no
// EV_CLEAR. Kqueue/socket: CloseOnExec under ForkLock; waits are kevent calls, none raw.

import (
	"fmt"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// kqueue.go's constants are darwin's: a constant index other than 0 does not
// compile.
var (
	_ = [1]struct{}{}[kqRead-unix.EVFILT_READ]
	_ = [1]struct{}{}[kqWrite-unix.EVFILT_WRITE]
	_ = [1]struct{}{}[kqUser-unix.EVFILT_USER]
	_ = [1]struct{}{}[kqAdd-unix.EV_ADD]
	_ = [1]struct{}{}[kqEnable-unix.EV_ENABLE]
	_ = [1]struct{}{}[kqDisable-unix.EV_DISABLE]
	_ = [1]struct{}{}[kqClear-unix.EV_CLEAR]
	_ = [1]struct{}{}[kqReceipt-unix.EV_RECEIPT]
	_ = [1]struct{}{}[kqError-unix.EV_ERROR]
	_ = [1]struct{}{}[kqEOF-unix.EV_EOF]
	_ = [1]struct{}{}[kqTrigger-unix.NOTE_TRIGGER]
)

// poller is a worker's kqueue: each socket registered with udata pointing
// at index[i] == i, its connection's index (fixed at init, so the pointers
// the kernel holds stay valid and GC-visible), the wake-up with none.
type poller struct {
	kq       int
	evs      []unix.Kevent_t // the events of the last poll, wait or block
	index    []int32         // index[i] == i: what udata points at
	changes  [2]kevent       // scratch for kqChanges
	kchanges [2]unix.Kevent_t
	receipts [2]unix.Kevent_t
	zero     unix.Timespec // a poll's timeout
}

// init makes p's kqueue (close-on-exec), with room for n events per wait
// and connections at indices 0..conns-1.
func (p *poller) init(n, conns int) error {
	syscall.ForkLock.RLock()
	kq, err := unix.Kqueue()
	if err == nil {
		unix.CloseOnExec(kq)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return fmt.Errorf("load: kqueue: %w", err)
	}
	p.kq, p.evs, p.index = kq, make([]unix.Kevent_t, n), make([]int32, conns)
	for i := range p.index {
		p.index[i] = int32(i)
	}
	return nil
}

// close closes the kqueue.
func (p *poller) close() { unix.Close(p.kq) }

// toKernel is c as the kernel takes it, udata pointing at p.index[c.index]
// (nil for an index < 0).
func (p *poller) toKernel(c kevent) unix.Kevent_t {
	k := unix.Kevent_t{Ident: c.ident, Filter: c.filter, Flags: c.flags, Fflags: c.fflags, Data: c.data}
	if c.index >= 0 {
		k.Udata = (*byte)(unsafe.Pointer(&p.index[c.index]))
	}
	return k
}

// fromKernel is k as kqueue.go takes it.
func fromKernel(k *unix.Kevent_t) kevent {
	e := kevent{ident: k.Ident, filter: k.Filter, flags: k.Flags, fflags: k.Fflags, data: k.Data, index: noIndex}
	if k.Udata != nil {
		e.index = *(*int32)(unsafe.Pointer(k.Udata))
	}
	return e
}

// apply makes changes (at most 2, each with EV_RECEIPT) in one kevent call
// and returns the first error among its receipts.
func (p *poller) apply(changes []kevent) error {
	for i, c := range changes {
		p.kchanges[i] = p.toKernel(c)
	}
	for {
		n, err := unix.Kevent(p.kq, p.kchanges[:len(changes)], p.receipts[:len(changes)], &p.zero)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		rs := p.changes[:0] // changes were converted: reuse as the receipts
		for i := range n {
			rs = append(rs, fromKernel(&p.receipts[i]))
		}
		return kqReceiptError(rs, len(changes))
	}
}

// watch registers wk's EVFILT_USER event with p and wk with p.
func (p *poller) watch(wk *waker) error {
	p.changes[0] = kqWatchWake()
	if err := p.apply(p.changes[:1]); err != nil {
		return fmt.Errorf("load: kevent add EVFILT_USER: %w", err)
	}
	wk.mu.Lock()
	wk.kqs = append(wk.kqs, p.kq)
	wk.mu.Unlock()
	return nil
}

// add registers socket fd of the connection at index for in.
func (p *poller) add(fd, index int, in interest) error {
	return p.change(fd, index, noInterest, in)
}

// change makes registered socket fd's interest to (from: what it is).
func (p *poller) change(fd, index int, from, to interest) error {
	if index < 0 || index >= len(p.index) {
		return fmt.Errorf("kevent: connection %d of %d: %w", index, len(p.index), unix.EINVAL)
	}
	if err := p.apply(kqChanges(p.changes[:0], fd, index, from, to)); err != nil {
		return fmt.Errorf("kevent: %w", err)
	}
	return nil
}

// kevent waits for events up to ts (nil: no limit) and puts them in p.evs.
func (p *poller) kevent(ts *unix.Timespec) (int, error) {
	return unix.Kevent(p.kq, nil, p.evs, ts)
}

// poll puts the events ready now in p.evs and returns how many.
func (p *poller) poll() (int, error) { return p.kevent(&p.zero) }

// wait is poll that waits up to timeout.
func (p *poller) wait(timeout time.Duration) (int, error) {
	ts := unix.NsecToTimespec(int64(max(timeout, 0)))
	return p.kevent(&ts)
}

// block waits up to timeout in a blocking kevent call (the runtime hands the P
// off): a kqueue cannot be made non-blocking for Go's network poller to park on,
// as the epoll set is. A signal ends it early (unix.EINTR).
func (p *poller) block(timeout time.Duration) (int, error) { return p.wait(timeout) }

// event is the i-th event of the last wait: the connection's index
// (wakeIndex, noIndex), the hang-up's socket error or the fault's errno, and
// whether it is a fault (kqReady).
func (p *poller) event(i int) (index int, cause unix.Errno, fault bool) {
	r := kqReady(fromKernel(&p.evs[i]))
	return r.index, r.cause, r.fault
}

// waker wakes every worker's loop at once: the EVFILT_USER event each
// kqueue watches (kqWatchWake), triggered in each.
type waker struct {
	mu  sync.Mutex
	kqs []int // the kqueues that watch
}

// newWaker makes a waker; it has no descriptor of its own.
func newWaker() (*waker, error) { return &waker{}, nil }

// wake triggers the wake-up in every kqueue that watches.
func (wk *waker) wake() {
	wk.mu.Lock()
	defer wk.mu.Unlock()
	t := kqTriggerWake() // no udata
	c := []unix.Kevent_t{{Ident: t.ident, Filter: t.filter, Flags: t.flags, Fflags: t.fflags}}
	var zero unix.Timespec
	for _, kq := range wk.kqs {
		unix.Kevent(kq, c, nil, &zero) // as the eventfd's write on Linux: an error is not expected, and nothing to do
	}
}

// close forgets the kqueues (the workers close them).
func (wk *waker) close() {
	wk.mu.Lock()
	wk.kqs = nil
	wk.mu.Unlock()
}

package load

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"golang.org/x/sys/unix"
)

// Closed-loop mode runs on event loops, as wrk does: the connections are
// split over one worker per CPU the generator may run on (loopCount; at most
// one per connection), each a goroutine locked to its thread with its own
// level-triggered epoll set and non-blocking sockets, read and written with
// raw system calls. Per batch that is one write(2), usually one read(2), and
// a share of one epoll_wait(2); no read that finds nothing (a goroutine per
// connection reads once before it parks), no epoll_ctl (wrk switches write
// interest on and off per batch), and no scheduler or deadline timer work.
// Only a connection that is connecting, or whose batch did not fit the
// socket at once, waits for writability. Timeouts are due times per
// connection, scanned when the earliest may have passed. Constant-rate mode
// keeps a goroutine per connection (conn.go): its timers are what it
// measures, and it runs far below saturation.
//
// When nothing is ready the worker naps before it blocks (wait): a response
// that arrives while the worker sleeps in epoll_wait makes the server's
// write pay to wake it (a cross-CPU wake-up, ≈6 µs of the server's CPU per
// wake on the 2-core VM of issue 13), once per response or two; during a nap
// nobody waits on the epoll set, so the server's writes only queue, and the
// nap's own timer fires on the generator's CPU. docs/design.md, "The load
// generator", has the measurements.

// lstate is where a loop connection stands.
type lstate uint8

const (
	lsClosed     lstate = iota // no socket: not yet connected, or a connect before the window failed
	lsBackoff                  // a connect failed; the next try is at due
	lsConnecting               // connecting until due (Timeout)
	lsIdle                     // connected before the window; waiting for it to start
	lsSending                  // the batch is partly written; the rest goes when writable, until due
	lsReading                  // the batch is written; its responses are due by due
)

// lconn is one connection of an event loop: the shared per-connection
// counts, histogram, parser and checks (conn), plus its socket and place.
type lconn struct {
	conn
	fd      int       // the socket; -1 when closed
	index   int       // its position in the worker's conns: the epoll data
	state   lstate    // where it stands
	events  uint32    // the epoll events registered for fd
	due     time.Time // when the current state expires (see lstate)
	sent    time.Time // when the current batch's write started
	pending int       // responses of the current batch still to read
	wrote   int       // bytes of the current batch written
}

// Read is the parser's source: one read(2) of the socket.
func (k *lconn) Read(b []byte) (int, error) { return readFD(k.fd, b) }

// wakeIndex is the epoll data of the wake-up eventfd.
const wakeIndex = -1

// worker is one event loop and the connections it runs.
type worker struct {
	p       *plan
	sa      unix.Sockaddr // where connections go
	saErr   error         // if resolving Addr failed: every connect fails with it
	ep      int           // epoll set
	epf     *os.File      // ep, as a file in Go's network poller (block)
	epc     syscall.RawConn
	conns   []*lconn
	evs     []unix.EpollEvent
	window  bool      // the window has started: connects and errors count
	nextDue time.Time // no connection's due time is earlier; zero: none
	ready   []*lconn  // connections whose batch is complete: they send after this round of events
	// hist is the latency histogram of all the worker's connections, µs
	// (conn.dense): one dense histogram per worker records faster than a
	// packed one per connection, and the worker is one goroutine.
	hist *hdrhistogram.Histogram
	// ttfb is the TTFB histogram of all the worker's connections, µs, as
	// hist.
	ttfb *hdrhistogram.Histogram
	// latency is a moving average of the worker's batch latencies, ns
	// (the last ~latencyWeight batches): what napFor scales the nap by.
	latency float64
}

// Naps (see wait). A nap is latency/napFraction, at most maxNap; none under
// minNap. So it adds at most 1/napFraction to a latency and takes at most as
// much from a closed loop that does not saturate its server; one that does
// keeps its server busy with the other connections' requests meanwhile.
const (
	napFraction   = 20
	maxNap        = time.Millisecond
	minNap        = 5 * time.Microsecond // below this a nap saves no wake-up
	latencyWeight = 64                   // batches in the latency average
)

// runLoops runs closed-loop mode for p (see Run): it opens the connections
// before the window, runs the window on the workers, and returns every
// connection's counts and when the caller cancelled (zero if not). Its
// error is for a failed epoll or eventfd set-up only ("load: eventfd: too
// many open files"; Run turns the generator's own errnos into a Result).
func runLoops(ctx context.Context, p *plan) ([]*conn, []*worker, time.Time, error) {
	wake, err := unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK)
	if err != nil {
		return nil, nil, time.Time{}, fmt.Errorf("load: eventfd: %w", err)
	}
	defer unix.Close(wake)
	workers := make([]*worker, min(p.loops, p.Connections))
	defer func() {
		for _, w := range workers {
			if w != nil {
				w.close()
			}
		}
	}()
	for i := range workers {
		// Each worker its own address: unix.Connect writes into it.
		sa, saErr := sockaddr(p.Addr)
		if workers[i], err = newWorker(p, sa, saErr, wake); err != nil {
			return nil, nil, time.Time{}, err
		}
	}
	conns := make([]*conn, p.Connections)
	for i := range conns {
		w := workers[i%len(workers)]
		k := w.newConn(len(w.conns))
		w.conns = append(w.conns, k)
		conns[i] = &k.conn
	}

	stopped := make(chan time.Time, 1)
	finished, watched := make(chan struct{}), make(chan struct{})
	defer func() {
		close(finished)
		<-watched // so that wake is not written after it is closed
	}()
	go func() {
		defer close(watched)
		select {
		case <-ctx.Done():
			stopped <- time.Now()
			p.stop.Store(true)
			var one [8]byte
			binary.NativeEndian.PutUint64(one[:], 1) // eventfd's counter += 1
			unix.Write(wake, one[:])
		case <-finished:
		}
	}()

	// Open the connections before the window, each within Timeout: a
	// failure here is not counted; the connection tries again inside the
	// window.
	var wg sync.WaitGroup
	deadline := time.Now().Add(p.Timeout)
	for _, w := range workers {
		wg.Go(func() { w.open(deadline) })
	}
	p.probe.open(ctx, &wg)
	wg.Wait()

	p.start = time.Now()
	p.end = p.start.Add(p.Duration)
	win, cancel := context.WithDeadline(ctx, p.end)
	defer cancel()
	p.win = win
	p.probe.start(p, &wg)
	for _, w := range workers {
		wg.Go(w.run)
	}
	wg.Wait()
	select {
	case at := <-stopped:
		return conns, workers, at, nil
	default:
	}
	return conns, workers, time.Time{}, nil
}

// loopCount is how many event loops closed-loop mode runs: one per CPU the
// process may run on (its affinity mask, which a harness that pins itself
// narrows at once, while GOMAXPROCS follows it only later), at most
// GOMAXPROCS. Run reads it before a probe raises GOMAXPROCS (plan.loops).
func loopCount() int {
	n := runtime.GOMAXPROCS(0)
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err == nil && set.Count() > 0 {
		n = min(n, set.Count())
	}
	return n
}

// newConn makes a closed connection of w at index in w.conns, recording
// into w's histograms.
func (w *worker) newConn(index int) *lconn {
	k := &lconn{conn: conn{p: w.p, parse: newParser(nil, readBufSize), dense: w.hist, tdense: w.ttfb}, fd: -1, index: index}
	k.parse.maxKept = w.p.maxKept()
	return k
}

// newWorker makes a worker with its epoll set, watching wake.
func newWorker(p *plan, sa unix.Sockaddr, saErr error, wake int) (*worker, error) {
	w := &worker{p: p, sa: sa, saErr: saErr, evs: make([]unix.EpollEvent, min(p.Connections+1, 1024)),
		hist: hdrhistogram.New(1, p.maxMicros, 3), ttfb: hdrhistogram.New(1, p.maxMicros, 3)}
	if err := w.newEpoll(); err != nil {
		return nil, err
	}
	if err := unix.EpollCtl(w.ep, unix.EPOLL_CTL_ADD, wake, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: wakeIndex}); err != nil {
		w.epf.Close()
		return nil, fmt.Errorf("load: epoll_ctl add eventfd: %w", err)
	}
	return w, nil
}

// newEpoll makes w's epoll set, non-blocking and registered with Go's
// network poller as a file (epf), so that block can park the goroutine
// until the set has an event.
func (w *worker) newEpoll() error {
	ep, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return fmt.Errorf("load: epoll_create1: %w", err)
	}
	if err := unix.SetNonblock(ep, true); err != nil {
		unix.Close(ep)
		return fmt.Errorf("load: epoll set non-blocking: %w", err)
	}
	w.ep, w.epf = ep, os.NewFile(uintptr(ep), "epoll")
	if w.epc, err = w.epf.SyscallConn(); err != nil {
		w.epf.Close()
		return fmt.Errorf("load: epoll set: %w", err)
	}
	return nil
}

// close closes the worker's sockets and its epoll set.
func (w *worker) close() {
	for _, k := range w.conns {
		if k.fd >= 0 {
			w.closeFD(k)
		}
	}
	w.epf.Close()
}

// open connects every connection before the window and waits until all
// are connected or failed, deadline passes or the run is cancelled; those
// still connecting then are closed. Nothing is counted.
func (w *worker) open(deadline time.Time) {
	now := time.Now()
	for _, k := range w.conns {
		w.connect(k, now)
	}
	defer func() {
		for _, k := range w.conns {
			if k.state == lsConnecting {
				w.closeFD(k)
			}
		}
		w.nextDue = time.Time{}
	}()
	for {
		connecting := 0
		for _, k := range w.conns {
			if k.state == lsConnecting {
				connecting++
			}
		}
		now := time.Now()
		if connecting == 0 || !now.Before(deadline) || w.p.stop.Load() {
			return
		}
		n, err := unix.EpollWait(w.ep, w.evs, ceilMillis(deadline.Sub(now)))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return
		}
		for _, ev := range w.evs[:n] {
			if ev.Fd == wakeIndex {
				return
			}
			if k := w.conns[ev.Fd]; k.state == lsConnecting {
				w.connected(k)
			}
		}
	}
}

// run is the worker's loop inside the window: every connection writes its
// first batch (or connects), then steps until the window ends or the run is
// cancelled.
//
// The goroutine holds its thread with a 1 µs timer slack (a nap of 20 µs,
// not 20 + the default 50) and gives it back with the default slack. It
// must not let the thread end: a server the harness started from that
// thread would get its parent-death signal (SIGKILL).
func (w *worker) run() {
	runtime.LockOSThread()
	unix.Prctl(unix.PR_SET_TIMERSLACK, uintptr(time.Microsecond), 0, 0, 0)
	defer func() {
		unix.Prctl(unix.PR_SET_TIMERSLACK, 0, 0, 0, 0) // 0: the thread's default
		runtime.UnlockOSThread()
	}()
	w.start()
	for w.step() {
	}
}

// start starts the window for the worker's connections: those connected
// before it write their first batch, the others connect.
func (w *worker) start() {
	w.window = true
	now := time.Now()
	for _, k := range w.conns {
		if k.state == lsIdle {
			w.send(k)
		} else {
			w.connect(k, now)
		}
	}
}

// step is one turn of the loop: handle the due times that passed, wait for
// ready sockets (at most until the next due time or the window's end),
// handle them, then send the next batch on the connections whose batch
// became complete, back to back, so that the server finds them together (a
// write right after each read would wake it once per batch). It reports
// whether the loop goes on.
func (w *worker) step() bool {
	p := w.p
	now := time.Now()
	if !now.Before(p.end) || p.stop.Load() {
		return false
	}
	if !w.nextDue.IsZero() && !now.Before(w.nextDue) {
		w.scan(now)
	}
	wait := p.end.Sub(now)
	if !w.nextDue.IsZero() {
		wait = min(wait, w.nextDue.Sub(now))
	}
	n, err := w.wait(wait)
	if err == unix.EINTR {
		return true
	}
	if err != nil {
		return false // only for a broken epoll set (EBADF, EINVAL): nothing to count
	}
	for _, ev := range w.evs[:n] {
		if ev.Fd == wakeIndex {
			return false
		}
		switch k := w.conns[ev.Fd]; k.state {
		case lsReading:
			w.readable(k)
		case lsSending:
			w.write(k)
		case lsConnecting:
			w.connected(k)
		}
	}
	// A send can complete another batch from bytes already buffered, which
	// appends to ready: hence the index loop.
	for i := 0; i < len(w.ready); i++ {
		k := w.ready[i]
		w.ready[i] = nil
		if k.state == lsReading && k.pending == 0 {
			w.send(k)
		}
	}
	w.ready = w.ready[:0]
	return true
}

// ceilMillis is d in whole milliseconds rounded up, at least 0: epoll_wait's
// timeout, so that the loop never wakes before a due time.
func ceilMillis(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int((d + time.Millisecond - 1) / time.Millisecond)
}

// wait returns how many events epoll_wait put in w.evs within timeout: a
// poll; if nothing is ready, a nap (napFor) and a second poll; then a
// blocking wait (block). The polls and the nap (at most maxNap) are raw
// system calls, which keep the P; the blocking wait parks the goroutine, so
// other goroutines (probes, an in-process test server) run meanwhile.
func (w *worker) wait(timeout time.Duration) (int, error) {
	if n, err := epollWait(w.ep, w.evs, 0); n > 0 || err != nil {
		return n, err
	}
	if nap := w.napFor(); nap > 0 && nap < timeout {
		sleep(nap)
		if n, err := epollWait(w.ep, w.evs, 0); n > 0 || err != nil {
			return n, err
		}
		timeout -= nap
	}
	return w.block(timeout)
}

// block waits until w's epoll set has events, at most timeout, and returns
// them as epoll_wait does (0 at the timeout). The goroutine parks in Go's
// network poller, which watches the set itself: a blocking epoll_wait
// system call would make sysmon take the P and hand it back on every wait
// (futex and nanosleep calls on the generator's CPU, ~2× wrk's CPU per
// response at c=1).
func (w *worker) block(timeout time.Duration) (int, error) {
	if err := w.epf.SetReadDeadline(time.Now().Add(timeout)); err != nil {
		return 0, err
	}
	var n int
	var err error
	rerr := w.epc.Read(func(uintptr) bool {
		n, err = epollWait(w.ep, w.evs, 0)
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

// napFor is how long the worker naps before it blocks: latency/napFraction,
// at most maxNap; 0 below minNap (and before any response).
func (w *worker) napFor() time.Duration {
	d := min(time.Duration(w.latency/napFraction), maxNap)
	if d < minNap {
		return 0
	}
	return d
}

// setDue sets k's due time to t.
func (w *worker) setDue(k *lconn, t time.Time) {
	k.due = t
	if w.nextDue.IsZero() || t.Before(w.nextDue) {
		w.nextDue = t
	}
}

// scan handles the connections whose due time has passed at now: a
// reconnect after backoff, a connect timeout (a connect error), or a
// response or write timeout (class timeout, then a reconnect). It
// recomputes nextDue.
func (w *worker) scan(now time.Time) {
	w.nextDue = time.Time{}
	for _, k := range w.conns {
		switch k.state {
		case lsBackoff, lsConnecting, lsSending, lsReading:
		default:
			continue
		}
		if k.due.After(now) {
			if w.nextDue.IsZero() || k.due.Before(w.nextDue) {
				w.nextDue = k.due
			}
			continue
		}
		switch k.state {
		case lsBackoff:
			w.connect(k, now)
		case lsConnecting:
			w.closeFD(k)
			w.connectFailed(k, now, os.ErrDeadlineExceeded)
		case lsSending:
			w.fail(k, Write, os.ErrDeadlineExceeded)
		case lsReading:
			w.fail(k, Read, os.ErrDeadlineExceeded)
		}
	}
}

// setEvents makes fd's epoll events ev. A failure (not expected: the socket
// is registered) is a read error.
func (w *worker) setEvents(k *lconn, ev uint32) bool {
	if k.events == ev {
		return true
	}
	if err := unix.EpollCtl(w.ep, unix.EPOLL_CTL_MOD, k.fd, &unix.EpollEvent{Events: ev, Fd: int32(k.index)}); err != nil {
		w.fail(k, Read, fmt.Errorf("epoll_ctl: %w", err))
		return false
	}
	k.events = ev
	return true
}

// closeFD closes k's socket, which also takes it out of the epoll set.
func (w *worker) closeFD(k *lconn) {
	unix.Close(k.fd)
	k.fd, k.events, k.state = -1, 0, lsClosed
}

// connect starts a new connection for k; its end comes as writability
// (connected), or as its due time (Timeout).
func (w *worker) connect(k *lconn, now time.Time) {
	if w.saErr != nil {
		w.connectFailed(k, now, w.saErr)
		return
	}
	fd, _, err := dial(w.sa)
	if err != nil {
		w.connectFailed(k, now, err)
		return
	}
	// Even a connect that completed at once reports through writability, so
	// there is one way in.
	if err := unix.EpollCtl(w.ep, unix.EPOLL_CTL_ADD, fd, &unix.EpollEvent{Events: unix.EPOLLOUT, Fd: int32(k.index)}); err != nil {
		unix.Close(fd)
		w.connectFailed(k, now, fmt.Errorf("epoll_ctl: %w", err))
		return
	}
	k.fd, k.events, k.state = fd, unix.EPOLLOUT, lsConnecting
	w.setDue(k, now.Add(w.p.Timeout))
}

// connectFailed handles a failed connect at now: before the window the
// connection just stays closed; inside it, unless the run is over, the
// failure counts as a connect error (a generator error for the generator's
// own errnos, see classify) and the next try comes after reconnectBackoff.
func (w *worker) connectFailed(k *lconn, now time.Time, err error) {
	k.state = lsClosed
	if !w.window || k.over(now) {
		return
	}
	class, msg := w.p.classify(Connect, err)
	k.tally.fail(class, now, msg)
	k.state = lsBackoff
	w.setDue(k, now.Add(reconnectBackoff))
}

// connected handles the end of k's connect: on success the connection waits
// for the window (before it) or writes its first batch (inside it, counted
// as a reconnect).
func (w *worker) connected(k *lconn) {
	now := time.Now()
	if err := connectError(k.fd); err != nil {
		w.closeFD(k)
		w.connectFailed(k, now, err)
		return
	}
	k.parse.reset(k)
	k.untilCheck = 0 // a connection's first response is always checked
	if !w.window {
		k.state = lsIdle
		w.setEvents(k, 0)
		return
	}
	if k.over(now) {
		return
	}
	k.tally.connects++
	w.send(k)
}

// send writes k's next batch; its latency runs from now. A batch that would
// start after the window is not sent.
func (w *worker) send(k *lconn) {
	now := time.Now()
	if !now.Before(w.p.end) {
		return
	}
	k.sent, k.pending, k.wrote, k.first = now, w.p.Pipeline, 0, time.Time{}
	w.setDue(k, now.Add(w.p.Timeout))
	w.write(k)
}

// write writes what is left of k's batch. What the socket does not take
// waits for writability; once all is written, k reads its responses,
// starting with any already buffered.
func (w *worker) write(k *lconn) {
	n, err := writeFD(k.fd, w.p.batch[k.wrote:])
	if err != nil && err != unix.EAGAIN {
		w.fail(k, Write, err)
		return
	}
	if k.wrote += n; k.wrote < len(w.p.batch) {
		k.state = lsSending
		w.setEvents(k, unix.EPOLLOUT)
		return
	}
	k.state = lsReading
	if !w.setEvents(k, unix.EPOLLIN) {
		return
	}
	if k.parse.buffered() > 0 {
		w.consume(k, k.sent)
	}
}

// readable reads what k's socket holds (one read) and takes the responses
// it completes, all complete at the read's return.
func (w *worker) readable(k *lconn) {
	n, err := k.parse.more()
	if n > 0 {
		w.consume(k, time.Now())
		return
	}
	switch err {
	case unix.EAGAIN:
	case io.EOF:
		resp, done, err := k.parse.end()
		if !done {
			w.fail(k, Read, err)
			return
		}
		w.response(k, resp, time.Now()) // a body to the end of the stream: it closes
	default:
		w.fail(k, Read, err)
	}
}

// consume takes the buffered responses of k's batch, complete at done; when
// the batch is complete it checks the sampled ones and sends the next.
//
// TTFB: a response whose first bytes are buffered and not yet stamped
// (k.first zero) got them with the read that returned at done; bytes of
// the next response left over when one completes came with that read
// too, so a pipelined response whose start came early takes that read's
// time. One time comparison per response, no system call.
func (w *worker) consume(k *lconn, done time.Time) {
	check := w.p.Check != nil
	for k.pending > 0 {
		if k.first.IsZero() && k.parse.buffered() > 0 {
			k.first = done
		}
		k.parse.keep = check && k.untilCheck == 0
		resp, ok, err := k.parse.parse()
		if err != nil {
			w.fail(k, Read, err)
			return
		}
		if !ok || !w.response(k, resp, done) {
			return
		}
	}
	if len(k.checks) > 0 {
		k.check()
	}
	w.ready = append(w.ready, k)
}

// response counts one response of k's batch, complete at done, and reports
// whether the batch goes on. A response complete after the window is not
// counted (the loop ends); one with Connection: close is counted, then the
// connection is reopened and the rest of its batch abandoned.
func (w *worker) response(k *lconn, resp response, done time.Time) bool {
	if done.After(w.p.end) {
		return false
	}
	k.record(resp, k.sent, k.first, done)
	k.first = time.Time{}
	w.latency += (float64(done.Sub(k.sent)) - w.latency) / latencyWeight
	if k.parse.keep {
		k.sample(resp, done)
	}
	k.untilCheck--
	k.pending--
	if resp.close {
		if len(k.checks) > 0 {
			k.check()
		}
		w.closeFD(k)
		w.connect(k, done)
		return false
	}
	return true
}

// fail handles a failed write (op Write) or read (op Read) of k: it closes
// the connection and, unless the run is over, counts the error (class
// Timeout if a due time passed), checks the responses already sampled, and
// reconnects.
func (w *worker) fail(k *lconn, op Class, err error) {
	now := time.Now()
	w.closeFD(k)
	if k.over(now) {
		return
	}
	class, msg := w.p.classify(op, err)
	k.tally.fail(class, now, msg)
	if len(k.checks) > 0 {
		k.check()
	}
	w.connect(k, now)
}

package load

import (
	"context"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"golang.org/x/sys/unix"
)

// Closed-loop mode runs on event loops, as wrk does: the connections are
// split over one worker per CPU the generator may run on (loopCount; at most
// one per connection), each a goroutine locked to its thread with its own
// level-triggered poller (an epoll set on Linux, poll_linux.go; a kqueue on
// darwin, poll_darwin.go) and non-blocking sockets, read and written with
// raw system calls on Linux. Per batch that is one write(2), usually one
// read(2), and a share of one epoll_wait(2); no read that finds nothing (a
// goroutine per connection reads once before it parks), no epoll_ctl (wrk
// switches write interest on and off per batch), and no scheduler or
// deadline timer work.
// Only a connection that is connecting, or whose batch did not fit the
// socket at once, waits for writability. Timeouts are due times per
// connection, scanned when the earliest may have passed. Constant-rate mode
// keeps a goroutine per connection (conn.go): its timers are what it
// measures, and it runs far below saturation.
//
// When nothing is ready the worker naps before it blocks (wait): a response
// that arrives while the worker sleeps in epoll_wait makes the server's write
// pay to wake it (a cross-CPU wake-up, ≈6 µs of the server's CPU per wake on
// the 2-core VM where it was measured), once per response or two; during a
// nap nobody waits on the epoll set, so the server's writes only queue, and
// the nap's own timer fires on the generator's CPU. docs/design.md, "The load
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
	index   int       // its position in the worker's conns: the poller's data (epoll data, kevent udata)
	state   lstate    // where it stands
	events  interest  // what the poller watches fd for
	due     time.Time // when the current state expires (see lstate)
	sent    time.Time // when the current batch's write started
	pending int       // responses of the current batch still to read
	wrote   int       // bytes of the current batch written
}

// Read is the parser's source: one read(2) of the socket.
func (k *lconn) Read(b []byte) (int, error) { return readFD(k.fd, b) }

// interest is what the poller watches a connection's socket for: nothing
// (connected, waiting for the window), readability or writability; never
// both.
type interest uint8

const (
	noInterest    interest = iota // nothing: an idle connection
	readInterest                  // readable: reading responses
	writeInterest                 // writable: connecting, or the rest of a batch
)

// wakeIndex is the poller's index of the wake-up (the eventfd's epoll data
// on Linux, the EVFILT_USER event on darwin); noIndex, of an event that is
// nothing for the loop (a kevent receipt). Connection indices are >= 0.
const (
	wakeIndex = -1
	noIndex   = -2
)

// worker is one event loop and the connections it runs.
type worker struct {
	p       *plan
	sa      unix.Sockaddr // where connections go
	saErr   error         // if resolving Addr failed: every connect fails with it
	pl      poller        // the level-triggered epoll set or kqueue, and its events
	conns   []*lconn
	window  bool      // the window has started: connects and errors count
	end     time.Time // the window's end as the worker knows it: p.end, or its count-based end (share)
	endSet  bool      // end is the count-based end
	nextDue time.Time // no connection's due time is earlier; zero: none
	ready   []*lconn  // connections whose batch is complete: they send after this round of events
	// hist is the latency histogram of all the worker's connections, µs
	// (conn.dense): one dense histogram per worker records faster than a
	// packed one per connection, and the worker is one goroutine.
	hist *hdrhistogram.Histogram
	// ttfb is the TTFB histogram of all the worker's connections, µs, as
	// hist.
	ttfb *hdrhistogram.Histogram
	// series is the worker's buckets with Options.Series, else nil.
	series *series
	// latency is a moving average of the worker's batch latencies, ns
	// (the last ~latencyWeight batches): what napFor scales the nap by.
	latency float64
	// counted is the responses the worker counted; shared, how many of them it has
	// added to p.counted (share, with Options.Responses).
	counted, shared int64
}

// Naps (see wait): latency/napFraction, at most maxNap, none under minNap. A nap
// adds at most 1/napFraction to a latency, and a closed loop that does not
// saturate its server loses at most as much.
const (
	napFraction   = 20
	maxNap        = time.Millisecond
	minNap        = 5 * time.Microsecond // below this a nap saves no wake-up
	latencyWeight = 64                   // batches in the latency average
)

// runLoops runs closed-loop mode for p on the workers, connections opened before
// the window, and returns every connection's counts and when the caller cancelled
// (zero if not). Its error is for a failed poller or wake-up set-up only. With
// Options.Responses the window may end early (share): the wake-up then ends the
// workers still blocked in a wait, and the probe stops with them.
func runLoops(ctx context.Context, p *plan) ([]*conn, []*worker, time.Time, error) {
	wake, err := newWaker()
	if err != nil {
		return nil, nil, time.Time{}, err
	}
	defer wake.close()
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
		k := w.newConn(len(w.conns), i)
		w.conns = append(w.conns, k)
		conns[i] = &k.conn
	}

	stopped := make(chan time.Time, 1)
	finished, watched := make(chan struct{}), make(chan struct{})
	defer func() {
		close(finished)
		<-watched // so that wake is not written after it is closed
	}()
	if p.Responses > 0 {
		p.reached = make(chan struct{})
	}
	reached := p.reached
	go func() {
		defer close(watched)
		var at <-chan time.Time // the count-based end, once a worker set it (share)
		for {
			select {
			case <-ctx.Done():
				stopped <- time.Now()
				p.stop.Store(true)
				wake.wake()
				return
			case <-reached:
				t := time.NewTimer(time.Until(p.windowEnd()))
				defer t.Stop()
				at, reached = t.C, nil
			case <-at:
				wake.wake() // a worker blocked in a wait that began before it knew the end
				at = nil
			case <-finished:
				return
			}
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

	// With Options.Warmup the loops start now and the window opens Warmup later.
	p.start = time.Now().Add(p.Warmup)
	p.end = p.start.Add(p.Duration)
	win, cancel := context.WithDeadline(ctx, p.end)
	defer cancel()
	p.win = win
	if p.OnWindow != nil {
		var hook sync.WaitGroup
		defer hook.Wait()
		hook.Go(func() {
			t := time.NewTimer(time.Until(p.start))
			defer t.Stop()
			select {
			case <-t.C:
				p.OnWindow()
			case <-win.Done():
			}
		})
	}
	var probe sync.WaitGroup
	p.probe.start(p, &probe)
	for _, w := range workers {
		wg.Go(w.run)
	}
	wg.Wait()
	if _, ok := p.stopTime(); ok {
		cancel() // the window ended on its count: the probe's ends with it
	}
	probe.Wait()
	select {
	case at := <-stopped:
		return conns, workers, at, nil
	default:
	}
	return conns, workers, time.Time{}, nil
}

// loopCount is how many event loops closed-loop mode runs: one per CPU the process
// may run on (its affinity mask on Linux, NumCPU on darwin), at most GOMAXPROCS;
// Run reads it before a probe raises GOMAXPROCS (plan.loops).
func loopCount() int {
	n := runtime.GOMAXPROCS(0)
	if cpus, ok := processCPUs(); ok && cpus > 0 {
		n = min(n, cpus)
	}
	return n
}

// newConn makes a closed connection of w at index in w.conns, the run's i-th,
// recording into w's histograms.
func (w *worker) newConn(index, i int) *lconn {
	k := &lconn{conn: conn{p: w.p, parse: newParser(nil, readBufSize), dense: w.hist, tdense: w.ttfb, series: w.series, rng: w.p.newRand(i)}, fd: -1, index: index}
	k.parse.maxKept, k.parse.wantFlushes = w.p.maxKept(), w.p.CheckTimeline != nil
	return k
}

// newWorker makes a worker with its poller, watching wake; the poller
// takes up to p.Connections connections (indices 0..p.Connections-1).
func newWorker(p *plan, sa unix.Sockaddr, saErr error, wake *waker) (*worker, error) {
	w := &worker{p: p, sa: sa, saErr: saErr,
		hist: hdrhistogram.New(1, p.maxMicros, 3), ttfb: hdrhistogram.New(1, p.maxMicros, 3)}
	if p.Series > 0 {
		w.series = &series{width: p.Series, maxMicros: p.maxMicros}
	}
	if err := w.pl.init(min(p.Connections+1, 1024), p.Connections); err != nil {
		return nil, err
	}
	if err := w.pl.watch(wake); err != nil {
		w.pl.close()
		return nil, err
	}
	return w, nil
}

// close closes the worker's sockets and its poller.
func (w *worker) close() {
	for _, k := range w.conns {
		if k.fd >= 0 {
			w.closeFD(k)
		}
	}
	w.pl.close()
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
		n, err := w.pl.wait(deadline.Sub(now))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return
		}
		for i := range n {
			index, cause, fault := w.pl.event(i)
			if index < 0 {
				if index == wakeIndex {
					return
				}
				continue
			}
			if k := w.conns[index]; k.state == lsConnecting {
				if fault {
					w.faulted(k, cause)
				} else {
					w.connected(k, cause)
				}
			}
		}
	}
}

// run is the worker's loop in the window: first batches (or connects), then steps
// until the window ends or the run is cancelled, on its locked thread (1 µs timer
// slack on Linux), which must not end: a server started from it would be killed.
func (w *worker) run() {
	runtime.LockOSThread()
	setTimerSlack(time.Microsecond)
	defer func() {
		setTimerSlack(0) // 0: the thread's default
		runtime.UnlockOSThread()
	}()
	w.start()
	for w.step() {
	}
}

// start starts the window for the worker's connections: those connected
// before it write their first batch, the others connect.
func (w *worker) start() {
	w.window, w.end = true, w.p.end
	now := time.Now()
	for _, k := range w.conns {
		if k.state == lsIdle {
			w.send(k)
		} else {
			w.connect(k, now)
		}
	}
}

// step is one turn of the loop: handle passed due times, wait for ready sockets
// (until the next due time or the window's end), handle them, then send the next
// batches back to back, so the server finds them together. False: the loop ends.
func (w *worker) step() bool {
	p := w.p
	now := time.Now()
	if p.Responses > 0 {
		w.share(now)
	}
	if !now.Before(w.end) || p.stop.Load() {
		return false
	}
	if !w.nextDue.IsZero() && !now.Before(w.nextDue) {
		w.scan(now)
	}
	wait := w.end.Sub(now)
	if !w.nextDue.IsZero() {
		wait = min(wait, w.nextDue.Sub(now))
	}
	n, err := w.wait(wait)
	if err == unix.EINTR {
		return true
	}
	if err != nil {
		return false // only for a broken poller (EBADF, EINVAL): nothing to count
	}
	if p.Responses > 0 && !w.endSet {
		w.takeEnd() // another worker may have set it during the wait
	}
	for i := range n {
		// On Linux event is the epoll data, cause 0 and fault false: the
		// compiler inlines it and drops the fault branch.
		index, cause, fault := w.pl.event(i)
		if index < 0 {
			if index == wakeIndex {
				return false
			}
			continue // noIndex
		}
		k := w.conns[index]
		if fault {
			w.faulted(k, cause)
			continue
		}
		switch k.state {
		case lsReading:
			w.readable(k)
		case lsSending:
			w.write(k)
		case lsConnecting:
			w.connected(k, cause)
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

// share adds the responses w counted since its last step, at now, to the run's
// count and takes the window's end from the plan (w.end). The first worker to find
// the count at Responses or more sets the end: start+MinDuration or now, whichever
// is later (at most end). One atomic add per step, none per response; a loop
// takes the end again after its wait, so only the responses of a step whose wait
// returned before another loop set it can complete after it and count.
func (w *worker) share(now time.Time) {
	p := w.p
	if n := w.counted - w.shared; n > 0 {
		w.shared = w.counted
		if p.counted.Add(n) >= p.Responses && p.stopAfter.Load() == 0 {
			off := min(max(p.MinDuration, now.Sub(p.start), 1), p.Duration)
			if p.stopAfter.CompareAndSwap(0, int64(off)) {
				close(p.reached)
			}
		}
	}
	if !w.endSet {
		w.takeEnd()
	}
}

// takeEnd takes the window's count-based end from the plan (w.end), if it is set.
func (w *worker) takeEnd() {
	if t, ok := w.p.stopTime(); ok {
		w.end, w.endSet = t, true
	}
}

// ceilMillis is d in whole milliseconds rounded up, at least 0: epoll_wait's
// timeout (Linux), so that the loop never wakes before a due time.
func ceilMillis(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int((d + time.Millisecond - 1) / time.Millisecond)
}

// wait returns how many events the poller holds within timeout: a poll, if nothing
// is ready a nap (napFor) and a second poll, then a blocking wait. On Linux the polls
// and the nap are raw system calls that keep the P; the blocking wait parks.
func (w *worker) wait(timeout time.Duration) (int, error) {
	if n, err := w.pl.poll(); n > 0 || err != nil {
		return n, err
	}
	if nap := w.napFor(); nap > 0 && nap < timeout {
		sleep(nap)
		if n, err := w.pl.poll(); n > 0 || err != nil {
			return n, err
		}
		timeout -= nap
	}
	return w.pl.block(timeout)
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

// scan handles the connections whose due time passed at now (a reconnect after
// backoff, a connect timeout, a response or write timeout) and recomputes nextDue.
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

package load

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"golang.org/x/sys/cpu"
)

// reconnectBackoff is the pause after a failed connect before the next try,
// so that a closed port does not turn into a busy loop.
const reconnectBackoff = 10 * time.Millisecond

// plan is what every connection of one run shares, read-only once the window
// has started (stop, counted and stopAfter aside).
type plan struct {
	config
	batch []byte          // Pipeline requests, written in one write
	win   context.Context // cancelled at the window's end or by the caller
	start time.Time       // the window's start
	end   time.Time       // the window's end
	stop  atomic.Bool     // set when the caller cancels the run
	loops int             // closed loop: how many event loops (loopCount, read before a probe raises GOMAXPROCS)
	probe *prober         // the interference probe; nil without Options.Probe
	main  *plan           // the probe's plan: the run's, whose count-based end (stopTime) ends its window too; else nil

	// Closed loop with Options.Responses (loop.go, worker.share): the responses
	// the event loops counted, each adding its own once per step, and from the
	// moment they reach Responses when the window ends, ns after start (0: not
	// yet; it ends at end). reached is closed then. On cache lines of their own,
	// so that the loops' adds do not evict the fields they read per response.
	_         cpu.CacheLinePad
	counted   atomic.Int64
	stopAfter atomic.Int64
	_         cpu.CacheLinePad
	reached   chan struct{}
}

// stopTime is when the window ends on its response count (Options.Responses), and
// whether that time is set yet; a probe's plan answers for its run's.
func (p *plan) stopTime() (time.Time, bool) {
	if p.main != nil {
		p = p.main
	}
	off := p.stopAfter.Load()
	return p.start.Add(time.Duration(off)), off != 0
}

// windowEnd is when the window ends: its count-based end if set, else end.
func (p *plan) windowEnd() time.Time {
	if t, ok := p.stopTime(); ok {
		return t
	}
	return p.end
}

// conn is one connection's counts, histograms, parser and sampled responses,
// and at a Rate its own goroutine's loop (run). Only its goroutine touches it,
// except c, which abort reads under mu. In closed-loop mode an event loop's
// lconn embeds it (loop.go), leaving c, dialer, timer, slot and ready unused.
type conn struct {
	p      *plan
	mu     sync.Mutex
	c      net.Conn
	parse  *parser
	hist   *hdrhistogram.PackedHistogram // latency, µs (corrected at a Rate); nil when dense is set
	dense  *hdrhistogram.Histogram       // closed loop: the event loop's latency histogram, µs, shared by its connections
	uhist  *hdrhistogram.PackedHistogram // at a Rate: uncorrected latency, µs; else nil
	thist  *hdrhistogram.PackedHistogram // TTFB, µs, from the same start as hist; nil when tdense is set
	tdense *hdrhistogram.Histogram       // closed loop: the event loop's TTFB histogram, µs
	series *series                       // closed loop with Options.Series: the event loop's buckets; else nil
	tally  tally
	dialer net.Dialer
	timer  *time.Timer // for sleep; made on first use

	// Constant-rate mode: the next intended send is p.start + slot*p.interval
	// (slot from i/Connections for the i-th connection, +1 per request); ready is
	// when it last became free to send (zero: opened before the window).
	slot  float64
	ready time.Time

	// Checks: untilCheck is how many responses pass before the next one is
	// checked (0: the next one; always 0 at CheckEvery 1); rng draws the gaps at
	// a CheckEvery over 1. pos counts the responses on the current connection.
	// date (dateN bytes) is the last Date value checked on it, first seen on a
	// response complete at dateSeen.
	untilCheck int
	rng        *rand.Rand
	pos        int64
	dateN      int
	date       [64]byte
	dateSeen   time.Time

	// TTFB: first is when the read that brought the current response's first byte
	// returned (zero: none yet; closed loop); lastRead, when the last read that
	// brought bytes returned (at a Rate, where next stamps its reads).
	first    time.Time
	lastRead time.Time
}

// reconnected resets k's per-connection check state for a new connection:
// its first response is checked, positions count from 1, no Date seen yet.
func (k *conn) reconnected() {
	k.untilCheck, k.pos, k.dateN = 0, 0, 0
}

// counted advances the check schedule past one counted response: at
// CheckEvery 1 every response is checked; above, the gap to the next checked
// one is geometric with mean CheckEvery-1, drawn from the run's seed, so no
// position is fixed.
func (k *conn) counted() {
	k.pos++
	switch {
	case k.untilCheck > 0:
		k.untilCheck--
	case k.p.CheckEvery > 1:
		k.untilCheck = gap(k.rng.Float64(), k.p.CheckEvery)
	}
}

// gap is the number of responses passed over before the next checked one,
// for u uniform in [0, 1) and a check probability of 1/every (every > 1).
func gap(u float64, every int) int {
	return int(math.Floor(math.Log1p(-u) / math.Log1p(-1/float64(every))))
}

// check checks the response the parser just completed and kept, resp, the
// k.pos-th on its connection (counted has not run yet), from the batch written
// at sent and complete at done (its timeline from from, first byte at first),
// with Options.Check or CheckTimeline, then its Date's age
// (Options.DateStale). A failure counts as class Check, its example naming the
// position; a body over MaxCheckBytes fails without a call.
func (k *conn) check(resp response, from, first, sent, done time.Time) {
	p := k.parse
	k.tally.checked++
	var err error
	switch {
	case p.dropped:
		err = fmt.Errorf("body %d bytes, over the %s kept for a check", resp.body, sizeText(k.p.maxKept()))
	case k.p.CheckTimeline != nil:
		err = k.p.CheckTimeline(resp.status, p.head, p.body, p.timeline(from, first, done))
	default:
		err = k.p.Check(resp.status, p.head, p.body)
	}
	if err == nil && k.p.DateStale > 0 && p.dateN > 0 {
		err = k.dateAge(sent, done)
	}
	if err != nil {
		pos := k.pos + 1
		k.tally.fail(Check, done, func() string {
			return fmt.Sprintf("check GET %s: response %d on its connection: %s", k.p.Path, pos, err)
		})
	}
}

// dateAge checks the Date value of the response just parsed: the same value
// as a response complete more than DateStale before this one's batch was sent
// (so written later) is a cached Date (TFB's rule: Date changes every second).
func (k *conn) dateAge(sent, done time.Time) error {
	v := k.parse.date[:k.parse.dateN]
	if k.dateN > 0 && bytes.Equal(v, k.date[:k.dateN]) {
		if age := sent.Sub(k.dateSeen); age > k.p.DateStale {
			return fmt.Errorf("Date %q unchanged for %.1f s on this connection, want a new value at least every %s (a cached Date)", v, age.Seconds(), k.p.DateStale)
		}
		return nil
	}
	k.dateN = copy(k.date[:], v)
	k.dateSeen = done
	return nil
}

// newConn makes the run's i-th connection (constant-rate mode, or a probe's).
func newConn(p *plan, i int) *conn {
	k := &conn{
		p:      p,
		rng:    p.newRand(i),
		parse:  newParser(nil, readBufSize),
		hist:   hdrhistogram.NewPacked(1, p.maxMicros, 3),
		thist:  hdrhistogram.NewPacked(1, p.maxMicros, 3),
		dialer: net.Dialer{Timeout: p.Timeout},
	}
	k.parse.maxKept, k.parse.wantFlushes = p.maxKept(), p.CheckTimeline != nil
	if p.Rate > 0 {
		k.uhist = hdrhistogram.NewPacked(1, p.maxUMicros, 3)
	}
	if hook := sockoptHook; hook != nil {
		k.dialer.Control = func(_, _ string, c syscall.RawConn) error {
			var err error
			if cerr := c.Control(func(fd uintptr) { err = hook(int(fd)) }); cerr != nil {
				return cerr
			}
			return err
		}
	}
	return k
}

// open dials the server under ctx. It returns the dial error, if any.
func (k *conn) open(ctx context.Context) error {
	c, err := k.dialer.DialContext(ctx, "tcp", k.p.Addr)
	if err != nil {
		return err
	}
	k.mu.Lock()
	k.c = c
	k.mu.Unlock()
	k.parse.reset(c)
	k.reconnected()
	return nil
}

// close closes the current connection, if any.
func (k *conn) close() {
	k.mu.Lock()
	if k.c != nil {
		k.c.Close()
		k.c = nil
	}
	k.mu.Unlock()
}

// abort makes a blocked read or write of the current connection return now.
// It is called, after p.stop is set, from another goroutine.
func (k *conn) abort() {
	k.mu.Lock()
	if k.c != nil {
		k.c.SetDeadline(time.Unix(1, 0))
	}
	k.mu.Unlock()
}

// over reports whether the run is over at time now: the window has ended or
// the caller cancelled. Errors seen when it is over are not counted.
func (k *conn) over(now time.Time) bool {
	return !now.Before(k.p.windowEnd()) || k.p.stop.Load() || k.p.win.Err() != nil
}

// run is the connection's loop inside the window. Opening a connection that
// fails counts a connect error and waits reconnectBackoff; a read or write
// error or a timeout counts an error, closes the connection and reopens it.
func (k *conn) run() {
	defer k.close()
	for {
		if k.c == nil {
			err := k.open(k.p.win)
			now := time.Now()
			if k.over(now) {
				return
			}
			if err != nil {
				class, msg := k.p.classify(Connect, err)
				k.tally.fail(class, now, msg)
				if !k.sleep(reconnectBackoff) {
					return
				}
				continue
			}
			k.tally.connects++
			k.ready = now
		}
		if !k.round() {
			return
		}
	}
}

// sleep waits d, or until the window ends; it reports whether the run goes
// on. It reuses one timer per connection, so that waiting for a scheduled
// send does not allocate.
func (k *conn) sleep(d time.Duration) bool {
	if k.timer == nil {
		k.timer = time.NewTimer(d)
	} else {
		k.timer.Reset(d)
	}
	select {
	case <-k.timer.C:
		return true
	case <-k.p.win.Done():
		k.timer.Stop()
		return false
	}
}

// round writes one batch, reads its responses (each due within Timeout of the
// write) and checks the sampled ones; it reports whether the run goes on. At a
// Rate the batch is one request, timed from its intended time if k was busy then.
func (k *conn) round() bool {
	p := k.p
	var from time.Time // where the batch's latency starts; zero: at the write
	if p.Rate > 0 {
		off := k.slot * p.interval
		if off >= float64(p.Duration) {
			return false
		}
		intended := p.start.Add(time.Duration(off))
		if k.ready.After(intended) {
			from = intended // behind schedule: busy at the intended time
		}
		if wait := time.Until(intended); wait > 0 && !k.sleep(wait) {
			return false
		}
		k.slot++
	}
	sent := time.Now()
	if !sent.Before(p.end) {
		return false
	}
	if from.IsZero() {
		from = sent
	}
	deadline := sent.Add(p.Timeout)
	if deadline.After(p.end) {
		deadline = p.end
	}
	c := k.c
	c.SetDeadline(deadline)
	// A caller's cancel sets stop before aborting, so checking stop after
	// setting our deadline leaves abort's deadline as the last one.
	if p.stop.Load() {
		return false
	}
	if _, err := c.Write(p.batch); err != nil {
		return k.fail(Write, err)
	}
	return k.read(from, sent)
}

// read reads the responses to the batch written at sent, records those complete
// inside the window (latency and TTFB from from; uncorrected latency from sent),
// checks those due, and reports whether the run goes on. Bytes beyond the
// batch's responses answer no request: a read error.
func (k *conn) read(from, sent time.Time) bool {
	p := k.p
	for range p.Pipeline {
		keep := p.Check != nil && k.untilCheck == 0
		k.parse.keep = keep
		resp, first, err := k.next()
		if err != nil {
			return k.fail(Read, err)
		}
		done := time.Now()
		if done.After(p.end) {
			return false
		}
		k.record(resp, from, first, done)
		if k.uhist != nil {
			k.uhist.RecordValue(max(1, min(done.Sub(sent).Microseconds(), p.maxUMicros)))
			k.ready = done
		}
		if keep {
			k.check(resp, from, first, sent, done)
		}
		k.counted()
		if resp.close {
			k.close()
			return true
		}
	}
	if k.parse.buffered() > 0 {
		return k.fail(Read, k.parse.unrequested())
	}
	return true
}

// next is parser.next reading from the connection, also returning when the read
// that brought the response's first byte returned (TTFB's end). It stamps every
// read that brings bytes (lastRead).
func (k *conn) next() (response, time.Time, error) {
	p := k.parse
	var first time.Time
	for {
		if first.IsZero() && p.buffered() > 0 {
			first = k.lastRead
		}
		p.readAt = k.lastRead
		resp, done, err := p.parse()
		if done || err != nil {
			return resp, first, err
		}
		err = p.fill()
		k.lastRead = time.Now()
		if err == io.EOF {
			resp, done, err := p.end()
			if !done {
				return response{}, first, err
			}
			return resp, first, nil
		} else if err != nil {
			return response{}, first, err
		}
	}
}

// sizeText renders a cap in bytes as "16 MiB" when it is whole MiB, else
// as "1500000 bytes".
func sizeText(n int) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// record counts one response answered inside the window, complete at done, with
// latency (µs) and TTFB measured from from: its write, or at a Rate perhaps its
// intended send time; first is when its first byte was read.
func (k *conn) record(resp response, from, first, done time.Time) {
	us := done.Sub(from).Microseconds()
	us = max(1, min(us, k.p.maxMicros))
	ts := first.Sub(from).Microseconds()
	ts = max(1, min(ts, us))
	if k.dense != nil {
		k.dense.RecordValue(us)
		k.tdense.RecordValue(ts)
		if k.series != nil {
			k.series.record(done.Sub(k.p.start), us)
		}
	} else {
		k.hist.RecordValue(us)
		k.thist.RecordValue(ts)
	}
	t := &k.tally
	t.responses++
	t.bodyBytes += resp.body
	t.status(resp.status)
	if resp.status < 200 || resp.status > 299 {
		t.fail(Status, done, func() string { return k.statusExample(resp) })
		k.parse.wantSnip = false // the connection has its example
	}
}

// statusExample is the example of a status error for resp, the response just
// parsed: "status 500 for GET /db", then up to snipBytes of its body, if any,
// quoted. It is called only for a connection's first status error (wantSnip).
func (k *conn) statusExample(resp response) string {
	msg := fmt.Sprintf("status %d for GET %s", resp.status, k.p.Path)
	n := k.parse.snipN
	snip := bytes.TrimSpace(k.parse.snip[:n])
	if len(snip) == 0 {
		return msg
	}
	msg += fmt.Sprintf(": %q", snip)
	if resp.body > int64(n) {
		msg += fmt.Sprintf(" (first %d of %d bytes)", n, resp.body)
	}
	return msg
}

// fail handles a failed write (op Write) or read (op Read): it closes the
// connection and, unless the run is over, counts the error, as class Timeout
// if a deadline expired. It reports whether the run goes on.
func (k *conn) fail(op Class, err error) bool {
	now := time.Now()
	k.close()
	if k.over(now) {
		return false
	}
	class, msg := k.p.classify(op, err)
	k.tally.fail(class, now, msg)
	return true
}

// classify returns the class of an error during op (Connect, Read or Write):
// Generator for the generator's own errnos, Timeout for an expired read or write
// deadline (not a connect's), else op; and a func rendering its example message.
func (p *plan) classify(op Class, err error) (Class, func() string) {
	class := op
	errno, gen := generatorErrno(err)
	switch {
	case gen:
		class = Generator
	case op != Connect && isTimeout(err):
		class = Timeout
	}
	return class, func() string {
		switch {
		case gen:
			return fmt.Sprintf("%s %s: %s %s", op, p.Addr, cause(err), generatorHint(errno, p.Connections))
		case class == Timeout && op == Read:
			return fmt.Sprintf("read %s: no complete response within %s", p.Addr, p.Timeout)
		case class == Timeout:
			return fmt.Sprintf("write %s: request not sent within %s", p.Addr, p.Timeout)
		}
		return fmt.Sprintf("%s %s: %s", op, p.Addr, cause(err))
	}
}

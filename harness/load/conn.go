package load

import (
	"context"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// reconnectBackoff is the pause after a failed connect before the next try,
// so that a closed port does not turn into a busy loop.
const reconnectBackoff = 10 * time.Millisecond

// plan is what every connection of one run shares, read-only once the window
// has started (stop aside).
type plan struct {
	config
	batch []byte          // Pipeline requests, written in one write
	win   context.Context // cancelled at the window's end or by the caller
	start time.Time       // the window's start
	end   time.Time       // the window's end
	stop  atomic.Bool     // set when the caller cancels the run
}

// conn is one connection's closed loop: write a batch of Pipeline requests,
// read their responses in order, record each, repeat until the window ends.
// Only its own goroutine touches its fields, except c, which abort reads
// under mu.
type conn struct {
	p      *plan
	mu     sync.Mutex
	c      net.Conn
	parse  *parser
	hist   *hdrhistogram.PackedHistogram // latency, µs
	tally  tally
	dialer net.Dialer
}

func newConn(p *plan) *conn {
	return &conn{
		p:      p,
		parse:  newParser(nil, readBufSize),
		hist:   hdrhistogram.NewPacked(1, p.maxMicros, 3),
		dialer: net.Dialer{Timeout: p.Timeout},
	}
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
	return !now.Before(k.p.end) || k.p.stop.Load() || k.p.win.Err() != nil
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
				k.tally.fail(Connect, now, func() string {
					return fmt.Sprintf("connect %s: %s", k.p.Addr, cause(err))
				})
				if !k.sleep(reconnectBackoff) {
					return
				}
				continue
			}
			k.tally.connects++
		}
		if !k.round() {
			return
		}
	}
}

// sleep waits d, or until the window ends; it reports whether the run goes
// on.
func (k *conn) sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-k.p.win.Done():
		return false
	}
}

// round writes one batch and reads its responses. It reports whether the run
// goes on; after an error or a Connection: close response it has closed the
// connection.
//
// Every response of the batch must be complete by its write time plus
// Timeout; the deadline is cut at the window's end, where responses stop
// counting anyway. Requests pipelined behind a Connection: close response are
// abandoned with the connection, counted neither as responses nor as errors.
func (k *conn) round() bool {
	p := k.p
	sent := time.Now()
	if !sent.Before(p.end) {
		return false
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
	for range p.Pipeline {
		resp, err := k.parse.next()
		if err != nil {
			return k.fail(Read, err)
		}
		done := time.Now()
		if done.After(p.end) {
			return false
		}
		k.record(resp, sent, done)
		if resp.close {
			k.close()
			return true
		}
	}
	return true
}

// record counts one response answered inside the window: written at sent,
// complete at done.
func (k *conn) record(resp response, sent, done time.Time) {
	us := done.Sub(sent).Microseconds()
	us = max(1, min(us, k.p.maxMicros))
	k.hist.RecordValue(us)
	t := &k.tally
	t.responses++
	t.bodyBytes += resp.body
	t.status(resp.status)
	if resp.status < 200 || resp.status > 299 {
		t.fail(Status, done, func() string {
			return fmt.Sprintf("status %d for GET %s", resp.status, k.p.Path)
		})
	}
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
	class := op
	if isTimeout(err) {
		class = Timeout
	}
	k.tally.fail(class, now, func() string {
		switch {
		case class == Timeout && op == Read:
			return fmt.Sprintf("read %s: no complete response within %s", k.p.Addr, k.p.Timeout)
		case class == Timeout:
			return fmt.Sprintf("write %s: request not sent within %s", k.p.Addr, k.p.Timeout)
		}
		return fmt.Sprintf("%s %s: %s", op, k.p.Addr, cause(err))
	})
	return true
}

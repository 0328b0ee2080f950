package load

import (
	"fmt"
	"io"
	"time"

	"golang.org/x/sys/unix"
)

// setEvents makes what the poller watches k's socket for ev. A failure (not
// expected: the socket is registered) is a read error ("epoll_ctl: ...",
// "kevent: ...").
func (w *worker) setEvents(k *lconn, ev interest) bool {
	if k.events == ev {
		return true
	}
	if err := w.pl.change(k.fd, k.index, k.events, ev); err != nil {
		w.fail(k, Read, err)
		return false
	}
	k.events = ev
	return true
}

// faulted handles a kernel error the poller reported for k's registration
// (darwin: an EV_ERROR event, errno cause; never on Linux) as a failed
// registration change: a connect error while connecting, else a read error.
func (w *worker) faulted(k *lconn, cause unix.Errno) {
	err := fmt.Errorf("kevent: %w", cause)
	switch k.state {
	case lsConnecting:
		w.closeFD(k)
		w.connectFailed(k, time.Now(), err)
	case lsSending, lsReading:
		w.fail(k, Read, err)
	}
}

// closeFD closes k's socket, which also takes it out of the poller.
func (w *worker) closeFD(k *lconn) {
	unix.Close(k.fd)
	k.fd, k.events, k.state = -1, noInterest, lsClosed
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
	if err := w.pl.add(fd, k.index, writeInterest); err != nil {
		unix.Close(fd)
		w.connectFailed(k, now, err)
		return
	}
	k.fd, k.events, k.state = fd, writeInterest, lsConnecting
	w.setDue(k, now.Add(w.p.Timeout))
}

// connectFailed handles a failed connect at now: before the window the connection
// stays closed; inside it the failure counts (its class from classify) and the next
// try comes after reconnectBackoff.
func (w *worker) connectFailed(k *lconn, now time.Time, err error) {
	k.state = lsClosed
	if !w.window || k.over(now) {
		return
	}
	if now.Before(w.p.start) { // Options.Warmup: not counted, tried again
		k.state = lsBackoff
		w.setDue(k, now.Add(reconnectBackoff))
		return
	}
	class, msg := w.p.classify(Connect, err)
	k.tally.fail(class, now, msg)
	k.state = lsBackoff
	w.setDue(k, now.Add(reconnectBackoff))
}

// connected handles the end of k's connect: on success k waits for the window or,
// inside it, writes its first batch (a reconnect). cause is the poller's hang-up
// socket error (darwin; 0 on Linux), used when SO_ERROR has none left.
func (w *worker) connected(k *lconn, cause unix.Errno) {
	now := time.Now()
	err := connectError(k.fd)
	if err == nil && cause != 0 {
		err = cause
	}
	if err != nil {
		w.closeFD(k)
		w.connectFailed(k, now, err)
		return
	}
	k.parse.reset(k)
	k.reconnected()
	if !w.window {
		k.state = lsIdle
		w.setEvents(k, noInterest)
		return
	}
	if k.over(now) {
		return
	}
	if !now.Before(w.p.start) {
		k.tally.connects++ // a reconnect in the window
	}
	w.send(k)
}

// send writes k's next batch; its latency runs from now. A batch that would
// start after the window is not sent.
func (w *worker) send(k *lconn) {
	now := time.Now()
	if !now.Before(w.end) {
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
		w.setEvents(k, writeInterest)
		return
	}
	k.state = lsReading
	if !w.setEvents(k, readInterest) {
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

// consume takes the buffered responses of k's batch, complete at done, and once the
// batch is complete queues the next send; bytes left over answer no request (a read
// error). A response whose first bytes are buffered but not yet stamped got them with
// the read at done (TTFB).
func (w *worker) consume(k *lconn, done time.Time) {
	check := w.p.Check != nil
	for k.pending > 0 {
		if k.first.IsZero() && k.parse.buffered() > 0 {
			k.first = done
		}
		k.parse.keep = check && k.untilCheck == 0
		k.parse.readAt = done
		resp, ok, err := k.parse.parse()
		if err != nil {
			w.fail(k, Read, err)
			return
		}
		if !ok || !w.response(k, resp, done) {
			return
		}
	}
	if k.parse.buffered() > 0 {
		w.fail(k, Read, k.parse.unrequested())
		return
	}
	w.ready = append(w.ready, k)
}

// response counts one response of k's batch, complete at done, and reports whether
// the batch goes on: one after the window is not counted, nor one before it (the
// warmup's); one with Connection: close reopens the connection, abandoning the batch.
func (w *worker) response(k *lconn, resp response, done time.Time) bool {
	if done.After(w.end) {
		return false
	}
	w.latency += (float64(done.Sub(k.sent)) - w.latency) / latencyWeight
	if !done.Before(w.p.start) { // else a response of the warmup (Options.Warmup)
		k.record(resp, k.sent, k.first, done)
		w.counted++
		if k.parse.keep {
			k.check(resp, k.sent, k.first, k.sent, done)
		}
		k.counted()
	}
	k.first = time.Time{}
	k.pending--
	if resp.close {
		w.closeFD(k)
		w.connect(k, done)
		return false
	}
	return true
}

// fail handles k's failed write (op Write) or read (op Read): it closes the
// connection and, unless the run is over, counts the error (classify) and
// reconnects.
func (w *worker) fail(k *lconn, op Class, err error) {
	now := time.Now()
	w.closeFD(k)
	if k.over(now) {
		return
	}
	if now.Before(w.p.start) { // Options.Warmup: not counted
		w.connect(k, now)
		return
	}
	class, msg := w.p.classify(op, err)
	k.tally.fail(class, now, msg)
	w.connect(k, now)
}

package load

import (
	"context"
	"net"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/tfbench/tfbench/harness/model"
)

// prober runs the interference probe of one run (Options.Probe): one
// connection of its own plan, one request per Probe.Interval on a fixed
// schedule, pipelined (run), sharing the main plan's window (start, end,
// win) so that it starts and ends with it. A nil prober does nothing.
type prober struct {
	spec Probe
	p    *plan
	k    *conn
	// wt counts the writer's errors (connect, write) apart from k.tally,
	// which only the reader touches; result merges both.
	wt tally
}

// probeSent is one probe request on the wire: when it was due, when its
// write returned, and the connection it went out on.
type probeSent struct {
	intended, at time.Time
	c            net.Conn
}

// newProber returns the prober for cfg, nil without Options.Probe. Its
// requests carry plaintext's Accept: the probe asks for a cheap endpoint.
func newProber(cfg config) *prober {
	q := cfg.Probe
	if q == nil {
		return nil
	}
	o := Options{
		Addr: cfg.Addr, Host: cfg.Host, Path: q.Path, Accept: model.Plaintext.Accept(),
		Connections: 1, Pipeline: 1, Rate: 1 / q.Interval.Seconds(), CheckEvery: DefaultCheckEvery,
		Duration: cfg.Duration, Timeout: cfg.Timeout,
	}
	pc := config{Options: o, maxMicros: max(o.Timeout, o.Duration).Microseconds(), maxUMicros: o.Timeout.Microseconds(),
		interval: float64(q.Interval)}
	p := &plan{config: pc, batch: batch(o)}
	return &prober{spec: *q, p: p, k: newConn(p)}
}

// open dials the probe's connection before the window, within Timeout, on
// a goroutine counted in wg. A failure is not counted: the connection tries
// again inside the window.
func (q *prober) open(ctx context.Context, wg *sync.WaitGroup) {
	if q == nil {
		return
	}
	wg.Go(func() {
		dctx, cancel := context.WithTimeout(ctx, q.p.Timeout)
		q.k.open(dctx)
		cancel()
	})
}

// start starts the probe's window, main's (call it once main.start, end
// and win are set), on a goroutine counted in wg. When main.win is done
// (the window's end, or the caller's cancel) the probe stops and a read or
// write it is blocked in returns at once.
func (q *prober) start(main *plan, wg *sync.WaitGroup) {
	if q == nil {
		return
	}
	q.p.start, q.p.end, q.p.win = main.start, main.end, main.win
	stop := context.AfterFunc(main.win, func() {
		q.p.stop.Store(true)
		q.k.abort()
	})
	wg.Go(func() {
		defer stop()
		q.run()
	})
}

// run is the probe inside the window. A writer sends each request at its
// intended time whatever the earlier ones do, pipelined on the one
// connection (HTTP/1.1: the server answers them in order), and the reader
// takes the responses in order, each measured from its intended send time.
// So a probe waits for the server only, never for an earlier probe: one
// request at a time would fall behind for good once a response took longer
// than the interval (a page render holding the server) and its latency
// from the schedule would grow through the window, the probe's backlog, not
// what the server's other requests wait. A connect, write or read error
// (a timeout included) is counted once, the connection closed and the
// requests on it dropped; the next request due opens a new one.
func (q *prober) run() {
	k, p := q.k, q.p
	queue := make(chan probeSent, int(float64(p.Duration)/p.interval)+2)
	go q.write(queue)
	var cur, dead net.Conn
	for e := range queue {
		if e.c == dead {
			continue // sent before its connection failed: dropped, the failure counted
		}
		if e.c != cur {
			cur = e.c
			k.parse.reset(cur)
		}
		cur.SetReadDeadline(minTime(e.at.Add(p.Timeout), p.end))
		resp, first, err := k.next()
		done := time.Now()
		if err != nil {
			q.drop(cur)
			dead = cur
			if !k.over(done) {
				class, msg := p.classify(Read, err)
				k.tally.fail(class, done, msg)
			}
			continue
		}
		if done.After(p.end) {
			continue // answered after the window: not counted
		}
		k.record(resp, e.intended, first, done)
		k.uhist.RecordValue(max(1, min(done.Sub(e.at).Microseconds(), p.maxUMicros)))
		if resp.close {
			q.drop(cur)
			dead = cur
		}
	}
	q.drop(nil)
}

// write sends the probe's requests on their schedule (the interval from the
// window's start) until the window ends, opening the connection when there
// is none, and hands each one written to the reader through queue, which
// it closes at the end.
func (q *prober) write(queue chan<- probeSent) {
	k, p := q.k, q.p
	defer close(queue)
	for slot := 0; ; slot++ {
		intended := p.start.Add(time.Duration(float64(slot) * p.interval))
		if !intended.Before(p.end) || !k.sleep(time.Until(intended)) {
			return
		}
		k.mu.Lock()
		c := k.c
		k.mu.Unlock()
		if c == nil {
			dctx, cancel := context.WithTimeout(p.win, p.Timeout)
			nc, err := k.dialer.DialContext(dctx, "tcp", p.Addr)
			cancel()
			now := time.Now()
			if k.over(now) {
				if err == nil {
					nc.Close()
				}
				return
			}
			if err != nil {
				class, msg := p.classify(Connect, err)
				q.wt.fail(class, now, msg)
				continue
			}
			q.wt.connects++
			k.mu.Lock()
			k.c, c = nc, nc
			k.mu.Unlock()
		}
		c.SetWriteDeadline(time.Now().Add(p.Timeout))
		if _, err := c.Write(p.batch); err != nil {
			now := time.Now()
			q.drop(c)
			if !k.over(now) {
				class, msg := p.classify(Write, err)
				q.wt.fail(class, now, msg)
			}
			continue
		}
		queue <- probeSent{intended: intended, at: time.Now(), c: c}
	}
}

// drop closes c and forgets it if it is still the probe's connection; nil
// closes whatever connection the probe has (the end of the run).
func (q *prober) drop(c net.Conn) {
	k := q.k
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.c != nil && (c == nil || k.c == c) {
		k.c.Close()
		k.c = nil
	} else if c != nil {
		c.Close()
	}
}

// minTime is the earlier of a and b.
func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// result is the probe's Result over the main window's length: its counts,
// errors and examples, its latency and TTFB from each request's intended
// send time, its uncorrected latency (from the write), and the Probe it
// ran (ProbeSpec).
func (q *prober) result(window time.Duration) *Result {
	k := q.k
	r := &Result{
		Window:      window,
		Latency:     hdrhistogram.New(1, q.p.maxMicros, 3),
		Uncorrected: hdrhistogram.New(1, q.p.maxUMicros, 3),
		TTFB:        hdrhistogram.New(1, q.p.maxMicros, 3),
		ProbeSpec:   &q.spec,
	}
	k.hist.MergeInto(r.Latency)
	k.uhist.MergeInto(r.Uncorrected)
	k.thist.MergeInto(r.TTFB)
	r.merge([]*tally{&k.tally, &q.wt})
	return r
}

// The probe's numbers must be the server's, not the generator's. The
// generator is pinned to one CPU, so GOMAXPROCS follows to 1, and
// closed-loop mode's event loop keeps that one P while it polls and naps
// (raw system calls, loop.go): the probe goroutine's timer and its
// socket's readiness would wait for the loop to park, or for sysmon to
// preempt it (10 ms), and the probe would report the generator's delay.
// So while a probe runs, GOMAXPROCS is one more than before: the probe
// gets a P of its own, whose thread sleeps in the kernel until its timer
// or socket wakes it, and the CPU scheduler lets a thread that slept
// preempt the busy event loop at once. The event loops are counted before
// (plan.loops), so the load runs on as many loops as without a probe.
var probeProcs struct {
	sync.Mutex
	runs int // runs with a probe going on
	base int // GOMAXPROCS before the first of them
}

// raiseProcs raises GOMAXPROCS by one for a run with a probe (once for
// runs that overlap) and returns the function that restores it when the
// last such run ends: to the runtime's default (which follows the CPU set
// again) if GOMAXPROCS was the default, else to the value it had.
func raiseProcs() (restore func()) {
	probeProcs.Lock()
	defer probeProcs.Unlock()
	if probeProcs.runs == 0 {
		probeProcs.base = runtime.GOMAXPROCS(0)
		runtime.GOMAXPROCS(probeProcs.base + 1)
	}
	probeProcs.runs++
	return func() {
		probeProcs.Lock()
		defer probeProcs.Unlock()
		if probeProcs.runs--; probeProcs.runs > 0 {
			return
		}
		if defaultProcs(probeProcs.base) {
			runtime.SetDefaultGOMAXPROCS()
		} else {
			runtime.GOMAXPROCS(probeProcs.base)
		}
	}
}

// defaultProcs reports whether GOMAXPROCS n is likely the runtime's default:
// no GOMAXPROCS variable, and n not below the CPUs the process may run on
// (processCPUs: its affinity mask on Linux; a program that lowered it set
// it on purpose).
func defaultProcs(n int) bool {
	if os.Getenv("GOMAXPROCS") != "" {
		return false
	}
	cpus, ok := processCPUs()
	return ok && n >= cpus
}

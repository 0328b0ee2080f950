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

// prober runs a run's interference probe (Options.Probe): one connection of its
// own plan, one pipelined request per Probe.Interval, sharing the main window
// (start, end, win; main for a count-based end). A nil prober does nothing.
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
	return &prober{spec: *q, p: p, k: newConn(p, 0)}
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

// start starts the probe in main's window (once main.start, end and win are set)
// on a goroutine counted in wg; when main.win is done the probe stops, and a
// blocked read or write returns at once.
func (q *prober) start(main *plan, wg *sync.WaitGroup) {
	if q == nil {
		return
	}
	q.p.start, q.p.end, q.p.win, q.p.main = main.start, main.end, main.win, main
	stop := context.AfterFunc(main.win, func() {
		q.p.stop.Store(true)
		q.k.abort()
	})
	wg.Go(func() {
		defer stop()
		q.run()
	})
}

// run is the probe inside the window: a writer sends each request at its intended
// time, pipelined, and the reader times each response from it, so the probe never
// waits on its own backlog. An error drops the connection; the next one reconnects.
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
		if done.After(p.windowEnd()) {
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

// write sends the probe's requests on schedule until the window ends, opening the
// connection when there is none, and hands each written one to the reader through
// queue, which it closes at the end.
func (q *prober) write(queue chan<- probeSent) {
	k, p := q.k, q.p
	defer close(queue)
	for slot := 0; ; slot++ {
		intended := p.start.Add(time.Duration(float64(slot) * p.interval))
		if !intended.Before(p.windowEnd()) || !k.sleep(time.Until(intended)) {
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

// result is the probe's Result over the main window's length: counts, errors,
// latency and TTFB from intended send times, uncorrected latency, and ProbeSpec.
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

// probeProcs counts the runs with a probe, which raise GOMAXPROCS by one: the
// generator is pinned to one CPU and the event loop keeps its P (raw system calls),
// so the probe would wait for it to park, or for sysmon's 10 ms preemption, and
// report the generator. The event loops are counted before (plan.loops).
var probeProcs struct {
	sync.Mutex
	runs int // runs with a probe going on
	base int // GOMAXPROCS before the first of them
}

// raiseProcs raises GOMAXPROCS by one for a run with a probe (once for overlapping
// runs) and returns the restore for the last such run's end: to the runtime's
// default if it was the default, else to its old value.
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

// defaultProcs reports whether GOMAXPROCS n is likely the runtime's default: no
// GOMAXPROCS variable, and n not below the CPUs the process may use (processCPUs).
func defaultProcs(n int) bool {
	if os.Getenv("GOMAXPROCS") != "" {
		return false
	}
	cpus, ok := processCPUs()
	return ok && n >= cpus
}

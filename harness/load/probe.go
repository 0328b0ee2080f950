package load

import (
	"context"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/tfbench/tfbench/harness/suite"
	"golang.org/x/sys/unix"
)

// prober runs the interference probe of one run (Options.Probe): one
// connection of its own plan, constant-rate at one request per
// Probe.Interval (conn.run, as Options.Rate runs), sharing the main plan's
// window (start, end, win) so that it starts and ends with it. A nil
// prober does nothing.
type prober struct {
	spec Probe
	p    *plan
	k    *conn
}

// newProber returns the prober for cfg, nil without Options.Probe. Its
// requests carry plaintext's Accept: the probe asks for a cheap endpoint.
func newProber(cfg config) *prober {
	q := cfg.Probe
	if q == nil {
		return nil
	}
	o := Options{
		Addr: cfg.Addr, Host: cfg.Host, Path: q.Path, Accept: suite.Plaintext.Accept(),
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
		q.k.run()
	})
}

// result is the probe's Result over the main window's length: its counts,
// errors and examples, its latency (from the intended send time when
// behind schedule, else from the write, as at a Rate), uncorrected latency
// and TTFB, and the Probe it ran (ProbeSpec).
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
	r.merge([]*tally{&k.tally})
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
// no GOMAXPROCS variable, and n not below the CPUs of the process's
// affinity mask (a program that lowered it set it on purpose).
func defaultProcs(n int) bool {
	if os.Getenv("GOMAXPROCS") != "" {
		return false
	}
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return false
	}
	return n >= set.Count()
}

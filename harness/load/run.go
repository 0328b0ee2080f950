package load

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"golang.org/x/sys/unix"
)

// Run is engine raw: it opens o.Connections connections to o.Addr, then
// measures one window of o.Duration in which every connection runs a closed
// loop of pipelined batches (o.Pipeline requests per write), or, when o.Rate
// is set, sends one request at a time on its fixed schedule (constant-rate
// mode, see the package doc), and returns the merged Result. When o.Check is
// set, a sample of the counted responses is checked with it.
//
// Connections are opened before the window starts, each within o.Timeout; one
// that fails is retried inside the window, where failures count as connect
// errors. The window ends after o.Duration: connections are closed and
// requests still in flight are dropped, counted neither as responses nor as
// errors.
//
// Run returns an error only for invalid options (naming the field), a
// failed eventfd, epoll or kqueue set-up other than the generator's own
// errnos, and ctx.Err() if ctx is cancelled before the window ends; then the
// Result covers the part of the window that ran (Window says how long).
// Network trouble never makes Run fail: it goes into Result.Errors. Neither
// does the generator running out of its own resources (class Generator): if
// even the event loops' eventfd, epoll set or kqueue cannot be made (EMFILE
// at a tiny open-file limit), Run returns at once a Result with Window 0, no
// responses and Errors[Generator] 1, e.g. "eventfd: too many open files
// (generator: RLIMIT_NOFILE 8 for 64 connections)".
func Run(ctx context.Context, o Options) (*Result, error) {
	cfg, err := o.validate()
	if err != nil {
		return nil, err
	}
	p := &plan{config: cfg, batch: batch(cfg.Options), loops: loopCount(), probe: newProber(cfg)}
	if p.probe != nil {
		defer raiseProcs()() // after loopCount: see probeProcs
	}
	var conns []*conn
	var workers []*worker // closed loop: the event loops, with their histograms
	var stoppedAt time.Time
	if cfg.Rate > 0 {
		conns, stoppedAt = runConns(ctx, p)
	} else if conns, workers, stoppedAt, err = runLoops(ctx, p); err != nil {
		if errno, ok := generatorErrno(err); ok {
			return setupFailed(cfg, err, errno), nil
		}
		return nil, err
	}

	r := &Result{Window: cfg.Duration, Latency: hdrhistogram.New(1, cfg.maxMicros, 3), TTFB: hdrhistogram.New(1, cfg.maxMicros, 3)}
	if cfg.Rate > 0 {
		r.Uncorrected = hdrhistogram.New(1, cfg.maxUMicros, 3)
	}
	tallies := make([]*tally, len(conns))
	for i, k := range conns {
		tallies[i] = &k.tally
		if k.hist != nil {
			k.hist.MergeInto(r.Latency)
		}
		if k.thist != nil {
			k.thist.MergeInto(r.TTFB)
		}
		if k.uhist != nil {
			k.uhist.MergeInto(r.Uncorrected)
		}
	}
	for _, w := range workers {
		r.Latency.Merge(w.hist)
		r.TTFB.Merge(w.ttfb)
	}
	r.merge(tallies)
	cancelled := !stoppedAt.IsZero() && stoppedAt.Before(p.end)
	if cancelled { // inside the window
		r.Window = max(stoppedAt.Sub(p.start), 0)
	}
	if p.probe != nil {
		r.Probe = p.probe.result(r.Window)
	}
	if cancelled {
		return r, ctx.Err()
	}
	return r, nil
}

// setupFailed is the Result of a run whose set-up failed with the
// generator's own errno: nothing measured (Window 0), one error of class
// Generator whose example is err's message without "load: ", then
// generatorHint.
func setupFailed(cfg config, err error, errno unix.Errno) *Result {
	return &Result{
		Latency:      hdrhistogram.New(1, cfg.maxMicros, 3),
		TTFB:         hdrhistogram.New(1, cfg.maxMicros, 3),
		StatusCounts: map[int]int64{},
		Errors:       map[Class]int64{Generator: 1},
		Examples: map[Class]string{
			Generator: strings.TrimPrefix(err.Error(), "load: ") + " " + generatorHint(errno, cfg.Connections),
		},
	}
}

// runConns runs constant-rate mode for p (see Run) with a goroutine per
// connection (conn.run): it opens the connections before the window, runs
// the window, and returns the connections and when the caller cancelled
// (zero if not).
func runConns(ctx context.Context, p *plan) ([]*conn, time.Time) {
	cfg := p.config
	conns := make([]*conn, cfg.Connections)
	for i := range conns {
		conns[i] = newConn(p)
		// Constant-rate mode: stagger the first sends evenly across one
		// connection's interval.
		conns[i].slot = float64(i) / float64(len(conns))
	}

	// Open the connections before the window: a failure here is not counted;
	// the connection tries again inside the window.
	var ready, done sync.WaitGroup
	startWindow := make(chan struct{})
	for _, k := range conns {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			dctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
			k.open(dctx)
			cancel()
			ready.Done()
			<-startWindow
			k.run()
		}()
	}
	p.probe.open(ctx, &ready)
	ready.Wait()

	p.start = time.Now()
	p.end = p.start.Add(cfg.Duration)
	win, cancel := context.WithDeadline(ctx, p.end)
	defer cancel()
	p.win = win
	p.probe.start(p, &done)
	close(startWindow)

	finished := make(chan struct{})
	stopped := make(chan time.Time, 1)
	go func() {
		select {
		case <-ctx.Done():
			stopped <- time.Now()
			p.stop.Store(true)
			for _, k := range conns {
				k.abort()
			}
		case <-finished:
		}
	}()
	done.Wait()
	close(finished)
	select {
	case at := <-stopped:
		return conns, at
	default:
	}
	return conns, time.Time{}
}

package load

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"golang.org/x/sys/unix"
)

// Run is engine raw: it opens o.Connections connections, then for o.Duration (closed
// loop: or until o.Responses, see Options) runs closed loops of o.Pipeline-deep
// batches, or at o.Rate one request at a time on schedule, and returns the merged
// Result; network and generator trouble are Errors.
// It fails only for bad options, a poller set-up, or ctx (returning what ran).
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

	end := p.windowEnd() // Duration after start, or earlier on a response count (Options.Responses)
	r := &Result{Window: end.Sub(p.start), CheckSeed: cfg.seed(), Latency: hdrhistogram.New(1, cfg.maxMicros, 3), TTFB: hdrhistogram.New(1, cfg.maxMicros, 3)}
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
	if cfg.Series > 0 && len(workers) > 0 {
		var ss []*series
		for _, w := range workers {
			ss = append(ss, w.series)
		}
		n := max(1, int((r.Window+cfg.Series-1)/cfg.Series))
		r.Series = mergeSeries(ss, n, cfg.maxMicros)
	}
	cancelled := !stoppedAt.IsZero() && stoppedAt.Before(end)
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

// setupFailed is the Result of a run whose set-up failed with the generator's own
// errno: Window 0 and one Generator error, its example err's message without
// "load: " plus generatorHint.
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

// runConns runs constant-rate mode for p with a goroutine per connection
// (conn.run), opened before the window, and returns the connections and when the
// caller cancelled (zero if not).
func runConns(ctx context.Context, p *plan) ([]*conn, time.Time) {
	cfg := p.config
	conns := make([]*conn, cfg.Connections)
	for i := range conns {
		conns[i] = newConn(p, i)
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

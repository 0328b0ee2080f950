package sweep

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/load"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/verify"
)

// Measurer measures the shots of one run. Client reads render counts and warms
// a cached page; GeneratorCPUs is how many CPUs the load generator may run on
// and LinkBytes the measured link to a server host of its own (bytes/s, 0 on
// one host): the saturation rules. Logf gets the lines that do not fail a gate.
type Measurer struct {
	Client        *http.Client
	GeneratorCPUs int
	LinkBytes     float64
	Logf          func(format string, a ...any)
}

// On is what a shot measures: the started server, its adapter (the probe's
// endpoint, the cached page's hit header, the render counts route) and the
// sample key's identity, runtime, test, engine and round (Shot.Key adds
// the level).
type On struct {
	Server Server
	Spec   *framework.Spec
	Key    model.Key
}

// Measure runs shot sh of test on on.Server and makes it a sample, gate
// applied: it reads around the window server and generator CPU, render counts
// (unreadable: a gate failure), a Node server's event-loop delay (a failure is
// only logged) and SQLITE_BUSY log lines, and checks that the server still
// runs. exited is the gate's reason when it exited during the shot, else "".
// Its errors, the engine's and the histograms', end the run.
func (m Measurer) Measure(ctx context.Context, on On, test suite.Test, sh Shot) (s model.Sample, exited string, err error) {
	srv := on.Server
	key := sh.Key(on.Key)
	what := fmt.Sprintf("%s %s%s %s", on.Key.ID, test.Name, NText(sh.N), sh.Level())
	if test.Cache == suite.CacheHit {
		// Warm the page: a fresh server's cache is empty until its first render.
		if _, err := m.get(ctx, srv, sh.Path, test); err != nil && ctx.Err() != nil {
			return model.Sample{}, "", ctx.Err()
		}
	}
	o, err := LoadOf(ctx, srv, test, sh)
	if err != nil {
		return model.Sample{}, "", fmt.Errorf("%s %s: %w", on.Key.ID, test.Name, err)
	}
	route := verify.RoutePath(sh.Path) // the render counts' key
	if test.Probe > 0 && o.Engine.Name() == "raw" {
		// The interference probe: the framework's cheap endpoint, once per
		// interval, beside the sample's load (docs/ssr.md).
		o.Probe = &load.Probe{Path: on.Spec.Endpoint(model.Plaintext, suite.DefaultPath[model.Plaintext]), Interval: test.Probe}
	}
	var hits *verify.HitCounter
	if c := on.Spec.Cache; test.Cache == suite.CacheHit && c.HitHeader != "" {
		hits = &verify.HitCounter{Header: c.HitHeader, Value: c.HitValue}
		o.Check = hits.Wrap(o.Check)
	}
	counts := on.Spec.RenderCounts
	var rendersBefore map[string]int64
	var countsErr error
	if counts != "" {
		rendersBefore, countsErr = m.renderCounts(ctx, srv, counts, test.Timeout)
	}
	logFrom := srv.LogMark()
	var before probe.Usage
	var genBefore float64
	var usageErr, genErr error
	read := func() { // CPU counters as the window opens
		before, usageErr = srv.Usage(ctx)
		genBefore, genErr = probe.Self(ctx)
	}
	var elReset bool
	if o.Warmup > 0 {
		o.OnWindow = func() { // after the sample's own warmup: its allocations are not the window's
			var wg sync.WaitGroup
			wg.Go(func() { elReset = m.eventLoopReset(ctx, srv, what) })
			read()
			wg.Wait()
		}
	} else {
		elReset = m.eventLoopReset(ctx, srv, what)
		read()
	}
	at := time.Now()
	res, err := o.Engine.Run(ctx, o.Options)
	if err != nil {
		return model.Sample{}, "", fmt.Errorf("%s %s: %w", on.Key.ID, test.Name, err)
	}
	after, err := srv.Usage(ctx)
	usageErr = cmp.Or(usageErr, err)
	genAfter, err := probe.Self(ctx)
	genErr = cmp.Or(genErr, err)
	eventLoop, memory := m.eventLoopRead(ctx, srv, what, elReset)
	var renders *int64
	if counts != "" && countsErr == nil {
		// Every response counted in the window was rendered before it was
		// read, so renders since the first read are at least Responses.
		rendersAfter, err := m.renderCounts(ctx, srv, counts, test.Timeout)
		if err != nil {
			countsErr = err
		} else {
			n := rendersAfter[route] - rendersBefore[route]
			renders = &n
		}
	}
	s, err = FromResult(key, res)
	if err != nil {
		return s, "", err
	}
	if o.Stream != nil {
		if s.Stream, err = o.Stream.Record(); err != nil {
			return s, "", err
		}
	}
	s.At, s.Renders, s.Warmup = at.UTC(), renders, sh.Warmup.Seconds()
	switch {
	case hits != nil:
		checked, misses := hits.Counts()
		s.Cache = &model.CacheHits{By: hits.Header + ": " + hits.Value, Checked: checked, Misses: misses}
	case test.Cache == suite.CacheHit && renders != nil:
		s.Cache = &model.CacheHits{By: "render counts", Checked: s.Responses, Misses: *renders}
	}
	s.EventLoop = eventLoop
	s.Memory = withShares(memory, s.Responses, s.Window)
	// An unread side leaves the figures 0 and fails the gate below: a
	// difference against a missing reading would be made up.
	if usageErr == nil {
		s.ServerRSS = after.PeakRSS
		s.ServerCPU = max(0, after.CPU-before.CPU)
		if s.Responses > 0 {
			s.CPUPerRequest = 1000 * s.ServerCPU / float64(s.Responses)
		}
	}
	if genErr == nil {
		s.GeneratorCPU = max(0, genAfter-genBefore)
	}
	s.LinkSaturated = LinkSaturated(s.BodyBytes, s.Window, m.LinkBytes)
	s.GeneratorSaturated = probe.Saturated(s.GeneratorCPU, s.Window, m.GeneratorCPUs)
	s.ServerLogFaults = srv.LogFaults(logFrom)
	exited = exitedDuring(srv)
	s.Gate = gate(s, test, countsErr, genErr, usageErr, exited)
	return s, exited, nil
}

// gate is the sample's gate: the success gate (Gate), then each reason the
// readings around the window add, in this order: render counts unread,
// generator CPU unread, and the server exited during the sample (which also
// explains its CPU and memory unread) or its CPU and memory unread.
func gate(s model.Sample, test suite.Test, countsErr, genErr, usageErr error, exited string) model.GateResult {
	g := Gate(s, test.Gate, test.MinResponses)
	if countsErr != nil {
		g = failGate(g, "render counts: "+countsErr.Error())
	}
	if genErr != nil {
		g = failGate(g, "load generator CPU unread: "+genErr.Error())
	}
	switch {
	case exited != "":
		g = failGate(g, exited)
	case usageErr != nil:
		g = failGate(g, "server CPU and memory unread: "+usageErr.Error())
	}
	return g
}

// exitedDuring is the gate reason of a sample whose server's leader exited
// during it, "server exited during the sample (exit status 2)"; "" while the
// server runs. The run skips the shots after one whose server is gone, so
// the server ran when the shot began.
func exitedDuring(srv Server) string {
	if !Gone(srv) {
		return ""
	}
	return "server exited during the sample (" + ExitText(srv.Err()) + ")"
}

// failGate fails g with one more reason, after any it already has.
func failGate(g model.GateResult, why string) model.GateResult {
	if g.Passed || g.Reason == "" {
		return model.GateResult{Reason: why}
	}
	return model.GateResult{Reason: g.Reason + "; " + why}
}

// get sends one GET of path to srv with test's Accept, bounded by the
// test's response timeout, and returns the status (the cache-hit warmup).
func (m Measurer) get(ctx context.Context, srv Server, path string, test suite.Test) (int, error) {
	if test.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, test.Timeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.BaseURL()+path, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Accept", test.Type.Accept())
	req.Header.Set("User-Agent", suite.UserAgent)
	resp, err := m.Client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, err
}

// renderCounts reads the server's render counts (verify.RenderCounts),
// bounded by timeout, the test's response timeout (when > 0), and by the
// client's own timeout.
func (m Measurer) renderCounts(ctx context.Context, srv Server, path string, timeout time.Duration) (map[string]int64, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	return verify.RenderCounts(ctx, m.Client, srv.BaseURL(), path)
}

// eventLoopReset clears a monitored server's event-loop histograms and memory
// baselines as a sample's window opens (eventloop.Reset) and reports whether it
// did; a failure is logged, leaves the sample without them and never fails the
// gate. what names the shot in the log line.
func (m Measurer) eventLoopReset(ctx context.Context, srv Server, what string) bool {
	if !srv.Monitored() {
		return false
	}
	if err := srv.EventLoopReset(ctx); err != nil {
		m.logEventLoop(what, err)
		return false
	}
	return true
}

// eventLoopRead reads the worst event-loop delay of the server's Node processes
// and its processes' memory right after the window (eventloop.Read); nil when
// not monitored, when the reset failed or when the read fails (logged).
func (m Measurer) eventLoopRead(ctx context.Context, srv Server, what string, reset bool) (*model.EventLoop, *model.Memory) {
	if !reset {
		return nil, nil
	}
	w, err := srv.EventLoopRead(ctx)
	if err != nil {
		m.logEventLoop(what, err)
		return nil, nil
	}
	return w.EventLoop, w.Memory
}

func (m Measurer) logEventLoop(what string, err error) {
	m.Logf("%s: %v (the sample has no event-loop delay or memory)", what, err)
}

// withShares fills m's per-window shares (docs/ssr.md, Memory and GC per
// request): KB allocated per response, GC time over window × threads in
// percent, RSS growth over the RSS at the reset. window is in seconds; a
// share whose base is 0 stays 0. nil stays nil.
func withShares(m *model.Memory, responses int64, window float64) *model.Memory {
	if m == nil {
		return nil
	}
	out := *m
	if responses > 0 {
		out.AllocPerRequest = float64(m.AllocBytes) / 1024 / float64(responses)
	}
	if window > 0 && m.Threads > 0 {
		out.GCPercent = 100 * m.GCms / (1000 * window * float64(m.Threads))
	}
	if m.RSSBefore > 0 {
		out.RSSGrowth = float64(m.RSSAfter-m.RSSBefore) / float64(m.RSSBefore)
	}
	return &out
}

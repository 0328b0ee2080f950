package run

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/montanaflynn/stats"
	"io"
	"math"
	"net"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/tfbench/tfbench/harness/load"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/serverhost"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/sweep"
	"github.com/tfbench/tfbench/harness/verify"
)

// Coldstart (docs/ssr.md, "Cold start and warm-up"): after the measured
// rounds, each coldstart test starts every variant R times (suite starts),
// variants shuffled per start, each start on a fresh dataset copy with the
// build already made. A start measures spawn → the port's first accepted TCP
// connection (AcceptPoll), the first request to each route (TTFB and last
// byte), then the page at the headline size under the test's one closed-loop
// level for warmup_limit seconds, every response checked, cut into seconds.

// AcceptPoll is how often a coldstart tries to connect to a starting server:
// spawn → accept is late by at most this and one refused connect.
const AcceptPoll = 2 * time.Millisecond

// Steady rule (WarmupSeconds): three consecutive seconds within steadyBand of
// the steady RPS, the median of the run's last third.
const (
	steadyBand    = 0.05
	steadySeconds = 3
)

// WarmupSeconds applies the warm-up rule to a run's per-second RPS (rps[s]:
// second s from the run's first request). steady is the median of the last
// third (ceil(len/3) seconds), spread the largest |rps - steady| / steady in
// it (the machine's own second-to-second noise once warm); warmup is the
// first s with rps[s], rps[s+1] and rps[s+2] each within 5% of steady. ok is
// false when no such s exists ("> limit").
func WarmupSeconds(rps []float64) (warmup int, steady, spread float64, ok bool) {
	if len(rps) == 0 {
		return 0, 0, 0, false
	}
	last := rps[len(rps)-(len(rps)+2)/3:]
	steady, _ = stats.Median(last)
	if steady > 0 {
		for _, v := range last {
			spread = max(spread, math.Abs(v-steady)/steady)
		}
	}
	within := func(v float64) bool { return math.Abs(v-steady) <= steadyBand*steady }
	for s := 0; s+steadySeconds <= len(rps); s++ {
		if within(rps[s]) && within(rps[s+1]) && within(rps[s+2]) {
			return s, steady, spread, true
		}
	}
	return 0, steady, spread, false
}

// sampled reports whether tests has one measured by samples in rounds (any
// type but coldstart).
func sampled(tests []suite.Test) bool {
	return slices.ContainsFunc(tests, func(t suite.Test) bool { return t.Type != model.Coldstart })
}

// coldstarts runs every coldstart test's starts: start i of every target
// (shuffled by sweep.Order with i) before start i+1 of any. A failed start is a
// record with its Error; only ctx and results.json's writes end the run.
func (r *runner) coldstarts(ctx context.Context) error {
	for _, test := range r.cfg.Tests {
		if test.Type != model.Coldstart {
			continue
		}
		for start := 1; start <= test.ColdStart.Starts; start++ {
			for _, i := range sweep.Order(len(r.cfg.Targets), r.cfg.Seed, start) {
				t := r.cfg.Targets[i]
				if _, bad := r.broken[t.ID()]; bad {
					continue
				}
				if err := r.host.Gone(); err != nil {
					return err
				}
				began := time.Now()
				c, err := r.coldStart(ctx, t, test, start)
				r.spent.Windows += time.Since(began).Seconds() // a start is all measurement
				if ctx.Err() != nil {
					return ctx.Err()
				}
				if err != nil {
					return err
				}
				r.warmed += test.ColdStart.WarmupLimit
				if err := r.rec.ColdStart(c); err != nil {
					return err
				}
				r.logf("coldstart %d/%d: %s: %s", start, test.ColdStart.Starts, t.ID(), coldText(c))
			}
		}
	}
	return nil
}

// coldText is a start's log line.
func coldText(c results.ColdStart) string {
	if c.Error != "" {
		return "FAILED: " + c.Error
	}
	out := fmt.Sprintf("spawn → accept %.1f ms", c.SpawnToAccept)
	if len(c.First) > 0 {
		out += fmt.Sprintf(", first %s last byte %.1f ms", c.First[0].Path, c.First[0].LastByte)
	}
	if c.WarmupS == nil {
		return out + fmt.Sprintf(", warm-up > %g s (steady %.0f RPS)", c.LimitS, c.SteadyRPS)
	}
	return out + fmt.Sprintf(", warm-up %g s to %.0f RPS", *c.WarmupS, c.SteadyRPS)
}

// coldStart is one fresh start of t: its record, Error set when the start
// failed. Its error is ctx's or the host's.
func (r *runner) coldStart(ctx context.Context, t Target, test suite.Test, start int) (results.ColdStart, error) {
	c := results.ColdStart{ID: t.ID(), Test: test.Name, Start: start, At: time.Now().UTC(),
		AcceptPollMS: ms(AcceptPoll), Connections: test.Concurrency[0], N: test.Headline(), LimitS: test.ColdStart.WarmupLimit.Seconds()}
	b, ok := r.builds[r.buildKey(t)]
	if !ok {
		c.Error = "not built"
		return c, nil
	}
	r.logf("%s: cold start %d", t.ID(), start)
	srv, err := r.host.Start(ctx, serverhost.StartRequest{Build: b.ID, Variant: t.Variant.Name,
		Tag: fmt.Sprintf("%s-%s-cold%d", t.Spec.Name, t.VariantName(), start), AcceptPoll: AcceptPoll})
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, serverhost.ErrGone) {
			return c, err
		}
		c.Error = "start failed: " + err.Error()
		return c, nil
	}
	defer func() {
		if err := srv.Stop(r.cfg.StopGrace); err != nil {
			r.logf("%s: stop: %v", t.ID(), err)
		}
	}()
	acc, ok := srv.(serverhost.Accepting)
	if !ok {
		c.Error = "the server host does not report spawn → accept: coldstart runs with the servers on this machine"
		return c, nil
	}
	c.SpawnToAccept = ms(acc.SpawnToAccept())
	c.At = time.Now().Add(-acc.SpawnToAccept()).UTC() // about the spawn (Start returns soon after the accept)
	var world verify.World
	if slices.Contains(test.ColdStart.Routes, model.Page) {
		// Read from the server's copy (a file), not the server.
		wctx, cancel := context.WithTimeout(ctx, sweep.WorldReadTimeout)
		db, err := srv.Database()
		if err == nil {
			world, err = verify.WorldOf(wctx, db)
		}
		cancel()
		if err != nil {
			c.Error = "cannot check the rows: " + err.Error()
			return c, nil
		}
	}
	for _, fr := range firstRoutes(t, test) {
		ref := verify.LoadRef{Type: fr.Route}
		if fr.Route == model.Page {
			ref.Rows, ref.World = verify.ExpectedPageRows(fr.N), world
		}
		f, err := firstRequest(ctx, srv.Addr(), fr, test.Timeout, verify.LoadChecker(ref))
		c.First = append(c.First, f)
		if ctx.Err() != nil {
			return c, ctx.Err()
		}
		if err != nil {
			c.Error = fmt.Sprintf("first GET %s: %v", f.Path, err)
			return c, nil
		}
	}
	// The warm-up run: the page at the headline size, checked as the page test's.
	page := test
	page.Type = model.Page
	sh := sweep.Shot{Path: suite.PathFor(t.Spec.Endpoint(model.Page, suite.DefaultPath[model.Page]), c.N), N: c.N,
		Concurrency: c.Connections, Pipeline: 1, Duration: test.ColdStart.WarmupLimit, Window: true}
	o, err := sweep.LoadOf(ctx, srv, page, sh)
	if err != nil {
		return c, fmt.Errorf("%s %s: %w", t.ID(), test.Name, err)
	}
	o.Series = time.Second
	res, err := o.Engine.Run(ctx, o.Options)
	if err != nil {
		return c, err
	}
	rps := make([]float64, len(res.Series))
	for i, b := range res.Series {
		rps[i] = b.RPS(time.Second)
		c.PerSecond = append(c.PerSecond, results.Second{S: i, RPS: rps[i], P99: float64(b.Latency.ValueAtQuantile(99)) / 1000})
	}
	w, steady, spread, reached := WarmupSeconds(rps)
	c.SteadyRPS, c.SteadySpread = steady, spread
	if reached {
		ws := float64(w)
		c.WarmupS = &ws
	}
	switch {
	case sweep.Gone(srv):
		c.Error = "the server exited during the warm-up run (" + sweep.ExitText(srv.Err()) + ")"
	case res.Responses == 0:
		c.Error = "no response in the warm-up run"
	case res.Success != res.Responses || len(res.Errors) > 0:
		c.Error = "errors in the warm-up run: " + errorsText(res)
	}
	return c, nil
}

// errorsText lists a load result's errors by class with each class's first
// example: "check 3 (row 7: …); status 1 (status 500 …)".
func errorsText(res *load.Result) string {
	var parts []string
	for _, cl := range load.Classes {
		if n := res.Errors[cl]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d (%s)", cl, n, res.Examples[cl]))
		}
	}
	if len(parts) == 0 {
		return fmt.Sprintf("%d of %d responses not 200", res.Responses-res.Success, res.Responses)
	}
	return strings.Join(parts, "; ")
}

// firstRoutes is the first requests of a start in order: each route of the
// test at t's endpoint; the page at the headline size first, then its other
// sizes in suite order.
func firstRoutes(t Target, test suite.Test) []results.FirstRequest {
	var out []results.FirstRequest
	for _, rt := range test.ColdStart.Routes {
		path := t.Spec.Endpoint(rt, suite.DefaultPath[rt])
		if rt != model.Page {
			out = append(out, results.FirstRequest{Route: rt, Path: path})
			continue
		}
		ns := []int{test.Headline()}
		for _, n := range test.Queries {
			if !slices.Contains(ns, n) {
				ns = append(ns, n)
			}
		}
		for _, n := range ns {
			out = append(out, results.FirstRequest{Route: rt, N: n, Path: suite.PathFor(path, n)})
		}
	}
	return out
}

// firstRequest sends f's GET on a new connection to addr with the route's
// Accept and tfbench's User-Agent and reads the one response, timing from the
// connect: TTFB at the read that brought its first byte, LastByte once its body
// is read. check is given the status, the header lines (each ending in CRLF)
// and the decoded body, as under load. Bounded by timeout (0: 8 s).
func firstRequest(ctx context.Context, addr string, f results.FirstRequest, timeout time.Duration, check func(int, []byte, []byte) error) (results.FirstRequest, error) {
	if timeout <= 0 {
		timeout = 8 * time.Second
	}
	began := time.Now()
	d := net.Dialer{Deadline: began.Add(timeout)}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return f, err
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Now()) })
	defer stop()
	conn.SetDeadline(began.Add(timeout))
	req := "GET " + f.Path + " HTTP/1.1\r\nHost: " + addr + "\r\nUser-Agent: " + suite.UserAgent + "\r\nAccept: " + f.Route.Accept() + "\r\n\r\n"
	if _, err := io.WriteString(conn, req); err != nil {
		return f, err
	}
	sr := &stampReader{r: conn}
	resp, err := http.ReadResponse(bufio.NewReader(sr), nil)
	if err != nil {
		return f, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return f, err
	}
	f.LastByte = ms(time.Since(began))
	f.TTFB = ms(sr.first.Sub(began))
	f.Status, f.Bytes = resp.StatusCode, len(body)
	return f, check(resp.StatusCode, sr.head(), body)
}

// stampReader notes when the first bytes arrived and keeps what was read
// (for the header lines as sent).
type stampReader struct {
	r     io.Reader
	first time.Time
	raw   bytes.Buffer
}

func (s *stampReader) Read(b []byte) (int, error) {
	n, err := s.r.Read(b)
	if n > 0 {
		if s.first.IsZero() {
			s.first = time.Now()
		}
		if s.raw.Len() < 64<<10 {
			s.raw.Write(b[:n])
		}
	}
	return n, err
}

// head is the header lines read, each with its CRLF, without the status line.
func (s *stampReader) head() []byte {
	raw := s.raw.Bytes()
	end := bytes.Index(raw, []byte("\r\n\r\n"))
	start := bytes.Index(raw, []byte("\r\n"))
	if end < 0 || start < 0 || start >= end {
		return nil
	}
	return raw[start+2 : end+2]
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

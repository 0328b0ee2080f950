package run

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/tfbench/tfbench/harness/load"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/profile"
	"github.com/tfbench/tfbench/harness/ratio"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/supervise"
	"github.com/tfbench/tfbench/harness/sweep"
)

// profileStopGrace is the least SIGTERM grace a profiled server gets: Node
// writes its profiles on exit (the preload exits 3 s after SIGTERM at the
// latest), a Go adapter when it stops the profile.
const profileStopGrace = 20 * time.Second

// profileRound is Config.Profile's round, never a sample: per target and measured
// test, a fresh profiled server under the test's load (warmup + duration at
// profileLevel), its profiles moved to profiles/FW/VARIANT/ and into results.json.
func (r *runner) profileRound(ctx context.Context) error {
	peaks := ratio.HeadlineRows(r.rec.File())
	r.logf("profile round: one profiled server per framework variant and test, at its peak level (else the highest); nothing of it is a sample")
	for _, t := range r.cfg.Targets {
		for _, test := range r.cfg.Tests {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if _, bad := r.broken[t.ID()]; bad || r.failed[t.ID()][test.Name] || test.Type == model.Coldstart {
				continue
			}
			if err := r.profileTest(ctx, t, test, peaks); err != nil {
				return err
			}
		}
	}
	return ctx.Err()
}

// profileLevel is the connections a test is profiled at on target t: its
// peak level at the headline N over the measured rounds when it has one
// (ratio.HeadlineRows), else the test's highest level; how says which.
func profileLevel(t Target, test suite.Test, peaks map[model.RowKey]model.Row) (concurrency int, how string) {
	k := model.RowKey{ID: t.ID(), Test: test.Name, N: test.Headline()}
	if p, ok := peaks[k]; ok && p.OK && p.Connections > 0 {
		return p.Connections, "its peak level"
	}
	return slices.Max(test.Concurrency), "the highest level"
}

// profileTest profiles one test on one target (profileRound); a server that does
// not start or writes no profile is logged and recorded with an Error. Its
// errors, which end the run, are the load engine's and the recorder's.
func (r *runner) profileTest(ctx context.Context, t Target, test suite.Test, peaks map[model.RowKey]model.Row) error {
	concurrency, how := profileLevel(t, test, peaks)
	d := test.Warmup + test.Duration
	n := test.Headline()
	rec := results.Profile{ID: t.ID(), Test: test.Name, N: n, Connections: concurrency, Seconds: d.Seconds()}
	step := fmt.Sprintf("profile round: %s %s%s c=%d (%s)", t.ID(), test.Name, sweep.NText(n), concurrency, how)
	dest := filepath.Join(r.runDir, "profiles", t.Spec.Name, t.VariantName())
	tag := fmt.Sprintf("%s-%s-profile-%s", t.Spec.Name, t.VariantName(), test.Name)
	srv, stop, err := r.startWith(ctx, t, tag, true)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rec.Error = "start failed: " + err.Error()
		r.logf("%s: %s", step, rec.Error)
		return r.rec.Profile(rec)
	}
	r.logf("%s: %s of load", step, d)
	sh := sweep.Shot{Path: suite.PathFor(testPath(t, test), max(n, 1)), N: n, Concurrency: concurrency, Pipeline: test.Pipeline, Duration: d}
	o, err := sweep.LoadOf(ctx, srv, test, sh)
	if err == nil {
		var res *load.Result
		if res, err = o.Engine.Run(ctx, o.Options); err == nil {
			// The window is the whole load (no sample warmup): every response counts.
			rec.Requests = res.Responses
			r.logf("%s: %s responses", step, humanize.Comma(res.Responses))
		}
	}
	stop() // waits for the profiles to be written (startWith: profileStopGrace)
	files, perr := srv.Profiles(dest, test.Name)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%s: %w", step, err)
	}
	if err = perr; err != nil {
		rec.Error = err.Error()
	} else if len(files) == 0 {
		rec.Error = "no profile written (a Go adapter writes one to $" + supervise.EnvCPUProfile + ", docs/profiles.md)"
		if err := srv.Err(); err != nil {
			rec.Error += "; the server ended with " + err.Error()
		}
	}
	if rec.Error != "" {
		r.logf("%s: %s", step, rec.Error)
	}
	for _, f := range files {
		rel, _ := filepath.Rel(r.runDir, f)
		rec.Files = append(rec.Files, filepath.ToSlash(rel))
		r.logf("profile %s %s%s: %s (%s)", t.ID(), test.Name, sweep.NText(n), f, profileSummary(f))
	}
	return r.rec.Profile(rec)
}

// profileSummary is a profile's size and sampled time for the run's log,
// or why it does not read.
func profileSummary(file string) string {
	st, err := os.Stat(file)
	if err != nil {
		return err.Error()
	}
	size := humanize.Bytes(uint64(st.Size()))
	p, err := profile.Read(file)
	if err != nil {
		return size + "; " + err.Error()
	}
	return fmt.Sprintf("%s, %s samples, %.1f ms sampled", size, humanize.Comma(p.Samples), float64(p.Total)/float64(time.Millisecond))
}

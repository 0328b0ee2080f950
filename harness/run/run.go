// Package run is tfbench's one public façade over the stages of a
// benchmark: it builds and starts each framework variant on a fresh copy of
// the dataset, verifies it, measures every test at every level in every
// round (frameworks shuffled per round), and records each sample in
// results.json as it is made.
//
// Data flows one way: suite → framework → build and start (serverhost) →
// verify → load (+ probe) → sweep → results. run keeps the plan, the rounds,
// the warmups and the recording; each measured shot goes down once to
// sweep.Measure. The CLI (cmd/tfbench) calls Bench or Verify for a run, and
// itself wires the other harness packages for its other commands (report,
// compare, history, ab, bisect, agent).
package run

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/load"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/progress"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/serverhost"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/sweep"
	"github.com/tfbench/tfbench/internal/cpuset"
	"github.com/tfbench/tfbench/internal/words"
)

// Target is one framework variant to measure.
type Target struct {
	Spec    *framework.Spec
	Variant framework.Variant
	// Label, when set, replaces Variant.Name in results, logs and file names, to
	// tell two targets of one variant apart ("default@base", "default@new" for two
	// source trees); letters, digits and . _ @ + -, starting with a letter or digit.
	Label string
}

// VariantName is the variant name results record for t: Label, or
// Variant.Name when Label is empty.
func (t Target) VariantName() string {
	if t.Label != "" {
		return t.Label
	}
	return t.Variant.Name
}

// ID is t's identity with the recorded variant name (VariantName):
// go-stdlib/default, or go-stdlib/default@new.
func (t Target) ID() model.ID { return model.ID{Framework: t.Spec.Name, Variant: t.VariantName()} }

// labelRE is what a Target.Label may hold: it names files.
var labelRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._@+-]*$`)

// Config is what one run needs.
type Config struct {
	// Suite is the loaded suite; Tests the selected subset of its tests.
	Suite *suite.Suite
	Tests []suite.Test
	// Targets are the framework variants to measure.
	Targets []Target
	// WorkDir is the scratch folder (.tfbench): the dataset, builds, and
	// runs/<RunID>/ with results.json, server logs and database copies.
	WorkDir string
	// RunID names the run's folder; empty means a UTC timestamp.
	RunID string
	// Seed seeds the per-round shuffles; 0 means one drawn from the clock.
	Seed int64
	// Rounds is how many times every level of every test is measured, frameworks
	// shuffled per round (0: the suite's; below 1 is an error); recorded as
	// results.Suite.Rounds.
	Rounds int
	// Keep keeps each framework's database copy after its round.
	Keep bool
	// Log receives one progress line per step; nil discards them.
	Log io.Writer
	// Progress, when set, is called just before each measured shot (after the
	// test's warmup) with the shot and the run's progress; the shot's sample line
	// is the next line on Log. progress.Line's Step fits it.
	Progress func(progress.Step)
	// StopGrace is how long a server gets between SIGTERM and SIGKILL.
	StopGrace time.Duration
	// Command is the command line that started the run, recorded in
	// results.json and shown in the report, so a run limited to some
	// frameworks or tests says so.
	Command []string
	// Shard is the slice of the plan Targets are (ShardTargets; zero for
	// the whole plan), recorded in results.json as File.Shard ("2/8").
	Shard model.Shard
	// SourceDir is the checkout whose commit results.json records
	// (File.Source: git's HEAD and whether the tree was dirty, read at the
	// run's start; none outside a git checkout); empty: the working folder.
	SourceDir string
	// BeforeMeasure, when set, is called once after the builds and before the
	// first round with a Fetch of any target's pages (tfbench ab); its verdicts go
	// to File.Equivalence, and its error ends the run before anything is measured.
	BeforeMeasure func(ctx context.Context, fetch Fetch) ([]results.Equivalence, error)

	// Profile adds one profiled round after the measured ones: per target and test
	// a fresh CPU-profiled server under the test's load, its profiles under
	// runs/<RunID>/profiles/ and in results.json, no samples (docs/profiles.md).
	Profile bool

	// ServerHost, when set, builds and runs the servers on another machine through
	// harness/agent (docs/remote.md), giving the generator this whole machine; nil is
	// this machine, split into a generator and a server CPU set.
	ServerHost serverhost.Host

	// dateRecheck, when set, is verification's Date re-check delay
	// (verify.Target.DateRecheck, raised to at least 1.1 s); 0 keeps the
	// production 3 s. Only this package's tests set it, to save time.
	dateRecheck time.Duration
}

// DatasetPath is where the run keeps the source dataset inside WorkDir.
func DatasetPath(workDir string) string { return serverhost.DatasetPath(workDir) }

// Bench runs cfg and returns the results and results.json's path, rewritten
// after every sample; a cancelled ctx stops the servers and records the run as
// interrupted. A misbehaving server fails samples (sweep.Gate), never the run;
// a source dataset changed during the run is an error joined to any other.
func Bench(ctx context.Context, cfg Config) (*results.File, string, error) {
	r, err := newRunner(ctx, cfg)
	if err != nil {
		return nil, "", err
	}
	if err := linkLatest(filepath.Join(cfg.WorkDir, "runs"), r.cfg.RunID); err != nil {
		return nil, "", err
	}
	r.logf("run %s: %s × %s × %s; results in %s", r.cfg.RunID, words.Plural(len(r.cfg.Targets), "framework variant"), words.Plural(len(r.cfg.Tests), "test"), words.Plural(r.cfg.Rounds, "round"), r.rec.Path)
	if r.cfg.ServerHost != nil && r.sameMachine {
		r.logf("CPU placement: the server host is this machine (%s): the load generator and the servers share CPUs %s", r.rec.File().Host.Hostname, r.gen)
	} else if r.cfg.ServerHost != nil {
		r.logf("CPU placement: two hosts: the load generator has this machine (CPUs %s), the servers the server host", r.gen)
	} else if note := placementNote(r.gen, r.srv); note != "" {
		r.logf("%s", note)
	}
	if warn := fdPreflight(openFileLimit(), r.cfg.Tests); warn != "" {
		r.logf("%s", warn)
	}
	err = r.bench(ctx)
	if err == nil {
		err = r.host.Gone() // the last target's servers went with their host
	}
	status := results.Complete
	if err != nil {
		status = results.Interrupted
	}
	r.rec.SetTime(r.timeSpent())
	if ferr := r.rec.Finish(status); err == nil {
		err = ferr
	}
	return r.rec.File(), r.rec.Path, r.finish(ctx, err)
}

// finish checks the host's source dataset (Host.Finish) and releases the
// host, joining what fails to err. A gone host has nothing to check.
func (r *runner) finish(ctx context.Context, err error) error {
	if !errors.Is(err, serverhost.ErrGone) {
		if gerr := r.host.Finish(context.WithoutCancel(ctx)); gerr != nil {
			err = errors.Join(err, gerr)
		}
	}
	if r.cfg.ServerHost == nil {
		if cerr := r.host.Close(); cerr != nil {
			err = errors.Join(err, cerr)
		}
	}
	return err
}

type runner struct {
	cfg      Config
	runDir   string
	host     serverhost.Host // where the servers run (Config.ServerHost or Local)
	rec      *results.Recorder
	gen, srv cpuset.Set
	logf     func(format string, a ...any)
	// failed holds tests that failed verification, per target name.
	failed map[model.ID]map[string]bool
	// broken holds targets that could not be built or started.
	broken map[model.ID]string
	// verified marks targets whose verification ran.
	verified map[model.ID]bool
	client   *http.Client                // reads render counts
	builds   map[string]serverhost.Build // by buildKey
	// firstDir is the absolute source folder of each adapter name's first
	// target: its build keeps the plain build folder (buildTag).
	firstDir map[string]string
	// Progress and time accounting: when the run and its measuring began,
	// the warmup time spent, where the time went (results.Time) and the
	// builds done and their wall time.
	began, measuring time.Time
	warmed           time.Duration
	spent            results.Time
	buildsDone       int
	buildWall        time.Duration
	// sameMachine: the server host is this machine (same hostname).
	sameMachine bool
	// linkBytes is the measured link capacity to a server host of its own,
	// bytes/s (0 on one host): the rule of model.Sample.LinkSaturated.
	linkBytes float64
}

// network measures and records the path to a server host of its own
// (serverhost.Networked) before the first sample; one host has none.
func (r *runner) network(ctx context.Context) error {
	nh, ok := r.host.(serverhost.Networked)
	if !ok {
		return nil
	}
	n, err := nh.Network(ctx)
	if err != nil {
		return fmt.Errorf("measure the network to the server host: %w", err)
	}
	r.linkBytes = n.LinkBytes
	r.logf("network: %s at %s: RTT %.3f ms (median TCP connect), link %s/s", n.Transport, n.Address, n.RTT, humanize.Bytes(uint64(n.LinkBytes)))
	return r.rec.Network(n)
}

func newRunner(ctx context.Context, cfg Config) (*runner, error) {
	if len(cfg.Targets) == 0 {
		return nil, errors.New("no frameworks to run")
	}
	if len(cfg.Tests) == 0 {
		cfg.Tests = cfg.Suite.Tests
	}
	if cfg.Rounds == 0 {
		cfg.Rounds = cfg.Suite.Rounds
	}
	if cfg.Rounds < 1 {
		return nil, fmt.Errorf("%d rounds: a run needs at least 1", cfg.Rounds)
	}
	firstDir, err := checkTargets(cfg.Targets)
	if err != nil {
		return nil, err
	}
	if cfg.RunID == "" {
		cfg.RunID = time.Now().UTC().Format("20060102-150405")
	}
	if cfg.Seed == 0 {
		cfg.Seed = time.Now().UnixNano()
	}
	if cfg.StopGrace == 0 {
		cfg.StopGrace = 5 * time.Second
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	r := &runner{
		cfg: cfg, runDir: filepath.Join(cfg.WorkDir, "runs", cfg.RunID),
		failed: map[model.ID]map[string]bool{}, broken: map[model.ID]string{},
		verified: map[model.ID]bool{}, client: &http.Client{Timeout: 10 * time.Second}, builds: map[string]serverhost.Build{},
		firstDir: firstDir,
	}
	r.logf = func(format string, a ...any) { fmt.Fprintf(cfg.Log, format+"\n", a...) }
	var serverInfo *probe.Host
	if cfg.ServerHost == nil {
		r.gen, r.srv = cpuset.Split(cpuset.Online())
		if cpuset.Disjoint(r.gen, r.srv) {
			if err := cpuset.PinProcess(r.gen); err != nil {
				return nil, fmt.Errorf("pin the load generator to CPU %s: %w", r.gen, err)
			}
		}
		r.host = serverhost.NewLocal(serverhost.LocalConfig{WorkDir: cfg.WorkDir, CPUs: r.srv})
	} else {
		// Two hosts: the generator has this whole machine, the servers that
		// one (their CPU sets are whole machines: two hosts, docs/remote.md).
		r.host = cfg.ServerHost
		r.gen = cpuset.Online()
	}
	if err := r.host.Begin(ctx, serverhost.Run{ID: cfg.RunID, Dir: r.runDir, Keep: cfg.Keep, Log: cfg.Log}); err != nil {
		return nil, err
	}
	host := probe.HostInfo(ctx)
	if cfg.ServerHost == nil {
		host.GeneratorCPUs, host.ServerCPUs, host.Disjoint = r.gen.String(), r.srv.String(), cpuset.Disjoint(r.gen, r.srv)
		t := probe.ReadTopology(r.gen, r.srv)
		host.CPUs, host.Boost, host.SharedCores = t.CPUs, t.Boost, t.SharedCores
	} else {
		info, err := r.host.Info(ctx)
		if err != nil {
			return nil, err
		}
		serverInfo = &info
		// Disjoint: the servers have CPUs of their own, unless the "other"
		// host is this machine (the local transport).
		host.GeneratorCPUs, host.Disjoint = r.gen.String(), !sameMachine(host, info)
		r.sameMachine = !host.Disjoint
	}
	src, err := sourceOf(ctx, cmp.Or(cfg.SourceDir, "."))
	if err != nil {
		r.logf("results record no source commit: %v", err)
	}
	r.began = time.Now()
	f := &results.File{RunID: cfg.RunID, Command: cfg.Command, Shard: cfg.Shard.String(), Source: src, Tfbench: results.TfbenchVersion(), Started: time.Now().UTC(), Seed: cfg.Seed, Host: host, ServerHost: serverInfo, Suite: results.SuiteOf(cfg.Suite, cfg.Tests, cfg.Rounds)}
	var err2 error
	r.rec, err2 = results.NewRecorder(filepath.Join(r.runDir, "results.json"), f)
	if err2 != nil {
		return nil, err2
	}
	return r, nil
}

// checkTargets checks the targets' labels (labelRE) and that no two share
// a Name, and returns the absolute source folder of each adapter name's
// first target (runner.firstDir). Errors name the target.
func checkTargets(targets []Target) (firstDir map[string]string, err error) {
	firstDir = map[string]string{}
	seen := map[model.ID]bool{}
	for _, t := range targets {
		if t.Label != "" && !labelRE.MatchString(t.Label) {
			return nil, fmt.Errorf("target %s: label %q: use letters, digits and . _ @ + - (it names files)", model.ID{Framework: t.Spec.Name, Variant: t.Variant.Name}, t.Label)
		}
		if seen[t.ID()] {
			return nil, fmt.Errorf("target %s is given twice; give one a label", t.ID())
		}
		seen[t.ID()] = true
		if _, ok := firstDir[t.Spec.Name]; !ok {
			firstDir[t.Spec.Name] = absDir(t.Spec)
		}
	}
	return firstDir, nil
}

func (r *runner) bench(ctx context.Context) error {
	if err := r.buildAll(ctx); err != nil {
		return err
	}
	if err := r.network(ctx); err != nil {
		return err
	}
	if err := r.beforeMeasure(ctx); err != nil {
		return err
	}
	r.measuring = time.Now()
	r.spent.MeasuringStarted = r.measuring.UTC()
	for round := 1; round <= r.cfg.Rounds && sampled(r.cfg.Tests); round++ {
		for _, i := range sweep.Order(len(r.cfg.Targets), r.cfg.Seed, round) {
			t := r.cfg.Targets[i]
			if _, bad := r.broken[t.ID()]; bad {
				continue
			}
			if err := r.target(ctx, t, round); err != nil {
				return err
			}
		}
	}
	if err := r.coldstarts(ctx); err != nil {
		return err
	}
	if r.cfg.Profile && ctx.Err() == nil {
		return r.profileRound(ctx)
	}
	return ctx.Err()
}

// target runs one round of one framework variant: fresh database copy,
// start, verification (the first time), then every test.
func (r *runner) target(ctx context.Context, t Target, round int) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err := r.host.Gone(); err != nil {
		return err
	}
	began := time.Now()
	srv, stop, err := r.start(ctx, t, fmt.Sprintf("%s-%s-r%d", t.Spec.Name, t.VariantName(), round))
	r.spent.ServerStarts += time.Since(began).Seconds()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, serverhost.ErrGone) {
			return err
		}
		r.logf("round %d: %s: %v", round, t.ID(), err)
		r.broken[t.ID()] = "start failed: " + err.Error()
		return r.rec.Framework(r.frameworkRecord(t))
	}
	defer func() {
		began := time.Now()
		stop()
		r.spent.ServerStarts += time.Since(began).Seconds()
	}()
	if !r.verified[t.ID()] {
		began := time.Now()
		err := r.verify(ctx, t, srv)
		r.spent.Verification += time.Since(began).Seconds()
		if err != nil {
			return err
		}
	}
	w := &serverWatch{srv: srv, target: t, round: round}
	for _, test := range r.cfg.Tests {
		if r.failed[t.ID()][test.Name] || test.Type == model.Coldstart {
			continue
		}
		if err := r.test(ctx, w, test); err != nil {
			return err
		}
	}
	return nil
}

// test measures one test of a target in a round: a warmup at the highest
// level, then every N and level, each shot handed to sweep.Measure. Once the
// server has exited, each remaining shot is recorded as a sweep.Skipped sample
// saying where it was seen gone.
func (r *runner) test(ctx context.Context, w *serverWatch, test suite.Test) error {
	t, srv, round := w.target, w.srv, w.round
	path := testPath(t, test)
	ns := test.Queries
	if len(ns) == 0 {
		ns = []int{0}
	}
	var prev backlog // the load before a sample, whose requests may still be in flight
	if test.Warmup > 0 {
		step := test.Name + " warmup"
		if r.before(w, step) != "" {
			r.warmed += test.Warmup // not run: the plan counts it as done
		} else {
			sh := sweep.Shot{Path: suite.PathFor(path, max(test.Headline(), 1)), N: test.Headline(),
				Concurrency: slices.Max(test.Concurrency), Pipeline: test.Pipeline, Duration: test.Warmup}
			o, err := sweep.LoadOf(ctx, srv, test, sh)
			began := time.Now()
			var res *load.Result
			if err == nil {
				res, err = o.Engine.Run(ctx, o.Options)
			}
			r.spent.Warmups += time.Since(began).Seconds()
			if err != nil {
				return fmt.Errorf("%s %s warmup: %w", t.ID(), test.Name, err)
			}
			prev = backlog{inFlight: sh.Concurrency * max(sh.Pipeline, 1), rps: res.RPS()}
			r.warmed += test.Warmup
			if w.exitedDuring() {
				r.serverExited(w, "during "+step)
			}
		}
	}
	var shots []sweep.Shot
	for _, p := range roundShots(test, round, r.round1(t.ID(), test.Name)) {
		sh := sweep.Shot{Path: suite.PathFor(path, p.n), N: p.n, Concurrency: p.concurrency, Pipeline: test.Pipeline, Rate: p.rate, Duration: test.Duration, Window: true}
		if p.rate > 0 {
			sh.Pipeline = 1
		}
		shots = append(shots, sh)
	}
	for _, sh := range shots {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		step := test.Name + sweep.NText(sh.N) + " " + sh.Level()
		if why := r.before(w, step); why != "" {
			s := sweep.Skipped(sh.Key(r.baseKey(t, test, round)), why)
			if err := r.sample(s); err != nil {
				return err
			}
			r.logf("round %d/%d: %s %s: %s", round, r.cfg.Rounds, t.ID(), step, s.Gate.Reason)
			continue
		}
		r.progress(t, test, sh, round)
		if sh.Rate == 0 {
			sh.Warmup = sampleWarmup(test, prev)
		}
		s, exited, err := r.measure(ctx, t, srv, test, sh, round)
		if ctx.Err() != nil {
			return ctx.Err() // a window cut short by an interrupt is not a sample
		}
		if err != nil {
			return err
		}
		r.spent.Windows += s.Window
		r.spent.Warmups += s.Warmup // ran just before the window
		if sh.Rate == 0 {
			prev = backlog{inFlight: sh.Concurrency * max(sh.Pipeline, 1), rps: s.RPS}
		}
		if err := r.sample(s); err != nil {
			return err
		}
		r.logf("round %d/%d: %s %s: %s", round, r.cfg.Rounds, t.ID(), step, summary(s))
		if exited != "" {
			r.serverExited(w, "during "+step)
		}
	}
	return nil
}

// measure hands shot sh of test on target t's server srv to sweep.Measure,
// which measures it into a sample with every gate reason applied; exited is
// the gate's reason when the server exited during it.
func (r *runner) measure(ctx context.Context, t Target, srv serverhost.Server, test suite.Test, sh sweep.Shot, round int) (s model.Sample, exited string, err error) {
	m := sweep.Measurer{Client: r.client, GeneratorCPUs: r.gen.Usable(), LinkBytes: r.linkBytes, Logf: r.logf}
	return m.Measure(ctx, sweep.On{Server: srv, Spec: t.Spec, Key: r.baseKey(t, test, round)}, test, sh)
}

func summary(s model.Sample) string {
	out := fmt.Sprintf("%.0f RPS, p99 %.2f ms, %d responses", s.RPS, s.Latency.P99, s.Responses)
	if s.Gate.Passed {
		return out + ", gate passed"
	}
	return out + ", gate FAILED: " + s.Gate.Reason
}

// baseKey is the sample key of test on target t in round without the
// shot's level (sweep.Shot.Key adds it).
func (r *runner) baseKey(t Target, test suite.Test, round int) model.Key {
	engine := test.Engine
	if e, err := load.EngineFor(test.Engine); err == nil {
		engine = e.Name()
	}
	return model.Key{ID: t.ID(), Runtime: r.frameworkRecord(t).Runtime, Test: test.Name, Type: test.Type, Engine: engine, Round: round}
}

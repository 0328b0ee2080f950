// Package run is tfbench's one public façade over the stages of a
// benchmark: it builds and starts each framework variant on a fresh copy of
// the dataset, verifies it, measures every test at every level in every
// round (frameworks shuffled per round), and records each sample in
// results.json as it is made.
//
// Data flows one way: suite → framework → verify → load (+ probe) → sweep
// → results. The CLI only parses flags and calls Bench or Verify.
package run

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/load"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/progress"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/serverhost"
	"github.com/tfbench/tfbench/harness/stage"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/sweep"
	"github.com/tfbench/tfbench/harness/verify"
	"github.com/tfbench/tfbench/internal/cpuset"
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
	// harness/agent (issue 18), giving the generator this whole machine; nil is
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
	r.logf("run %s: %s × %s × %s; results in %s", r.cfg.RunID, plural(len(r.cfg.Targets), "framework variant"), plural(len(r.cfg.Tests), "test"), plural(r.cfg.Rounds, "round"), r.rec.Path)
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
		// one (their CPU sets are whole machines, issue 18).
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

// buildAll builds every adapter once per runtime its selected variants run on
// (stage.Stage reuses unchanged builds) and records each target; a failed build
// marks the targets that need it broken, and the run goes on.
func (r *runner) buildAll(ctx context.Context) error {
	tried := map[string]bool{}
	builds := 0
	for _, t := range r.cfg.Targets {
		if k := r.buildKey(t); !tried[k] {
			tried[k] = true
			builds++
		}
	}
	clear(tried)
	for _, t := range r.cfg.Targets {
		key := r.buildKey(t)
		if tried[key] {
			continue
		}
		tried[key] = true
		r.buildStep(t, builds)
		began := time.Now()
		err := r.build(ctx, t)
		took, install := time.Since(began), r.builds[key].Install // no install recorded for a failed build
		r.buildWall += took
		r.buildsDone++
		r.spent.Builds += (took - install).Seconds()
		r.spent.RuntimeInstalls += install.Seconds()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			r.logf("%s: build failed: %v", t.Spec.Name, err)
			for _, u := range r.cfg.Targets {
				if r.buildKey(u) == key {
					r.broken[u.ID()] = "build failed: " + err.Error()
				}
			}
		}
	}
	for _, t := range r.cfg.Targets {
		if err := r.rec.Framework(r.frameworkRecord(t)); err != nil {
			return err
		}
	}
	return nil
}

// buildKey names the build target t runs: its adapter's source folder
// (absolute), runtime spec and, for a variant with its own `build:`, the
// variant; two source trees of one adapter build separately.
func (r *runner) buildKey(t Target) string {
	k := absDir(t.Spec) + "\x00" + t.Spec.RuntimeOf(t.Variant)
	if t.Variant.Build != "" {
		k += "\x00" + t.Variant.Name
	}
	return k
}

// absDir is s.Dir made absolute (cleaned as given if that fails).
func absDir(s *framework.Spec) string {
	d, err := filepath.Abs(s.Dir)
	if err != nil {
		return filepath.Clean(s.Dir)
	}
	return d
}

// buildTag tells apart the build folders of an adapter's source trees: "" for
// its first target's folder, else "@" and 8 hex digits of the SHA-256 of the
// folder's absolute path (stable across runs, so its build is reused).
func (r *runner) buildTag(t Target) string {
	d := absDir(t.Spec)
	if d == r.firstDir[t.Spec.Name] {
		return ""
	}
	h := sha256.Sum256([]byte(d))
	return "@" + hex.EncodeToString(h[:4])
}

// build has the host build target t's adapter for its runtime in
// stage.StageRoot (WorkDir/build/NAME/RUNTIME[+VARIANT], then @TAG for
// a second source tree: buildTag), logging to logs/NAME-SLUG-build.log.
func (r *runner) build(ctx context.Context, t Target) error {
	root := stage.StageRoot("", t.Spec, t.Variant) + r.buildTag(t)
	slug := filepath.Base(root)
	// The runtime's lines (downloading, installed, reusing) go to the run's
	// progress too: a first download takes a while.
	b, err := r.host.Build(ctx, serverhost.BuildRequest{Spec: t.Spec, Variant: t.Variant, Stage: root,
		LogName: t.Spec.Name + "-" + slug + "-build.log", Progress: r.cfg.Log})
	if err != nil {
		return err
	}
	r.builds[r.buildKey(t)] = b
	r.logf("%s (%s): %s", t.Spec.Name, slug, b.Text)
	return nil
}

func (r *runner) frameworkRecord(t Target) results.Framework {
	start := t.Spec.Start
	if t.Variant.Start != "" {
		start = t.Variant.Start
	}
	rt := r.builds[r.buildKey(t)].Runtime
	if rt == "" {
		rt = t.Spec.RuntimeOf(t.Variant)
	}
	f := results.Framework{
		Name: t.Spec.Name, Variant: t.VariantName(), Runtime: rt, Language: t.Spec.Language,
		Rendering: t.Spec.Rendering, Description: t.Spec.Description, Start: start, Error: r.broken[t.ID()],
	}
	for _, p := range t.Spec.Versions {
		f.Versions = append(f.Versions, results.Package{Name: p.Name, Version: p.Version})
	}
	f.Build = r.builds[r.buildKey(t)].Hash
	if h, err := framework.LockfileHashes(t.Spec.Dir); err == nil {
		f.Lockfiles = h
	} else {
		r.logf("%s: lockfiles unread: %v", t.ID(), err)
	}
	return f
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

// start has the host start t's server on a fresh copy of the dataset (on
// the server CPU set). stop stops the server's process group and removes
// the copy (unless Keep).
func (r *runner) start(ctx context.Context, t Target, tag string) (srv serverhost.Server, stop func(), err error) {
	return r.startWith(ctx, t, tag, false)
}

// startWith is start with the server CPU-profiled when profiled is set
// (profile.go); stop then gives it at least profileStopGrace.
func (r *runner) startWith(ctx context.Context, t Target, tag string, profiled bool) (srv serverhost.Server, stop func(), err error) {
	b, ok := r.builds[r.buildKey(t)]
	if !ok {
		return nil, nil, fmt.Errorf("%s: not built", t.ID())
	}
	req := serverhost.StartRequest{Build: b.ID, Variant: t.Variant.Name, Tag: tag, Profile: profiled}
	if profiled {
		req.Grace = profileStopGrace
	}
	r.logf("%s: starting", t.ID())
	srv, err = r.host.Start(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	return srv, func() {
		if err := srv.Stop(r.cfg.StopGrace); err != nil {
			r.logf("%s: stop: %v", t.ID(), err)
		}
	}, nil
}

func (r *runner) checks(t Target) []verify.Check {
	var cs []verify.Check
	for _, test := range r.cfg.Tests {
		if notApplicable(t, test) != "" || test.Type == model.Coldstart {
			continue
		}
		c := verify.Check{Name: test.Name, Type: test.Type, Path: testPath(t, test)}
		if test.Type == model.Page {
			c.Rows, c.Cache = test.Queries, test.Cache == suite.CacheHit
		}
		if test.Type == model.Stream { // {k} left for verification's parts cases
			c.Path, c.Rows, c.Parts = t.Spec.Endpoint(test.Type, test.Path), test.Queries, test.Parts
		}
		cs = append(cs, c)
	}
	return cs
}

// testPath is the path test asks of target t, "{n}" unfilled ("{k}" filled
// with a stream test's parts): the
// framework's cached page route for a cache-hit test (framework.yaml
// `cache:`), else its endpoint for the test's type.
func testPath(t Target, test suite.Test) string {
	if test.Cache == suite.CacheHit && t.Spec.Cache != nil {
		return t.Spec.Cache.Path
	}
	return suite.FillParts(t.Spec.Endpoint(test.Type, test.Path), test.Parts)
}

// notApplicable says why test does not apply to target t ("" when it
// does): a cache-hit test on an adapter without a cached page route.
func notApplicable(t Target, test suite.Test) string {
	if test.Cache == suite.CacheHit && t.Spec.Cache == nil {
		return "no cached page route: " + t.Spec.Name + "'s framework.yaml has no cache: (docs/ssr.md)"
	}
	return unsupportedReason(t, test)
}

// confirmHits checks at verification that a cache-hit test's page is
// served from t's cache: by its hit header, else by its render counts.
func confirmHits(ctx context.Context, t Target, srv serverhost.Server, test suite.Test) error {
	c := t.Spec.Cache
	path := suite.PathFor(c.Path, max(test.Headline(), 1))
	if err := verify.CacheHit(ctx, srv.BaseURL(), t.Spec.RenderCounts, c.HitHeader, c.HitValue, test.Type, path); err != nil {
		return fmt.Errorf("%s%w", sweep.CacheNotConfirmed, err)
	}
	return nil
}

// verify runs verification of the selected tests on t's server; each
// request is bounded by the tests' response timeout (the largest of them).
func (r *runner) verify(ctx context.Context, t Target, srv serverhost.Server) error {
	target := verify.Target{BaseURL: srv.BaseURL(), Database: srv.Database, RequestTimeout: r.requestTimeout(), DateRecheck: r.cfg.dateRecheck}
	res := verify.Run(ctx, target, r.checks(t))
	if ctx.Err() != nil {
		return ctx.Err()
	}
	r.verified[t.ID()] = true
	r.failed[t.ID()] = map[string]bool{}
	var vs []results.Verification
	for _, test := range r.cfg.Tests {
		if test.Type == model.Coldstart { // checked by its own starts (coldstart.go)
			continue
		}
		if why := notApplicable(t, test); why != "" {
			vs = append(vs, results.Verification{ID: t.ID(), Test: test.Name, Status: model.NotApplicable, Reasons: []string{why}})
			r.logf("verify %s %s: %s (%s)", t.ID(), test.Name, model.NotApplicable, why)
			r.failed[t.ID()][test.Name] = true
			continue
		}
		v := res[test.Name]
		switch {
		case v.Status == model.Fail:
		case test.Cache == suite.CacheHit:
			if err := confirmHits(ctx, t, srv, test); err != nil {
				v.Status = model.Fail
				v.Reasons = append(v.Reasons, err.Error())
			}
		case t.Spec.RenderCounts != "":
			if err := verify.Renders(ctx, srv.BaseURL(), t.Spec.RenderCounts, test.Type, suite.PathFor(testPath(t, test), max(test.Headline(), 1))); err != nil {
				v.Status = model.Fail
				v.Reasons = append(v.Reasons, err.Error())
			}
		}
		vs = append(vs, results.Verification{ID: t.ID(), Test: test.Name, Status: v.Status, Reasons: v.Reasons, PageBytes: v.PageBytes})
		r.logf("verify %s %s: %s%s", t.ID(), test.Name, v.Status, reasonSuffix(v.Reasons))
		if v.Status == model.Fail {
			r.failed[t.ID()][test.Name] = true
		}
	}
	return r.rec.Verified(vs...)
}

// requestTimeout is verification's per-request timeout: the largest
// response timeout of the selected tests (suite `timeout`), or 0 (verify's
// default, 8 s) when none is set.
func (r *runner) requestTimeout() time.Duration {
	var d time.Duration
	for _, t := range r.cfg.Tests {
		d = max(d, t.Timeout)
	}
	return d
}

func reasonSuffix(reasons []string) string {
	if len(reasons) == 0 {
		return ""
	}
	return " (" + strings.Join(reasons, "; ") + ")"
}

// test measures one test of a target in a round: a warmup at the highest
// level, then every N and level. Once the server has exited, each remaining
// shot is recorded as a sweep.Skipped sample saying where it was seen gone.
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
			sh := shot{path: suite.PathFor(path, max(test.Headline(), 1)), n: test.Headline(),
				conns: slices.Max(test.Concurrency), pipeline: test.Pipeline, duration: test.Warmup}
			o, err := r.options(ctx, srv, test, sh)
			began := time.Now()
			var res *load.Result
			if err == nil {
				res, err = o.engine.Run(ctx, o.Options)
			}
			r.spent.Warmups += time.Since(began).Seconds()
			if err != nil {
				return fmt.Errorf("%s %s warmup: %w", t.ID(), test.Name, err)
			}
			prev = backlog{inFlight: sh.conns * max(sh.pipeline, 1), rps: res.RPS()}
			r.warmed += test.Warmup
			if w.exitedDuring() != "" {
				r.serverExited(w, "during "+step)
			}
		}
	}
	var shots []shot
	for _, p := range roundShots(test, round, r.round1(t.ID(), test.Name)) {
		sh := shot{path: suite.PathFor(path, p.n), n: p.n, conns: p.conns, pipeline: test.Pipeline, rate: p.rate, duration: test.Duration, window: true}
		if p.rate > 0 {
			sh.pipeline = 1
		}
		shots = append(shots, sh)
	}
	for _, sh := range shots {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		step := test.Name + nText(sh.n) + " " + sh.level()
		if why := r.before(w, step); why != "" {
			s := sweep.Skipped(r.key(t, test, sh, round), why)
			if err := r.sample(s); err != nil {
				return err
			}
			r.logf("round %d/%d: %s %s: %s", round, r.cfg.Rounds, t.ID(), step, s.Gate.Reason)
			continue
		}
		r.progress(t, test, sh, round)
		if sh.rate == 0 {
			sh.warmup = sampleWarmup(test, prev)
		}
		s, unread, err := r.measure(ctx, t, srv, test, sh, round)
		if ctx.Err() != nil {
			return ctx.Err() // a window cut short by an interrupt is not a sample
		}
		if err != nil {
			return err
		}
		exited := w.exitedDuring()
		switch {
		case exited != "":
			s.Gate = failGate(s.Gate, exited) // which also explains an unread server
		case unread != nil:
			s.Gate = failGate(s.Gate, "server CPU and memory unread: "+unread.Error())
		}
		r.spent.Windows += s.Window
		r.spent.Warmups += s.Warmup // ran just before the window
		if sh.rate == 0 {
			prev = backlog{inFlight: sh.conns * max(sh.pipeline, 1), rps: s.RPS}
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

// shot is one load run: a sample's (window) or the warmup's.
type shot struct {
	path               string
	n, conns, pipeline int
	rate               float64 // requests/s; 0 = closed loop
	duration           time.Duration
	window             bool          // a measured window, not a warmup
	warmup             time.Duration // a closed-loop window's own warmup (sampleWarmup)
}

func (sh shot) level() string {
	if sh.rate > 0 {
		return fmt.Sprintf("%g requests/s over %d connections", sh.rate, sh.conns)
	}
	return fmt.Sprintf("c=%d", sh.conns)
}

func nText(n int) string {
	if n == 0 {
		return ""
	}
	return " N=" + strconv.Itoa(n)
}

func summary(s model.Sample) string {
	out := fmt.Sprintf("%.0f RPS, p99 %.2f ms, %d responses", s.RPS, s.Latency.P99, s.Responses)
	if s.Gate.Passed {
		return out + ", gate passed"
	}
	return out + ", gate FAILED: " + s.Gate.Reason
}

// key is the sample key of shot sh of test on target t in round.
func (r *runner) key(t Target, test suite.Test, sh shot, round int) model.Key {
	engine := test.Engine
	if e, err := load.EngineFor(test.Engine); err == nil {
		engine = e.Name()
	}
	return model.Key{
		ID: t.ID(), Runtime: r.frameworkRecord(t).Runtime,
		Test: test.Name, Type: test.Type, N: sh.n, Connections: sh.conns, Rate: sh.rate, Pipeline: sh.pipeline,
		Engine: engine, Round: round,
	}
}

// measure runs one sample, reading around it server and generator CPU, render
// counts (unreadable: a gate failure), a Node server's event-loop delay (a failure
// is only logged) and SQLITE_BUSY log lines. unread is why the server's CPU and
// memory could not be read (its figures left 0; the caller fails the gate unless
// the server exited). Its errors, the engine's, end the run.
func (r *runner) measure(ctx context.Context, t Target, srv serverhost.Server, test suite.Test, sh shot, round int) (s model.Sample, unread, err error) {
	o, err := r.options(ctx, srv, test, sh)
	if err != nil {
		return model.Sample{}, nil, fmt.Errorf("%s %s: %w", t.ID(), test.Name, err)
	}
	if test.Probe > 0 && o.engine.Name() == "raw" {
		// The interference probe: the framework's cheap endpoint, once per
		// interval, beside the sample's load (docs/ssr.md).
		o.Probe = &load.Probe{Path: t.Spec.Endpoint(model.Plaintext, suite.DefaultPath[model.Plaintext]), Interval: test.Probe}
	}
	var hits *verify.HitCounter
	if test.Cache == suite.CacheHit {
		// Warm the page: a fresh server's cache is empty until its first render.
		if _, err := r.get(ctx, srv, sh.path, test); err != nil && ctx.Err() != nil {
			return model.Sample{}, nil, ctx.Err()
		}
		if c := t.Spec.Cache; c.HitHeader != "" {
			hits = &verify.HitCounter{Header: c.HitHeader, Value: c.HitValue}
			o.Check = hits.Wrap(o.Check)
		}
	}
	counts := t.Spec.RenderCounts
	var rendersBefore map[string]int64
	var countsErr error
	if counts != "" {
		rendersBefore, countsErr = r.renderCounts(ctx, srv, counts, test.Timeout)
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
			wg.Go(func() { elReset = r.eventLoopReset(ctx, t, srv, test, sh) })
			read()
			wg.Wait()
		}
	} else {
		elReset = r.eventLoopReset(ctx, t, srv, test, sh)
		read()
	}
	at := time.Now()
	res, err := o.engine.Run(ctx, o.Options)
	if err != nil {
		return model.Sample{}, nil, fmt.Errorf("%s %s: %w", t.ID(), test.Name, err)
	}
	after, err := srv.Usage(ctx)
	usageErr = cmp.Or(usageErr, err)
	genAfter, err := probe.Self(ctx)
	genErr = cmp.Or(genErr, err)
	eventLoop, memory := r.eventLoopRead(ctx, t, srv, test, sh, elReset)
	var renders *int64
	if counts != "" && countsErr == nil {
		// Every response counted in the window was rendered before it was
		// read, so renders since the first read are at least Responses.
		rendersAfter, err := r.renderCounts(ctx, srv, counts, test.Timeout)
		if err != nil {
			countsErr = err
		} else {
			route := verify.RoutePath(sh.path)
			n := rendersAfter[route] - rendersBefore[route]
			renders = &n
		}
	}
	s, err = sweep.FromResult(r.key(t, test, sh, round), res)
	if err != nil {
		return s, nil, err
	}
	if o.stream != nil {
		if s.Stream, err = o.stream.Record(); err != nil {
			return s, nil, err
		}
	}
	s.At, s.Renders, s.Warmup = at.UTC(), renders, sh.warmup.Seconds()
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
	s.GeneratorSaturated = probe.Saturated(s.GeneratorCPU, s.Window, r.gen.Usable())
	s.LinkSaturated = sweep.LinkSaturated(s.BodyBytes, s.Window, r.linkBytes)
	s.ServerLogFaults = srv.LogFaults(logFrom)
	s.Gate = sweep.Gate(s, test.Gate, test.MinResponses)
	if countsErr != nil {
		s.Gate = failGate(s.Gate, "render counts: "+countsErr.Error())
	}
	if genErr != nil {
		s.Gate = failGate(s.Gate, "load generator CPU unread: "+genErr.Error())
	}
	return s, usageErr, nil
}

// get sends one GET of path to srv with test's Accept, bounded by the
// test's response timeout, and returns the status (the cache-hit warmup).
func (r *runner) get(ctx context.Context, srv serverhost.Server, path string, test suite.Test) (int, error) {
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
	resp, err := r.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, err
}

// renderCounts reads the server's render counts (verify.RenderCounts),
// bounded by timeout, the test's response timeout (when > 0), and by the
// client's 10 s.
func (r *runner) renderCounts(ctx context.Context, srv serverhost.Server, path string, timeout time.Duration) (map[string]int64, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	return verify.RenderCounts(ctx, r.client, srv.BaseURL(), path)
}

// LatestResults is the path of the newest benchmark run's results.json
// under workDir: runs/latest is a symbolic link to the folder of the newest
// Bench run (Verify runs do not move it).
func LatestResults(workDir string) string {
	return filepath.Join(workDir, "runs", "latest", "results.json")
}

// linkLatest points runs/latest at runs/<id>, replacing any older link
// atomically (a new link renamed over the old one).
func linkLatest(runsDir, id string) error {
	tmp := filepath.Join(runsDir, ".latest-"+id)
	os.Remove(tmp)
	if err := os.Symlink(id, tmp); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(runsDir, "latest"))
}

// sameMachine reports whether two host records are one machine: the same
// hostname and boot-independent facts (CPU model, memory).
func sameMachine(a, b probe.Host) bool {
	return a.Hostname != "" && a.Hostname == b.Hostname && a.CPUModel == b.CPUModel && a.MemoryBytes == b.MemoryBytes
}

// placementNote is the line a run logs at its start when the generator and
// the servers do not each have CPUs of their own (issue 17): no affinity
// (macOS) or one CPU. It is "" when the sets are disjoint.
func placementNote(gen, srv cpuset.Set) string {
	switch {
	case len(gen) == 0 && len(srv) == 0:
		return "CPU placement: " + probe.NotPinned + " (no CPU affinity on this OS); RPS figures are not per core"
	case !cpuset.Disjoint(gen, srv):
		return fmt.Sprintf("CPU placement: one CPU: the load generator and the servers share CPU %s", gen)
	}
	return ""
}

// plural is "1 round" or "N rounds".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

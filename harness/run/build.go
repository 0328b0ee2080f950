package run

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"time"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/serverhost"
	"github.com/tfbench/tfbench/harness/stage"
)

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

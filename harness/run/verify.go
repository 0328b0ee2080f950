package run

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/serverhost"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/sweep"
	"github.com/tfbench/tfbench/harness/verify"
	"github.com/tfbench/tfbench/internal/words"
)

// Verify builds and starts every target of cfg once on a fresh dataset copy and
// verifies the selected tests, measuring nothing; verdicts also go to results.json.
// A target that cannot build or start has Framework.Error set; errors are as Bench's.
func Verify(ctx context.Context, cfg Config) ([]results.Framework, []results.Verification, string, error) {
	if cfg.RunID == "" {
		cfg.RunID = "verify-" + time.Now().UTC().Format("20060102-150405")
	}
	r, err := newRunner(ctx, cfg)
	if err != nil {
		return nil, nil, "", err
	}
	r.logf("verify %s: %s × %s; results in %s", r.cfg.RunID, words.Plural(len(r.cfg.Targets), "framework variant"), words.Plural(len(r.cfg.Tests), "test"), r.rec.Path)
	err = r.verifyAll(ctx)
	if err == nil {
		err = r.host.Gone()
	}
	status := results.Complete
	if err != nil {
		status = results.Interrupted
	}
	if ferr := r.rec.Finish(status); err == nil {
		err = ferr
	}
	err = r.finish(ctx, err)
	f := r.rec.File()
	return f.Frameworks, f.Verifications, r.rec.Path, err
}

func (r *runner) verifyAll(ctx context.Context) error {
	if err := r.buildAll(ctx); err != nil {
		return err
	}
	for _, t := range r.cfg.Targets {
		if _, bad := r.broken[t.ID()]; bad {
			continue
		}
		srv, stop, err := r.start(ctx, t, t.Spec.Name+"-"+t.VariantName()+"-verify")
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if errors.Is(err, serverhost.ErrGone) {
				return err
			}
			r.broken[t.ID()] = "start failed: " + err.Error()
			if err := r.rec.Framework(r.frameworkRecord(t)); err != nil {
				return err
			}
			continue
		}
		err = r.verify(ctx, t, srv)
		stop()
		if err != nil {
			return err
		}
	}
	return ctx.Err()
}

// checks are verification's checks of the selected tests that apply to t.
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

// unsupportedReason says why test does not apply to target t ("" when it
// does): a test type the adapter declares unsupported (framework.yaml
// `unsupported:`, its reason), or a stream test on an adapter without
// `endpoints: stream`.
func unsupportedReason(t Target, test suite.Test) string {
	if why := t.Spec.NotApplicable(test.Type); why != "" {
		return why
	}
	if _, ok := t.Spec.Endpoints[model.Stream]; test.Type == model.Stream && !ok {
		return "no stream endpoint: " + t.Spec.Name + "'s framework.yaml has no endpoints: stream (docs/adapters.md)"
	}
	return ""
}

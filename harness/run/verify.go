package run

import (
	"context"
	"errors"
	"time"

	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/serverhost"
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
	r.logf("verify %s: %s × %s; results in %s", r.cfg.RunID, plural(len(r.cfg.Targets), "framework variant"), plural(len(r.cfg.Tests), "test"), r.rec.Path)
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

package run

import (
	"context"
	"fmt"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/verify"
)

// Page is one test's response from one target, fetched by a Fetch.
type Page struct {
	Test string         // the suite test's name
	Type model.TestType // its type
	// Path is the path requested: the target's endpoint for the test with
	// N at the test's headline ("/ssr?rows=10000", "/fortunes").
	Path   string
	Status int
	Body   []byte
	// Err says why there is no response (the request failed); Status and
	// Body are then empty.
	Err string
}

// Fetch starts target t (built, one of the run's) on a fresh dataset copy, GETs
// every selected test's Path once in suite order with verification's headers and
// timeout (verify.Fetch), stops it and returns the pages.
type Fetch func(ctx context.Context, t Target) ([]Page, error)

// beforeMeasure calls Config.BeforeMeasure, if set, and records the
// verdicts it returns.
func (r *runner) beforeMeasure(ctx context.Context) error {
	if r.cfg.BeforeMeasure == nil {
		return nil
	}
	es, err := r.cfg.BeforeMeasure(ctx, r.fetch)
	if len(es) > 0 {
		if rerr := r.rec.Equivalence(es...); rerr != nil && err == nil {
			err = rerr
		}
	}
	if err == nil {
		err = ctx.Err()
	}
	return err
}

// fetch is the run's Fetch: it starts t with the tag NAME-VARIANT-pages
// (its server log is logs/NAME-VARIANT-pages.log).
func (r *runner) fetch(ctx context.Context, t Target) ([]Page, error) {
	known := false
	for _, u := range r.cfg.Targets {
		known = known || u.ID() == t.ID()
	}
	if !known {
		return nil, fmt.Errorf("%s is not a target of this run", t.ID())
	}
	if why, bad := r.broken[t.ID()]; bad {
		return nil, fmt.Errorf("%s: %s", t.ID(), why)
	}
	srv, stop, err := r.start(ctx, t, t.Spec.Name+"-"+t.VariantName()+"-pages")
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%s: start failed: %w", t.ID(), err)
	}
	defer stop()
	var pages []Page
	for _, test := range r.cfg.Tests {
		if notApplicable(t, test) != "" || test.Type == model.Coldstart {
			continue
		}
		p := Page{Test: test.Name, Type: test.Type, Path: suite.PathFor(testPath(t, test), max(test.Headline(), 1))}
		status, body, err := verify.Fetch(ctx, srv.BaseURL(), test.Type, p.Path, r.requestTimeout())
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			p.Err = err.Error()
		} else {
			p.Status, p.Body = status, body
		}
		pages = append(pages, p)
	}
	return pages, nil
}

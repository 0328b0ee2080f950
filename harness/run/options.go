package run

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/tfbench/tfbench/harness/load"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/serverhost"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/verify"
)

// engineOptions is a load run: the engine and its options.
type engineOptions struct {
	engine load.Engine
	load.Options
	// stream gathers a stream shot's timelines (streamOptions); nil for the
	// other types.
	stream *verify.StreamRecorder
}

// options builds the load run of one shot: the suite's engine, the test type's
// request and (engine raw) the check of every response (verify.LoadChecker) with
// the Date rule, against references taken now (loadCheck).
func (r *runner) options(ctx context.Context, srv serverhost.Server, test suite.Test, sh shot) (engineOptions, error) {
	e, err := load.EngineFor(test.Engine)
	if err != nil {
		return engineOptions{}, err
	}
	o := load.Options{
		Addr: srv.Addr(), Path: sh.path, Accept: test.Type.Accept(), Connections: sh.conns,
		Pipeline: sh.pipeline, Rate: sh.rate, Duration: sh.duration, Timeout: test.Timeout,
	}
	o.Warmup = sh.warmup // sample_warmup: the window opens on running load
	switch {
	case sh.window && sh.rate == 0 && test.Responses > 0:
		// suite key responses: the window ends on a response count (raw only).
		o.Responses, o.MinDuration = int64(test.Responses), test.MinDuration
	case !sh.window && test.WarmupResponses > 0:
		o.Responses = int64(test.WarmupResponses) // warmup_responses: the warmup too
	}
	if e.Name() == "raw" {
		o.Check = r.loadCheck(ctx, srv, test, sh)
		o.DateStale = load.DefaultDateStale
		if test.Type == model.Page {
			o.MaxCheckBytes = pageCheckBytes
		}
	}
	eo := engineOptions{engine: e, Options: o}
	if e.Name() == "raw" && test.Type == model.Stream {
		eo.stream = r.streamOptions(ctx, srv, test, sh, &eo.Options)
	}
	return eo, nil
}

// pageCheckBytes is the most body bytes kept for a page's check under load:
// a 10,000-row page with its RSC or hydration payload is 1–3 MB.
const pageCheckBytes = 16 << 20

// worldReadTimeout bounds reading the World table before a shot.
const worldReadTimeout = 30 * time.Second

// loadCheck is the check of every response of shot sh (verify.LoadChecker), its
// references taken now: for json, plaintext and fortunes a body fetched from srv
// (byte for byte when it passes the full rule, else the full rule decides); for
// db, queries and page the World of srv's copy, which updates change between
// tests. A cached page may predate the copy's World (its values were checked at
// verification): ids and row count only. An unreadable World fails every
// checked response, so the gate fails, not the run.
func (r *runner) loadCheck(ctx context.Context, srv serverhost.Server, test suite.Test, sh shot) func(int, []byte, []byte) error {
	ref := verify.LoadRef{Type: test.Type, Rows: verify.ExpectedRows(sh.n)}
	switch test.Type {
	case model.Page:
		ref.Rows = verify.ExpectedPageRows(sh.n)
		if test.Cache == suite.CacheHit {
			return verify.LoadChecker(ref)
		}
		fallthrough
	case model.DB, model.Queries:
		ctx, cancel := context.WithTimeout(ctx, worldReadTimeout)
		defer cancel()
		db, err := srv.Database()
		if err == nil {
			ref.World, err = verify.WorldOf(ctx, db)
		}
		if err != nil {
			err = fmt.Errorf("cannot check the rows: %w", err)
			return func(int, []byte, []byte) error { return err }
		}
	case model.JSON, model.Plaintext, model.Fortunes:
		if status, body, err := verify.Fetch(ctx, srv.BaseURL(), test.Type, sh.path, test.Timeout); err == nil && status == http.StatusOK {
			ref.Body = body
		}
	}
	return verify.LoadChecker(ref)
}

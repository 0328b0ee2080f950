package sweep

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/tfbench/tfbench/harness/load"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/verify"
)

// Load is a load run: the engine and its options.
type Load struct {
	Engine load.Engine
	load.Options
	// Stream gathers a stream shot's timelines (streamOptions); nil for the
	// other types.
	Stream *verify.StreamRecorder
}

// LoadOf builds the load run of one shot: the suite's engine, the test type's
// request and (engine raw) the check of every response (verify.LoadChecker) with
// the Date rule, against references taken now (loadCheck).
func LoadOf(ctx context.Context, srv Server, test suite.Test, sh Shot) (Load, error) {
	e, err := load.EngineFor(test.Engine)
	if err != nil {
		return Load{}, err
	}
	o := load.Options{
		Addr: srv.Addr(), Path: sh.Path, Accept: test.Type.Accept(), Connections: sh.Concurrency,
		Pipeline: sh.Pipeline, Rate: sh.Rate, Duration: sh.Duration, Timeout: test.Timeout,
	}
	o.Warmup = sh.Warmup // sample_warmup: the window opens on running load
	switch {
	case sh.Window && sh.Rate == 0 && test.Responses > 0:
		// suite key responses: the window ends on a response count (raw only).
		o.Responses, o.MinDuration = int64(test.Responses), test.MinDuration
	case !sh.Window && test.WarmupResponses > 0:
		o.Responses = int64(test.WarmupResponses) // warmup_responses: the warmup too
	}
	var stream *verify.StreamRecorder
	if e.Name() == "raw" {
		if test.Type == model.Stream { // its World read first: loadCheck reads nothing for a stream
			stream = streamOptions(ctx, srv, test, sh, &o)
		}
		o.Check = loadCheck(ctx, srv, test, sh)
		o.DateStale = load.DefaultDateStale
		if test.Type == model.Page {
			o.MaxCheckBytes = pageCheckBytes
		}
	}
	return Load{Engine: e, Options: o, Stream: stream}, nil
}

// pageCheckBytes is the most body bytes kept for a page's check under load:
// a 10,000-row page with its RSC or hydration payload is 1–3 MB.
const pageCheckBytes = 16 << 20

// WorldReadTimeout bounds reading the World table of a server's copy before
// a shot or a cold start's first page.
const WorldReadTimeout = 30 * time.Second

// loadCheck is the check of every response of shot sh (verify.LoadChecker), its
// references taken now: for json, plaintext and fortunes a body fetched from srv
// (byte for byte when it passes the full rule, else the full rule decides); for
// db, queries and page the World of srv's copy, which updates change between
// tests. A cached page may predate the copy's World (its values were checked at
// verification): ids and row count only. An unreadable World fails every
// checked response, so the gate fails, not the run.
func loadCheck(ctx context.Context, srv Server, test suite.Test, sh Shot) func(int, []byte, []byte) error {
	ref := verify.LoadRef{Type: test.Type, Rows: verify.ExpectedRows(sh.N)}
	switch test.Type {
	case model.Page:
		ref.Rows = verify.ExpectedPageRows(sh.N)
		if test.Cache == suite.CacheHit {
			return verify.LoadChecker(ref)
		}
		fallthrough
	case model.DB, model.Queries:
		ctx, cancel := context.WithTimeout(ctx, WorldReadTimeout)
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
		if status, body, err := verify.Fetch(ctx, srv.BaseURL(), test.Type, sh.Path, test.Timeout); err == nil && status == http.StatusOK {
			ref.Body = body
		}
	}
	return verify.LoadChecker(ref)
}

// streamOptions sets the check under load of a stream shot sh on o
// (verify.StreamChecker against the World of srv's copy, read now, with the
// page's body cap) and returns the recorder of its timelines. An unreadable
// World fails every checked response, as loadCheck's does.
func streamOptions(ctx context.Context, srv Server, test suite.Test, sh Shot, o *load.Options) *verify.StreamRecorder {
	rows := verify.ExpectedPageRows(sh.N)
	parts := verify.ExpectedStreamParts(test.Parts, rows)
	o.MaxCheckBytes = pageCheckBytes
	ctx, cancel := context.WithTimeout(ctx, WorldReadTimeout)
	defer cancel()
	db, err := srv.Database()
	var world verify.World
	if err == nil {
		world, err = verify.WorldOf(ctx, db)
	}
	if err != nil {
		err = fmt.Errorf("cannot check the rows: %w", err)
		o.CheckTimeline = func(int, []byte, []byte, load.Timeline) error { return err }
		return nil
	}
	rec := verify.NewStreamRecorder(parts, test.Timeout.Microseconds())
	check := verify.StreamChecker(world, rows, parts, rec)
	o.CheckTimeline = func(status int, head, body []byte, t load.Timeline) error {
		return check(status, head, body, t.First, t.Last, t.Flushes)
	}
	return rec
}

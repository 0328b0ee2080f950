package run

import (
	"context"
	"fmt"

	"github.com/tfbench/tfbench/harness/load"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/serverhost"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/verify"
)

// streamOptions sets the check under load of a stream shot sh on o
// (verify.StreamChecker against the World of srv's copy, read now, with the
// page's body cap) and returns the recorder of its timelines. An unreadable
// World fails every checked response, as loadCheck's does.
func (r *runner) streamOptions(ctx context.Context, srv serverhost.Server, test suite.Test, sh shot, o *load.Options) *verify.StreamRecorder {
	rows := verify.ExpectedPageRows(sh.n)
	parts := verify.ExpectedStreamParts(test.Parts, rows)
	o.MaxCheckBytes = pageCheckBytes
	ctx, cancel := context.WithTimeout(ctx, worldReadTimeout)
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

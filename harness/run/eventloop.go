package run

import (
	"context"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/serverhost"
	"github.com/tfbench/tfbench/harness/suite"
)

// eventLoopReset clears a monitored (Node) server's event-loop histograms just
// before a sample's window (eventloop.Reset) and reports whether it did; a
// failure is logged, leaves the sample without a reading and never fails the gate.
func (r *runner) eventLoopReset(ctx context.Context, t Target, srv serverhost.Server, test suite.Test, sh shot) bool {
	if !srv.Monitored() {
		return false
	}
	if err := srv.EventLoopReset(ctx); err != nil {
		r.logEventLoop(t, test, sh, err)
		return false
	}
	return true
}

// eventLoopRead reads the worst event-loop delay of the server's Node processes
// right after the window (eventloop.Read); nil when not monitored, when the
// reset failed or when the read fails (logged).
func (r *runner) eventLoopRead(ctx context.Context, t Target, srv serverhost.Server, test suite.Test, sh shot, reset bool) *model.EventLoop {
	if !reset {
		return nil
	}
	el, err := srv.EventLoopRead(ctx)
	if err != nil {
		r.logEventLoop(t, test, sh, err)
		return nil
	}
	return &el
}

func (r *runner) logEventLoop(t Target, test suite.Test, sh shot, err error) {
	r.logf("%s %s%s %s: %v (the sample has no event-loop delay)", t.ID(), test.Name, nText(sh.n), sh.level(), err)
}

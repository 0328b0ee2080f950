package run

import (
	"context"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/serverhost"
	"github.com/tfbench/tfbench/harness/suite"
)

// eventLoopReset clears a monitored server's event-loop histograms and memory
// baselines as a sample's window opens (eventloop.Reset) and reports whether it
// did; a failure is logged, leaves the sample without them and never fails the gate.
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
// and its processes' memory right after the window (eventloop.Read); nil when
// not monitored, when the reset failed or when the read fails (logged).
func (r *runner) eventLoopRead(ctx context.Context, t Target, srv serverhost.Server, test suite.Test, sh shot, reset bool) (*model.EventLoop, *model.Memory) {
	if !reset {
		return nil, nil
	}
	w, err := srv.EventLoopRead(ctx)
	if err != nil {
		r.logEventLoop(t, test, sh, err)
		return nil, nil
	}
	return w.EventLoop, w.Memory
}

func (r *runner) logEventLoop(t Target, test suite.Test, sh shot, err error) {
	r.logf("%s %s%s %s: %v (the sample has no event-loop delay or memory)", t.ID(), test.Name, nText(sh.n), sh.level(), err)
}

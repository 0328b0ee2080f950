package run

import (
	"fmt"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/serverhost"
	"github.com/tfbench/tfbench/harness/suite"
)

// serverWatch follows one target's server through one round. Once the server
// is seen exited, exited says why, and every later shot of the round becomes a
// sweep.Skipped sample with that reason; the next round starts a fresh server.
type serverWatch struct {
	srv    serverhost.Server
	target Target
	round  int
	exited string
}

// gone reports whether the server's leader process has exited.
func (w *serverWatch) gone() bool {
	select {
	case <-w.srv.Done():
		return true
	default:
		return false
	}
}

// exitTail is how many of the server log's last lines the run's log quotes
// when a server exits during a round.
const exitTail = 5

// before returns why the step named next ("json c=4", "json warmup") is
// not measured: the server exited earlier (then the reason names where it
// was seen gone), or "" while it runs.
func (r *runner) before(w *serverWatch, next string) string {
	if w.exited == "" && w.gone() {
		r.serverExited(w, "before "+next)
	}
	return w.exited
}

// exitedDuring checks the server after a step: if it exited meanwhile (not seen
// gone before), it returns the sample's gate reason, "server exited during the
// sample (exit status 2)", and the caller calls serverExited; else "".
func (w *serverWatch) exitedDuring() string {
	if w.exited != "" || !w.gone() {
		return ""
	}
	return "server exited during the sample (" + exitText(w.srv.Err()) + ")"
}

// serverExited records that w's server exited (when: "during json c=2",
// "before json c=2") and logs it with the last lines of the server's log.
func (r *runner) serverExited(w *serverWatch, when string) {
	w.exited = fmt.Sprintf("the server exited %s in round %d (%s)", when, w.round, exitText(w.srv.Err()))
	r.logf("round %d/%d: %s: %s; the rest of its round is not measured; last lines of %s:\n%s",
		w.round, r.cfg.Rounds, w.target.ID(), w.exited, w.srv.LogPath(), indent(w.srv.LogTail(exitTail)))
}

// exitText is how a server's leader ended, as os/exec says it ("exit
// status 2", "signal: killed"); nil is "exit status 0".
func exitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// indent puts four spaces before every line of s.
func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

// failGate fails g with one more reason, after any it already has.
func failGate(g model.GateResult, why string) model.GateResult {
	if g.Passed || g.Reason == "" {
		return model.GateResult{Reason: why}
	}
	return model.GateResult{Reason: g.Reason + "; " + why}
}

// fdSpare is how many open files the harness needs besides one per load
// connection: its own files, the event loops' epoll and eventfd
// descriptors, the probes, verification and render-count clients.
const fdSpare = 64

// openFileLimit is the soft RLIMIT_NOFILE of this process: Go raises it to
// the hard limit at start (on darwin to at most kern.maxfilesperproc), so
// this is what the load generator can open. 0 when it cannot be read.
func openFileLimit() uint64 {
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &rl); err != nil {
		return 0
	}
	return rl.Cur
}

// fdPreflight returns the warning the run logs when limit (RLIMIT_NOFILE) is
// below the most connections of any test plus fdSpare, naming the test and level:
// those samples would fail as harness faults. "" when enough or unknown (0).
func fdPreflight(limit uint64, tests []suite.Test) string {
	most, level := 0, ""
	for _, t := range tests {
		for _, c := range t.Concurrency {
			if c > most {
				most, level = c, fmt.Sprintf("%s c=%d", t.Name, c)
			}
		}
		if t.Rate > 0 && t.RateConnections > most {
			most, level = t.RateConnections, fmt.Sprintf("%s %s", t.Name, shot{conns: t.RateConnections, rate: t.Rate}.level())
		}
	}
	if limit == 0 || most == 0 || limit >= uint64(most+fdSpare) {
		return ""
	}
	return fmt.Sprintf("harness: open-file limit %d is below %s + %d spare; those samples may fail as harness faults (ulimit -n)", limit, level, fdSpare)
}

package run

import (
	"fmt"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/tfbench/tfbench/harness/serverhost"
	"github.com/tfbench/tfbench/harness/suite"
	"github.com/tfbench/tfbench/harness/sweep"
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

// exitTail is how many of the server log's last lines the run's log quotes
// when a server exits during a round.
const exitTail = 5

// before returns why the step named next ("json c=4", "json warmup") is
// not measured: the server exited earlier (then the reason names where it
// was seen gone), or "" while it runs.
func (r *runner) before(w *serverWatch, next string) string {
	if w.exited == "" && sweep.Gone(w.srv) {
		r.serverExited(w, "before "+next)
	}
	return w.exited
}

// exitedDuring reports, after a warmup, whether the server exited meanwhile
// (not seen gone before); the caller then calls serverExited. A sample's shot
// checks this itself (sweep.Measure).
func (w *serverWatch) exitedDuring() bool {
	return w.exited == "" && sweep.Gone(w.srv)
}

// serverExited records that w's server exited (when: "during json c=2",
// "before json c=2") and logs it with the last lines of the server's log.
func (r *runner) serverExited(w *serverWatch, when string) {
	w.exited = fmt.Sprintf("the server exited %s in round %d (%s)", when, w.round, sweep.ExitText(w.srv.Err()))
	r.logf("round %d/%d: %s: %s; the rest of its round is not measured; last lines of %s:\n%s",
		w.round, r.cfg.Rounds, w.target.ID(), w.exited, w.srv.LogPath(), indent(w.srv.LogTail(exitTail)))
}

// indent puts four spaces before every line of s.
func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
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
			most, level = t.RateConnections, fmt.Sprintf("%s %s", t.Name, sweep.Shot{Concurrency: t.RateConnections, Rate: t.Rate}.Level())
		}
	}
	if limit == 0 || most == 0 || limit >= uint64(most+fdSpare) {
		return ""
	}
	return fmt.Sprintf("harness: open-file limit %d is below %s + %d spare; those samples may fail as harness faults (ulimit -n)", limit, level, fdSpare)
}

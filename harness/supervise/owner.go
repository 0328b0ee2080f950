package supervise

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/internal/procs"
)

// ErrExiting is the error Start (wrapped, naming the framework) and Run
// return once KillAll has run: the harness is on its way out and starts
// nothing more.
var ErrExiting = errors.New("harness is exiting")

// registry holds the servers and builds this harness started and has not
// yet seen end (a server until Stop has ended all its processes, a build
// until its command returned), so KillAll can find them.
var registry = struct {
	sync.Mutex
	exiting bool
	seq     int
	live    map[string]*owned // by owner tag
}{live: map[string]*owned{}}

// owned is one registered server or build.
type owned struct {
	pgid int     // process group (the leader's pid); 0 until spawned
	srv  *Server // nil for a build
}

// ownerPrefix is the start of every framework.EnvOwner value this harness
// gives out.
func ownerPrefix() string { return strconv.Itoa(os.Getpid()) + "-" }

// register reserves a new owner tag before a server or build is spawned.
// Errors: ErrExiting after KillAll.
func register() (string, error) {
	registry.Lock()
	defer registry.Unlock()
	if registry.exiting {
		return "", ErrExiting
	}
	registry.seq++
	tag := ownerPrefix() + strconv.Itoa(registry.seq)
	registry.live[tag] = &owned{}
	return tag, nil
}

// spawned records the process group of a registered tag. Errors:
// ErrExiting when KillAll ran meanwhile; the caller must then kill what it
// spawned (KillAll did not know its group).
func spawned(tag string, pgid int, srv *Server) error {
	registry.Lock()
	defer registry.Unlock()
	if e := registry.live[tag]; e != nil {
		e.pgid, e.srv = pgid, srv
	}
	if registry.exiting {
		return ErrExiting
	}
	return nil
}

func unregister(tag string) {
	registry.Lock()
	defer registry.Unlock()
	delete(registry.live, tag)
}

// KillAll sends SIGKILL, without waiting, to every server and build this harness
// started and has not seen end: their process groups, processes tagged with their
// TFBENCH_OWNER, and descendants; it returns how many were registered. Meant for
// the second Ctrl-C: afterwards Start and Run fail with ErrExiting.
func KillAll() int {
	registry.Lock()
	registry.exiting = true
	entries := make([]owned, 0, len(registry.live))
	for _, e := range registry.live {
		entries = append(entries, *e)
	}
	registry.Unlock()

	// Read the tree before killing: a dead parent's children are
	// re-parented and can no longer be found as its descendants.
	ps, _ := procs.Table()
	prefix := ownerPrefix()
	victims := procs.Tagged(since(ps, selfStart()), framework.EnvOwner, func(v string) bool { return strings.HasPrefix(v, prefix) })
	for _, e := range entries {
		if e.pgid > 0 {
			victims = append(victims, procs.Group(ps, e.pgid)...)
		}
		if e.srv != nil {
			victims = append(victims, procs.Alive(ps, e.srv.knownProcs())...)
		}
	}
	victims = append(victims, procs.Descendants(ps, pidsOf(victims)...)...)
	for _, e := range entries {
		// A group with members keeps its id from being reused.
		if e.pgid > 0 && len(procs.Group(ps, e.pgid)) > 0 {
			syscall.Kill(-e.pgid, syscall.SIGKILL)
		}
	}
	procs.Kill(dedup(victims), syscall.SIGKILL)
	return len(entries)
}

// OwnedBy returns the live processes whose TFBENCH_OWNER names the harness
// process harnessPid ("<harnessPid>-<n>"): what it left running. Tests use it
// to check that nothing survived.
func OwnedBy(harnessPid int) ([]procs.Proc, error) {
	ps, err := procs.Table()
	if err != nil {
		return nil, err
	}
	prefix := strconv.Itoa(harnessPid) + "-"
	return procs.Tagged(ps, framework.EnvOwner, func(v string) bool { return strings.HasPrefix(v, prefix) }), nil
}

// killLeftovers sends SIGKILL to what is left of a finished command: the
// live members of process group pgid and the processes tagged owner, and
// returns them (nil when nothing was left).
func killLeftovers(pgid int, owner string) []procs.Proc {
	ps, err := procs.Table()
	if err != nil {
		return nil
	}
	left := append(procs.Group(ps, pgid), procs.Tagged(ps, framework.EnvOwner, func(v string) bool { return v == owner })...)
	left = append(left, procs.Descendants(ps, pidsOf(left)...)...)
	left = dedup(left)
	// Not kill(-pgid): the leader has been reaped, its pid may be reused.
	procs.Kill(left, syscall.SIGKILL)
	return left
}

// since returns the processes of ps started at or after start (procs.Proc.Start:
// clock ticks after boot on Linux, µs on darwin); only these can have inherited a
// tag, so Tagged need not read older processes' environments.
func since(ps []procs.Proc, start uint64) []procs.Proc {
	out := make([]procs.Proc, 0, len(ps))
	for _, p := range ps {
		if p.Start >= start {
			out = append(out, p)
		}
	}
	return out
}

// selfStart is the harness process's start time (0 if unreadable).
func selfStart() uint64 {
	p, err := procs.Get(os.Getpid())
	if err != nil {
		return 0
	}
	return p.Start
}

func pidsOf(ps []procs.Proc) []int {
	out := make([]int, len(ps))
	for i, p := range ps {
		out[i] = p.Pid
	}
	return out
}

// dedup drops repeated processes (same pid), keeping the first.
func dedup(ps []procs.Proc) []procs.Proc {
	seen := make(map[int]bool, len(ps))
	out := ps[:0:0]
	for _, p := range ps {
		if !seen[p.Pid] {
			seen[p.Pid] = true
			out = append(out, p)
		}
	}
	return out
}

// KillOwnedBy sends SIGKILL to what the harness process harnessPid left running
// (the processes its TFBENCH_OWNER tags name, and their descendants: what an
// agent that died mid-run leaves behind) and returns how many it signalled.
func KillOwnedBy(harnessPid int) (int, error) {
	ps, err := procs.Table()
	if err != nil {
		return 0, err
	}
	prefix := strconv.Itoa(harnessPid) + "-"
	victims := procs.Tagged(ps, framework.EnvOwner, func(v string) bool { return strings.HasPrefix(v, prefix) })
	victims = dedup(append(victims, procs.Descendants(ps, pidsOf(victims)...)...))
	procs.Kill(victims, syscall.SIGKILL)
	return len(victims), nil
}

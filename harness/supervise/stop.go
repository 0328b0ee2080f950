package supervise

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/internal/procs"
)

// killWait bounds the wait for the process group to vanish after SIGKILL.
const killWait = 5 * time.Second

// Stop ends the server's processes (its group, those tagged with its Owner and
// every descendant seen, Processes): SIGTERM, SIGKILL after grace, then removes
// EventLoopDir. Errors list any alive 5 s after SIGKILL; an exit of its own is
// none (Err). Idempotent and safe for concurrent use.
func (s *Server) Stop(grace time.Duration) error {
	s.stopOnce.Do(func() {
		s.stopErr = s.stop(grace)
		if s.stopErr == nil {
			unregister(s.Owner)
		}
		if s.EventLoopDir != "" {
			if err := os.RemoveAll(s.EventLoopDir); err != nil {
				s.stopErr = errors.Join(s.stopErr, fmt.Errorf("framework %s: event-loop folder: %w", s.Spec.Name, err))
			}
		}
	})
	return s.stopErr
}

// stopPoll is the interval of Stop's checks; each reads the process table
// whole (procs.Table; about 2 ms for 100 processes from Linux's /proc).
const stopPoll = 20 * time.Millisecond

func (s *Server) stop(grace time.Duration) error {
	if err := s.signal(syscall.SIGTERM); err != nil {
		return err
	}
	if _, gone := s.waitGone(grace, syscall.SIGTERM); gone {
		return nil
	}
	if err := s.signal(syscall.SIGKILL); err != nil {
		return err
	}
	left, gone := s.waitGone(killWait, syscall.SIGKILL)
	if gone {
		return nil
	}
	if left == nil {
		if _, err := procs.Table(); err != nil {
			return fmt.Errorf("framework %s: cannot tell whether its processes ended %s after SIGKILL: %w", s.Spec.Name, killWait, err)
		}
		return fmt.Errorf("framework %s: leader %d not reaped %s after SIGKILL", s.Spec.Name, s.Pid, killWait)
	}
	return fmt.Errorf("framework %s: processes %v still alive %s after SIGKILL", s.Spec.Name, left, killWait)
}

// signal sends sig to the process group and to every live process of the
// server (Processes). Errors: the group cannot be signalled (not ESRCH).
func (s *Server) signal(sig syscall.Signal) error {
	ps, err := procs.Table()
	if err != nil {
		// Without the process table, the group is all Stop can reach.
		ps = nil
	}
	alive, _ := s.track(ps)
	s.mu.Lock()
	groupGone := s.groupGone
	s.mu.Unlock()
	if !groupGone {
		// The leader's pid (the group id) is not reused while the leader
		// is unreaped or the group has members.
		if err := syscall.Kill(-s.Pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
			return fmt.Errorf("framework %s: %s process group %d: %w", s.Spec.Name, unix.SignalName(sig), s.Pid, err)
		}
	}
	// A process that refuses the signal (another user's) shows up among
	// the survivors Stop reports.
	procs.Kill(alive, sig)
	return nil
}

func (s *Server) reaped() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// waitGone waits up to d for the leader to be reaped and no process of
// the server to be alive, sending sig to processes it finds on the way. It
// returns the live ones at the last check.
func (s *Server) waitGone(d time.Duration, sig syscall.Signal) ([]procs.Proc, bool) {
	deadline := time.Now().Add(d)
	var left []procs.Proc
	for {
		reaped := s.reaped()
		if ps, err := procs.Table(); err == nil {
			var added []procs.Proc
			left, added = s.track(ps)
			procs.Kill(added, sig)
			if reaped && len(left) == 0 {
				return nil, true
			}
		}
		if time.Now().After(deadline) {
			return left, false
		}
		time.Sleep(stopPoll)
	}
}

// Processes returns the server's live processes (its group, those tagged with
// its Owner, and descendants of these and of all seen before) and remembers them
// for Stop, even once they leave the group; probes may call it to widen that.
func (s *Server) Processes() ([]procs.Proc, error) {
	ps, err := procs.Table()
	if err != nil {
		return nil, fmt.Errorf("framework %s: %w", s.Spec.Name, err)
	}
	alive, _ := s.track(ps)
	return alive, nil
}

// track adds the server's processes found in table ps to the known set
// and returns the known ones alive in ps and those newly added. The
// process-table reads happen outside the lock, so KillAll never waits on them.
func (s *Server) track(ps []procs.Proc) (alive, added []procs.Proc) {
	known := s.knownProcs()
	s.mu.Lock()
	groupGone := s.groupGone
	s.mu.Unlock()
	var cur []procs.Proc
	if !groupGone {
		cur = procs.Group(ps, s.Pid)
		groupGone = len(cur) == 0 && s.reaped() && ps != nil
	}
	cur = append(cur, procs.Tagged(since(ps, s.born), framework.EnvOwner, func(v string) bool { return v == s.Owner })...)
	roots := append(pidsOf(cur), pidsOf(procs.Alive(ps, known))...)
	if !groupGone {
		// The leader's pid is its group's id, not reused while the group
		// lives; after that it may name a stranger.
		roots = append(roots, s.Pid)
	}
	cur = append(cur, procs.Descendants(ps, roots...)...)

	s.mu.Lock()
	s.groupGone = s.groupGone || groupGone
	for _, p := range cur {
		if k, ok := s.known[p.Pid]; ok && k.Start == p.Start {
			continue
		}
		s.known[p.Pid] = p
		added = append(added, p)
	}
	known = known[:0]
	for _, p := range s.known {
		known = append(known, p)
	}
	s.mu.Unlock()
	alive = procs.Alive(ps, known)
	slices.SortFunc(alive, func(a, b procs.Proc) int { return a.Pid - b.Pid })
	return alive, added
}

// knownProcs returns every process seen as the server's (alive or not).
func (s *Server) knownProcs() []procs.Proc {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]procs.Proc, 0, len(s.known))
	for _, p := range s.known {
		out = append(out, p)
	}
	return out
}

// GroupMembers lists the pids of the live processes (state not Z or X)
// whose process group id is pgid, from the process table (procs.Table); an
// empty result means the group is gone (or the table is unreadable).
func GroupMembers(pgid int) []int {
	ps, _ := procs.Table()
	return pidsOf(procs.Group(ps, pgid))
}

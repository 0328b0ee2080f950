// Package procs reads the process table and signals
// processes by identity: a pid together with its start time, so that a pid
// the kernel has meanwhile given to an unrelated process is never
// signalled. The harness uses it to find every process a server or build
// spawned, including those that left its process group (setsid, setpgid,
// a double fork) — by the environment tag they inherit (Tagged) and by the
// parent links seen while they were still in the tree (Descendants).
// Linux reads /proc and signals through a pidfd (procs_linux.go); darwin
// reads sysctl kern.proc and kern.procargs2 and signals with kill(2)
// (procs_darwin.go). Other systems do not build.
package procs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Proc is one process as /proc/PID/stat (Linux) or kinfo_proc (darwin,
// see fromKinfo) describes it.
type Proc struct {
	// Pid is the process id.
	Pid int
	// PPid is the parent's process id (1 or a subreaper once the parent
	// died: the process was re-parented).
	PPid int
	// Pgid is the process group id.
	Pgid int
	// Sid is the session id (on darwin from getsid(2); 0 when refused).
	Sid int
	// Start is the start time: on Linux in clock ticks after boot (stat
	// field 22), on darwin in microseconds since the Unix epoch (kinfo_proc
	// p_starttime, wall clock: a clock stepped back breaks the order).
	// With Pid it identifies the process across pid reuse, and later
	// processes have larger ones.
	Start uint64
	// State is the state letter: R running, S sleeping, D disk wait,
	// T stopped, Z zombie, X dead, ...
	State byte
	// Comm is the command name (at most 15 bytes on Linux, 16 on darwin,
	// as the kernel keeps it).
	Comm string
}

// Live reports whether p is neither a zombie (Z) nor dead (X): a zombie has
// exited and only waits for its parent to reap it.
func (p Proc) Live() bool { return p.State != 'Z' && p.State != 'X' && p.State != 'x' }

// String is "PID (COMM)", e.g. "123 (sleep)".
func (p Proc) String() string { return strconv.Itoa(p.Pid) + " (" + p.Comm + ")" }

// ParseStat reads a /proc/PID/stat line. The command name in parentheses
// may hold spaces and parentheses, so fields are counted from the last
// ')'. Errors: a line without "(comm)", or with fewer than 22 fields, or a
// field that is not a number.
func ParseStat(b []byte) (Proc, error) {
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return Proc{}, fmt.Errorf("stat %q: no (comm)", trunc(b))
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b[:open])))
	if err != nil {
		return Proc{}, fmt.Errorf("stat %q: pid: %w", trunc(b), err)
	}
	// After ")": state(3) ppid(4) pgrp(5) session(6) ... starttime(22).
	f := strings.Fields(string(b[end+1:]))
	if len(f) < 20 || len(f[0]) != 1 {
		return Proc{}, fmt.Errorf("stat %q: %d fields after the command name, want at least 20", trunc(b), len(f))
	}
	p := Proc{Pid: pid, State: f[0][0], Comm: string(b[open+1 : end])}
	var errs [4]error
	p.PPid, errs[0] = strconv.Atoi(f[1])
	p.Pgid, errs[1] = strconv.Atoi(f[2])
	p.Sid, errs[2] = strconv.Atoi(f[3])
	p.Start, errs[3] = strconv.ParseUint(f[19], 10, 64)
	if err := errors.Join(errs[:]...); err != nil {
		return Proc{}, fmt.Errorf("stat %q: %w", trunc(b), err)
	}
	return p, nil
}

func trunc(b []byte) string {
	if len(b) > 80 {
		return string(b[:80]) + "…"
	}
	return string(b)
}

// Group returns the live processes of ps whose process group is pgid; an
// empty result means the group is gone.
func Group(ps []Proc, pgid int) []Proc {
	var out []Proc
	for _, p := range ps {
		if p.Pgid == pgid && p.Live() {
			out = append(out, p)
		}
	}
	return out
}

// Descendants returns the live processes of ps below any of roots
// (children, their children, ...), roots themselves excluded, in ps's
// order. Only the parent links present in ps count: a process whose parent
// died before ps was read has been re-parented and is no longer found.
func Descendants(ps []Proc, roots ...int) []Proc {
	kids := make(map[int][]int, len(ps))
	for _, p := range ps {
		kids[p.PPid] = append(kids[p.PPid], p.Pid)
	}
	isRoot := make(map[int]bool, len(roots))
	for _, r := range roots {
		isRoot[r] = true
	}
	below := map[int]bool{}
	stack := slices.Clone(roots)
	for len(stack) > 0 {
		pid := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, k := range kids[pid] {
			if !below[k] && !isRoot[k] && k != pid {
				below[k] = true
				stack = append(stack, k)
			}
		}
	}
	var out []Proc
	for _, p := range ps {
		if below[p.Pid] && p.Live() {
			out = append(out, p)
		}
	}
	return out
}

// Tagged returns the live processes of ps whose environment (as exec gave
// it: /proc/PID/environ on Linux, kern.procargs2 on darwin) holds name with a value match accepts. The tag
// survives setsid, setpgid and double forks, as every child inherits the
// environment unless it is cleared on purpose. Processes whose environment
// cannot be read (another user's, or non-dumpable ones) are left out.
func Tagged(ps []Proc, name string, match func(value string) bool) []Proc {
	prefix := []byte(name + "=")
	var out []Proc
	for _, p := range ps {
		if !p.Live() || p.Pid == 0 {
			continue
		}
		env, err := environ(p.Pid)
		if err != nil {
			continue
		}
		for _, e := range env {
			if bytes.HasPrefix(e, prefix) && match(string(e[len(prefix):])) {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// Alive returns the processes of known that are still live in ps: the
// same pid with the same start time, not a zombie. A known process whose
// pid now belongs to another process (pid reuse) is not alive.
func Alive(ps, known []Proc) []Proc {
	now := make(map[int]Proc, len(ps))
	for _, p := range ps {
		now[p.Pid] = p
	}
	var out []Proc
	for _, k := range known {
		if p, ok := now[k.Pid]; ok && p.Start == k.Start && p.Live() {
			out = append(out, p)
		}
	}
	return out
}

// Kill sends sig to each process of ps that is still the process it was:
// same pid and start time, not a zombie. On Linux it opens a pidfd first
// (Linux ≥ 5.3; plain kill(2) after the same check on older kernels), so
// the pid cannot be reused between the check and the signal; darwin has no
// pidfd, so there the check and kill(2) leave a small window (killOne). It never signals
// pid ≤ 1 or the calling process. It returns how many processes it
// signalled; processes that are gone are skipped silently. Errors: a
// signal the kernel refused (EPERM for another user's process), each
// naming the process.
func Kill(ps []Proc, sig syscall.Signal) (int, error) {
	self := os.Getpid()
	n := 0
	var errs []error
	for _, p := range ps {
		if p.Pid <= 1 || p.Pid == self {
			continue
		}
		ok, err := killOne(p, sig)
		if ok {
			n++
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s to process %s: %w", unix.SignalName(sig), p, err))
		}
	}
	return n, errors.Join(errs...)
}

// same reports whether pid still holds p (same start time) and is live.
func same(p Proc) bool {
	now, err := Get(p.Pid)
	return err == nil && now.Start == p.Start && now.Live()
}

func signalled(err error) (bool, error) {
	if errors.Is(err, unix.ESRCH) {
		return false, nil
	}
	return err == nil, err
}

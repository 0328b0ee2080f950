// Package procs reads the process table and signals processes by identity,
// pid and start time, so a reused pid is never signalled. The harness finds
// every process a server or build spawned with it, even those that left its
// process group: by inherited environment tag (Tagged) and by parent links
// (Descendants). Linux uses /proc and pidfds, darwin sysctl and kill(2).
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
	// Start is the start time, clock ticks after boot on Linux, µs since the
	// Unix epoch on darwin (wall clock); with Pid it identifies the process
	// across pid reuse, and later processes have larger ones.
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

// ParseStat reads a /proc/PID/stat line, counting fields from the last ')'
// (the command name may hold spaces and parentheses); errors quote the line.
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

// Descendants returns the live processes of ps below any of roots, roots
// excluded, in ps's order; a process re-parented before ps was read is not
// found.
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

// Tagged returns the live processes of ps whose environment, as exec gave
// it, holds name with a value match accepts (it survives setsid and double
// forks); processes whose environment cannot be read are left out.
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

// Kill sends sig to each process of ps still the same (pid, start time,
// live), never pid ≤ 1 or itself, by pidfd on Linux (darwin: killOne); it
// returns how many it signalled, refused signals joined in the error.
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

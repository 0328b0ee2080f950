//go:build darwin

package procs

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// kinfo maps one kinfo_proc to a Proc; the session id comes from
// getsid(2), as kinfo_proc holds only a kernel pointer to the session
// (0 when refused).
func kinfo(k *unix.KinfoProc) Proc {
	sid, err := unix.Getsid(int(k.Proc.P_pid))
	if err != nil {
		sid = 0
	}
	return fromKinfo(k.Proc.P_pid, k.Eproc.Ppid, k.Eproc.Pgid, int32(sid), k.Proc.P_stat,
		k.Proc.P_comm[:], k.Proc.P_starttime.Sec, k.Proc.P_starttime.Usec)
}

// Get reads one process (sysctl kern.proc.pid.PID). Errors: the process
// does not exist (an error wrapping fs.ErrNotExist; the kernel answers
// with no record, which x/sys reports as EIO) or sysctl failed.
func Get(pid int) (Proc, error) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if errors.Is(err, unix.EIO) || (err == nil && int(k.Proc.P_pid) != pid) {
		return Proc{}, &fs.PathError{Op: "sysctl", Path: "kern.proc.pid." + strconv.Itoa(pid), Err: syscall.ENOENT}
	}
	if err != nil {
		return Proc{}, &fs.PathError{Op: "sysctl", Path: "kern.proc.pid." + strconv.Itoa(pid), Err: err}
	}
	return kinfo(k), nil
}

// Table reads every process (sysctl kern.proc.all; zombies included, see
// Live) in ascending pid order. Errors: sysctl failed.
func Table() ([]Proc, error) {
	ks, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return nil, fmt.Errorf("process table: sysctl kern.proc.all: %w", err)
	}
	out := make([]Proc, 0, len(ks))
	for i := range ks {
		if ks[i].Proc.P_pid < 0 {
			continue
		}
		out = append(out, kinfo(&ks[i]))
	}
	slices.SortFunc(out, func(a, b Proc) int { return a.Pid - b.Pid })
	return out, nil
}

// environ is the environment of pid as exec gave it, from sysctl
// kern.procargs2.PID (parseProcargs2). Errors: sysctl refused (the process
// is gone or another user's) or the buffer is malformed.
func environ(pid int) ([][]byte, error) {
	b, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		return nil, err
	}
	return parseProcargs2(b)
}

// killOne signals p if pid still holds p (same start time, live). Without
// a pidfd a reuse between check and kill(2) could be signalled, but that
// needs the pid space to wrap within one sysctl, so the harness accepts it.
func killOne(p Proc, sig syscall.Signal) (bool, error) {
	if !same(p) {
		return false, nil
	}
	return signalled(syscall.Kill(p.Pid, sig))
}

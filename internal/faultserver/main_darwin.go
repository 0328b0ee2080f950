//go:build darwin

package faultserver

import (
	"golang.org/x/sys/unix"
)

// daemonScript is escapees' double fork. macOS has no setsid(1), so perl
// (part of macOS) calls setsid(2) in the background job, which is not a
// group leader, and execs sleep in place: $! is the daemon's pid.
const daemonScript = `perl -MPOSIX -e 'POSIX::setsid() or die "setsid: $!"; exec "sleep", "300"' </dev/null >/dev/null 2>&1 & echo $!`

// readStat reads comm, ppid and pgrp from sysctl kern.proc.pid.PID
// (kinfo_proc p_comm, e_ppid, e_pgid) and the session from getsid(2), as
// kinfo_proc holds only a kernel pointer to it.
func readStat(pid int) (comm string, ppid, pgrp, sid int, ok bool) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || int(k.Proc.P_pid) != pid {
		return "", 0, 0, 0, false
	}
	sid, err = unix.Getsid(pid)
	if err != nil {
		return "", 0, 0, 0, false
	}
	c := k.Proc.P_comm[:]
	for i, b := range c {
		if b == 0 {
			c = c[:i]
			break
		}
	}
	return string(c), int(k.Eproc.Ppid), int(k.Eproc.Pgid), sid, true
}

//go:build linux

package supervise

import "syscall"

// groupAttr is the SysProcAttr of servers and builds: a process group of
// their own (its id the leader's pid, signalled as -pgid), and SIGKILL to
// the leader should the harness thread that started it die (Pdeathsig).
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

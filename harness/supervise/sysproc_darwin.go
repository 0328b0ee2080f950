//go:build darwin

package supervise

import "syscall"

// groupAttr is the SysProcAttr of servers and builds: a process group of
// their own (its id the leader's pid, signalled as -pgid). darwin has no
// parent-death signal: a harness killed with SIGKILL leaves them running
// (found afterwards by their TFBENCH_OWNER tag, OwnedBy); KillAll and Stop
// still end them on every other way out.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

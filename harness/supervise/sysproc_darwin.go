//go:build darwin

package supervise

import "syscall"

// groupAttr is the SysProcAttr of servers and builds: a process group of their
// own (signalled as -pgid). darwin has no parent-death signal, so a harness
// killed with SIGKILL leaves them running, found later by tag (OwnedBy).
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

package supervise

import (
	"os/exec"
	"syscall"
	"time"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/internal/procs"
)

// Run runs cmd (a build) to its end in a process group of its own with a new
// TFBENCH_OWNER tag, killed when its context ends or KillAll runs, then kills
// and returns what it left running. After KillAll it returns ErrExiting.
func Run(cmd *exec.Cmd) (left []procs.Proc, err error) {
	owner, err := register()
	if err != nil {
		return nil, err
	}
	defer unregister(owner)
	if cmd.Env == nil {
		cmd.Env = cmd.Environ()
	}
	cmd.Env = append(cmd.Env, framework.EnvOwner+"="+owner)
	cmd.SysProcAttr = groupAttr()
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	// A grandchild holding the output pipe open must not hang Wait forever.
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	if err := spawned(owner, cmd.Process.Pid, nil); err != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
		return nil, err
	}
	err = cmd.Wait()
	return killLeftovers(cmd.Process.Pid, owner), err
}

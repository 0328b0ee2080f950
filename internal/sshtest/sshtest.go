// Package sshtest gives tests a second host to drive over real SSH: a network
// namespace joined to this one by a veth pair, with Debian's sshd in it; Linux
// and root only, else Start skips the test. It shares this machine's files,
// users and processes: remote commands run as root by `SHELL -c CMD` with HOME
// an empty Host.Home, this process's PATH, its go env GOCACHE, GOMODCACHE and
// GOPATH, and what sshd sets (USER, LOGNAME, SHELL, MAIL, SSH_CLIENT,
// SSH_CONNECTION); its network is Addr, LocalAddr and loopback, no internet.
package sshtest

import (
	"context"
	"fmt"
	"os/exec"
	"slices"
	"strconv"
	"testing"
)

// Host is a stand-in remote host: a network namespace joined to this one by
// a veth pair, running Debian's sshd on Addr:Port. Start makes one; the
// test's cleanup stops it and fails the test if anything was left running.
type Host struct {
	Namespace string   // the network namespace, "tfbtest-<pid>-<n>"
	Addr      string   // the remote's address as seen from here, e.g. "10.213.0.74"
	LocalAddr string   // this end of the veth, e.g. "10.213.0.73" (a /29 shared with Addr)
	Port      int      // sshd's TCP port in the namespace (2222, so callers must pass a port)
	User      string   // "root"
	Dest      string   // "root@10.213.0.74": ssh SSHArgs... Dest CMD
	SSHArgs   []string // ssh options for Dest: -F /dev/null, -i KEY, -p PORT, the host key pinned, BatchMode, ConnectTimeout=5
	Config    string   // an ssh_config with the same options, for `ssh -F Config Namespace CMD` (or Dest in place of the alias)
	Home      string   // HOME of remote sessions, an empty temporary directory
	SSHDPid   int      // sshd's listening process, the one process the namespace may hold when clean

	wrongKey   string // a client key that authorized_keys does not hold
	noHostAddr string // on the subnet, nothing there: ARP fails
	silentAddr string // on the subnet, frames go out and nothing answers
	platform          // what the OS-specific half keeps
}

// ConnectTimeout is the ssh ConnectTimeout in SSHArgs and Config, seconds:
// how long ssh waits on SilentDest before "Connection timed out".
const ConnectTimeout = 5

// RefusedPort is a port on Addr where nothing listens (connection refused
// at once); RefusedArgs points SSHArgs at it.
const RefusedPort = 2223

// Command returns ssh running remote on the host with SSHArgs, for the
// caller to start: exec.CommandContext(ctx, "ssh", SSHArgs..., Dest, remote...).
func (h *Host) Command(ctx context.Context, remote ...string) *exec.Cmd {
	args := append(slices.Clone(h.SSHArgs), h.Dest)
	return exec.CommandContext(ctx, "ssh", append(args, remote...)...)
}

// RefusedArgs returns SSHArgs with the port replaced (not appended: ssh
// keeps the first -p) by RefusedPort, so ssh fails at once with
// "Connection refused".
func (h *Host) RefusedArgs() []string {
	return replaceArg(h.SSHArgs, "-p", strconv.Itoa(RefusedPort))
}

// WrongKeyArgs returns SSHArgs with a fresh ed25519 key that the host does
// not authorize: ssh fails with "root@ADDR: Permission denied (publickey).".
func (h *Host) WrongKeyArgs() []string {
	return replaceArg(h.SSHArgs, "-i", h.wrongKey)
}

// UnreachableDest returns "root@ADDR" for an address on the veth's subnet
// where no host is: ARP gets no answer and ssh fails after about 3 s with
// "ssh: connect to host ADDR port 2222: No route to host".
func (h *Host) UnreachableDest() string { return h.User + "@" + h.noHostAddr }

// SilentDest returns "root@ADDR" for an address on the subnet whose frames
// go out and are dropped, as a firewall does: ssh fails after
// ConnectTimeout with "ssh: connect to host ADDR port 2222: Connection timed out".
func (h *Host) SilentDest() string { return h.User + "@" + h.silentAddr }

// CheckClean fails t (t.Errorf) when Clean finds a process left running in
// the namespace beyond sshd's listener, or one here naming the host. Call it
// at the end of a workload; the test's cleanup checks again in any case.
func (h *Host) CheckClean(t testing.TB) {
	t.Helper()
	if err := h.Clean(); err != nil {
		t.Error(err)
	}
}

// replaceArg returns a copy of args with the value after flag set to value.
func replaceArg(args []string, flag, value string) []string {
	out := slices.Clone(args)
	for i := 0; i+1 < len(out); i++ {
		if out[i] == flag {
			out[i+1] = value
			return out
		}
	}
	panic(fmt.Sprintf("sshtest: no %s in %q", flag, args))
}

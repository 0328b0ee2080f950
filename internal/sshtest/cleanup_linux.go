//go:build linux

package sshtest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Processes returns the pids running in the namespace (ip netns pids),
// sshd's listener (SSHDPid) among them.
func (h *Host) Processes() ([]int, error) { return nsPids(h.Namespace) }

func nsPids(ns string) ([]int, error) {
	out, err := ip("netns", "pids", ns)
	if err != nil {
		return nil, fmt.Errorf("ip netns pids %s: %v: %s", ns, err, strings.TrimSpace(out))
	}
	var pids []int
	for _, f := range strings.Fields(out) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("ip netns pids %s: %q is no pid", ns, f)
		}
		pids = append(pids, pid)
	}
	return pids, nil
}

// proc is a process and its command line.
type proc struct {
	pid int
	cmd string
}

// Clean waits up to 3 s for the namespace to hold only sshd's listener and
// for no process here to name the host in its command line; else its error
// names each stray, which the test's cleanup then does not report again.
func (h *Host) Clean() error {
	remote, local, err := h.waitStrays(false)
	if err != nil {
		return err
	}
	h.mu.Lock()
	for _, p := range append(remote, local...) {
		h.reported[p.pid] = true
	}
	h.mu.Unlock()
	return h.straysError(remote, local)
}

func (h *Host) straysError(remote, local []proc) error {
	var errs []error
	if len(remote) > 0 {
		errs = append(errs, fmt.Errorf("sshtest: left running in namespace %s: %s", h.Namespace, describe(remote)))
	}
	if len(local) > 0 {
		errs = append(errs, fmt.Errorf("sshtest: left running here, naming the host %s: %s", h.Namespace, describe(local)))
	}
	return errors.Join(errs...)
}

func describe(ps []proc) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = fmt.Sprintf("pid %d (%s)", p.pid, p.cmd)
	}
	return strings.Join(s, ", ")
}

// waitStrays polls strays until there are none (none not yet reported, with
// unreported) or cleanGrace has passed.
func (h *Host) waitStrays(unreported bool) (remote, local []proc, err error) {
	deadline := time.Now().Add(cleanGrace)
	for {
		remote, local, err = h.strays()
		if err != nil {
			return nil, nil, err
		}
		if unreported {
			h.mu.Lock()
			seen := func(p proc) bool { return h.reported[p.pid] }
			remote, local = slices.DeleteFunc(remote, seen), slices.DeleteFunc(local, seen)
			h.mu.Unlock()
		}
		if len(remote)+len(local) == 0 || time.Now().After(deadline) {
			return remote, local, nil
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// strays lists the processes in the namespace other than sshd's listener,
// and those outside it whose command line names the host.
func (h *Host) strays() (remote, local []proc, err error) {
	pids, err := h.Processes()
	if err != nil {
		return nil, nil, err
	}
	inside := map[int]bool{}
	for _, pid := range pids {
		inside[pid] = true
		if pid == h.SSHDPid {
			continue
		}
		if cmd, ok := cmdline(pid); ok {
			remote = append(remote, proc{pid, cmd})
		}
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, nil, err
	}
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self || inside[pid] || pid == h.SSHDPid {
			continue
		}
		raw, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || len(raw) == 0 {
			continue // gone, or a kernel thread or zombie
		}
		cmd := strings.TrimSpace(strings.ReplaceAll(string(raw), "\x00", " "))
		if h.namedIn(cmd) {
			local = append(local, proc{pid, cmd})
		}
	}
	return remote, local, nil
}

// namedIn tells whether cmd names the host: its address (not as the prefix
// of a longer one), namespace, Config or client key.
func (h *Host) namedIn(cmd string) bool {
	for _, name := range []string{h.Addr, h.Namespace, h.Config, h.key} {
		for i := 0; name != ""; {
			j := strings.Index(cmd[i:], name)
			if j < 0 {
				break
			}
			start, end := i+j, i+j+len(name)
			before := start == 0 || !strings.ContainsRune("0123456789.", rune(cmd[start-1]))
			after := end == len(cmd) || !strings.ContainsRune("0123456789.", rune(cmd[end]))
			if before && after {
				return true
			}
			i = start + 1
		}
	}
	return false
}

// cmdline returns pid's command line, spaces for NULs; [comm] when it has
// none; false when the process is gone.
func cmdline(pid int) (string, bool) {
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	raw, err := os.ReadFile(filepath.Join(dir, "cmdline"))
	if err != nil {
		return "", false
	}
	if cmd := strings.TrimSpace(strings.ReplaceAll(string(raw), "\x00", " ")); cmd != "" {
		return cmd, true
	}
	comm, err := os.ReadFile(filepath.Join(dir, "comm"))
	if err != nil {
		return "", false
	}
	return "[" + strings.TrimSpace(string(comm)) + "]", true
}

// stop is the cleanup: it fails t for strays Clean has not reported, kills
// them here and everything in the namespace, waits for that to be gone and
// deletes the veth pair and the namespace. sshd's log goes to t's output when t has failed.
func (h *Host) stop(t testing.TB) {
	t.Helper()
	if h.sshdDone != nil {
		select {
		case <-h.sshdDone:
			t.Errorf("sshtest: sshd of %s exited before the cleanup: %v", h.Namespace, h.sshdErr)
		default:
		}
	}
	if remote, local, err := h.waitStrays(true); err != nil {
		t.Errorf("sshtest: %v", err)
	} else if err := h.straysError(remote, local); err != nil {
		t.Error(err)
	}
	// Clients here naming the host (reported now or by Clean) would
	// outlive it: an ssh with no ServerAlive waits on TCP for hours.
	if _, local, err := h.strays(); err == nil {
		for _, p := range local {
			_ = syscall.Kill(p.pid, syscall.SIGKILL) // ESRCH: gone since
		}
	}
	if err := killAll(h.Namespace); err != nil {
		t.Errorf("sshtest: %v", err)
	}
	if h.sshdDone != nil {
		select {
		case <-h.sshdDone:
		case <-time.After(killWithin):
			t.Errorf("sshtest: sshd (pid %d) not reaped %v after SIGKILL", h.SSHDPid, killWithin)
		}
	}
	if h.hostVeth != "" {
		if out, err := ip("link", "del", h.hostVeth); err != nil && !strings.Contains(out, "Cannot find device") {
			t.Errorf("sshtest: ip link del %s: %v: %s", h.hostVeth, err, strings.TrimSpace(out))
		}
	}
	if out, err := ip("netns", "del", h.Namespace); err != nil {
		t.Errorf("sshtest: ip netns del %s: %v: %s", h.Namespace, err, strings.TrimSpace(out))
	}
	if t.Failed() && h.log != "" {
		t.Logf("sshtest: sshd's log for %s:\n%s", h.Namespace, h.readLog())
	}
}

// killAll sends SIGKILL to every process in ns until none is left (a
// process may fork meanwhile), within killWithin.
func killAll(ns string) error {
	deadline := time.Now().Add(killWithin)
	for {
		pids, err := nsPids(ns)
		if err != nil {
			return err
		}
		if len(pids) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("still running in namespace %s %v after SIGKILL: pids %v", ns, killWithin, pids)
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL) // ESRCH: already gone
		}
		time.Sleep(20 * time.Millisecond)
	}
}

var staleName = regexp.MustCompile(`^tfbtest-(\d+)-\d+$`)

// reclaimStale deletes the namespaces of test processes that died without
// their cleanup (a go test timeout, a kill): sshd itself died with them
// (Pdeathsig), but its sessions' processes may live on in the namespace.
func reclaimStale(t testing.TB) {
	entries, err := os.ReadDir(netnsDir)
	if err != nil {
		return // no namespace yet
	}
	for _, e := range entries {
		m := staleName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		pid, _ := strconv.Atoi(m[1])
		if pid == os.Getpid() || !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
			continue // ours, or its test process still runs
		}
		if err := killAll(e.Name()); err != nil {
			t.Logf("sshtest: stale namespace %s: %v", e.Name(), err)
			continue
		}
		if out, err := ip("netns", "del", e.Name()); err != nil {
			t.Logf("sshtest: stale namespace %s: ip netns del: %v: %s", e.Name(), err, strings.TrimSpace(out))
		} else {
			t.Logf("sshtest: deleted the stale namespace %s (its test process %d is gone)", e.Name(), pid)
		}
	}
}

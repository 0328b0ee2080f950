package supervise

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/internal/procs"
)

// escapees returns the escape-mode fixture's processes that left the
// server's process group, by name (see the fixture's doc), and kills them
// at test end whatever happens.
func escapees(t *testing.T, srv *Server) map[string]procs.Proc {
	t.Helper()
	var p struct{ Escapees map[string]int }
	if err := json.Unmarshal([]byte(getBody(t, srv.BaseURL+"/pids")), &p); err != nil {
		t.Fatal(err)
	}
	out := map[string]procs.Proc{}
	for name, pid := range p.Escapees {
		pr, err := procs.Get(pid)
		if err != nil {
			t.Fatalf("escapee %s (pid %d): %v", name, pid, err)
		}
		out[name] = pr
		killAtEnd(t, pr)
	}
	if len(out) != 3 {
		t.Fatalf("escapees %v, want setsid, setsid-noenv and daemon", p.Escapees)
	}
	return out
}

// tagged returns the live processes tagged with owner.
func tagged(t *testing.T, owner string) []procs.Proc {
	t.Helper()
	ps, err := procs.Table()
	if err != nil {
		t.Fatal(err)
	}
	return procs.Tagged(ps, framework.EnvOwner, func(v string) bool { return v == owner })
}

func hasPid(ps []procs.Proc, pid int) bool {
	return slices.ContainsFunc(ps, func(p procs.Proc) bool { return p.Pid == pid })
}

// TestStopKillsEscapees: processes in their own session, with and without
// the owner tag, die with Stop.
func TestStopKillsEscapees(t *testing.T) {
	spec, build := fixture(t)
	srv, err := start(t, spec, options(t, build, "escape"))
	if err != nil {
		t.Fatal(err)
	}
	esc := escapees(t, srv)
	self, others := fixturePids(t, srv)
	if !strings.HasPrefix(srv.Owner, strconv.Itoa(os.Getpid())+"-") {
		t.Errorf("Owner %q, want %d-<n>", srv.Owner, os.Getpid())
	}
	tags := tagged(t, srv.Owner)
	for name, p := range esc {
		// Each left the group: a session of its own.
		if p.Sid != p.Pid || p.Pgid != p.Pid || p.Pgid == srv.Pid {
			t.Errorf("escapee %s %v: sid %d pgid %d, want both its own pid (server group %d)", name, p, p.Sid, p.Pgid, srv.Pid)
		}
		if want := name != "setsid-noenv"; hasPid(tags, p.Pid) != want {
			t.Errorf("escapee %s %v tagged %s=%s: %v, want %v", name, p, framework.EnvOwner, srv.Owner, !want, want)
		}
	}
	for _, name := range []string{"setsid", "setsid-noenv"} {
		if esc[name].PPid != self {
			t.Errorf("escapee %s has parent %d, want the server %d", name, esc[name].PPid, self)
		}
	}
	if err := srv.Stop(time.Second); err != nil {
		t.Fatal(err)
	}
	assertGone(t, srv.Pid, append([]int{self}, others...)...)
	for name, p := range esc {
		if alive(p.Pid) {
			t.Errorf("escapee %s %v alive after Stop", name, p)
		}
	}
	if left := tagged(t, srv.Owner); len(left) != 0 {
		t.Errorf("processes tagged %s=%s alive after Stop: %v", framework.EnvOwner, srv.Owner, left)
	}
}

// TestStopDoubleForkDaemon: the server dies on its own first; Stop still
// ends the daemon (re-parented, out of the tree, found by its tag), the
// untagged setsid child (re-parented, found because Start saw it as the
// server's child) and the group's orphans.
func TestStopDoubleForkDaemon(t *testing.T) {
	spec, build := fixture(t)
	srv, err := start(t, spec, options(t, build, "escape"))
	if err != nil {
		t.Fatal(err)
	}
	esc := escapees(t, srv)
	self, others := fixturePids(t, srv)
	if self != srv.Pid {
		t.Fatalf("fixture pid %d is not the leader %d (exec start)", self, srv.Pid)
	}
	daemon := esc["daemon"]
	ps, err := procs.Table()
	if err != nil {
		t.Fatal(err)
	}
	if hasPid(procs.Descendants(ps, srv.Pid), daemon.Pid) || hasPid(procs.Group(ps, srv.Pid), daemon.Pid) {
		t.Fatalf("daemon %v is in the server's tree or group; the fixture did not double-fork", daemon)
	}
	syscall.Kill(srv.Pid, syscall.SIGKILL) // the server crashes, its children stay
	select {
	case <-srv.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("server not reaped 2s after SIGKILL")
	}
	if !alive(daemon.Pid) || !alive(esc["setsid-noenv"].Pid) || !alive(others[0]) {
		t.Fatal("the server's children died with it; nothing left for Stop to find")
	}
	if err := srv.Stop(time.Second); err != nil {
		t.Fatal(err)
	}
	if err := srv.Err(); err == nil || err.Error() != "signal: killed" {
		t.Errorf("server ended with %v, want signal: killed", err)
	}
	assertGone(t, srv.Pid, others...)
	for name, p := range esc {
		if alive(p.Pid) {
			t.Errorf("escapee %s %v alive after Stop", name, p)
		}
	}
}

// resetExiting undoes KillAll's "exiting" at test end, for the tests after.
func resetExiting(t *testing.T) {
	t.Cleanup(func() {
		registry.Lock()
		registry.exiting = false
		registry.Unlock()
	})
}

func TestKillAll(t *testing.T) {
	spec, build := fixture(t)
	resetExiting(t)
	var all []procs.Proc
	var servers []*Server
	for _, variant := range []string{"stubborn", "escape"} {
		srv, err := start(t, spec, options(t, build, variant))
		if err != nil {
			t.Fatal(err)
		}
		servers = append(servers, srv)
		ps, err := srv.Processes()
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, ps...)
		if variant == "escape" {
			for _, p := range escapees(t, srv) {
				all = append(all, p)
			}
		}
	}
	if len(all) < 4+4+3 { // two fixtures with their 3 children each, the escapees
		t.Fatalf("only %d processes found before KillAll: %v", len(all), all)
	}
	if n := KillAll(); n != 2 {
		t.Errorf("KillAll() = %d, want 2 (servers registered)", n)
	}
	deadline := time.Now().Add(time.Second)
	var left []procs.Proc
	for {
		ps, err := procs.Table()
		if err != nil {
			t.Fatal(err)
		}
		if left = procs.Alive(ps, all); len(left) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(left) != 0 {
		t.Errorf("alive 1s after KillAll: %v", left)
	}

	o := options(t, build, "")
	if _, err := start(t, spec, o); !errors.Is(err, ErrExiting) || err.Error() != "framework fixture variant default: harness is exiting" {
		t.Errorf("Start after KillAll: %v, want framework fixture variant default: harness is exiting", err)
	}
	if _, err := os.Stat(o.LogPath); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Start after KillAll wrote a log: %v", err)
	}
	// A build after KillAll: stage's TestBuildCmdAfterKillAll has its error.
	if _, err := Run(exec.CommandContext(context.Background(), "true")); !errors.Is(err, ErrExiting) || err.Error() != "harness is exiting" {
		t.Errorf("Run after KillAll: %v", err)
	}
	for _, srv := range servers {
		if err := srv.Stop(time.Second); err != nil {
			t.Errorf("Stop after KillAll: %v", err)
		}
		if err := srv.Err(); err == nil || err.Error() != "signal: killed" {
			t.Errorf("%s ended with %v, want signal: killed", srv.Variant.Name, err)
		}
	}
	registry.Lock()
	n := len(registry.live)
	registry.Unlock()
	if n != 0 {
		t.Errorf("%d servers or builds still registered after Stop", n)
	}
}

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/runtimes"
	"github.com/tfbench/tfbench/internal/sshtest"
	"github.com/tfbench/tfbench/internal/testenv"
)

// TestRemoteSSH runs the smoke suite on go-stdlib and node-http over real
// SSH: the servers in a second network namespace behind Debian's sshd
// (sshtest), the generator here targeting its address. The controller is a
// real tfbench binary, which copies itself there (the remote has none) and
// starts `tfbench agent` through ssh; a machines file names the host. Every
// test must verify and pass the gate, the run records both hosts and the
// network, and nothing is left running in either namespace. Skipped, with
// the reason, where namespaces or sshd are not available.
func TestRemoteSSH(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tfbench, go-stdlib and runs two adapters over SSH")
	}
	h := sshtest.Start(t)
	bin := filepath.Join(t.TempDir(), "tfbench")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// The namespace has no route out: the agent's Node.js comes from the
	// runtimes folder this machine shares with test runs, installed here.
	runtimesDir, err := testenv.RuntimesDir()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runtimes.EnsureRuntime(context.Background(), "node@24.22.3", "", runtimesDir, io.Discard); err != nil {
		t.Fatal(err)
	}
	agentDir := filepath.Join(t.TempDir(), "agent")
	if err := os.MkdirAll(filepath.Join(agentDir, "work"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(runtimesDir, filepath.Join(agentDir, "work", "runtimes")); err != nil {
		t.Fatal(err)
	}
	machines := filepath.Join(t.TempDir(), "machines.yaml")
	os.WriteFile(machines, []byte("server_host: "+h.Dest+"\nssh: ssh -F "+h.Config+"\nagent_dir: "+agentDir+"\n"), 0o644)
	work := t.TempDir()
	cmd := exec.Command(bin, "bench", "--suite", "../../suites/smoke.yaml", "--frameworks", "go-stdlib,node-http",
		"--frameworks-dir", "../../frameworks", "--work", work, "--machines", machines)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(15 * time.Minute):
		cmd.Process.Kill()
		err = <-done
		t.Errorf("still running after 15 minutes")
	}
	if err != nil {
		t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	if want := "server host ssh " + h.Dest + ": copied tfbench"; !strings.Contains(stdout.String(), want) {
		t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
	}
	f, err := results.Read(filepath.Join(work, "runs", "latest", "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Status != results.Complete || f.ServerHost == nil || f.Network == nil || f.Network.Address != h.Addr || f.Network.Transport != "ssh "+h.Dest || f.Network.RTT <= 0 {
		t.Fatalf("status %q, server host %+v, network %+v", f.Status, f.ServerHost, f.Network)
	}
	if len(f.Verifications) != 16 || len(f.Samples) != 28 {
		t.Fatalf("%d verdicts and %d samples, want 16 and 28", len(f.Verifications), len(f.Samples))
	}
	for _, v := range f.Verifications {
		if want := map[bool]model.Verdict{true: model.NotApplicable, false: model.Pass}[v.Test == "page-hit"]; v.Status != want {
			t.Errorf("verify %s/%s %s: %s %v", v.Framework, v.Variant, v.Test, v.Status, v.Reasons)
		}
	}
	for _, s := range f.Samples {
		if !passed(s) || s.ServerCPU <= 0 || s.ServerRSS == 0 {
			t.Errorf("%s %s c=%d: gate %q, server CPU %.3f, RSS %d", s.Framework, s.Test, s.Connections, s.Gate.Reason, s.ServerCPU, s.ServerRSS)
		}
	}
	if left := processesUnder(agentDir); len(left) > 0 {
		t.Errorf("processes outlived the run on the server host: %v", left)
	}
	if err := h.Clean(); err != nil {
		t.Error(err)
	}
}

// TestRemoteSSHErrors: an address where nothing listens and a key the
// host refuses each end the run before anything is built, with ssh's own
// words.
func TestRemoteSSHErrors(t *testing.T) {
	h := sshtest.Start(t)
	for _, c := range []struct {
		ssh, host, want string
	}{
		{"ssh -F " + h.Config, h.Dest + ":" + strconv.Itoa(sshtest.RefusedPort),
			"tfbench bench: server host ssh " + h.Dest + ":" + strconv.Itoa(sshtest.RefusedPort) + ": unreachable: ssh: connect to host " + h.Addr + " port " + strconv.Itoa(sshtest.RefusedPort) + ": Connection refused\n"},
		{"ssh " + strings.Join(h.WrongKeyArgs(), " "), h.Dest,
			"tfbench bench: server host ssh " + h.Dest + ": authentication refused: " + h.Dest + ": Permission denied (publickey).\n"},
	} {
		machines := filepath.Join(t.TempDir(), "machines.yaml")
		os.WriteFile(machines, []byte("server_host: "+c.host+"\nssh: "+c.ssh+"\nagent_dir: "+t.TempDir()+"\n"), 0o644)
		var stdout, stderr strings.Builder
		code := cli(context.Background(), []string{"bench", "--suite", "../../suites/smoke.yaml", "--frameworks", "go-stdlib",
			"--frameworks-dir", "../../frameworks", "--work", t.TempDir(), "--machines", machines}, &stdout, &stderr)
		if code != 1 || stderr.String() != c.want {
			t.Errorf("exit %d, stderr %q\nwant %q", code, stderr.String(), c.want)
		}
	}
}

// faultBound is how long a run over SSH may take to end after its server
// host fails: the agent's silence (30 s) or the write stall (30 s), then
// reaping through a new ssh (ConnectTimeout 10 s), with room to spare.
const faultBound = 60 * time.Second

// sshFault is `tfbench bench` (this test binary) running go-stdlib over SSH
// on a stand-in host, testdata/suites/remote-fault.yaml.
type sshFault struct {
	h              *sshtest.Host
	c              *child
	work, agentDir string
}

// startSSHFault starts the run, the agent in a folder of its own that arm
// (when not nil) may prepare first, and returns once the second sample is
// under way: the first in results.json, the generator's four connections
// open on the host.
func startSSHFault(t *testing.T, arm func(agentDir string)) *sshFault {
	t.Helper()
	f := &sshFault{h: sshtest.Start(t), work: t.TempDir(), agentDir: filepath.Join(t.TempDir(), "agent")}
	if err := os.MkdirAll(f.agentDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if arm != nil {
		arm(f.agentDir)
	}
	machines := filepath.Join(t.TempDir(), "machines.yaml")
	os.WriteFile(machines, []byte("server_host: "+f.h.Dest+"\nssh: ssh -F "+f.h.Config+"\nagent_dir: "+f.agentDir+"\n"), 0o644)
	f.c = startCLI(t, "bench", "--suite", "testdata/suites/remote-fault.yaml", "--frameworks", "go-stdlib",
		"--frameworks-dir", "../../frameworks", "--work", f.work, "--machines", machines)
	// go-stdlib builds on the host first: minutes with a cold Go cache.
	latest := filepath.Join(f.work, "runs", "latest", "results.json")
	f.c.untilWithin(t, "the first sample", 10*time.Minute, func() bool {
		r, err := results.Read(latest)
		return err == nil && len(r.Samples) > 0
	})
	f.c.until(t, "the second sample's connections", func() bool { return loadConns(t, f.h) >= 4 })
	return f
}

// loadConns counts the established TCP connections on the host other than
// ssh's (its network namespace's tables, read through sshd's /proc entry;
// a server listening on every interface has them in tcp6).
func loadConns(t *testing.T, h *sshtest.Host) int {
	t.Helper()
	ssh := fmt.Sprintf(":%04X", h.Port)
	n := 0
	for _, table := range []string{"tcp", "tcp6"} {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/net/%s", h.SSHDPid, table))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			f := strings.Fields(line)
			// local_address rem_address st, ports in hex; 01 is ESTABLISHED.
			if len(f) > 3 && f[3] == "01" && !strings.HasSuffix(f[1], ssh) && !strings.HasSuffix(f[2], ssh) {
				n++
			}
		}
	}
	return n
}

// end waits for the run to end after the fault struck at struck (wait),
// then checks it (check).
func (f *sshFault) end(t *testing.T, struck time.Time, want ...string) {
	t.Helper()
	f.check(t, f.wait(t, struck), want...)
}

// wait returns the run's exit status once it has ended, within faultBound
// after the fault struck at struck.
func (f *sshFault) wait(t *testing.T, struck time.Time) int {
	t.Helper()
	code := f.c.wait(t, faultBound-time.Since(struck))
	t.Logf("the run ended %v after the fault", time.Since(struck).Round(time.Millisecond))
	return code
}

// check checks a run that ended with code: 1, stderr one of want,
// results.json interrupted with the first sample measured, and nothing left
// running here or there.
func (f *sshFault) check(t *testing.T, code int, want ...string) {
	t.Helper()
	if code != 1 || !slices.Contains(want, f.c.stderr.String()) {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1, stderr one of:\n%s\nstdout:\n%s", code, f.c.stderr.String(), strings.Join(want, "or\n"), f.c.stdout.String())
	}
	r, err := results.Read(filepath.Join(f.work, "runs", "latest", "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != results.Interrupted || len(r.Samples) == 0 {
		t.Fatalf("status %q with %d samples; want interrupted with the first kept", r.Status, len(r.Samples))
	}
	if s := r.Samples[0]; s.Framework != "go-stdlib" || s.Connections != 2 || !passed(s) || s.Responses == 0 || s.ServerCPU <= 0 {
		t.Errorf("first sample %s c=%d: %d responses, server CPU %.3f, gate %+v; want go-stdlib c=2 measured and passed", s.Framework, s.Connections, s.Responses, s.ServerCPU, s.Gate)
	}
	if left := owned(t, f.c.cmd.Process.Pid); len(left) > 0 {
		t.Errorf("processes the run started here outlived it: %v", left)
	}
	f.h.CheckClean(t)
}

// agentPid is the pid of the agent serving the run on the host.
func (f *sshFault) agentPid(t *testing.T) int {
	t.Helper()
	pids, err := f.h.Processes()
	if err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); strings.HasPrefix(string(cmd), filepath.Join(f.agentDir, "tfbench")+"\x00agent\x00") {
			return pid
		}
	}
	t.Fatalf("no agent among the host's processes %v", pids)
	return 0
}

// TestRemoteSSHFaultStopped stops the agent (SIGSTOP) in the middle of a
// sample: the controller, hearing nothing from it for 30 s, kills the
// connection and ends the run; a second agent kills the stopped one and
// its server.
func TestRemoteSSHFaultStopped(t *testing.T) {
	f := startSSHFault(t, nil)
	if err := syscall.Kill(f.agentPid(t), syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	f.end(t, time.Now(), "tfbench bench: server host gone: no word from the agent on ssh "+f.h.Dest+" for 30s (the host, its network or the agent stalled); the controller killed the connection\n"+
		"server host ssh "+f.h.Dest+": the agent is gone; 2 processes it left running were killed\n")
}

// TestRemoteSSHFaultLinkDown takes the host's link down in the middle of a
// sample: the controller, hearing nothing for 30 s, kills the connection
// and ends the run, and cannot reach the host to reap. Once the link is
// back, the agent learns that the controller is gone and stops its server.
func TestRemoteSSHFaultLinkDown(t *testing.T) {
	f := startSSHFault(t, nil)
	if err := f.h.LinkDown(); err != nil {
		t.Fatal(err)
	}
	struck := time.Now()
	code := f.wait(t, struck)
	if err := f.h.LinkUp(); err != nil {
		t.Fatal(err)
	}
	// The agent's session ends once sshd hears that the controller's
	// connection is closed; within a minute, or the agent's own limit on
	// the controller's silence (60 s) stops it.
	up := time.Now()
	for deadline := up.Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		pids, err := f.h.Processes()
		if err != nil {
			t.Fatal(err)
		}
		if len(pids) == 1 || time.Now().After(deadline) {
			t.Logf("the host held %v %v after the link came back", pids, time.Since(up).Round(time.Millisecond))
			break
		}
	}
	gone := "tfbench bench: server host gone: no word from the agent on ssh " + f.h.Dest + " for 30s (the host, its network or the agent stalled); the controller killed the connection\n" +
		"server host ssh " + f.h.Dest + ": the agent is gone; stopping what it left running failed: server host ssh " + f.h.Dest + ": unreachable: ssh: connect to host " + f.h.Addr + " port 2222: "
	f.check(t, code, gone+"No route to host\n", gone+"Connection timed out\n")
}

// TestRemoteSSHFaultEndlessLine has the agent start a line that never ends
// in the middle of a sample (sshAgentMain's stand-in): the controller stops
// reading at 128 MiB, kills the connection and ends the run.
func TestRemoteSSHFaultEndlessLine(t *testing.T) {
	var marker string
	f := startSSHFault(t, func(agentDir string) {
		marker = filepath.Join(agentDir, endlessLineFile)
		if err := os.WriteFile(marker, []byte("armed"), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	if err := os.WriteFile(marker, []byte("now"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The agent writing the line dies of SIGPIPE once ssh is gone, its
	// server with it, usually before the second agent comes to reap them.
	gone := "tfbench bench: server host gone: the agent on ssh " + f.h.Dest + " sent a line over 128 MiB, the protocol's cap; the controller killed the connection\n"
	f.end(t, time.Now(), gone, gone+"server host ssh "+f.h.Dest+": the agent is gone; 2 processes it left running were killed\n")
}

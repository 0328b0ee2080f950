package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
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

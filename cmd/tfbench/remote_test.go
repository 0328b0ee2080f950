package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/agent"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
)

// agentCommand is a --server-cmd running this test binary as `tfbench agent`
// with work as its scratch folder (the local transport, docs/remote.md); when
// pidFile is set the agent's pid is written there first.
func agentCommand(t *testing.T, work, pidFile string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := "exec " + quote(exe) + " agent --work " + quote(work)
	if pidFile != "" {
		cmd = "echo $$ > " + quote(pidFile) + "; " + cmd
	}
	return cmd
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// TestRemoteLocalTransport runs the smoke suite on go-stdlib and node-http
// with their servers behind `tfbench agent` reached through --server-cmd:
// the whole protocol (sources, builds, starts, verification with the
// database checks done by the agent, CPU, RSS and event-loop readings, log
// faults, stops) as it runs over SSH. Everything must verify and pass the
// gate, the run must record two hosts and the network, the servers' logs
// must come back, and nothing may outlive the run on either side.
func TestRemoteLocalTransport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs go-stdlib and node-http behind an agent")
	}
	work, agentWork := t.TempDir(), t.TempDir()
	c := startCLI(t, "bench", "--suite", "../../suites/smoke.yaml", "--frameworks", "go-stdlib,node-http",
		"--frameworks-dir", "../../frameworks", "--work", work, "--server-cmd", agentCommand(t, agentWork, ""))
	if code := c.wait(t, 15*time.Minute); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, c.stdout.String(), c.stderr.String())
	}
	f, err := results.Read(filepath.Join(work, "runs", "latest", "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	// One machine behind the agent: the run knows the CPUs are shared.
	if f.Status != results.Complete || f.ServerHost == nil || f.Network == nil || f.Host.Disjoint || f.Host.ServerCPUs != "" || f.ServerHost.ServerCPUs == "" {
		t.Fatalf("status %q, server host %+v, network %+v, host %+v", f.Status, f.ServerHost, f.Network, f.Host)
	}
	if want := "CPU placement: the server host is this machine (" + f.Host.Hostname + "): the load generator and the servers share CPUs "; !strings.Contains(c.stdout.String(), want) {
		t.Errorf("stdout lacks %q", want)
	}
	if want := "command " + agentCommand(t, agentWork, ""); f.Network.Transport != want || f.Network.Address != "127.0.0.1" || f.Network.RTT <= 0 || f.Network.LinkBytes <= 0 {
		t.Errorf("network %+v; want transport %q at 127.0.0.1 with an RTT and a link capacity", f.Network, want)
	}
	if len(f.Verifications) != 16 {
		t.Fatalf("%d verification verdicts, want 16", len(f.Verifications))
	}
	for _, v := range f.Verifications {
		if want := map[bool]model.Verdict{true: model.NotApplicable, false: model.Pass}[v.Test == "page-hit"]; v.Status != want {
			t.Errorf("verify %s/%s %s: %s %v, want %s", v.Framework, v.Variant, v.Test, v.Status, v.Reasons, want)
		}
	}
	if len(f.Samples) != 28 {
		t.Fatalf("%d samples, want 28 (14 each)", len(f.Samples))
	}
	for _, s := range f.Samples {
		if !passed(s) {
			t.Errorf("%s %s c=%d failed the gate: %s", s.Framework, s.Test, s.Connections, s.Gate.Reason)
		}
		if s.ServerCPU <= 0 || s.ServerRSS == 0 || s.Checked == 0 {
			t.Errorf("%s %s: server CPU %.3f s, RSS %d, %d checked: the agent's readings are missing", s.Framework, s.Test, s.ServerCPU, s.ServerRSS, s.Checked)
		}
		if node := s.Framework == "node-http"; node != (s.EventLoop != nil) && s.Type != model.Page {
			t.Errorf("%s %s: event loop %+v", s.Framework, s.Test, s.EventLoop)
		}
	}
	for _, log := range []string{"go-stdlib-default-r1.log", "node-http-default-r1.log", "go-stdlib-go-build.log"} {
		if st, err := os.Stat(filepath.Join(work, "runs", f.RunID, "logs", log)); err != nil || st.Size() == 0 {
			t.Errorf("log %s not copied back: %v", log, err)
		}
	}
	report, err := os.ReadFile(filepath.Join(work, "runs", f.RunID, "report.md"))
	if err != nil || !strings.Contains(string(report), "two hosts: the load generator on one machine, the servers on another") ||
		!strings.Contains(string(report), "one machine: the server host is the generator's, so the load generator and the servers share CPU ") {
		t.Errorf("report.md does not say two hosts on one machine (%v)", err)
	}
	for _, dir := range []string{agentWork, work} {
		if left := processesUnder(dir); len(left) > 0 {
			t.Errorf("processes outlived the run under %s: %v", dir, left)
		}
	}
}

// TestRemoteAgentDies kills the agent with SIGKILL once a sample is
// recorded: the run ends with an error naming the agent's end, results.json
// keeps the samples (status interrupted), and the servers it left on the
// server host are killed by a second agent started through the same
// command (Reap).
func TestRemoteAgentDies(t *testing.T) {
	work, agentWork := t.TempDir(), t.TempDir()
	pidFile := filepath.Join(t.TempDir(), "agent.pid")
	c := startCLI(t, "bench", "--suite", "testdata/suites/signal.yaml", "--frameworks", "fault:ok",
		"--frameworks-dir", "testdata/frameworks-fault", "--work", work, "--server-cmd", agentCommand(t, agentWork, pidFile))
	latest := filepath.Join(work, "runs", "latest", "results.json")
	c.until(t, "a sample", func() bool {
		f, err := results.Read(latest)
		return err == nil && len(f.Samples) > 0
	})
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	syscall.Kill(pid, syscall.SIGKILL)
	code := c.wait(t, 2*time.Minute)
	want := "the agent on command " + agentCommand(t, agentWork, pidFile) + " ended (signal: killed)"
	if code != 1 || !strings.Contains(c.stderr.String(), want) {
		t.Fatalf("exit %d, want 1 with %q\nstdout:\n%s\nstderr:\n%s", code, want, c.stdout.String(), c.stderr.String())
	}
	f, err := results.Read(latest)
	if err != nil {
		t.Fatal(err)
	}
	if f.Status != results.Interrupted || len(f.Samples) == 0 {
		t.Errorf("status %q with %d samples, want interrupted with the samples so far", f.Status, len(f.Samples))
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(processesUnder(agentWork)) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if left := processesUnder(agentWork); len(left) > 0 {
		t.Errorf("processes outlived the dead agent: %v", left)
	}
}

// TestRemoteInterrupt: Ctrl-C (SIGINT) on the controller mid-run stops the
// servers on the server host and the agent, keeps the samples so far, and
// exits 1 like a local run.
func TestRemoteInterrupt(t *testing.T) {
	work, agentWork := t.TempDir(), t.TempDir()
	c := startCLI(t, "bench", "--suite", "testdata/suites/signal.yaml", "--frameworks", "fault:ok",
		"--frameworks-dir", "testdata/frameworks-fault", "--work", work, "--server-cmd", agentCommand(t, agentWork, ""))
	latest := filepath.Join(work, "runs", "latest", "results.json")
	c.until(t, "a sample", func() bool {
		f, err := results.Read(latest)
		return err == nil && len(f.Samples) > 0
	})
	c.cmd.Process.Signal(os.Interrupt)
	if code := c.wait(t, time.Minute); code != 1 || !strings.Contains(c.stderr.String(), "interrupted; the samples measured so far are in") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, c.stdout.String(), c.stderr.String())
	}
	f, err := results.Read(latest)
	if err != nil {
		t.Fatal(err)
	}
	if f.Status != results.Interrupted || len(f.Samples) == 0 || f.ServerHost == nil {
		t.Errorf("status %q with %d samples, server host %v", f.Status, len(f.Samples), f.ServerHost)
	}
	if left := processesUnder(agentWork); len(left) > 0 {
		t.Errorf("processes outlived the interrupted run on the server host: %v", left)
	}
}

// TestRemoteFlagErrors: both ways to the server host at once, and a
// malformed --server-host, are refused before anything runs.
func TestRemoteFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--server-host", "h", "--server-cmd", "x"}, "tfbench bench: --server-host and --server-cmd both given: name one way to the server host\n"},
		{[]string{"--server-host", "bench@host:ssh"}, "tfbench bench: --server-host \"bench@host:ssh\": port \"ssh\" is not a number\n"},
		{[]string{"--server-addr", "10.0.0.2"}, "tfbench bench: --server-addr names where the generator reaches a server host: give --server-host or --server-cmd too\n"},
		{[]string{"--server-cmd", "cat"}, "tfbench bench: server host command cat: the answer to hello holds no result: is the other end tfbench agent?\n"},
		{[]string{"--server-cmd", "exit 3"}, "tfbench bench: server host command exit 3: the agent ended before it answered (exit status 3)\n"},
		{[]string{"--server-cmd", "echo refused >&2; exit 127"}, "tfbench bench: server host command echo refused >&2; exit 127: no tfbench agent there: refused\n"},
	} {
		var stdout, stderr strings.Builder
		args := append([]string{"bench", "--suite", "../../suites/smoke.yaml", "--frameworks", "go-stdlib",
			"--frameworks-dir", "../../frameworks", "--work", t.TempDir()}, c.args...)
		if code := cli(context.Background(), args, &stdout, &stderr); code != 1 || stderr.String() != c.want {
			t.Errorf("%v: exit %d, stderr %q, want 1 and %q", c.args, code, stderr.String(), c.want)
		}
	}
}

// endlessLineFile, beside the agent's binary on the server host, makes
// sshAgentMain the stand-in agent of TestRemoteSSHFaultEndlessLine: a real
// agent until the file holds "now", then one writing an endless line.
const endlessLineFile = "endless-line"

// sshAgentMain is this test binary run as `tfbench agent --work DIR` on a
// server host: main, or the endless-line stand-in when endlessLineFile is
// beside it. The stand-in takes the file away (renamed .done) when it
// starts the line, so the agent the controller then starts to reap runs
// main.
func sshAgentMain() {
	exe, err := os.Executable()
	if err != nil {
		main()
	}
	marker := filepath.Join(filepath.Dir(exe), endlessLineFile)
	if _, err := os.Stat(marker); err != nil {
		main()
	}
	fs := flag.NewFlagSet("agent", flag.ExitOnError)
	work := fs.String("work", ".tfbench-agent/work", "")
	fs.Parse(os.Args[2:])
	out := &endlessLine{w: os.Stdout}
	go func() {
		for {
			time.Sleep(20 * time.Millisecond)
			if b, _ := os.ReadFile(marker); string(b) == "now" && os.Rename(marker, marker+".done") == nil {
				out.start()
				return
			}
		}
	}()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGHUP)
	defer stop()
	if err := agent.Serve(ctx, os.Stdin, out, agent.Config{WorkDir: *work}); err != nil {
		fmt.Fprintln(os.Stderr, "tfbench agent:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// endlessLine passes the agent's lines through until start, which begins a
// line that never ends: it writes until the controller hangs up, and no
// other line gets through meanwhile.
type endlessLine struct {
	mu sync.Mutex
	w  io.Writer
}

func (e *endlessLine) Write(p []byte) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.w.Write(p)
}

func (e *endlessLine) start() {
	e.mu.Lock() // held for good
	chunk := bytes.Repeat([]byte("x"), 64<<10)
	if _, err := e.w.Write([]byte(`{"event":"`)); err != nil {
		return
	}
	for {
		if _, err := e.w.Write(chunk); err != nil {
			return
		}
	}
}

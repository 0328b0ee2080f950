package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tfbench/tfbench/internal/faultserver"

	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/supervise"
)

// Environment of the CLI child: this test binary runs main() when
// envTestMain is "1"; envTestBinary is its path, which the fault adapter
// (testdata/frameworks-fault) execs as the server.
const (
	envTestMain   = "TFBENCH_TEST_MAIN"
	envTestBinary = "TFBENCH_TEST_BINARY"
)

// TestMain lets the tests exec this test binary as the tfbench CLI and as
// the fault server, so no go build is needed. The fault server is checked
// first: the servers a CLI child starts inherit its TFBENCH_TEST_MAIN.
// Copied to a server host over SSH, where the environment is sshd's, it is
// run as `tfbench agent --work DIR` (sshAgentMain).
func TestMain(m *testing.M) {
	switch {
	case os.Getenv(faultserver.EnvServer) == "1":
		faultserver.Main()
	case os.Getenv(envTestMain) == "1":
		main()
	case len(os.Args) > 1 && os.Args[1] == "agent":
		sshAgentMain()
	}
	os.Exit(m.Run())
}

// child is the tfbench CLI running as a process (this test binary).
type child struct {
	cmd            *exec.Cmd
	stdout, stderr syncBuffer    // may be read while the child runs
	done           chan struct{} // closed once Wait returned
}

// spawn starts cmd with its output kept in a child, closing done once
// Wait returned; the caller's cleanup ends it.
func spawn(t *testing.T, cmd *exec.Cmd) *child {
	t.Helper()
	c := &child{cmd: cmd, done: make(chan struct{})}
	c.cmd.Stdout, c.cmd.Stderr = &c.stdout, &c.stderr
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		c.cmd.Wait()
		close(c.done)
	}()
	return c
}

// syncBuffer is a bytes.Buffer that the child's output copier writes while
// a test reads it, as until does while waiting for a line.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written so far.
func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Len is the number of bytes written so far.
func (b *syncBuffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Len()
}

// startCLI execs this test binary as `tfbench args...` in the package
// folder. At cleanup the child, if still running, gets SIGKILL, and any
// process it started (supervise.OwnedBy) that is still alive is killed.
func startCLI(t *testing.T, args ...string) *child {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), envTestMain+"=1", envTestBinary+"="+exe)
	c := spawn(t, cmd)
	t.Cleanup(func() {
		c.cmd.Process.Kill()
		<-c.done
		left, _ := supervise.OwnedBy(c.cmd.Process.Pid)
		for _, p := range left {
			syscall.Kill(p.Pid, syscall.SIGKILL)
		}
	})
	return c
}

// wait returns the child's exit status once it exits, or fails the test
// (killing the child) when it has not within d.
func (c *child) wait(t *testing.T, d time.Duration) int {
	t.Helper()
	select {
	case <-c.done:
		return c.cmd.ProcessState.ExitCode()
	case <-time.After(d):
		c.cmd.Process.Kill()
		<-c.done
		t.Fatalf("still running after %s\nstdout:\n%s\nstderr:\n%s", d, c.stdout.String(), c.stderr.String())
		return 0
	}
}

// until polls cond every 20 ms until it holds; it fails the test when the
// child exits first or 60 s pass (a shared machine may build slowly).
func (c *child) until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	c.untilWithin(t, what, 60*time.Second, cond)
}

// untilWithin is until with d for its 60 s.
func (c *child) untilWithin(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		select {
		case <-c.done:
			t.Fatalf("exit %d before %s\nstdout:\n%s\nstderr:\n%s", c.cmd.ProcessState.ExitCode(), what, c.stdout.String(), c.stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			c.cmd.Process.Kill()
			<-c.done
			t.Fatalf("no %s within %v\nstdout:\n%s\nstderr:\n%s", what, d, c.stdout.String(), c.stderr.String())
		}
	}
}

// benchFault starts `tfbench bench` on testdata/suites/signal.yaml (json
// at c=2, 4 and 8, 2 s each, one round) against the fault adapter's
// variant, with work as the scratch folder and extra flags after.
func benchFault(t *testing.T, work, variant string, extra ...string) *child {
	return startCLI(t, append([]string{"bench", "--suite", "testdata/suites/signal.yaml", "--frameworks", "fault:" + variant,
		"--frameworks-dir", "testdata/frameworks-fault", "--work", work}, extra...)...)
}

// owned lists the live processes the child started (their TFBENCH_OWNER
// names its pid) as "pid (comm)".
func owned(t *testing.T, pid int) []string {
	t.Helper()
	ps, err := supervise.OwnedBy(pid)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range ps {
		out = append(out, p.String()) // comm as the process table read it: /proc stat, darwin's kinfo_proc
	}
	return out
}

// TestSignalStopsRun sends SIGINT, then in a second run SIGTERM, to a
// real `tfbench bench --report R --copy-results J` process once its first
// sample is in results.json: the CLI must print the interrupt line, stop
// the server, keep the sample in results.json marked interrupted, write
// report.md, leave R and J (published files) as they were and say so with
// the run's folder, name the file on stderr and exit 1, leaving no process
// and no database copy behind.
func TestSignalStopsRun(t *testing.T) {
	for name, sig := range map[string]syscall.Signal{"SIGINT": syscall.SIGINT, "SIGTERM": syscall.SIGTERM} {
		t.Run(name, func(t *testing.T) {
			work, published := t.TempDir(), t.TempDir()
			report, copied := filepath.Join(published, "latest.md"), filepath.Join(published, "latest.json")
			for _, p := range []string{report, copied} {
				if err := os.WriteFile(p, []byte("published before the run\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			c := benchFault(t, work, "ok", "--report", report, "--copy-results", copied)
			latest := filepath.Join(work, "runs", "latest", "results.json")
			c.until(t, "sample in results.json", func() bool {
				f, err := results.Read(latest)
				return err == nil && len(f.Samples) > 0
			})
			if err := c.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			sent := time.Now()
			code := c.wait(t, time.Minute)
			t.Logf("exit %d %s after %s", code, time.Since(sent).Round(time.Millisecond), name)
			f, err := results.Read(latest)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(work, "runs", f.RunID, "results.json")
			want := interruptLine(sig) + "\ntfbench bench: interrupted; the samples measured so far are in " + path + "\n"
			if code != 1 || c.stderr.String() != want {
				t.Fatalf("exit %d, stderr:\n%s\nwant exit 1, stderr:\n%s\nstdout:\n%s", code, c.stderr.String(), want, c.stdout.String())
			}
			if f.Status != results.Interrupted || len(f.Samples) < 1 || len(f.Samples) > 2 {
				t.Errorf("status %q with %d samples, want interrupted with 1 or 2 of the 3 levels", f.Status, len(f.Samples))
			}
			if s := f.Samples[0]; s.Framework != "fault" || s.Variant != "ok" || s.Connections != 2 || !s.Gate.Passed || s.Responses == 0 {
				t.Errorf("first sample %s/%s c=%d: %d responses, gate %+v; want fault/ok c=2 measured and passed", s.Framework, s.Variant, s.Connections, s.Responses, s.Gate)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(path), "report.md")); err != nil {
				t.Errorf("report: %v", err)
			}
			for _, p := range []string{report, copied} {
				if b, err := os.ReadFile(p); err != nil || string(b) != "published before the run\n" {
					t.Errorf("%s: %.60q (%v); the interrupted run replaced a published file", p, b, err)
				}
			}
			if want := "the run did not complete (status interrupted): " + report + " and " + copied + " not replaced; this run's results and report are in " + filepath.Dir(path) + "\n"; !strings.Contains(c.stdout.String(), want) {
				t.Errorf("stdout lacks %q:\n%s", want, c.stdout.String())
			}
			if left := owned(t, c.cmd.Process.Pid); len(left) > 0 {
				t.Errorf("processes the run started outlived it: %v", left)
			}
			if dbs, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "db", "*")); len(dbs) > 0 {
				t.Errorf("database copies left: %v", dbs)
			}
		})
	}
}

// TestSecondInterruptQuits interrupts a run whose server ignores SIGTERM
// (the run then waits its 5 s stop grace before SIGKILL) and interrupts it
// again once the server has ignored the SIGTERM the first interrupt sent
// (faultserver.StubbornLine in its log): the CLI must exit 130, the shell's
// status for SIGINT, with the second-signal line (not 1 after the grace),
// leaving results.json whole, and kill the server's whole process group
// first: the server's `sleep` child would outlive an exit that left the
// killing to the parent-death signal, which reaches only the leader.
func TestSecondInterruptQuits(t *testing.T) {
	work := t.TempDir()
	c := benchFault(t, work, "stubborn")
	// serverLogs reports whether the server's log holds line.
	serverLogs := func(line string) bool {
		logs, _ := filepath.Glob(filepath.Join(work, "runs", "*", "logs", "fault-stubborn-r1.log"))
		for _, l := range logs {
			if b, _ := os.ReadFile(l); bytes.Contains(b, []byte(line)) {
				return true
			}
		}
		return false
	}
	// The server logs its first line once it ignores SIGTERM.
	c.until(t, "stubborn server listening", func() bool {
		return serverLogs("faultserver: mode stubborn, after 0: listening on 127.0.0.1:")
	})
	pid := c.cmd.Process.Pid
	if before := owned(t, pid); len(before) != 2 {
		t.Fatalf("processes owned by the CLI %v, want the server and its sleep", before)
	}
	if err := c.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	// The first interrupt is handled: the CLI said so, and its stop sent
	// the server a SIGTERM that the server ignored.
	c.until(t, "the interrupt line", func() bool { return c.stderr.String() == interruptLine(syscall.SIGINT)+"\n" })
	c.until(t, "the server ignoring SIGTERM", func() bool { return serverLogs(faultserver.StubbornLine) })
	if err := c.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	code := c.wait(t, time.Minute)
	want := interruptLine(syscall.SIGINT) + "\ntfbench: second signal (interrupt): killing every server and build at once, exit status 130\n"
	if code != 130 || c.stderr.String() != want {
		t.Fatalf("exit %d, stderr:\n%s\nwant exit 130, stderr:\n%s\nstdout:\n%s", code, c.stderr.String(), want, c.stdout.String())
	}
	// SIGKILL came before the exit; a killed process leaves the process
	// table once reaped, so wait for that (a minute bounds a stuck one).
	var left []string
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if left = owned(t, pid); len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(left) > 0 {
		t.Errorf("a minute after the exit, processes the run started are alive: %v", left)
	}
	// The run never finished: the file holds its last atomic write.
	f, err := results.Read(filepath.Join(work, "runs", "latest", "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Status != results.Running {
		t.Errorf("status %q, want %q (killed before the run could finish the file)", f.Status, results.Running)
	}
}

// TestInterrupts feeds signals to the handler main runs: the first prints
// the interrupt line and cancels, once; the second quits at once with 128
// + its number, whichever signal came first.
func TestInterrupts(t *testing.T) {
	cases := []struct {
		first, second syscall.Signal
		code          int
		line          string
	}{
		{syscall.SIGINT, syscall.SIGINT, 130, "tfbench: second signal (interrupt): killing every server and build at once, exit status 130\n"},
		{syscall.SIGINT, syscall.SIGTERM, 143, "tfbench: second signal (terminated): killing every server and build at once, exit status 143\n"},
		{syscall.SIGTERM, syscall.SIGINT, 130, "tfbench: second signal (interrupt): killing every server and build at once, exit status 130\n"},
	}
	for _, tc := range cases {
		sigs := make(chan os.Signal, 3)
		var stderr bytes.Buffer
		cancels, codes := 0, []int(nil)
		sigs <- tc.first
		sigs <- tc.second
		sigs <- syscall.SIGINT // a third is never read: quit ended the process
		interrupts(sigs, func() { cancels++ }, &stderr, func(code int) { codes = append(codes, code) })
		if want := interruptLine(tc.first) + "\n" + tc.line; cancels != 1 || len(codes) != 1 || codes[0] != tc.code || stderr.String() != want || len(sigs) != 1 {
			t.Errorf("%v then %v: %d cancels, quit codes %v, %d signals unread, stderr:\n%s\nwant 1 cancel, quit %d, 1 unread, stderr:\n%s",
				tc.first, tc.second, cancels, codes, len(sigs), stderr.String(), tc.code, want)
		}
	}
	// One signal only cancels; interrupts returns when the channel closes.
	sigs := make(chan os.Signal, 1)
	sigs <- syscall.SIGTERM
	close(sigs)
	var stderr bytes.Buffer
	cancels, quits := 0, 0
	interrupts(sigs, func() { cancels++ }, &stderr, func(int) { quits++ })
	if cancels != 1 || quits != 0 || stderr.String() != "tfbench: terminated: stopping the servers and writing the results so far (again to quit at once)\n" {
		t.Errorf("one SIGTERM: %d cancels, %d quits, stderr %q", cancels, quits, stderr.String())
	}
}

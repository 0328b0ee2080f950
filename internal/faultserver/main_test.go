package faultserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain runs Main when the test binary is started as the fault server
// (see the package doc); the process tests below start it through Command.
func TestMain(m *testing.M) {
	if os.Getenv(EnvServer) == "1" {
		Main()
	}
	code := m.Run()
	removeTestData()
	os.Exit(code)
}

// proc is a fault server process started by startProc.
type proc struct {
	cmd    *exec.Cmd
	addr   string
	stderr *bytes.Buffer
	exited chan struct{} // closed once Wait returned; err is then set
	err    error
	lines  chan string // stdout lines after the address line (up to 16 unread)
}

// startProc runs this test binary as the fault server with c (plus the
// extra environment) on a kernel-chosen port and reads its address; the
// process is killed at cleanup.
func startProc(t *testing.T, c Config, extraEnv ...string) *proc {
	t.Helper()
	cmd, err := Command(c, 0)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(cmd.Env, extraEnv...)
	p := &proc{cmd: cmd, stderr: &bytes.Buffer{}, exited: make(chan struct{}), lines: make(chan string, 16)}
	cmd.Stderr = p.stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-p.exited
	})
	lines := make(chan string, 1)
	go func() {
		r := bufio.NewReader(out)
		line, _ := r.ReadString('\n')
		lines <- line
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				break
			}
			select {
			case p.lines <- strings.TrimSuffix(line, "\n"):
			default:
			}
		}
		p.err = cmd.Wait()
		close(p.exited)
	}()
	select {
	case line := <-lines:
		_, addr, ok := strings.Cut(strings.TrimSpace(line), ": listening on ")
		if !ok || !strings.HasPrefix(line, "faultserver: mode "+string(c.Mode)+", after ") {
			<-p.exited
			t.Fatalf("first stdout line %q (%v), stderr %q", line, p.err, p.stderr)
		}
		p.addr = addr
	case <-time.After(5 * time.Second):
		t.Fatal("no address line within 5s")
	}
	return p
}

// wait returns the process's exit, failing the test when it has not
// exited within 10 s (a bound for a stuck process, not a speed).
func (p *proc) wait(t *testing.T) error {
	t.Helper()
	select {
	case <-p.exited:
		return p.err
	case <-time.After(10 * time.Second):
		t.Fatal("still running 10s later")
		return nil
	}
}

// line waits for the process's next stdout line and wants it to be want.
func (p *proc) line(t *testing.T, want string) {
	t.Helper()
	select {
	case got := <-p.lines:
		if got != want {
			t.Fatalf("stdout line %q, want %q", got, want)
		}
	case <-p.exited:
		t.Fatalf("exited (%v) before printing %q", p.err, want)
	case <-time.After(10 * time.Second):
		t.Fatalf("no stdout line %q within 10s", want)
	}
}

// getOK sends GET /json on a new connection and wants the correct answer.
func getOK(t *testing.T, addr string) {
	t.Helper()
	c := dial(t, addr)
	send(t, c, "/json")
	resp, body := response(t, bufio.NewReader(c), "/json")
	wantAnswer(t, resp, body, 200, "application/json", JSONBody)
	c.Close()
}

// Main in crash mode, After 1: one correct answer, then the process exits
// with status 2 and says why on stderr.
func TestMainCrash(t *testing.T) {
	t.Parallel()
	p := startProc(t, Config{Mode: ModeCrash, After: 1})
	getOK(t, p.addr)
	c := dial(t, p.addr)
	send(t, c, "/json")
	if b, err := readFor(c, time.Second); len(b) != 0 || err != io.EOF {
		t.Errorf("crash request: %q, %v; want EOF", b, err)
	}
	var ee *exec.ExitError
	if err := p.wait(t); !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Errorf("exit %v, want exit status 2", err)
	}
	if want := "faultserver: crash mode: exiting with status 2 after 1 requests\n"; p.stderr.String() != want {
		t.Errorf("stderr %q, want %q", p.stderr, want)
	}
}

// Main in stubborn mode outlives SIGTERM, says so (StubbornLine) and
// still answers; SIGKILL ends it. In ok mode SIGTERM ends it.
func TestMainStubborn(t *testing.T) {
	t.Parallel()
	p := startProc(t, Config{Mode: ModeStubborn})
	ok := startProc(t, Config{Mode: ModeOK})
	for _, q := range []*proc{p, ok} {
		if err := q.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
	}
	if err := ok.wait(t); err == nil || err.Error() != "signal: terminated" {
		t.Errorf("ok mode after SIGTERM: %v, want signal: terminated", err)
	}
	p.line(t, StubbornLine) // the SIGTERM came and was ignored
	getOK(t, p.addr)
	select {
	case <-p.exited:
		t.Fatalf("stubborn exited after SIGTERM: %v", p.err)
	default:
	}
	p.cmd.Process.Kill()
	if err := p.wait(t); err == nil || err.Error() != "signal: killed" {
		t.Errorf("after SIGKILL: %v, want signal: killed", err)
	}
}

// Main in escape mode: /pids lists the server and two sleep processes,
// each leading a session of its own (outside the server's process group
// and session), the first the server's child, the second re-parented away
// from it; both carry the server's environment. They are killed at the end.
func TestMainEscape(t *testing.T) {
	t.Parallel()
	const tag = "FAULTSERVER_TEST_TAG=escape-test"
	p := startProc(t, Config{Mode: ModeEscape}, tag)
	c := dial(t, p.addr)
	send(t, c, "/pids")
	_, body := response(t, bufio.NewReader(c), "/pids")
	var pids struct {
		Self     int
		Children []int
	}
	if err := json.Unmarshal([]byte(body), &pids); err != nil || pids.Self != p.cmd.Process.Pid || len(pids.Children) != 2 {
		t.Fatalf("/pids %q (%v), want self %d and 2 children", body, err, p.cmd.Process.Pid)
	}
	t.Cleanup(func() {
		for _, pid := range pids.Children {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	_, _, srvPgrp, srvSid, ok := readStat(pids.Self)
	if !ok {
		t.Fatal("no /proc stat for the server")
	}
	for i, pid := range pids.Children {
		comm, ppid, pgrp, sid, ok := readStat(pid)
		if !ok || comm != "sleep" || sid != pid || pgrp != pid || sid == srvSid || pgrp == srvPgrp {
			t.Errorf("child %d: %q ppid %d pgrp %d sid %d (%v); want sleep leading its own session, server pgrp %d sid %d",
				pid, comm, ppid, pgrp, sid, ok, srvPgrp, srvSid)
		}
		if wantChild := i == 0; (ppid == pids.Self) != wantChild {
			t.Errorf("child %d: ppid %d, server %d; want the setsid child's parent to be the server, the daemon's not", pid, ppid, pids.Self)
		}
		// Linux names the process (comm "sleep") early in execve and gives
		// it its environment later, when it sets up the new stack; between
		// the two /proc/PID/environ reads empty: a busy machine can show it.
		has, err := environHas(pid, tag)
		for deadline := time.Now().Add(2 * time.Second); err == nil && !has && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
			has, err = environHas(pid, tag)
		}
		if err != nil || !has {
			t.Errorf("child %d: environ lacks %s after 2 s (%v)", pid, tag, err)
		}
	}
}

// Main with a bad environment prints one line naming it and exits 1,
// before it listens.
func TestMainBadEnv(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  []string
		want string
	}{
		{[]string{"FAULT_MODE=slow", "PORT=0"}, `faultserver: FAULT_MODE: unknown mode "slow" (have ok, never-ready, crash, hang, garbage, length-long, length-short, reset, drip, huge, racy, every10th-500, busy, escape, stubborn, cheat-json, cheat-fortunes, cheat-db, cheat-page, extra-response)` + "\n"},
		{[]string{"FAULT_MODE=hang", "FAULT_AFTER=x", "PORT=0"}, `faultserver: FAULT_AFTER "x": not a whole number ≥ 0` + "\n"},
		{[]string{"FAULT_MODE=hang", "PORT="}, "faultserver: PORT is not set\n"},
		{[]string{"FAULT_MODE=ok", "PORT=-1"}, "faultserver: listen tcp: address -1: invalid port\n"},
	} {
		cmd, err := Command(Config{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Env = append(cmd.Env, tc.env...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err = cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 || stderr.String() != tc.want || stdout.Len() != 0 {
			t.Errorf("%v: %v, stdout %q, stderr %q; want exit status 1, nothing, %q", tc.env, err, stdout.String(), stderr.String(), tc.want)
		}
	}
}

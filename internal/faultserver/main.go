package faultserver

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Main runs the fault server as a process and never returns: the config
// from ConfigFromEnv, listening on 127.0.0.1:$PORT (PORT 0: a
// kernel-chosen port). Its first stdout line is "faultserver: mode M, after
// N: listening on 127.0.0.1:P". Crash mode exits with status 2 after a line
// on stderr; stubborn ignores SIGTERM; escape spawns its escapees (a
// setsid child and a double-forked daemon, both `sleep 300`) before it listens, so they exist once the server answers. A
// bad environment (unknown mode, PORT unset), a failed spawn or listen
// prints "faultserver: …" on stderr and exits with status 1.
func Main() {
	c, err := ConfigFromEnv()
	if err == nil && os.Getenv("PORT") == "" {
		err = fmt.Errorf("PORT is not set")
	}
	if err != nil {
		fail(err)
	}
	c.Crash = func() {
		fmt.Fprintf(os.Stderr, "faultserver: crash mode: exiting with status 2 after %d requests\n", c.After)
		os.Exit(2)
	}
	h := newHandler(c)
	switch c.Mode {
	case ModeStubborn:
		signal.Ignore(syscall.SIGTERM)
	case ModeEscape:
		if h.pids, err = escapees(); err != nil {
			fail(err)
		}
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", os.Getenv("PORT")))
	if err != nil {
		fail(err)
	}
	fmt.Printf("faultserver: mode %s, after %d: listening on %s\n", c.Mode, c.After, ln.Addr())
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	fail(srv.Serve(ln))
}

func fail(err error) {
	msg := err.Error()
	if !strings.HasPrefix(msg, "faultserver: ") {
		msg = "faultserver: " + msg
	}
	fmt.Fprintln(os.Stderr, msg)
	os.Exit(1)
}

// escapees spawns two `sleep 300` processes that leave the caller's process
// group and session, and returns their pids: a child started with
// SysProcAttr.Setsid (the caller reaps it when it ends), and a daemon made
// by a double fork, `sh -c 'setsid sleep 300 & echo $!'` (daemonScript),
// whose shell exits at once so that the daemon is re-parented away from
// the caller. Both
// inherit the environment (a tag set there survives). It returns once both
// run sleep in a session of their own (sid = pid), within 2 s, else with an
// error naming the process; they sleep 300 s at most.
func escapees() (pids []int, err error) {
	child := exec.Command("sleep", "300")
	child.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := child.Start(); err != nil {
		return nil, fmt.Errorf("escape: setsid child: %w", err)
	}
	go child.Wait()
	defer func() {
		if err != nil { // none may outlive a failed start
			for _, pid := range pids {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}()
	pids = []int{child.Process.Pid}
	out, err := exec.Command("sh", "-c", daemonScript).Output()
	if err != nil {
		return pids, fmt.Errorf("escape: double fork: %w", err)
	}
	daemon, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return pids, fmt.Errorf("escape: double fork printed %q, not a pid", out)
	}
	pids = append(pids, daemon)
	deadline := time.Now().Add(2 * time.Second)
	for _, pid := range pids {
		for !ownSession(pid) {
			if time.Now().After(deadline) {
				return pids, fmt.Errorf("escape: pid %d is not `sleep` in a session of its own after 2s", pid)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	return pids, nil
}

// ownSession reports whether pid runs sleep as the leader of its own
// session (readStat: comm "sleep", session = pid).
func ownSession(pid int) bool {
	comm, _, _, sid, ok := readStat(pid)
	return ok && comm == "sleep" && sid == pid
}

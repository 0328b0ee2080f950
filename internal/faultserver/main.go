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

// Main runs the fault server from ConfigFromEnv on 127.0.0.1:$PORT and
// never returns, its first stdout line naming the address; crash exits 2,
// escape spawns escapees first, and a bad environment or failed listen exits 1.
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
		// Notify, not Ignore: the server says when a SIGTERM came and was
		// ignored, so a test can wait for that instead of sleeping.
		term := make(chan os.Signal, 1)
		signal.Notify(term, syscall.SIGTERM)
		go func() {
			for range term {
				fmt.Println(StubbornLine)
			}
		}()
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
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ConnContext: ConnContext}
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

// escapees spawns two `sleep 300` processes outside the caller's process
// group and session (a setsid child and a double-forked daemon, daemonScript)
// and returns their pids once both lead a session of their own (within 2 s).
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

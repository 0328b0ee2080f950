package framework

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tfbench/tfbench/harness/internal/cpuset"
)

// readyPoll is the interval between readiness requests.
const readyPoll = 50 * time.Millisecond

// failStopGrace is the SIGTERM grace Start gives a server it gives up on.
const failStopGrace = 2 * time.Second

// killWait bounds the wait for the process group to vanish after SIGKILL.
const killWait = 5 * time.Second

// StartOptions are the per-run settings of Start.
type StartOptions struct {
	// Variant names the variant to run; "" is the first (default) variant.
	Variant string
	// Port is the TCP port given to the server as PORT; 0 picks a free
	// port on 127.0.0.1 (FreePort).
	Port int
	// DatabasePath is this server's own copy of the dataset, given as
	// DATABASE_PATH (made absolute). Required.
	DatabasePath string
	// BuildDir is the build output directory, given as TFBENCH_BUILD_DIR
	// (made absolute); it should be the directory BuildCmd was given.
	BuildDir string
	// CPUs is the server CPU set the server and all its descendants are
	// pinned to from birth (cpuset.StartIn); empty means no pinning.
	CPUs cpuset.Set
	// LogPath is the file the server's stdout and stderr are appended to
	// (parent directories are created). Required.
	LogPath string
	// ReadyTimeout overrides the spec's ready_timeout; 0 keeps the spec's.
	ReadyTimeout time.Duration
	// Runtime is the installed runtime of the variant (EnsureRuntime of
	// Spec.RuntimeOf(variant)); its BinDir goes first on PATH. Required
	// when that runtime is a pinned node@X.Y.Z; the zero Runtime otherwise
	// leaves PATH as it is.
	Runtime Runtime
}

// Server is a started, ready server. Its process group holds the start
// command's shell and everything it spawned; Stop ends them all.
type Server struct {
	// Spec is the adapter the server belongs to.
	Spec *Spec
	// Variant is the variant that runs.
	Variant Variant
	// BaseURL is "http://127.0.0.1:PORT", without a trailing slash.
	BaseURL string
	// Addr is "127.0.0.1:PORT".
	Addr string
	// Pid is the process id of the `sh -c start` process, the leader of the
	// server's process group (its pgid equals Pid). Probes sample the tree
	// under it.
	Pid int
	// LogPath is the file receiving the server's stdout and stderr.
	LogPath string

	cmd       *exec.Cmd
	done      chan struct{} // closed when the leader has been reaped
	waitErr   error         // the leader's exit, valid after done
	logOffset int64         // where this run's output starts in LogPath

	stopOnce sync.Once
	stopErr  error
}

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago (the
// kernel picks it; another process may take it before the server binds).
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("framework: free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// serverEnv returns the environment a server of variant v gets: the
// parent's environment, then PORT, DATABASE_PATH, NODE_ENV=production and
// TFBENCH_BUILD_DIR, then the spec's env, then the variant's env (a later
// entry for the same name wins, as in os/exec), and last PATH with binDir
// first (withBinDir; nothing when binDir is empty).
func (s *Spec) serverEnv(v Variant, port int, dbPath, buildDir, binDir string) []string {
	env := append(os.Environ(),
		EnvPort+"="+strconv.Itoa(port),
		EnvDatabasePath+"="+dbPath,
		EnvNodeEnv+"=production",
		EnvBuildDir+"="+buildDir,
	)
	for k, val := range s.Env {
		env = append(env, k+"="+val)
	}
	for k, val := range v.Env {
		env = append(env, k+"="+val)
	}
	return withBinDir(env, binDir)
}

// Start runs the variant's start command (`sh -c`, in the adapter's
// directory) as the leader of a new process group, pinned to o.CPUs from
// birth, with stdout and stderr appended to o.LogPath, and waits until GET
// BaseURL+Ready answers 200 (polled every 50 ms). The server must listen on
// 127.0.0.1:PORT. The environment is described at serverEnv: the parent's
// plus PORT, DATABASE_PATH, NODE_ENV=production, TFBENCH_BUILD_DIR, spec env
// and variant env, with o.Runtime.BinDir first on PATH. The child also gets Pdeathsig SIGKILL, a last resort if
// the harness dies without stopping it.
//
// Errors name the framework and variant: an unknown variant, a missing
// DatabasePath or LogPath, an o.Runtime that is not the variant's pinned
// node@X.Y.Z (Spec.RuntimeOf), a process that cannot start, a server that exits
// before it is ready (with its exit status) or is not ready within the
// ready timeout (with the last response or connection error), or ctx
// ending. On every failure after the process started, the whole group is
// stopped and the error quotes the last lines of this run's log.
func Start(ctx context.Context, s *Spec, o StartOptions) (*Server, error) {
	v, err := s.Variant(o.Variant)
	if err != nil {
		return nil, err
	}
	where := fmt.Sprintf("framework %s variant %s", s.Name, v.Name)
	if o.DatabasePath == "" {
		return nil, fmt.Errorf("%s: no database path", where)
	}
	if o.LogPath == "" {
		return nil, fmt.Errorf("%s: no log path", where)
	}
	if rs := s.RuntimeOf(v); !o.Runtime.matches(rs) {
		return nil, errRuntime(where, rs, o.Runtime)
	}
	dbPath, err := filepath.Abs(o.DatabasePath)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	buildDir := ""
	if o.BuildDir != "" {
		if buildDir, err = filepath.Abs(o.BuildDir); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
	}
	port := o.Port
	if port == 0 {
		if port, err = FreePort(); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
	}
	timeout := o.ReadyTimeout
	if timeout == 0 {
		timeout = s.ReadyTimeout
	}
	if err := os.MkdirAll(filepath.Dir(o.LogPath), 0o755); err != nil {
		return nil, fmt.Errorf("%s: log: %w", where, err)
	}
	logf, err := os.OpenFile(o.LogPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("%s: log: %w", where, err)
	}
	defer logf.Close() // the child holds its own descriptor
	var offset int64
	if st, err := logf.Stat(); err == nil {
		offset = st.Size()
	}
	startCmd := s.Start
	if v.Start != "" {
		startCmd = v.Start
	}
	fmt.Fprintf(logf, "--- tfbench %s: %s port %d cpus %q: %s\n",
		time.Now().UTC().Format(time.RFC3339), where, port, o.CPUs.String(), startCmd)

	cmd := exec.Command("sh", "-c", startCmd)
	cmd.Dir = s.Dir
	cmd.Env = s.serverEnv(v, port, dbPath, buildDir, o.Runtime.BinDir)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cpuset.StartIn(o.CPUs, cmd); err != nil {
		return nil, fmt.Errorf("%s: start `%s`: %w", where, startCmd, err)
	}
	fmt.Fprintf(logf, "--- tfbench: started pid %d (process group %d)\n", cmd.Process.Pid, cmd.Process.Pid)
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	srv := &Server{
		Spec: s, Variant: v,
		BaseURL: "http://" + addr, Addr: addr,
		Pid: cmd.Process.Pid, LogPath: o.LogPath,
		cmd: cmd, done: make(chan struct{}), logOffset: offset,
	}
	go func() {
		srv.waitErr = cmd.Wait()
		close(srv.done)
	}()
	if err := srv.waitReady(ctx, timeout); err != nil {
		stopErr := srv.Stop(failStopGrace)
		return nil, errors.Join(
			fmt.Errorf("%s: %w\nlast lines of %s:\n%s", where, err, o.LogPath, indent(srv.logTail(tailLines))),
			stopErr)
	}
	return srv, nil
}

// waitReady polls BaseURL+Ready until it answers 200, the leader exits,
// the timeout passes or ctx ends.
func (s *Server) waitReady(ctx context.Context, timeout time.Duration) error {
	url := s.BaseURL + s.Spec.Ready
	client := &http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}
	defer client.CloseIdleConnections()
	deadline := time.Now().Add(timeout)
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	tick := time.NewTicker(readyPoll)
	defer tick.Stop()
	last := "no answer yet"
	for {
		reqDeadline := time.Now().Add(2 * time.Second)
		if deadline.Before(reqDeadline) {
			reqDeadline = deadline
		}
		rctx, cancel := context.WithDeadline(ctx, reqDeadline)
		req, _ := http.NewRequestWithContext(rctx, http.MethodGet, url, nil)
		resp, err := client.Do(req)
		if err == nil {
			io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				cancel()
				return nil
			}
			last = "status " + resp.Status
		} else {
			last = err.Error()
		}
		cancel()
		select {
		case <-s.done:
			return fmt.Errorf("server exited before it was ready (%s)", exitText(s.waitErr))
		case <-ctx.Done():
			return fmt.Errorf("waiting for GET %s: %w", url, ctx.Err())
		case <-timer.C:
			return fmt.Errorf("not ready after %s: GET %s: last: %s", timeout, url, last)
		case <-tick.C:
		}
	}
}

func exitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// logTail returns the last n lines this run wrote to LogPath.
func (s *Server) logTail(n int) string {
	f, err := os.Open(s.LogPath)
	if err != nil {
		return "(log unreadable: " + err.Error() + ")"
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "(log unreadable: " + err.Error() + ")"
	}
	from := max(s.logOffset, st.Size()-16<<10)
	b := make([]byte, st.Size()-from)
	if _, err := f.ReadAt(b, from); err != nil && !errors.Is(err, io.EOF) {
		return "(log unreadable: " + err.Error() + ")"
	}
	return lastLines(b, n)
}

// Done is closed when the server's leader process has exited (for
// whatever reason: crash, Stop). A server that exits during a run has
// crashed; Err then says how it ended.
func (s *Server) Done() <-chan struct{} { return s.done }

// Err is the leader's exit as os/exec reports it ("exit status 2",
// "signal: terminated"), or nil for exit status 0; valid once Done is
// closed, nil before.
func (s *Server) Err() error {
	select {
	case <-s.done:
		return s.waitErr
	default:
		return nil
	}
}

// Stop ends the server's whole process group: SIGTERM to every member,
// then, for whatever is still alive after grace, SIGKILL. It returns once
// the leader has been reaped and no live process of the group remains
// (zombies awaiting their new parent's reaping are dead and do not count).
// It is idempotent and safe for concurrent use: later calls wait for and
// return the first call's result. Errors: processes of the group still
// alive 5 s after SIGKILL (their pids are listed). A server that exited on
// its own before Stop is not an error; see Err for how it ended. A process
// that left the group (setsid, setpgid) escapes Stop.
func (s *Server) Stop(grace time.Duration) error {
	s.stopOnce.Do(func() { s.stopErr = s.stop(grace) })
	return s.stopErr
}

func (s *Server) stop(grace time.Duration) error {
	pgid := s.Pid
	if err := syscall.Kill(-pgid, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("framework %s: SIGTERM process group %d: %w", s.Spec.Name, pgid, err)
	}
	if s.waitGone(pgid, grace) {
		return nil
	}
	if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("framework %s: SIGKILL process group %d: %w", s.Spec.Name, pgid, err)
	}
	if s.waitGone(pgid, killWait) {
		return nil
	}
	return fmt.Errorf("framework %s: processes %v of group %d still alive %s after SIGKILL",
		s.Spec.Name, GroupMembers(pgid), pgid, killWait)
}

// waitGone waits up to d for the leader to be reaped and the group to
// have no live member.
func (s *Server) waitGone(pgid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		reaped := false
		select {
		case <-s.done:
			reaped = true
		default:
		}
		if reaped && len(GroupMembers(pgid)) == 0 {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// GroupMembers lists the live processes (state not Z or X) whose process
// group id is pgid, from /proc/[pid]/stat; an empty result means the group
// is gone.
func GroupMembers(pgid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // exited meanwhile
		}
		state, _, pg, ok := parseStat(b)
		if ok && pg == pgid && state != 'Z' && state != 'X' {
			out = append(out, pid)
		}
	}
	return out
}

// parseStat reads state, ppid and pgrp from a /proc/[pid]/stat line. The
// command name in parentheses may hold spaces and parentheses, so fields
// are counted from the last ')'.
func parseStat(b []byte) (state byte, ppid, pgrp int, ok bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 3 || len(f[0]) != 1 {
		return 0, 0, 0, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	pgrp, err2 := strconv.Atoi(f[2])
	return f[0][0], ppid, pgrp, err1 == nil && err2 == nil
}

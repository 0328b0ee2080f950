// Package supervise runs adapters' servers and builds as process groups of
// their own, tagged TFBENCH_OWNER: start pinned to a CPU set, wait for
// readiness, stop all they spawned, so none outlives a run (docs/design.md).
package supervise

import (
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
	"sync"
	"time"

	"github.com/tfbench/tfbench/harness/eventloop"
	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/runtimes"
	"github.com/tfbench/tfbench/internal/cpuset"
	"github.com/tfbench/tfbench/internal/procs"
	"github.com/tfbench/tfbench/internal/tail"
)

// readyPoll is the interval between readiness requests.
const readyPoll = 50 * time.Millisecond

// failStopGrace is the SIGTERM grace Start gives a server it gives up on.
const failStopGrace = 2 * time.Second

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
	// (made absolute); it should be the directory the build was given.
	BuildDir string
	// CPUs is the server CPU set the server and all its descendants are
	// pinned to from birth (cpuset.StartIn); empty means no pinning.
	CPUs cpuset.Set
	// LogPath is the file the server's stdout and stderr are appended to
	// (parent directories are created). Required.
	LogPath string
	// ReadyTimeout overrides the spec's ready_timeout; 0 keeps the spec's.
	ReadyTimeout time.Duration
	// Runtime is the variant's installed runtime (runtimes.EnsureRuntime); its
	// BinDir goes first on PATH. Required when that runtime is a pinned
	// node@X.Y.Z; the zero Runtime leaves PATH as it is.
	Runtime runtimes.Runtime
	// EventLoopPreload (eventloop.WritePreload) and EventLoopDir (eventloop.Dir),
	// both set, make every Node process of a pinned-node server preload the monitor,
	// and give any other server the folder (eventloop.EnvDir) for its own answers
	// (a Go adapter's memory hook): Start creates the folder, Stop removes it.
	// Builds never get it.
	EventLoopPreload, EventLoopDir string
	// ProfileDir, when set, profiles the server's CPU into this folder (emptied
	// before each attempt): EnvCPUProfile for every server, --cpu-prof for pinned
	// Node (eventloop.ProfileEnv). Stop leaves it.
	ProfileDir string
	// AllInterfaces sets HOST and HOSTNAME to 0.0.0.0, after the spec's and
	// variant's env, so a generator on another host reaches the server (issue
	// 18); readiness is still polled on 127.0.0.1.
	AllInterfaces bool
	// AcceptPoll, when > 0, makes readiness the port's first accepted TCP
	// connection, tried every AcceptPoll from the spawn, instead of GET Ready:
	// no request reaches the server before the caller's (coldstart).
	// Server.SpawnToAccept says when it came.
	AcceptPoll time.Duration
}

// EnvCPUProfile names the file a profiled server writes its CPU profile to
// (StartOptions.ProfileDir); Go adapters support it with runtime/pprof
// (docs/profiles.md).
const EnvCPUProfile = "TFBENCH_CPU_PROFILE"

// CPUProfileName is the file name EnvCPUProfile gets in the profile folder.
const CPUProfileName = "cpu.pprof"

// Server is a started, ready server. Its process group holds the start
// command's shell and all it spawned; processes that left the group are found
// by their TFBENCH_OWNER tag and as descendants seen earlier (Processes).
type Server struct {
	// Spec is the adapter the server belongs to.
	Spec *framework.Spec
	// Variant is the variant that runs.
	Variant framework.Variant
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
	// Owner is the server's TFBENCH_OWNER value (framework.EnvOwner),
	// "<harness pid>-<n>": every process the server spawns inherits it
	// unless it clears its environment.
	Owner string
	// EventLoopDir is the absolute folder of the sockets of the server's
	// processes (eventloop.Read), removed by Stop; "" when the server is not
	// monitored (no StartOptions.EventLoopPreload). Node is whether the
	// server is pinned Node (its processes preload the monitor).
	EventLoopDir string
	Node         bool
	// ProfileDir is the absolute folder the server's CPU profiles are
	// written to (StartOptions.ProfileDir), complete once Stop returns; ""
	// when the server is not profiled.
	ProfileDir string
	// SpawnToAccept is the time from the spawn (just before fork and exec) to
	// the first TCP connection the port accepted, with StartOptions.AcceptPoll;
	// 0 without it (readiness was GET Ready).
	SpawnToAccept time.Duration

	mu        sync.Mutex
	known     map[int]procs.Proc // every process seen as the server's, by pid
	groupGone bool               // leader reaped and group seen empty: its id may be reused
	born      uint64             // the leader's start time (procs.Proc.Start); 0 if unknown

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

// serverEnv is a server's environment: the parent's, PORT, DATABASE_PATH,
// NODE_ENV=production, TFBENCH_BUILD_DIR, the spec's env, the variant's (later
// wins, as in os/exec), and last PATH with binDir first (runtimes.WithBinDir).
func serverEnv(s *framework.Spec, v framework.Variant, port int, dbPath, buildDir, binDir string) []string {
	env := append(os.Environ(),
		framework.EnvPort+"="+strconv.Itoa(port),
		framework.EnvDatabasePath+"="+dbPath,
		framework.EnvNodeEnv+"=production",
		framework.EnvBuildDir+"="+buildDir,
	)
	for k, val := range s.Env {
		env = append(env, k+"="+val)
	}
	for k, val := range v.Env {
		env = append(env, k+"="+val)
	}
	return runtimes.WithBinDir(env, binDir)
}

// Start runs the variant's start command (`sh -c` in the adapter's folder) as a
// process group pinned to o.CPUs (env serverEnv's plus TFBENCH_OWNER, output to
// o.LogPath) and waits for its own listener on 127.0.0.1:PORT to answer Ready 200.
// A taken o.Port is refused; a later failure stops it and quotes its log's tail.
func Start(ctx context.Context, s *framework.Spec, o StartOptions) (*Server, error) {
	v, err := s.Variant(o.Variant)
	if err != nil {
		return nil, err
	}
	l := launch{spec: s, v: v, o: o, where: fmt.Sprintf("framework %s variant %s", s.Name, v.Name)}
	if o.DatabasePath == "" {
		return nil, fmt.Errorf("%s: no database path", l.where)
	}
	if o.LogPath == "" {
		return nil, fmt.Errorf("%s: no log path", l.where)
	}
	rs := s.RuntimeOf(v)
	if err := o.Runtime.Require(l.where, rs); err != nil {
		return nil, err
	}
	_, node := framework.NodeVersion(rs)
	if o.ProfileDir != "" {
		if l.profileDir, err = filepath.Abs(o.ProfileDir); err != nil {
			return nil, fmt.Errorf("%s: %w", l.where, err)
		}
		l.nodeProfile = node
	}
	l.node = node
	if o.EventLoopPreload != "" && o.EventLoopDir != "" {
		if l.elDir, err = filepath.Abs(o.EventLoopDir); err != nil {
			return nil, fmt.Errorf("%s: %w", l.where, err)
		}
		if l.preload, err = filepath.Abs(o.EventLoopPreload); err != nil {
			return nil, fmt.Errorf("%s: %w", l.where, err)
		}
		srv, err := l.start(ctx)
		if err != nil {
			os.RemoveAll(l.elDir)
		}
		return srv, err
	}
	return l.start(ctx)
}

// start is Start once the options are checked.
func (l *launch) start(ctx context.Context) (*Server, error) {
	var err error
	o := l.o
	if l.dbPath, err = filepath.Abs(o.DatabasePath); err != nil {
		return nil, fmt.Errorf("%s: %w", l.where, err)
	}
	if o.BuildDir != "" {
		if l.buildDir, err = filepath.Abs(o.BuildDir); err != nil {
			return nil, fmt.Errorf("%s: %w", l.where, err)
		}
	}
	l.timeout = o.ReadyTimeout
	if l.timeout == 0 {
		l.timeout = l.spec.ReadyTimeout
	}
	if o.Port != 0 {
		holder, inUse, err := portInUse(ctx, o.Port)
		if err != nil {
			return nil, fmt.Errorf("%s: port %d on 127.0.0.1: %w", l.where, o.Port, err)
		}
		if inUse {
			return nil, fmt.Errorf("%s: port %d on 127.0.0.1 is in use by %s; free it or leave the port to tfbench",
				l.where, o.Port, holder)
		}
		srv, _, err := l.run(ctx, o.Port)
		return srv, err
	}
	port, err := freePort()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", l.where, err)
	}
	srv, lost, err := l.run(ctx, port)
	if lost == "" {
		return srv, err
	}
	next, perr := freePort()
	if perr != nil {
		return nil, errors.Join(err, fmt.Errorf("%s: %w", l.where, perr))
	}
	l.logf("--- tfbench: %s; retrying once on port %d\n", lost, next)
	srv, _, err = l.run(ctx, next)
	return srv, err
}

// launch is one Start call's settled options.
type launch struct {
	spec             *framework.Spec
	v                framework.Variant
	o                StartOptions
	where            string // "framework X variant Y"
	dbPath, buildDir string // absolute
	elDir, preload   string // absolute event-loop folder and script; "" when not monitored
	profileDir       string // absolute profile folder; "" when not profiled
	nodeProfile      bool   // profile Node processes (--cpu-prof) too
	node             bool   // pinned Node: its processes preload the monitor
	timeout          time.Duration
}

// logf appends a line to the server log (best effort).
func (l *launch) logf(format string, args ...any) {
	if f, err := os.OpenFile(l.o.LogPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644); err == nil {
		fmt.Fprintf(f, format, args...)
		f.Close()
	}
}

// run starts the server on port and waits for it to be ready. On a
// failure where the server exited before it was ready while another
// process holds the port, lost says so (for Start's one retry).
func (l *launch) run(ctx context.Context, port int) (srv *Server, lost string, err error) {
	owner, err := register()
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", l.where, err)
	}
	spawnedOK := false
	defer func() {
		if !spawnedOK {
			unregister(owner)
		}
	}()
	if err := os.MkdirAll(filepath.Dir(l.o.LogPath), 0o755); err != nil {
		return nil, "", fmt.Errorf("%s: log: %w", l.where, err)
	}
	if l.elDir != "" {
		// Made for each attempt: stopping a failed one removes it.
		if err := os.MkdirAll(l.elDir, 0o700); err != nil {
			return nil, "", fmt.Errorf("%s: event-loop folder: %w", l.where, err)
		}
	}
	if l.profileDir != "" {
		// A failed attempt's profiles are not the server's.
		os.RemoveAll(l.profileDir)
		if err := os.MkdirAll(l.profileDir, 0o755); err != nil {
			return nil, "", fmt.Errorf("%s: profile folder: %w", l.where, err)
		}
	}
	logf, err := os.OpenFile(l.o.LogPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, "", fmt.Errorf("%s: log: %w", l.where, err)
	}
	defer logf.Close() // the child holds its own descriptor
	var offset int64
	if st, err := logf.Stat(); err == nil {
		offset = st.Size()
	}
	startCmd := l.spec.Start
	if l.v.Start != "" {
		startCmd = l.v.Start
	}
	fmt.Fprintf(logf, "--- tfbench %s: %s port %d cpus %q: %s\n",
		time.Now().UTC().Format(time.RFC3339), l.where, port, l.o.CPUs.String(), startCmd)

	cmd := exec.Command("sh", "-c", startCmd)
	cmd.Dir = l.spec.Dir
	cmd.Env = serverEnv(l.spec, l.v, port, l.dbPath, l.buildDir, l.o.Runtime.BinDir)
	switch {
	case l.elDir != "" && l.node:
		cmd.Env = eventloop.Env(cmd.Env, l.preload, l.elDir)
	case l.elDir != "":
		cmd.Env = append(cmd.Env, eventloop.EnvDir+"="+l.elDir)
	}
	if l.profileDir != "" {
		cmd.Env = append(cmd.Env, EnvCPUProfile+"="+filepath.Join(l.profileDir, CPUProfileName))
		if l.nodeProfile {
			cmd.Env = eventloop.ProfileEnv(cmd.Env, l.profileDir)
		}
	}
	if l.o.AllInterfaces {
		cmd.Env = append(cmd.Env, "HOST=0.0.0.0", "HOSTNAME=0.0.0.0")
	}
	cmd.Env = append(cmd.Env, framework.EnvOwner+"="+owner)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = groupAttr()
	spawn := time.Now()
	if err := cpuset.StartIn(l.o.CPUs, cmd); err != nil {
		return nil, "", fmt.Errorf("%s: start `%s`: %w", l.where, startCmd, err)
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	srv = &Server{
		Spec: l.spec, Variant: l.v,
		BaseURL: "http://" + addr, Addr: addr,
		Pid: cmd.Process.Pid, LogPath: l.o.LogPath, Owner: owner, EventLoopDir: l.elDir, Node: l.node, ProfileDir: l.profileDir,
		cmd: cmd, done: make(chan struct{}), logOffset: offset,
		known: map[int]procs.Proc{},
	}
	spawnedOK = true // from here on Stop unregisters
	if p, err := procs.Get(srv.Pid); err == nil {
		srv.born = p.Start
	}
	go func() {
		srv.waitErr = cmd.Wait()
		close(srv.done)
	}()
	if err := spawned(owner, cmd.Process.Pid, srv); err != nil {
		fmt.Fprintf(logf, "--- tfbench: %v; stopping pid %d at once\n", err, cmd.Process.Pid)
		return nil, "", errors.Join(fmt.Errorf("%s: %w", l.where, err), srv.Stop(0))
	}
	fmt.Fprintf(logf, "--- tfbench: started pid %d (process group %d)\n", cmd.Process.Pid, cmd.Process.Pid)
	if l.o.AcceptPoll > 0 {
		err = srv.waitAccept(ctx, l.timeout, l.o.AcceptPoll, spawn)
	} else {
		err = srv.waitReady(ctx, l.timeout)
	}
	listener := false
	if err == nil {
		err = srv.checkListener(ctx, port)
		listener = err != nil
	}
	if err == nil {
		return srv, "", nil
	}
	stopErr := srv.Stop(failStopGrace)
	if !listener && ctx.Err() == nil {
		// With the server's processes gone, whoever holds the port now is
		// someone else.
		if holder, inUse, _ := portInUse(ctx, port); inUse {
			taken := fmt.Sprintf("port %d on 127.0.0.1 is in use by %s", port, holder)
			if errors.Is(err, errExited) {
				lost = fmt.Sprintf("the server exited before it was ready (%s) while %s", exitText(srv.waitErr), taken)
			}
			err = fmt.Errorf("%w; %s", err, taken)
		}
	}
	return nil, lost, errors.Join(
		fmt.Errorf("%s: %w\nlast lines of %s:\n%s", l.where, err, l.o.LogPath, tail.Indent(srv.LogTail(tail.Lines))),
		stopErr)
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
	// A request in flight ends when the leader exits: another process
	// holding the port may accept it and never answer.
	exited, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	go func() {
		select {
		case <-s.done:
			stopWatch()
		case <-exited.Done():
		}
	}()
	for {
		reqDeadline := time.Now().Add(2 * time.Second)
		if deadline.Before(reqDeadline) {
			reqDeadline = deadline
		}
		rctx, cancel := context.WithDeadline(exited, reqDeadline)
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
		if s.reaped() {
			return fmt.Errorf("%w (%s)", errExited, exitText(s.waitErr))
		}
		select {
		case <-s.done:
			return fmt.Errorf("%w (%s)", errExited, exitText(s.waitErr))
		case <-ctx.Done():
			return fmt.Errorf("waiting for GET %s: %w", url, ctx.Err())
		case <-timer.C:
			return fmt.Errorf("not ready after %s: GET %s: last: %s", timeout, url, last)
		case <-tick.C:
		}
	}
}

// errExited is waitReady's error for a server that exited before it was
// ready.
var errExited = errors.New("server exited before it was ready")

func exitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// LogTail returns the last n lines (of at most its last 16 KiB) this
// server wrote to LogPath, "(no output)" when it wrote none, or a note
// "(log unreadable: …)".
func (s *Server) LogTail(n int) string {
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
	return tail.Last(b, n)
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

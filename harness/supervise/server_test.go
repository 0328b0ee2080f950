package supervise

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/internal/cpuset"
	"github.com/tfbench/tfbench/internal/procs"
)

// fixtureDir holds the test adapters, framework's testdata (fixture, node-pinned).
var fixtureDir = filepath.Join("..", "framework", "testdata", "frameworks")

// The fixture adapter (fixtureDir/fixture) is built once, with its own
// build command (Run, as a build runs), into a directory shared by the tests.
var (
	fixtureOnce  sync.Once
	fixtureSpec  *framework.Spec
	fixtureBuild string
	fixtureErr   error
)

func TestMain(m *testing.M) {
	code := m.Run()
	// Nothing a test started may outlive it.
	if left, err := OwnedBy(os.Getpid()); err != nil || len(left) > 0 {
		fmt.Fprintf(os.Stderr, "processes tagged %s=%d-* left running: %v (%v)\n", framework.EnvOwner, os.Getpid(), left, err)
		procs.Kill(left, syscall.SIGKILL)
		code = 1
	}
	if fixtureBuild != "" {
		os.RemoveAll(fixtureBuild)
	}
	os.Exit(code)
}

func fixture(t *testing.T) (*framework.Spec, string) {
	t.Helper()
	fixtureOnce.Do(func() {
		fixtureSpec, fixtureErr = framework.Load(filepath.Join(fixtureDir, "fixture", framework.FileName))
		if fixtureErr != nil {
			return
		}
		if fixtureBuild, fixtureErr = os.MkdirTemp("", "tfbench-fixture-"); fixtureErr != nil {
			return
		}
		var log strings.Builder
		cmd := exec.CommandContext(context.Background(), "sh", "-c", fixtureSpec.Build)
		cmd.Dir = fixtureSpec.Dir
		cmd.Env = append(os.Environ(), framework.EnvBuildDir+"="+fixtureBuild)
		cmd.Stdout, cmd.Stderr = &log, &log
		if _, fixtureErr = Run(cmd); fixtureErr != nil {
			fixtureErr = fmt.Errorf("%w\n%s", fixtureErr, log.String())
		}
	})
	if fixtureErr != nil {
		t.Fatal(fixtureErr)
	}
	if st, err := os.Stat(filepath.Join(fixtureBuild, "server")); err != nil || st.Mode()&0o111 == 0 {
		t.Fatalf("the fixture's build produced no executable server: %v", err)
	}
	return fixtureSpec, fixtureBuild
}

func options(t *testing.T, build, variant string) StartOptions {
	dir := t.TempDir()
	return StartOptions{
		Variant:      variant,
		DatabasePath: filepath.Join(dir, "db", "tfb.db"),
		BuildDir:     build,
		LogPath:      filepath.Join(dir, "logs", "server.log"),
	}
}

// start is Start plus a last-resort SIGKILL at test end, whatever
// happened, of the group, the processes the server was seen with and every
// process tagged by this test binary, so that a broken Stop cannot leave
// the fixture's processes behind.
func start(t *testing.T, spec *framework.Spec, o StartOptions) (*Server, error) {
	t.Helper()
	srv, err := Start(context.Background(), spec, o)
	t.Cleanup(func() {
		var ps []procs.Proc
		if srv != nil {
			if len(GroupMembers(srv.Pid)) > 0 {
				syscall.Kill(-srv.Pid, syscall.SIGKILL)
			}
			ps = srv.knownProcs()
		}
		owned, _ := OwnedBy(os.Getpid())
		procs.Kill(append(ps, owned...), syscall.SIGKILL)
	})
	return srv, err
}

// killAtEnd sends SIGKILL to ps (if still the same processes) at test end.
func killAtEnd(t *testing.T, ps ...procs.Proc) {
	t.Cleanup(func() { procs.Kill(ps, syscall.SIGKILL) })
}

func getBody(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	return string(b)
}

// alive reports whether pid is a live (not zombie) process.
func alive(pid int) bool {
	p, err := procs.Get(pid)
	return err == nil && p.Live()
}

func pgidOf(t *testing.T, pid int) int {
	t.Helper()
	p, err := procs.Get(pid)
	if err != nil {
		t.Fatal(err)
	}
	return p.Pgid
}

func cpusOf(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^Cpus_allowed_list:\s*(\S+)$`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no Cpus_allowed_list for %d", pid)
	}
	return string(m[1])
}

var grandchildRE = regexp.MustCompile(`grandchild (\d+)`)

// fixturePids returns the fixture server's pid, its two children and the
// grandchild it reported in the log.
func fixturePids(t *testing.T, srv *Server) (self int, others []int) {
	t.Helper()
	var p struct {
		Self     int
		Children []int
	}
	if err := json.Unmarshal([]byte(getBody(t, srv.BaseURL+"/pids")), &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Children) != 2 {
		t.Fatalf("fixture children %v, want 2", p.Children)
	}
	var gc int
	for i := 0; i < 100 && gc == 0; i++ { // the shell logs it as it starts
		b, _ := os.ReadFile(srv.LogPath)
		if m := grandchildRE.FindSubmatch(b); m != nil {
			gc, _ = strconv.Atoi(string(m[1]))
		} else {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if gc == 0 {
		t.Fatal("fixture did not log its grandchild's pid")
	}
	return p.Self, append(p.Children, gc)
}

// assertGone checks that the group and every listed process are gone.
func assertGone(t *testing.T, pgid int, pids ...int) {
	t.Helper()
	if m := GroupMembers(pgid); len(m) != 0 {
		t.Errorf("process group %d still has live members %v", pgid, m)
	}
	for _, pid := range pids {
		if alive(pid) {
			t.Errorf("process %d still alive", pid)
		}
	}
}

func TestStartStopWholeGroup(t *testing.T) {
	spec, build := fixture(t)
	on := cpuset.Online()
	_, serverCPUs := cpuset.Split(on)
	for _, variant := range []string{"default", "shell"} {
		t.Run(variant, func(t *testing.T) {
			o := options(t, build, variant)
			o.CPUs = serverCPUs
			srv, err := start(t, spec, o)
			if err != nil {
				t.Fatal(err)
			}
			stopped := false
			defer func() {
				if !stopped {
					srv.Stop(time.Second)
				}
			}()
			if srv.BaseURL != "http://"+srv.Addr || !strings.HasPrefix(srv.Addr, "127.0.0.1:") {
				t.Errorf("BaseURL %q Addr %q", srv.BaseURL, srv.Addr)
			}
			if got := getBody(t, srv.BaseURL+"/json"); got != `{"message":"Hello, World!"}` {
				t.Errorf("/json %q", got)
			}

			self, others := fixturePids(t, srv)
			if variant == "default" && self != srv.Pid {
				t.Errorf("exec start: server pid %d, leader %d; want the same", self, srv.Pid)
			}
			if variant == "shell" && self == srv.Pid {
				t.Errorf("shell start: server pid equals the leader's %d", self)
			}
			for _, pid := range append([]int{srv.Pid, self}, others...) {
				if pg := pgidOf(t, pid); pg != srv.Pid {
					t.Errorf("process %d in group %d, want %d", pid, pg, srv.Pid)
				}
				if len(serverCPUs) == 0 {
					continue // no affinity (darwin): nothing pinned
				}
				if got := cpusOf(t, pid); got != serverCPUs.String() {
					t.Errorf("process %d Cpus_allowed_list %q, want the server set %q", pid, got, serverCPUs)
				}
			}
			members := GroupMembers(srv.Pid)
			want := 4 // server, sleep, sh, grandchild sleep
			if variant == "shell" {
				want = 6 // plus the leader shell and its sleep
			}
			if len(members) != want {
				t.Errorf("group members %v, want %d processes", members, want)
			}

			// Environment: the harness's variables, spec env, variant env.
			absDB, _ := filepath.Abs(o.DatabasePath)
			absBuild, _ := filepath.Abs(build)
			wantEnv := map[string]string{
				"PORT":              strings.TrimPrefix(srv.Addr, "127.0.0.1:"),
				"DATABASE_PATH":     absDB,
				"TFBENCH_BUILD_DIR": absBuild,
				"NODE_ENV":          "fixture", // spec env overrides production
				"FIXTURE_SPEC":      "from-spec",
				"FIXTURE_BOTH":      "from-spec",
				"HOME":              os.Getenv("HOME"), // the parent's environment
			}
			if variant == "default" {
				wantEnv["FIXTURE_BOTH"] = "from-variant"
			}
			for k, v := range wantEnv {
				if got := getBody(t, srv.BaseURL+"/env?k="+k); got != v {
					t.Errorf("server env %s = %q, want %q", k, got, v)
				}
			}

			if err := srv.Stop(5 * time.Second); err != nil {
				t.Fatal(err)
			}
			stopped = true
			assertGone(t, srv.Pid, append([]int{srv.Pid, self}, others...)...)
			select {
			case <-srv.Done():
			default:
				t.Error("Done not closed after Stop")
			}
			if err := srv.Stop(time.Second); err != nil {
				t.Errorf("second Stop: %v", err)
			}

			log, _ := os.ReadFile(o.LogPath)
			for _, want := range []string{
				"--- tfbench ", "framework fixture variant " + variant, `cpus "` + serverCPUs.String() + `"`,
				"fixture listening on " + wantEnv["PORT"],
			} {
				if !strings.Contains(string(log), want) {
					t.Errorf("log lacks %q:\n%s", want, log)
				}
			}
		})
	}
}

// TestStartEventLoopFolderForGo gives the event-loop preload to a server
// that does not run on Node (runtime: go): it gets the socket folder for a
// hook of its own (eventloop.EnvDir, docs/adapters.md) but not NODE_OPTIONS;
// Stop removes the folder (the Node side is tested in harness/eventloop).
func TestStartEventLoopFolderForGo(t *testing.T) {
	spec, build := fixture(t)
	o := options(t, build, "default")
	o.EventLoopPreload = filepath.Join(t.TempDir(), "eventloop.cjs")
	o.EventLoopDir = filepath.Join(t.TempDir(), "eventloop", "fixture")
	srv, err := start(t, spec, o)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop(time.Second)
	if srv.EventLoopDir != o.EventLoopDir || srv.Node {
		t.Errorf("EventLoopDir = %q, Node = %v for a go server, want %q, false", srv.EventLoopDir, srv.Node, o.EventLoopDir)
	}
	for k, want := range map[string]string{"NODE_OPTIONS": os.Getenv("NODE_OPTIONS"), "TFBENCH_EVENTLOOP_DIR": o.EventLoopDir} {
		if got := getBody(t, srv.BaseURL+"/env?k="+k); got != want {
			t.Errorf("server env %s = %q, want %q", k, got, want)
		}
	}
	if st, err := os.Stat(o.EventLoopDir); err != nil || !st.IsDir() {
		t.Errorf("%s: %v; want the folder while the server runs", o.EventLoopDir, err)
	}
	if err := srv.Stop(time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(o.EventLoopDir); !os.IsNotExist(err) {
		t.Errorf("after Stop, %s: %v; want it removed", o.EventLoopDir, err)
	}
}

func TestStopKillsStubborn(t *testing.T) {
	spec, build := fixture(t)
	srv, err := start(t, spec, options(t, build, "stubborn"))
	if err != nil {
		t.Fatal(err)
	}
	self, others := fixturePids(t, srv)
	if err := srv.Stop(300 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	assertGone(t, srv.Pid, append([]int{self}, others...)...)
	if err := srv.Err(); err == nil || err.Error() != "signal: killed" {
		t.Errorf("stubborn server ended with %v, want signal: killed (it ignores SIGTERM)", err)
	}
}

// failedRun reads the process group and the grandchild's pid of a failed
// fixture run from its log, to check that nothing of it survived.
func failedRun(t *testing.T, path string) (pgid, grandchild int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`started pid \d+ \(process group (\d+)\)`).FindSubmatch(b)
	g := grandchildRE.FindSubmatch(b)
	if m == nil || g == nil {
		t.Fatalf("no pid lines in log:\n%s", b)
	}
	pgid, _ = strconv.Atoi(string(m[1]))
	grandchild, _ = strconv.Atoi(string(g[1]))
	return pgid, grandchild
}

func TestNeverReady(t *testing.T) {
	spec, build := fixture(t)
	o := options(t, build, "never")
	o.ReadyTimeout = 500 * time.Millisecond
	srv, err := start(t, spec, o)
	if err == nil {
		srv.Stop(time.Second)
		t.Fatal("a server answering 503 counted as ready")
	}
	msg := err.Error()
	for _, want := range []string{
		"framework fixture variant never: not ready after 500ms: GET http://127.0.0.1:",
		"/json: last: status 503 Service Unavailable",
		"last lines of " + o.LogPath,
		"| fixture listening on",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	pg, gc := failedRun(t, o.LogPath)
	assertGone(t, pg, gc)
}

func TestExitBeforeReady(t *testing.T) {
	spec, build := fixture(t)
	o := options(t, build, "exit")
	// Write an earlier run's output: the error must quote only this run.
	os.MkdirAll(filepath.Dir(o.LogPath), 0o755)
	os.WriteFile(o.LogPath, []byte("old run output\n"), 0o644)
	_, err := Start(context.Background(), spec, o)
	if err == nil {
		t.Fatal("no error for a server that exits at once")
	}
	msg := err.Error()
	for _, want := range []string{
		"framework fixture variant exit: server exited before it was ready (exit status 3)",
		"| fixture: fatal: boom",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "old run output") {
		t.Errorf("error quotes an earlier run's log:\n%s", msg)
	}
	b, _ := os.ReadFile(o.LogPath)
	if !strings.HasPrefix(string(b), "old run output\n--- tfbench ") {
		t.Errorf("log not appended to: %q", b)
	}
}

func TestStartCancelled(t *testing.T) {
	spec, build := fixture(t)
	o := options(t, build, "never")
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		// Cancel once the fixture is up (its grandchild logged), at most 5s.
		for i := 0; i < 250; i++ {
			if b, _ := os.ReadFile(o.LogPath); grandchildRE.Match(b) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		cancel()
	}()
	_, err := Start(ctx, spec, o)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Start with a cancelled context: %v, want context.Canceled", err)
	}
	pg, gc := failedRun(t, o.LogPath)
	assertGone(t, pg, gc)
}

func TestStartOptionErrors(t *testing.T) {
	spec, build := fixture(t)
	o := options(t, build, "cluster")
	if _, err := Start(context.Background(), spec, o); err == nil || !strings.Contains(err.Error(), `no variant "cluster"`) {
		t.Errorf("unknown variant: %v", err)
	}
	o = options(t, build, "")
	o.LogPath = ""
	if _, err := Start(context.Background(), spec, o); err == nil || err.Error() != "framework fixture variant default: no log path" {
		t.Errorf("no log path: %v", err)
	}
	o = options(t, build, "")
	o.DatabasePath = ""
	if _, err := Start(context.Background(), spec, o); err == nil || err.Error() != "framework fixture variant default: no database path" {
		t.Errorf("no database path: %v", err)
	}
}

func TestFreePort(t *testing.T) {
	p, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	if p < 1024 || p > 65535 {
		t.Errorf("FreePort() = %d, want an unprivileged port", p)
	}
}

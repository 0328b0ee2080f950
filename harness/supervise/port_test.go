package supervise

import (
	"fmt"
	"net"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tfbench/tfbench/internal/procs"
)

// hold listens on a free port of 127.0.0.1 until the test ends.
func hold(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln.Addr().(*net.TCPAddr).Port
}

func registered() int {
	registry.Lock()
	defer registry.Unlock()
	return len(registry.live)
}

// TestStartPortInUse: a taken StartOptions.Port is refused, naming its
// holder (this test binary), before anything is spawned or logged.
func TestStartPortInUse(t *testing.T) {
	spec, build := fixture(t)
	port := hold(t)
	o := options(t, build, "")
	o.Port = port
	before := registered()
	srv, err := start(t, spec, o)
	if err == nil {
		srv.Stop(time.Second)
		t.Fatal("Start on a taken port succeeded")
	}
	want := fmt.Sprintf("framework fixture variant default: port %d on 127.0.0.1 is in use by pid %d (supervise.test); free it or leave the port to tfbench",
		port, os.Getpid())
	if err.Error() != want {
		t.Errorf("error:\n%s\nwant:\n%s", err, want)
	}
	if _, err := os.Stat(o.LogPath); !os.IsNotExist(err) {
		b, _ := os.ReadFile(o.LogPath)
		t.Errorf("log written for a refused port (%v):\n%s", err, b)
	}
	if n := registered(); n != before {
		t.Errorf("%d servers or builds registered after a refused start, want %d", n, before)
	}
}

// TestStartLostPortRace: with Port 0, another process takes the port
// FreePort picked before the server binds it; the server exits and Start
// tries once more on a new port.
func TestStartLostPortRace(t *testing.T) {
	spec, build := fixture(t)
	taken := hold(t)
	calls := 0
	freePort = func() (int, error) {
		calls++
		if calls == 1 {
			return taken, nil
		}
		return FreePort()
	}
	t.Cleanup(func() { freePort = FreePort })
	o := options(t, build, "")
	srv, err := start(t, spec, o)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop(time.Second)
	if calls != 2 {
		t.Errorf("FreePort called %d times, want 2", calls)
	}
	port := strings.TrimPrefix(srv.Addr, "127.0.0.1:")
	if port == strconv.Itoa(taken) {
		t.Fatalf("server on the taken port %d", taken)
	}
	if got := getBody(t, srv.BaseURL+"/json"); got != `{"message":"Hello, World!"}` {
		t.Errorf("/json %q", got)
	}
	b, _ := os.ReadFile(o.LogPath)
	for _, want := range []string{
		"bind: address already in use",
		fmt.Sprintf("--- tfbench: the server exited before it was ready (exit status 1) while port %d on 127.0.0.1 is in use by pid %d (supervise.test); retrying once on port %s\n",
			taken, os.Getpid(), port),
		"port " + port + ` cpus ""`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("log lacks %q:\n%s", want, b)
		}
	}
	if err := srv.Stop(time.Second); err != nil {
		t.Error(err)
	}
}

// TestStartExitNamesPortHolder: a server that exits before it is ready
// while another process holds its port: the error names the holder and
// the attempt reports the lost race (Start retries it only for Port 0).
func TestStartExitNamesPortHolder(t *testing.T) {
	spec, build := fixture(t)
	taken := hold(t)
	l := launch{spec: spec, o: options(t, build, "exit"), where: "framework fixture variant exit", timeout: time.Second}
	l.v, _ = spec.Variant("exit")
	l.dbPath, l.buildDir = "/nonexistent.db", build
	_, lost, err := l.run(t.Context(), taken)
	if err == nil {
		t.Fatal("exit variant started")
	}
	wantLost := fmt.Sprintf("the server exited before it was ready (exit status 3) while port %d on 127.0.0.1 is in use by pid %d (supervise.test)", taken, os.Getpid())
	if lost != wantLost {
		t.Errorf("lost = %q, want %q", lost, wantLost)
	}
	want := fmt.Sprintf("framework fixture variant exit: server exited before it was ready (exit status 3); port %d on 127.0.0.1 is in use by pid %d (supervise.test)\nlast lines of ", taken, os.Getpid())
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error:\n%s\nwant prefix:\n%s", err, want)
	}
}

var foreignRE = regexp.MustCompile(`(?m)^foreign (\d+)$`)

// TestStartForeignListener: the ready check is answered by a process that
// is not the server's (detached, environment cleared): Start refuses it.
func TestStartForeignListener(t *testing.T) {
	spec, build := fixture(t)
	o := options(t, build, "foreign")
	o.ReadyTimeout = 2 * time.Second
	t.Cleanup(func() { // the foreign listener is no process of the server's
		b, _ := os.ReadFile(o.LogPath)
		if m := foreignRE.FindSubmatch(b); m != nil {
			pid, _ := strconv.Atoi(string(m[1]))
			if p, err := procs.Get(pid); err == nil {
				procs.Kill([]procs.Proc{p}, syscall.SIGKILL)
			}
		}
	})
	srv, err := start(t, spec, o)
	if err == nil {
		srv.Stop(time.Second)
		t.Fatal("a server whose port is answered by another process counted as ready")
	}
	b, _ := os.ReadFile(o.LogPath)
	m := foreignRE.FindSubmatch(b)
	pm := regexp.MustCompile(`port (\d+) cpus`).FindSubmatch(b)
	if m == nil || pm == nil {
		t.Fatalf("no foreign pid or port in the log:\n%s", b)
	}
	want := fmt.Sprintf("framework fixture variant foreign: port %s answered, but its listener is pid %s (server), not the server\nlast lines of %s:\n",
		pm[1], m[1], o.LogPath)
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error:\n%s\nwant prefix:\n%s", err, want)
	}
	pg, gc := failedRun(t, o.LogPath)
	assertGone(t, pg, gc)
}

func TestConflicts(t *testing.T) {
	for ip, want := range map[string]bool{
		"127.0.0.1": true, "0.0.0.0": true, "::": true, "::ffff:127.0.0.1": true, "": true, "*": true,
		"127.0.0.2": false, "10.0.0.1": false, "::1": false,
	} {
		if got := conflicts(ip); got != want {
			t.Errorf("conflicts(%q) = %v, want %v", ip, got, want)
		}
	}
}

package stage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/runtimes"
	"github.com/tfbench/tfbench/harness/supervise"
	"github.com/tfbench/tfbench/internal/procs"
)

// pinnedNode is the Node.js version the install test fetches from npm.
const pinnedNode = "24.22.3"

// nodePinned is framework's test adapter on a pinned Node.js.
var nodePinned = filepath.Join("..", "framework", "testdata", "frameworks", "node-pinned", framework.FileName)

// alive reports whether pid is a live (not zombie) process.
func alive(pid int) bool {
	p, err := procs.Get(pid)
	return err == nil && p.Live()
}

func TestBuildCmdFailure(t *testing.T) {
	s := &framework.Spec{Name: "broken", Dir: t.TempDir(), Build: `echo compiling; for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22; do echo line $i; done; echo "main.go:3: undefined: x" >&2; exit 7`}
	var log strings.Builder
	err := BuildCmd(context.Background(), s, filepath.Join(t.TempDir(), "out"), &log)
	if err == nil {
		t.Fatal("no error from a failing build")
	}
	msg := err.Error()
	for _, want := range []string{"framework broken: build", "exit status 7", "main.go:3: undefined: x", "line 22"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	// Only the last 20 lines are quoted: "compiling" and lines 1..3 are cut.
	if strings.Contains(msg, "| compiling") || strings.Contains(msg, "| line 3\n") || !strings.Contains(msg, "| line 4\n") {
		t.Errorf("error quotes more than the last 20 lines: %q", msg)
	}
	if !strings.HasPrefix(log.String(), "compiling\nline 1\n") {
		t.Errorf("log writer got %q", log.String())
	}

	s.Build = ""
	if err := BuildCmd(context.Background(), s, t.TempDir(), nil); err != nil {
		t.Errorf("empty build: %v", err)
	}
}

func TestBuildCmdEnvAndCancel(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	s := &framework.Spec{Name: "envcheck", Dir: t.TempDir(), Env: map[string]string{"NEXT_TELEMETRY_DISABLED": "1"},
		Build: `printf '%s %s %s %s %s' "$TFBENCH_BUILD_DIR" "$NODE_ENV" "$(pwd)" "$NEXT_TELEMETRY_DISABLED" "$TMPDIR" > "$TFBENCH_BUILD_DIR/env.txt" && touch "$TMPDIR/x"`}
	if err := BuildCmd(context.Background(), s, out, nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "env.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// TMPDIR is the build's own folder, made before the build: a tool that
	// writes a fixed name there collides with no other user or run.
	if want := out + " production " + s.Dir + " 1 " + filepath.Join(out, ".tmp"); string(b) != want {
		t.Errorf("build saw %q, want %q", b, want)
	}

	// Cancel once the build has started (it writes started), not after a
	// guessed delay: a busy machine can take longer to start it.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := filepath.Join(out, "started")
	s.Build = `touch "$TFBENCH_BUILD_DIR/started"; sleep 300 & sleep 300; echo never`
	go func() {
		for ctx.Err() == nil {
			if _, err := os.Stat(started); err == nil {
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	err = BuildCmd(ctx, s, out, nil)
	if err == nil || !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "framework envcheck: build") {
		t.Errorf("cancelled build error = %v", err)
	}
	if _, err := os.Stat(started); err != nil {
		t.Errorf("cancelled before the build started: %v", err)
	}
}

// TestBuildTagsAndKillsLeftovers: a build sees TFBENCH_OWNER, and a daemon
// it leaves behind (its own session, out of the group and the tree: a
// double fork through this test binary, detachMain) is killed when it ends.
func TestBuildTagsAndKillsLeftovers(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	s := &framework.Spec{Name: "daemonizing", Dir: t.TempDir(),
		Build: `echo "$TFBENCH_OWNER" > "$TFBENCH_BUILD_DIR/owner"
` + envDetach + `=1 '` + strings.ReplaceAll(exe, `'`, `'\''`) + `' sleep 300 > "$TFBENCH_BUILD_DIR/pid"`}
	var log strings.Builder
	err = BuildCmd(context.Background(), s, out, &log)
	// Kill the daemon at test end should the build have left it.
	if b, rerr := os.ReadFile(filepath.Join(out, "pid")); rerr == nil {
		if pid, aerr := strconv.Atoi(strings.TrimSpace(string(b))); aerr == nil {
			if p, gerr := procs.Get(pid); gerr == nil {
				t.Cleanup(func() { procs.Kill([]procs.Proc{p}, syscall.SIGKILL) })
			}
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(out, "owner"))
	owner := strings.TrimSpace(string(b))
	if !strings.HasPrefix(owner, strconv.Itoa(os.Getpid())+"-") {
		t.Errorf("build saw %s=%q, want %d-<n>", framework.EnvOwner, owner, os.Getpid())
	}
	b, _ = os.ReadFile(filepath.Join(out, "pid"))
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("pid file %q: %v", b, err)
	}
	if want := fmt.Sprintf("--- tfbench: the build left processes [%d (sleep)] running; killed them\n", pid); log.String() != want {
		t.Errorf("build log %q, want %q", log.String(), want)
	}
	deadline := time.Now().Add(time.Second)
	for alive(pid) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if alive(pid) {
		t.Errorf("the build's daemon %d alive 1s after the build", pid)
	}
}

// envKillAll, set to 1, makes TestBuildCmdAfterKillAll check in this
// process; otherwise it runs this test binary again with it, since KillAll
// leaves a harness exiting for good.
const envKillAll = "STAGE_TEST_KILLALL"

func TestBuildCmdAfterKillAll(t *testing.T) {
	if os.Getenv(envKillAll) != "1" {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(exe, "-test.run=^TestBuildCmdAfterKillAll$", "-test.v")
		cmd.Env = append(os.Environ(), envKillAll+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestBuildCmdAfterKillAll") {
			t.Fatalf("%s: %v\n%s", envKillAll, err, out)
		}
		return
	}
	supervise.KillAll()
	b := &framework.Spec{Name: "later", Dir: t.TempDir(), Build: "true"}
	if err := BuildCmd(context.Background(), b, t.TempDir(), nil); !errors.Is(err, supervise.ErrExiting) || err.Error() != "framework later: build: harness is exiting" {
		t.Errorf("BuildCmd after KillAll: %v", err)
	}
}

// TestPinnedRuntimeRequired: a pinned node@X.Y.Z adapter builds only on
// that node or a variant's (supervise has the test of Start's side).
func TestPinnedRuntimeRequired(t *testing.T) {
	s, err := framework.Load(nodePinned)
	if err != nil {
		t.Fatal(err)
	}
	err = BuildCmd(context.Background(), s, t.TempDir(), nil)
	want := "framework node-pinned: build: runtime node@24.22.3 is not installed (given: none); call EnsureRuntime and pass its Runtime"
	if err == nil || err.Error() != want {
		t.Errorf("BuildCmd without the runtime: %v, want %q", err, want)
	}
	err = BuildCmdWith(context.Background(), s, t.TempDir(), runtimes.Runtime{Name: "node", Version: "24.22.2", BinDir: "/x"}, nil)
	if err == nil || !strings.Contains(err.Error(), "runtime node@24.22.3 is not installed (given: node 24.22.2)") {
		t.Errorf("BuildCmdWith another node: %v", err)
	}
	// A variant's pinned runtime may build (the Node 22 variant's build).
	out := t.TempDir()
	bin := t.TempDir()
	os.WriteFile(filepath.Join(bin, "node"), []byte("#!/bin/sh\necho fake-v22\n"), 0o755)
	if err := BuildCmdWith(context.Background(), s, out, runtimes.Runtime{Name: "node", Version: "22.22.0", BinDir: bin}, nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "v")); string(b) != "fake-v22\n" {
		t.Errorf("build ran node printing %q, want the runtime's fake-v22", b)
	}
}

// TestEnsureRuntimeNodeInstall installs node-<os>-<arch>@24.22.3 and
// npm@NPMVersion from the real npm registry (about 5 s, 40 MB download),
// reuses them, and builds and starts the node-pinned fixture on that node
// although the machine's own node (if any) comes later on PATH.
func TestEnsureRuntimeNodeInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the download of Node.js " + pinnedNode)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	root := t.TempDir()
	var log strings.Builder
	rt, err := runtimes.EnsureRuntime(ctx, "node@"+pinnedNode, ".", root, &log)
	if err != nil {
		t.Fatalf("%v\nlog:\n%s", err, log.String())
	}
	bin := filepath.Join(root, "node-"+pinnedNode, "node", "bin")
	if want := (runtimes.Runtime{Name: "node", Version: pinnedNode, BinDir: bin}); rt != want {
		t.Fatalf("EnsureRuntime = %#v, want %#v", rt, want)
	}
	out, err := exec.Command(filepath.Join(bin, "node"), "--version").Output()
	if err != nil || string(out) != "v"+pinnedNode+"\n" {
		t.Fatalf("node --version = %q, %v; want v%s", out, err, pinnedNode)
	}
	if out, err := exec.Command(filepath.Join(bin, "npm"), "--version").Output(); err != nil || string(out) != runtimes.NPMVersion+"\n" {
		t.Errorf("npm --version = %q, %v; want %s", out, err, runtimes.NPMVersion)
	}

	t.Run("reuse", func(t *testing.T) {
		st, _ := os.Stat(filepath.Join(bin, "node"))
		t.Setenv("npm_config_registry", "http://127.0.0.1:1/") // a download would fail
		var log strings.Builder
		again, err := runtimes.EnsureRuntime(ctx, "node@"+pinnedNode, ".", root, &log)
		if err != nil || again != rt {
			t.Fatalf("second EnsureRuntime = %#v, %v; want %#v", again, err, rt)
		}
		if !strings.HasPrefix(log.String(), "runtime node@"+pinnedNode+": reusing ") {
			t.Errorf("second call log %q, want reusing", log.String())
		}
		st2, _ := os.Stat(filepath.Join(bin, "node"))
		if !st2.ModTime().Equal(st.ModTime()) || !os.SameFile(st, st2) {
			t.Error("the node binary was replaced on reuse")
		}
	})

	s, err := framework.Load(nodePinned)
	if err != nil {
		t.Fatal(err)
	}
	build := t.TempDir()
	if err := BuildCmdWith(ctx, s, build, rt, nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(build, "v")); string(b) != "v"+pinnedNode+"\n" {
		t.Errorf("build's `node --version` wrote %q, want v%s", b, pinnedNode)
	}

	srv, err := supervise.Start(ctx, s, supervise.StartOptions{DatabasePath: filepath.Join(t.TempDir(), "none.db"), BuildDir: build, LogPath: filepath.Join(t.TempDir(), "server.log"), Runtime: rt})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := srv.Stop(2 * time.Second); err != nil {
			t.Error(err)
		}
	}()
	resp, err := http.Get(srv.BaseURL + "/json")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "v"+pinnedNode {
		t.Errorf("server runs on node %q, want v%s", body, pinnedNode)
	}
}

package eventloop_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tfbench/tfbench/dataset"
	"github.com/tfbench/tfbench/harness/eventloop"
	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/profile"
	"github.com/tfbench/tfbench/harness/runtimes"
	"github.com/tfbench/tfbench/harness/supervise"
	"github.com/tfbench/tfbench/internal/testenv"
)

// pinnedNode is the Node.js the Node adapters name (runtime: node@…).
const pinnedNode = "node@24.22.3"

// nodeRuntime installs the pinned Node.js from the npm registry
// (runtimes.EnsureRuntime) into a folder shared by test runs:
// $TFBENCH_TEST_RUNTIMES, else the user cache's tfbench/runtimes.
func nodeRuntime(t *testing.T) runtimes.Runtime {
	t.Helper()
	if testing.Short() {
		t.Skip("installs Node.js from the npm registry")
	}
	dir, err := testenv.RuntimesDir()
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	rt, err := runtimes.EnsureRuntime(context.Background(), pinnedNode, ".", dir, &log)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	return rt
}

// node runs the pinned node on args with env added to the test's
// environment and returns its stdout and stderr; it must exit 0 within
// 20 s.
func node(t *testing.T, rt runtimes.Runtime, env []string, args ...string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(rt.BinDir, "node"), args...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String(), stderr.String()
}

// shortSockDir makes an empty socket folder with a short path, removed at test
// end: t.TempDir() under macOS's $TMPDIR (/var/folders/…/T/, about 50
// bytes) plus a long test name can leave a socket path above darwin's 103
// bytes (Linux allows 107).
func shortSockDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "el")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func sockets(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// TestPreloadIsSilent runs an ESM script that uses its own --require
// (from NODE_OPTIONS) with the preload: the script's preload still runs,
// the output is the script's alone, the process exits when its work is
// done (the socket does not keep it alive) and its socket is gone after.
// Without the folder, or with one that cannot hold a socket, nothing
// changes either.
func TestPreloadIsSilent(t *testing.T) {
	rt := nodeRuntime(t)
	work := t.TempDir()
	// Both preloads' paths hold a space: NODE_OPTIONS quotes them.
	preload, err := eventloop.WritePreload(filepath.Join(work, "run dir"))
	if err != nil {
		t.Fatal(err)
	}
	own := filepath.Join(work, "own preload.cjs")
	script := filepath.Join(work, "main.mjs")
	files := map[string]string{
		own:    "globalThis.ownPreload = 'ran';\n",
		script: "import { readdirSync } from 'node:fs';\nconsole.log('own preload', globalThis.ownPreload);\nconst d = process.env.TFBENCH_EVENTLOOP_DIR;\nlet n = 'none';\nsetTimeout(() => {\n  try { if (d) n = readdirSync(d).length; } catch {}\n  console.log('sockets', n);\n}, 100);\n",
	}
	for path, text := range files {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sockDir := shortSockDir(t)
	// Folders where no socket can be made: a file, a path too long for a
	// Unix socket address.
	notDir := filepath.Join(work, "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	long := filepath.Join(work, strings.Repeat("d", 120))
	if err := os.Mkdir(long, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, dir, sockets string
	}{
		{"socket folder", sockDir, "1"},
		{"missing folder", filepath.Join(work, "gone"), "none"},
		{"a file", notDir, "none"},
		{"too long", long, "0"},
		{"no folder", "", "none"},
	} {
		env := []string{"NODE_OPTIONS=" + eventloop.NodeOptions(`--require "`+own+`"`, preload)}
		if c.dir != "" {
			env = append(env, eventloop.EnvDir+"="+c.dir)
		}
		start := time.Now()
		stdout, stderr := node(t, rt, env, script)
		if want := "own preload ran\nsockets " + c.sockets + "\n"; stdout != want || stderr != "" {
			t.Errorf("%s: stdout %q, stderr %q; want stdout %q and no stderr", c.name, stdout, stderr, want)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s: node ran %s for 100 ms of work", c.name, d)
		}
	}
	if left := sockets(t, sockDir); len(left) != 0 {
		t.Errorf("sockets left after exit: %v", left)
	}
}

// TestPreloadInChildProcesses starts a Node process that spawns a Node
// child (NODE_OPTIONS is inherited): both answer, each on its own socket,
// and the worst is the child's blocked loop.
func TestPreloadInChildProcesses(t *testing.T) {
	rt := nodeRuntime(t)
	work := t.TempDir()
	preload, err := eventloop.WritePreload(work)
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(work, "parent.cjs")
	// The child blocks its loop for 80 ms once the file go exists (made
	// after the reset), then writes the file blocked: events, not a sleep.
	goFile, blockedFile := filepath.Join(work, "go"), filepath.Join(work, "blocked")
	text := `const { spawn } = require('node:child_process');
const fs = require('node:fs');
if (process.argv[2] === 'child') {
  const poll = setInterval(() => {
    if (!fs.existsSync(` + strconv.Quote(goFile) + `)) return;
    clearInterval(poll);
    const end = Date.now() + 80; while (Date.now() < end) {}
    fs.writeFileSync(` + strconv.Quote(blockedFile) + `, '');
  }, 10);
  setInterval(() => {}, 1000);
} else {
  const child = spawn(process.execPath, [__filename, 'child'], { stdio: 'inherit' });
  process.on('SIGTERM', () => { child.kill('SIGTERM'); process.exit(0); });
  setInterval(() => {}, 1000);
}
`
	if err := os.WriteFile(script, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := shortSockDir(t)
	cmd := exec.Command(filepath.Join(rt.BinDir, "node"), script)
	cmd.Env = eventloop.Env(os.Environ(), preload, dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	ctx := context.Background()
	deadline := time.Now().Add(10 * time.Second)
	for len(sockets(t, dir)) < 2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if err := eventloop.Reset(ctx, dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(goFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(blockedFile); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the child did not block within a minute of the go file")
		}
	}
	w, err := eventloop.Read(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	el := loopOf(t, w)
	t.Logf("parent and child: %+v", el)
	if el.Processes != 2 || el.Max < 75 {
		t.Errorf("Read = %+v, want 2 processes and a max of at least 75 ms (the child's 80 ms block)", el)
	}
	if el.P50 <= 0 || el.P50 > el.P99 || el.P99 > el.Max {
		t.Errorf("Read = %+v, want 0 < p50 <= p99 <= max", el)
	}
	syscall.Kill(cmd.Process.Pid, syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("parent: %v\n%s", err, out.String())
	}
	if out.Len() != 0 {
		t.Errorf("output of parent and child: %q, want none", out.String())
	}
}

// blockRoute is the route the test adds to its copy of node-http: it
// busy-waits 60 ms on the event loop, then answers.
const blockRoute = `
    // Test only: blocks the event loop for 60 ms.
    '/block': (res) => {
      const end = Date.now() + 60;
      while (Date.now() < end) {}
      send(res, 200, 'text/plain', 'blocked');
    },
`

// TestNodeHTTPBlockingRoute starts a copy of frameworks/node-http with a
// route that blocks the event loop through supervise.Start, as the harness
// does (the preload injected by NODE_OPTIONS): the blocking route shows in
// the event-loop max, plain /json after a reset does not, the server's log
// holds nothing from the preload, and Stop leaves no socket or process.
func TestNodeHTTPBlockingRoute(t *testing.T) {
	rt := nodeRuntime(t)
	work := t.TempDir()
	adapter := filepath.Join(work, "frameworks", "node-http")
	if err := os.CopyFS(adapter, os.DirFS(filepath.Join("..", "..", "frameworks", "node-http"))); err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(adapter, "server.mjs")
	src, err := os.ReadFile(main)
	if err != nil {
		t.Fatal(err)
	}
	anchor := "    '/plaintext': (res) => send(res, 200, 'text/plain', HELLO),\n"
	if !bytes.Contains(src, []byte(anchor)) {
		t.Fatalf("%s has no line %q to add the blocking route after", main, anchor)
	}
	src = bytes.Replace(src, []byte(anchor), []byte(anchor+blockRoute), 1)
	if err := os.WriteFile(main, src, 0o644); err != nil {
		t.Fatal(err)
	}
	spec, err := framework.Load(filepath.Join(adapter, "framework.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if spec.Runtime != pinnedNode {
		t.Fatalf("node-http runs on %q, the test installs %s", spec.Runtime, pinnedNode)
	}
	db := filepath.Join(work, "tfb.db")
	if err := dataset.Generate(db); err != nil {
		t.Fatal(err)
	}
	runDir := filepath.Join(work, "runs", "r")
	preload, err := eventloop.WritePreload(runDir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	srv, err := supervise.Start(ctx, spec, supervise.StartOptions{
		Runtime: rt, DatabasePath: db, LogPath: filepath.Join(runDir, "logs", "node-http.log"),
		EventLoopPreload: preload, EventLoopDir: eventloop.Dir(runDir, "node-http-default-r1"),
	})
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			srv.Stop(time.Second)
		}
	})
	if want := filepath.Join(runDir, "eventloop", "node-http-default-r1"); srv.EventLoopDir != want {
		t.Fatalf("EventLoopDir = %q, want %q", srv.EventLoopDir, want)
	}
	// `exec node server.mjs`: the leader is the one Node process.
	if got, want := sockets(t, srv.EventLoopDir), []string{strconv.Itoa(srv.Pid) + ".sock"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("sockets %v, want %v", got, want)
	}
	get := func(path string) {
		t.Helper()
		resp, err := http.Get(srv.BaseURL + path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %s", path, resp.Status)
		}
	}

	if err := eventloop.Reset(ctx, srv.EventLoopDir); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		get("/block")
		time.Sleep(30 * time.Millisecond)
	}
	w, err := eventloop.Read(ctx, srv.EventLoopDir)
	if err != nil {
		t.Fatal(err)
	}
	el := loopOf(t, w)
	t.Logf("after GET /block ×3: %+v", el)
	if el.Processes != 1 || el.Max < 50 || el.Max > 5000 {
		t.Errorf("after GET /block ×3: %+v, want 1 process and a max of at least 50 ms (60 ms blocks)", el)
	}

	// Only cheap requests after a reset: no block. A busy machine can stall
	// the process once; one window of three under 50 ms is required (a reset
	// that did nothing keeps the 60 ms blocks in all three).
	var quiet []float64
	for range 3 {
		if err := eventloop.Reset(ctx, srv.EventLoopDir); err != nil {
			t.Fatal(err)
		}
		for range 20 {
			get("/json")
			time.Sleep(5 * time.Millisecond)
		}
		w, err := eventloop.Read(ctx, srv.EventLoopDir)
		if err != nil {
			t.Fatal(err)
		}
		el := loopOf(t, w)
		if el.Processes != 1 || el.P50 < 9 {
			t.Errorf("after GET /json: %+v, want 1 process and a p50 of about the 10 ms resolution", el)
		}
		t.Logf("after GET /json ×20: %+v", el)
		quiet = append(quiet, el.Max)
		if el.Max < 50 {
			break
		}
	}
	if last := quiet[len(quiet)-1]; last >= 50 {
		t.Errorf("event-loop max after GET /json only: %v ms, want one window under 50 ms", quiet)
	}

	stopped = true
	if err := srv.Stop(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(srv.EventLoopDir); !os.IsNotExist(err) {
		t.Errorf("after Stop, %s: %v; want it removed", srv.EventLoopDir, err)
	}
	if left := supervise.GroupMembers(srv.Pid); len(left) > 0 {
		t.Errorf("after Stop, process group %d holds %v", srv.Pid, left)
	}
	if left, err := supervise.OwnedBy(os.Getpid()); err != nil || len(left) > 0 {
		t.Errorf("after Stop, processes tagged by this harness: %v (%v)", left, err)
	}
	log, err := os.ReadFile(srv.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	// Only the harness's lines and the server's own.
	for _, line := range strings.Split(strings.TrimSpace(string(log)), "\n") {
		if !strings.HasPrefix(line, "--- tfbench") && !strings.HasPrefix(line, "node-http: listening on http://127.0.0.1:") {
			t.Errorf("server log line %q is neither the harness's nor node-http's", line)
		}
	}
	if !bytes.Contains(log, []byte("node-http: listening on")) {
		t.Errorf("server log lacks node-http's start line:\n%s", log)
	}
	// Nothing left anywhere in the run folder but the preload, the log.
	var files []string
	filepath.WalkDir(runDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(runDir, path)
			files = append(files, rel)
		}
		return nil
	})
	if want := []string{"eventloop.cjs", "logs/node-http.log"}; fmt.Sprint(files) != fmt.Sprint(want) {
		t.Errorf("run folder holds %v, want %v", files, want)
	}
}

// TestNodeStartFailureRemovesFolder starts node-http on a database that
// does not exist: it exits before it is ready, Start fails, and the
// socket folder it made is gone.
func TestNodeStartFailureRemovesFolder(t *testing.T) {
	rt := nodeRuntime(t)
	spec, err := framework.Load(filepath.Join("..", "..", "frameworks", "node-http", "framework.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	runDir := t.TempDir()
	preload, err := eventloop.WritePreload(runDir)
	if err != nil {
		t.Fatal(err)
	}
	dir := eventloop.Dir(runDir, "node-http-default-r1")
	srv, err := supervise.Start(context.Background(), spec, supervise.StartOptions{
		Runtime: rt, DatabasePath: filepath.Join(runDir, "missing.db"), LogPath: filepath.Join(runDir, "node-http.log"),
		EventLoopPreload: preload, EventLoopDir: dir,
	})
	if err == nil {
		srv.Stop(time.Second)
		t.Fatal("Start on a missing database succeeded")
	}
	if !strings.Contains(err.Error(), "server exited before it was ready") {
		t.Errorf("Start error %v, want the server's exit", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("after a failed Start, %s: %v; want it removed", dir, err)
	}
}

// TestNodeCPUProfileOnStop starts tiny Node servers profiled through
// supervise.Start (StartOptions.ProfileDir), loads them a little and
// stops them with SIGTERM as the harness does: one without a SIGTERM
// listener (the preload exits at once), one whose own listener never
// exits (the preload exits 3 s later), one that exits in its own listener
// and one with a child Node process. Each process leaves a profile that
// parses; the server's has samples in its server.js.
func TestNodeCPUProfileOnStop(t *testing.T) {
	rt := nodeRuntime(t)
	const serve = "require('node:http').createServer((req, res) => {\n" +
		"  let x = 0;\n  for (let i = 0; i < 2e5; i++) x += Math.sqrt(i);\n" +
		"  res.writeHead(200, { 'Content-Type': 'application/json' });\n  res.end(JSON.stringify({ message: 'Hello, World!', x }));\n" +
		"}).listen(Number(process.env.PORT), '127.0.0.1');\n"
	for _, c := range []struct {
		name, extra string
		atLeast     time.Duration // how long Stop must take
		profiles    int
	}{
		{"no listener", "", 0, 1},
		{"listener that never exits", "process.on('SIGTERM', () => console.log('closing, slowly'));\n", 3 * time.Second, 1},
		{"listener that exits", "process.on('SIGTERM', () => process.exit(0));\n", 0, 1},
		// A child Node process (a cluster worker, a render pool) writes its own.
		{"child process", "require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' });\n", 0, 2},
	} {
		t.Run(strings.ReplaceAll(c.name, " ", "-"), func(t *testing.T) {
			work := t.TempDir()
			adapter := filepath.Join(work, "app")
			os.MkdirAll(adapter, 0o755)
			os.WriteFile(filepath.Join(adapter, "server.js"), []byte(serve+c.extra), 0o644)
			spec := &framework.Spec{Name: "tiny", Dir: adapter, Runtime: pinnedNode, Start: "exec node server.js", Ready: "/",
				ReadyTimeout: 20 * time.Second, Variants: []framework.Variant{{Name: "default"}}}
			db := filepath.Join(work, "tfb.db")
			os.WriteFile(db, nil, 0o644)
			preload, err := eventloop.WritePreload(work)
			if err != nil {
				t.Fatal(err)
			}
			srv, err := supervise.Start(context.Background(), spec, supervise.StartOptions{
				Runtime: rt, DatabasePath: db, LogPath: filepath.Join(work, "server.log"),
				EventLoopPreload: preload, EventLoopDir: eventloop.Dir(work, "tiny"), ProfileDir: filepath.Join(work, "profile"),
			})
			if err != nil {
				t.Fatal(err)
			}
			// Every process is up once it has its event-loop socket.
			for deadline := time.Now().Add(10 * time.Second); len(sockets(t, srv.EventLoopDir)) < c.profiles && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
			}
			for range 50 {
				resp, err := http.Get(srv.BaseURL + "/")
				if err != nil {
					srv.Stop(0)
					t.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			start := time.Now()
			if err := srv.Stop(10 * time.Second); err != nil {
				t.Fatal(err)
			}
			// A lower bound only (the preload's 3 s wait for an app's own
			// listener); the profile's existence below shows nothing was
			// SIGKILLed, however slow the machine.
			if took := time.Since(start); took < c.atLeast {
				t.Errorf("Stop took %v, want at least %v", took, c.atLeast)
			}
			files, _ := filepath.Glob(filepath.Join(srv.ProfileDir, "*.cpuprofile"))
			if len(files) != c.profiles {
				log, _ := os.ReadFile(filepath.Join(work, "server.log"))
				t.Fatalf("profiles %v, want %d (exit: %v)\n%s", files, c.profiles, srv.Err(), log)
			}
			app := 0 // profiles with time in the server's server.js
			for _, file := range files {
				p, err := profile.Read(file)
				if err != nil {
					t.Fatal(err)
				}
				if p.Samples == 0 || p.Total <= 0 {
					t.Errorf("%s: %d samples, %v sampled", file, p.Samples, p.Total)
				}
				for _, f := range p.Funcs {
					if f.Area == profile.AreaApp && strings.HasPrefix(f.File, "app/server.js:") {
						app++
						break
					}
				}
			}
			if app != 1 {
				t.Errorf("%d of %v have time in the app's server.js, want 1", app, files)
			}
		})
	}
}

// loopOf is w's event-loop delay; a Window without one fails the test.
func loopOf(t *testing.T, w eventloop.Window) model.EventLoop {
	t.Helper()
	if w.EventLoop == nil {
		t.Fatalf("Read = %+v, want an event-loop delay", w)
	}
	return *w.EventLoop
}

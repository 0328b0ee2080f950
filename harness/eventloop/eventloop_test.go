package eventloop

import (
	"bufio"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
)

// fake is a Go listener on dir/<pid>.sock speaking the preload's protocol:
// answer maps the command received to the line sent back ("" sends
// nothing and holds the connection until the test ends).
type fake struct {
	mu   sync.Mutex
	cmds []string
}

func listen(t *testing.T, dir string, pid int, answer func(cmd string) string) *fake {
	t.Helper()
	ln, err := net.Listen("unix", filepath.Join(dir, strconv.Itoa(pid)+".sock"))
	if err != nil {
		t.Fatal(err)
	}
	f := &fake{}
	done := make(chan struct{})
	var conns sync.WaitGroup
	t.Cleanup(func() {
		close(done)
		ln.Close()
		conns.Wait()
	})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Go(func() {
				defer c.Close()
				line, err := bufio.NewReader(c).ReadString('\n')
				if err != nil {
					return
				}
				cmd := strings.TrimSuffix(line, "\n")
				f.mu.Lock()
				f.cmds = append(f.cmds, cmd)
				f.mu.Unlock()
				a := answer(cmd)
				if a == "" {
					<-done
					return
				}
				c.Write([]byte(a))
			})
		}
	}()
	return f
}

func (f *fake) got() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.cmds...)
}

// reading answers read with r's JSON line and reset with ok.
func reading(r string) func(string) string {
	return func(cmd string) string {
		if cmd == "reset" {
			return "ok\n"
		}
		return r + "\n"
	}
}

// stale leaves a socket file whose listener is gone (a process that
// exited without removing it).
func stale(t *testing.T, dir string, pid int) {
	t.Helper()
	ln, err := net.Listen("unix", filepath.Join(dir, strconv.Itoa(pid)+".sock"))
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
}

func TestReadWorstOfProcesses(t *testing.T) {
	dir := t.TempDir()
	a := listen(t, dir, 101, reading(`{"pid":101,"runtime":"node","p50_ms":10.1,"p99_ms":12.5,"max_ms":80.2,"count":900}`))
	b := listen(t, dir, 202, reading(`{"pid":202,"runtime":"node","p50_ms":11.3,"p99_ms":40.7,"max_ms":41,"count":880}`))
	c := listen(t, dir, 303, reading(`{"pid":303,"runtime":"node","p50_ms":10,"p99_ms":10.2,"max_ms":10.4,"count":1000}`))
	got, err := Client{Timeout: 2 * time.Second}.Read(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	// Max from 101, p99 and p50 from 202 (the worst p99).
	want := model.EventLoop{P50: 11.3, P99: 40.7, Max: 80.2, Processes: 3}
	if got.EventLoop == nil || *got.EventLoop != want || got.Memory != nil {
		t.Errorf("Read = %+v, want %+v", got, want)
	}
	for _, f := range []*fake{a, b, c} {
		if cmds := f.got(); len(cmds) != 1 || cmds[0] != "read" {
			t.Errorf("commands received %q, want [read]", cmds)
		}
	}
	if err := (Client{Timeout: 2 * time.Second}).Reset(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range []*fake{a, b, c} {
		if cmds := f.got(); len(cmds) != 2 || cmds[1] != "reset" {
			t.Errorf("commands received %q, want [read reset]", cmds)
		}
	}
}

func TestWorst(t *testing.T) {
	for _, c := range []struct {
		name string
		rs   []Reading
		want model.EventLoop
	}{
		{"none", nil, model.EventLoop{}},
		{"one", []Reading{{Pid: 7, P50: 10.1, P99: 10.3, Max: 61, Count: 40}}, model.EventLoop{P50: 10.1, P99: 10.3, Max: 61, Processes: 1}},
		{"p99 tie, larger max wins", []Reading{
			{Pid: 1, P50: 10, P99: 20, Max: 30},
			{Pid: 2, P50: 12, P99: 20, Max: 31},
		}, model.EventLoop{P50: 12, P99: 20, Max: 31, Processes: 2}},
		{"full tie, lower pid wins", []Reading{
			{Pid: 9, P50: 14, P99: 20, Max: 30},
			{Pid: 3, P50: 11, P99: 20, Max: 30},
		}, model.EventLoop{P50: 11, P99: 20, Max: 30, Processes: 2}},
	} {
		if got := Worst(c.rs); got != c.want {
			t.Errorf("%s: Worst = %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestReadSkipsStaleSockets(t *testing.T) {
	dir := t.TempDir()
	stale(t, dir, 11)
	listen(t, dir, 12, reading(`{"pid":12,"runtime":"node","p50_ms":10.2,"p99_ms":10.9,"max_ms":15,"count":300}`))
	stale(t, dir, 13)
	// Files that are not the preload's sockets are not asked.
	for _, name := range []string{"14.sock", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := Client{Timeout: 2 * time.Second}
	got, err := c.Read(context.Background(), dir)
	if want := (model.EventLoop{P50: 10.2, P99: 10.9, Max: 15, Processes: 1}); err != nil || got.EventLoop == nil || *got.EventLoop != want {
		t.Errorf("Read = %+v, %v; want %+v", got, err, want)
	}
	if err := c.Reset(context.Background(), dir); err != nil {
		t.Errorf("Reset: %v", err)
	}

	// Only stale sockets: nobody answered.
	dir = t.TempDir()
	stale(t, dir, 21)
	want := "event loop: no Node process answered in " + dir
	if _, err := c.Read(context.Background(), dir); err == nil || err.Error() != want {
		t.Errorf("Read error = %v, want %s", err, want)
	}
	if err := c.Reset(context.Background(), dir); err == nil || err.Error() != want {
		t.Errorf("Reset error = %v, want %s", err, want)
	}
}

func TestReadTimeout(t *testing.T) {
	dir := t.TempDir()
	listen(t, dir, 5, reading(`{"pid":5,"runtime":"node","p50_ms":10,"p99_ms":10,"max_ms":10,"count":3}`))
	listen(t, dir, 31, func(string) string { return "" }) // a loop that never gets free
	c := Client{Timeout: 300 * time.Millisecond}
	start := time.Now()
	_, err := c.Read(context.Background(), dir)
	want := `event loop: ` + dir + `/31.sock: no answer to "read" within 300ms`
	if err == nil || err.Error() != want {
		t.Errorf("Read error = %v, want %s", err, want)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Read took %s with a 300ms timeout", d)
	}
	want = `event loop: ` + dir + `/31.sock: no answer to "reset" within 300ms`
	if err := c.Reset(context.Background(), dir); err == nil || err.Error() != want {
		t.Errorf("Reset error = %v, want %s", err, want)
	}
	if DefaultTimeout != 10*time.Second {
		t.Errorf("DefaultTimeout = %s, want 10s", DefaultTimeout)
	}
}

func TestReadCancelled(t *testing.T) {
	dir := t.TempDir()
	listen(t, dir, 8, func(string) string { return "" })
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := Client{Timeout: 5 * time.Second}.Read(ctx, dir)
	want := `event loop: ` + dir + `/8.sock: "read": context canceled`
	if err == nil || err.Error() != want {
		t.Errorf("Read error = %v, want %s", err, want)
	}
}

func TestReadBadAnswers(t *testing.T) {
	dir := t.TempDir()
	listen(t, dir, 41, reading(`garbage`))
	listen(t, dir, 42, reading(`{"pid":42,"p50_ms":"ten"}`))
	listen(t, dir, 43, func(string) string { return "partial" }) // closed before the newline
	listen(t, dir, 44, func(string) string { return "nope\n" })
	c := Client{Timeout: 2 * time.Second}
	_, err := c.Read(context.Background(), dir)
	want := strings.Join([]string{
		`event loop: ` + dir + `/41.sock: answer to "read" is not a reading: "garbage"`,
		`event loop: ` + dir + `/42.sock: answer to "read" is not a reading: "{\"pid\":42,\"p50_ms\":\"ten\"}"`,
		`event loop: ` + dir + `/43.sock: closed without an answer to "read"`,
		`event loop: ` + dir + `/44.sock: answer to "read" is not a reading: "nope"`,
	}, "\n")
	if err == nil || err.Error() != want {
		t.Errorf("Read error =\n%v\nwant\n%s", err, want)
	}
	err = c.Reset(context.Background(), dir)
	want = strings.Join([]string{
		`event loop: ` + dir + `/43.sock: closed without an answer to "reset"`,
		`event loop: ` + dir + `/44.sock: answer to "reset" is "nope", want "ok"`,
	}, "\n")
	if err == nil || err.Error() != want {
		t.Errorf("Reset error =\n%v\nwant\n%s", err, want)
	}
}

func TestReadMissingFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gone")
	_, err := Read(context.Background(), dir)
	want := "event loop: open " + dir + ": no such file or directory"
	if err == nil || err.Error() != want {
		t.Errorf("Read error = %v, want %s", err, want)
	}
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Read error %v is not os.ErrNotExist", err)
	}
}

func TestDir(t *testing.T) {
	if got, want := Dir("/work/.tfbench/runs/20260101-000000", "node-http-default-r1"),
		"/work/.tfbench/runs/20260101-000000/eventloop/node-http-default-r1"; got != want {
		t.Errorf("Dir = %q, want %q", got, want)
	}
	long := "/" + strings.Repeat("d", 90)
	got := Dir(long, "node-http-default-r1")
	if !regexp.MustCompile(`^` + regexp.QuoteMeta(os.TempDir()) + `/tfbench-eventloop-[0-9a-f]{16}$`).MatchString(got) {
		t.Errorf("Dir of a long run folder = %q, want a folder under %s", got, os.TempDir())
	}
	if again := Dir(long, "node-http-default-r1"); again != got {
		t.Errorf("Dir is %q then %q for the same server", got, again)
	}
	if other := Dir(long, "node-http-default-r2"); other == got {
		t.Errorf("Dir is %q for two servers", got)
	}
	// The edge: a socket path of exactly sunPath bytes (107 on Linux, 103
	// on darwin) stays in the run folder, one more does not.
	if sunPath != map[string]int{"linux": 107, "darwin": 103}[runtime.GOOS] {
		t.Errorf("sunPath = %d on %s", sunPath, runtime.GOOS)
	}
	over := "/" + strings.Repeat("e", sunPath-maxSock-len("/eventloop/t"))
	if got := Dir(over, "t"); got == over+"/eventloop/t" {
		t.Errorf("Dir(%d bytes) = %q, a socket path of %d bytes", len(over), got, len(got)+maxSock)
	}
	edge := "/" + strings.Repeat("e", sunPath-maxSock-len("/eventloop/t")-1)
	if got := Dir(edge, "t"); got != edge+"/eventloop/t" || len(got)+maxSock != sunPath {
		t.Errorf("Dir(%d bytes) = %q", len(edge), got)
	}
	rel := Dir("runs/x", "t")
	if !filepath.IsAbs(rel) || !strings.HasSuffix(rel, "/runs/x/eventloop/t") {
		t.Errorf("Dir of a relative run folder = %q, want it absolute", rel)
	}
}

func TestEnv(t *testing.T) {
	base := []string{"PATH=/bin", "NODE_OPTIONS=--max-old-space-size=100", "HOME=/h", "NODE_OPTIONS=--enable-source-maps"}
	got := Env(base, "/run dir/eventloop.cjs", "/run dir/eventloop/t")
	want := append(append([]string(nil), base...),
		`NODE_OPTIONS=--enable-source-maps --require "/run dir/eventloop.cjs"`,
		"TFBENCH_EVENTLOOP_DIR=/run dir/eventloop/t")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Env =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := Env([]string{"PATH=/bin"}, "/r/eventloop.cjs", "/r/e"); got[1] != `NODE_OPTIONS=--require /r/eventloop.cjs` {
		t.Errorf("Env without NODE_OPTIONS = %q", got)
	}
	if got, want := NodeOptions("  ", `/a"b\c.cjs`), `--require "/a\"b\\c.cjs"`; got != want {
		t.Errorf("NodeOptions = %s, want %s", got, want)
	}
}

// TestProfileEnv: --cpu-prof and the quoted folder follow the last
// NODE_OPTIONS (Env's preload kept), and the folder is in EnvProfileDir.
func TestProfileEnv(t *testing.T) {
	base := Env([]string{"PATH=/bin", "NODE_OPTIONS=--enable-source-maps"}, "/r/eventloop.cjs", "/r/e")
	got := ProfileEnv(base, "/run dir/profiles/x")
	want := append(append([]string(nil), base...),
		`NODE_OPTIONS=--enable-source-maps --require /r/eventloop.cjs --cpu-prof --cpu-prof-dir "/run dir/profiles/x"`,
		"TFBENCH_CPU_PROFILE_DIR=/run dir/profiles/x")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("ProfileEnv =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := ProfileEnv(nil, "/p"); strings.Join(got, " ") != "NODE_OPTIONS=--cpu-prof --cpu-prof-dir /p TFBENCH_CPU_PROFILE_DIR=/p" {
		t.Errorf("ProfileEnv without NODE_OPTIONS = %q", got)
	}
}

func TestWritePreload(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	path, err := WritePreload(dir)
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, "eventloop.cjs") {
		t.Errorf("WritePreload = %s", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"monitorEventLoopDelay({ resolution: RESOLUTION })", "const RESOLUTION = 10;", "process.env.TFBENCH_EVENTLOOP_DIR", ".unref()"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the preload lacks %q", want)
		}
	}
}

// TestReadMemoryOfNodeAndGo reads a Node process and a Go one (an adapter's
// hook answers memory only): the event-loop delay is the Node process's alone,
// the memory sums allocations, GCs, GC time, threads, heap and RSS, and takes
// the largest pauses; a server with only Go processes has no event-loop delay.
func TestReadMemoryOfNodeAndGo(t *testing.T) {
	dir := t.TempDir()
	listen(t, dir, 7, reading(`{"pid":7,"runtime":"node","p50_ms":10.1,"p99_ms":12,"max_ms":30,"count":400,`+
		`"memory":{"threads":1,"alloc_bytes":1000,"gc_count":3,"gc_ms":4.5,"pause_p99_ms":2,"pause_max_ms":2.5,"heap_before":100,"heap_after":150,"rss_before":1000,"rss_after":1100}}`))
	listen(t, dir, 8, reading(`{"pid":8,"runtime":"go",`+
		`"memory":{"threads":2,"alloc_bytes":500,"gc_count":1,"gc_ms":1.5,"pause_p99_ms":3,"pause_max_ms":3,"heap_before":50,"heap_after":60,"rss_before":500,"rss_after":520}}`))
	got, err := Client{Timeout: 2 * time.Second}.Read(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	wantLoop := model.EventLoop{P50: 10.1, P99: 12, Max: 30, Processes: 1}
	wantMem := model.Memory{Source: "go+node", Processes: 2, AllocBytes: 1500, GCCount: 4, GCms: 6, Threads: 3,
		PauseP99: 3, PauseMax: 3, HeapBefore: 150, HeapAfter: 210, RSSBefore: 1500, RSSAfter: 1620}
	if got.EventLoop == nil || *got.EventLoop != wantLoop || got.Memory == nil || *got.Memory != wantMem {
		t.Errorf("Read = %+v, want event loop %+v and memory %+v", got, wantLoop, wantMem)
	}

	goOnly := t.TempDir()
	listen(t, goOnly, 9, reading(`{"pid":9,"runtime":"go","memory":null}`))
	got, err = Client{Timeout: 2 * time.Second}.Read(context.Background(), goOnly)
	if err != nil || got.EventLoop != nil || got.Memory != nil {
		t.Errorf("Read of a Go process not reset = %+v, %v; want neither figure", got, err)
	}
}

package eventloop_test

import (
	"bytes"
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/eventloop"
)

// TestPreloadMemory runs a Node process with the preload: a read before any
// reset has no memory; after a reset the process allocates 64 × 8 arrays of
// 16,000 small integers (64 × 1,024,384 bytes of V8 heap, the last four
// rounds kept reachable) once the file go exists, and the read answers that
// within 10%, with GCs, pauses, heap and RSS, threads 1 and source node.
func TestPreloadMemory(t *testing.T) {
	rt := nodeRuntime(t)
	work := t.TempDir()
	preload, err := eventloop.WritePreload(work)
	if err != nil {
		t.Fatal(err)
	}
	goFile, doneFile := filepath.Join(work, "go"), filepath.Join(work, "done")
	script := filepath.Join(work, "alloc.cjs")
	text := `const fs = require('node:fs');
const recent = [];
const poll = setInterval(() => {
  if (!fs.existsSync(` + strconv.Quote(goFile) + `)) return;
  clearInterval(poll);
  for (let r = 0; r < 64; r++) {
    const arrays = [];
    for (let i = 0; i < 8; i++) arrays.push(new Array(16000).fill(r));
    recent[r % 4] = arrays;
  }
  fs.writeFileSync(` + strconv.Quote(doneFile) + `, '');
}, 10);
setInterval(() => {}, 1000);
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
	for deadline := time.Now().Add(10 * time.Second); len(sockets(t, dir)) < 1 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	w, err := eventloop.Read(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if w.EventLoop == nil || w.Memory != nil {
		t.Errorf("read before a reset = %+v, want an event-loop delay and no memory", w)
	}
	if err := eventloop.Reset(ctx, dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(goFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(doneFile); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no allocation within a minute of the go file\n%s", out.String())
		}
	}
	w, err = eventloop.Read(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	m := w.Memory
	if m == nil {
		t.Fatalf("read after a reset = %+v, want memory", w)
	}
	t.Logf("memory: %+v", *m)
	const want = 64 * 8 * (16000*8 + 48)
	if math.Abs(float64(m.AllocBytes-want)) > 0.1*want {
		t.Errorf("alloc_bytes = %d, want %d ± 10%%", m.AllocBytes, want)
	}
	if m.Source != "node" || m.Processes != 1 || m.Threads != 1 {
		t.Errorf("source %q, %d processes, %d threads; want node, 1, 1", m.Source, m.Processes, m.Threads)
	}
	if m.GCCount < 1 || m.GCms <= 0 || m.PauseMax <= 0 || m.PauseP99 > m.PauseMax {
		t.Errorf("%d GCs of %v ms, pauses p99 %v max %v; want GCs, 0 < p99 <= max", m.GCCount, m.GCms, m.PauseP99, m.PauseMax)
	}
	if m.HeapBefore <= 0 || m.HeapAfter <= 0 || m.RSSBefore <= 0 || m.RSSAfter <= 0 {
		t.Errorf("heap %d → %d, RSS %d → %d; want all positive", m.HeapBefore, m.HeapAfter, m.RSSBefore, m.RSSAfter)
	}
	if out.Len() != 0 {
		t.Errorf("output: %q, want none", out.String())
	}
}

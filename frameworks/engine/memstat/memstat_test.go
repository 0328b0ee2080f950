package memstat

import (
	"bufio"
	"encoding/json"
	"math"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// ask sends cmd on the monitor's socket in dir and returns the answer line.
func ask(t *testing.T, dir, cmd string) string {
	t.Helper()
	c, err := net.Dial("unix", filepath.Join(dir, strconv.Itoa(os.Getpid())+".sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte(cmd + "\n")); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	return line
}

var sink [][]byte

// TestMetricsWindow: between reset and read the test allocates 64 MiB in
// 1 MiB slices and runs two GCs; read answers that allocation within 10%,
// both cycles, their pauses and GC CPU time, GOMAXPROCS threads, (Linux) the RSS,
// and a heap that holds the isolates' 5 MiB (v8Heap) at both ends.
func TestMetricsWindow(t *testing.T) {
	dir, err := os.MkdirTemp("", "gm")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	m, err := Serve(dir, func() int64 { return 5 << 20 })
	if err != nil {
		t.Fatal(err)
	}
	if got := ask(t, dir, "read"); got != `{"pid":`+strconv.Itoa(os.Getpid())+`,"runtime":"engine","memory":null}`+"\n" {
		t.Errorf("read before a reset = %q, want memory null", got)
	}
	if got := ask(t, dir, "reset"); got != "ok\n" {
		t.Fatalf("reset = %q, want ok", got)
	}
	const want = 64 << 20
	for i := range 64 {
		sink = append(sink, make([]byte, 1<<20))
		if i == 31 {
			runtime.GC()
		}
	}
	sink = nil
	runtime.GC()
	var got struct {
		Pid     int    `json:"pid"`
		Runtime string `json:"runtime"`
		Memory  Window `json:"memory"`
	}
	line := ask(t, dir, "read")
	if err := json.Unmarshal([]byte(line), &got); err != nil {
		t.Fatalf("read = %q: %v", line, err)
	}
	w := got.Memory
	t.Logf("read: %s", line)
	if got.Pid != os.Getpid() || got.Runtime != "engine" {
		t.Errorf("pid %d runtime %q, want %d engine", got.Pid, got.Runtime, os.Getpid())
	}
	if math.Abs(float64(w.AllocBytes-want)) > 0.1*want {
		t.Errorf("alloc_bytes = %d, want %d ± 10%%", w.AllocBytes, want)
	}
	if w.GCCount < 2 || w.GCms <= 0 || w.PauseMax <= 0 || w.PauseP99 > w.PauseMax {
		t.Errorf("%d GCs, %v ms GC CPU, pauses p99 %v max %v ms; want 2 GCs at least, 0 < p99 <= max", w.GCCount, w.GCms, w.PauseP99, w.PauseMax)
	}
	if w.HeapBefore < 5<<20 || w.HeapAfter < 5<<20 {
		t.Errorf("heap %d → %d, want the isolates' 5 MiB in both", w.HeapBefore, w.HeapAfter)
	}
	if w.Threads != runtime.GOMAXPROCS(0) || w.HeapBefore <= 0 || w.HeapAfter <= 0 || runtime.GOOS == "linux" && (w.RSSBefore <= 0 || w.RSSAfter <= 0) {
		t.Errorf("threads %d (want %d), heap %d → %d, RSS %d → %d; want all positive", w.Threads, runtime.GOMAXPROCS(0), w.HeapBefore, w.HeapAfter, w.RSSBefore, w.RSSAfter)
	}
	if got := ask(t, dir, "stats"); got != "error unknown command\n" {
		t.Errorf("stats = %q, want the unknown-command error", got)
	}
	sock := filepath.Join(dir, strconv.Itoa(os.Getpid())+".sock")
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(sock); !os.IsNotExist(err) {
		t.Errorf("after Close, %s: %v; want it removed", sock, err)
	}
}

// Package memstat answers tfbench's memory and GC monitor for the engine
// (docs/adapters.md, Memory and GC): with TFBENCH_EVENTLOOP_DIR set, "reset"
// and "read" on <dir>/<pid>.sock, one command per connection, from Go's
// runtime/metrics plus the V8 isolates' used heap (Serve's v8Heap). What it
// cannot tell: V8 keeps no cumulative allocation counter and v8go exposes no
// GC callbacks, so alloc_bytes, gc_count, gc_ms and the pauses are the Go
// side's alone; heap_before and heap_after add the isolates' used heap.
package memstat

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
)

// EnvDir names the folder tfbench gives a server for its runtime monitor.
const EnvDir = "TFBENCH_EVENTLOOP_DIR"

// The runtime/metrics this hook reads: cumulative counters read at reset
// and at read, their difference is the window's.
const (
	mAllocs   = "/gc/heap/allocs:bytes"              // heap bytes allocated, cumulative
	mCycles   = "/gc/cycles/total:gc-cycles"         // completed GC cycles
	mGCCPU    = "/cpu/classes/gc/total:cpu-seconds"  // GC CPU time, the runtime's estimate
	mPauses   = "/sched/pauses/total/gc:seconds"     // stop-the-world GC pauses, a histogram
	mHeap     = "/memory/classes/heap/objects:bytes" // heap in use: live and not yet swept
	mMaxProcs = "/sched/gomaxprocs:threads"
)

// snapshot is the runtime's counters at one moment, the process's RSS and
// the V8 isolates' used heap.
type snapshot struct {
	allocs, cycles, heap, procs uint64
	gcCPU                       float64
	pauses                      *metrics.Float64Histogram
	rss, v8                     int64
}

func readSnapshot(v8Heap func() int64) snapshot {
	s := []metrics.Sample{{Name: mAllocs}, {Name: mCycles}, {Name: mGCCPU}, {Name: mPauses}, {Name: mHeap}, {Name: mMaxProcs}}
	metrics.Read(s)
	out := snapshot{rss: rss()}
	if s[0].Value.Kind() == metrics.KindUint64 {
		out.allocs = s[0].Value.Uint64()
	}
	if s[1].Value.Kind() == metrics.KindUint64 {
		out.cycles = s[1].Value.Uint64()
	}
	if s[2].Value.Kind() == metrics.KindFloat64 {
		out.gcCPU = s[2].Value.Float64()
	}
	if s[3].Value.Kind() == metrics.KindFloat64Histogram {
		out.pauses = s[3].Value.Float64Histogram()
	}
	if s[4].Value.Kind() == metrics.KindUint64 {
		out.heap = s[4].Value.Uint64()
	}
	if s[5].Value.Kind() == metrics.KindUint64 {
		out.procs = s[5].Value.Uint64()
	}
	if v8Heap != nil {
		out.v8 = v8Heap()
	}
	return out
}

// rss is the process's resident set in bytes from /proc/self/statm (Linux);
// 0, unknown, where that file cannot be read.
func rss() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}

// Window is the read answer's "memory" (tfbench's eventloop.ProcMemory):
// bytes, ms; threads is GOMAXPROCS, the threads GC CPU time is shared over.
type Window struct {
	Threads    int     `json:"threads"`
	AllocBytes int64   `json:"alloc_bytes"`
	GCCount    int64   `json:"gc_count"`
	GCms       float64 `json:"gc_ms"`
	PauseP99   float64 `json:"pause_p99_ms"`
	PauseMax   float64 `json:"pause_max_ms"`
	HeapBefore int64   `json:"heap_before"`
	HeapAfter  int64   `json:"heap_after"`
	RSSBefore  int64   `json:"rss_before"`
	RSSAfter   int64   `json:"rss_after"`
}

// since is the window from a to b. The pause p99 and max are the upper
// bounds of the histogram buckets holding them (the runtime's buckets are
// a few percent wide), or a bucket's lower bound when it is open-ended.
func since(a, b snapshot) Window {
	w := Window{
		Threads: int(b.procs), AllocBytes: int64(b.allocs - a.allocs), GCCount: int64(b.cycles - a.cycles),
		GCms:       ms(b.gcCPU - a.gcCPU),
		HeapBefore: int64(a.heap) + a.v8, HeapAfter: int64(b.heap) + b.v8, RSSBefore: a.rss, RSSAfter: b.rss,
	}
	if a.pauses == nil || b.pauses == nil || len(a.pauses.Counts) != len(b.pauses.Counts) {
		return w
	}
	counts := make([]uint64, len(b.pauses.Counts))
	var total uint64
	for i := range counts {
		counts[i] = b.pauses.Counts[i] - a.pauses.Counts[i]
		total += counts[i]
	}
	if total == 0 {
		return w
	}
	bound := func(i int) float64 {
		if hi := b.pauses.Buckets[i+1]; !math.IsInf(hi, 1) {
			return hi
		}
		return b.pauses.Buckets[i]
	}
	rank := uint64(math.Ceil(0.99 * float64(total))) // nearest rank
	var seen uint64
	for i, c := range counts {
		if c == 0 {
			continue
		}
		if seen < rank && seen+c >= rank {
			w.PauseP99 = ms(bound(i))
		}
		seen += c
		w.PauseMax = ms(bound(i))
	}
	return w
}

// ms is seconds in ms, to the µs.
func ms(s float64) float64 { return math.Round(s*1e6) / 1e3 }

// Monitor answers tfbench's reset and read on its socket.
type Monitor struct {
	ln     net.Listener
	path   string
	v8Heap func() int64
	mu     sync.Mutex
	base   *snapshot // the last reset's; nil before one
}

// Serve listens on dir/<pid>.sock (a stale one of the same name removed
// first) and answers there until the returned Monitor is closed; v8Heap,
// when not nil, is the isolates' used heap in bytes, read at reset and read.
func Serve(dir string, v8Heap func() int64) (*Monitor, error) {
	path := filepath.Join(dir, strconv.Itoa(os.Getpid())+".sock")
	os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, err
	}
	m := &Monitor{ln: ln, path: path, v8Heap: v8Heap}
	go m.serve()
	return m, nil
}

func (m *Monitor) serve() {
	for {
		c, err := m.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		go m.answer(c)
	}
}

// answer reads one command line and writes one answer line: "ok" to reset,
// {"pid":…,"runtime":"engine","memory":{…}|null} to read.
func (m *Monitor) answer(c net.Conn) {
	defer c.Close()
	line, err := bufio.NewReader(io.LimitReader(c, 64)).ReadString('\n')
	if err != nil {
		return
	}
	switch strings.TrimSpace(line) {
	case "reset":
		s := readSnapshot(m.v8Heap)
		m.mu.Lock()
		m.base = &s
		m.mu.Unlock()
		c.Write([]byte("ok\n"))
	case "read":
		s := readSnapshot(m.v8Heap)
		m.mu.Lock()
		base := m.base
		m.mu.Unlock()
		var mem *Window
		if base != nil {
			w := since(*base, s)
			mem = &w
		}
		b, _ := json.Marshal(struct {
			Pid     int     `json:"pid"`
			Runtime string  `json:"runtime"`
			Memory  *Window `json:"memory"`
		}{os.Getpid(), "engine", mem})
		c.Write(append(b, '\n'))
	default:
		c.Write([]byte("error unknown command\n"))
	}
}

// Close stops answering and removes the socket.
func (m *Monitor) Close() error {
	err := m.ln.Close()
	os.Remove(m.path)
	return err
}

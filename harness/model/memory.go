package model

// Memory is a server's memory and GC over one sample's window, from the
// runtimes' own accounting (docs/ssr.md, Memory and GC per request): Node's
// V8 (v8.GCProfiler, the harness's preload), Go's runtime/metrics (an
// adapter's hook). Counts, times and bytes are summed over the processes
// that answered, pauses are their largest; nil on a sample that has none.
type Memory struct {
	// Source names the runtimes that answered: "node" (the preload), "go"
	// (a Go adapter's hook), "engine" (the engine's: Go plus its isolates'
	// heap), several joined by "+" in name order.
	Source    string `json:"source"`
	Processes int    `json:"processes"`
	// AllocBytes is what the runtimes allocated on their heaps in the
	// window; AllocPerRequest that over the window's responses, in KB
	// (1,024 bytes).
	AllocBytes      int64   `json:"alloc_bytes"`
	AllocPerRequest float64 `json:"alloc_kb_per_request"`
	// GCCount counts the collections in the window; GCms is their time:
	// Node's main-thread pause time, Go's GC CPU time
	// (/cpu/classes/gc/total:cpu-seconds). GCPercent is GCms over the
	// window times Threads (the threads that time is shared over: 1 per
	// Node process, GOMAXPROCS per Go process), in percent.
	GCCount   int64   `json:"gc_count"`
	GCms      float64 `json:"gc_ms"`
	Threads   int     `json:"threads"`
	GCPercent float64 `json:"gc_percent"`
	// PauseP99 and PauseMax are the GC pauses' p99 and max in ms, the
	// largest of the processes' (Go's from its pause histogram's buckets).
	PauseP99 float64 `json:"pause_p99_ms"`
	PauseMax float64 `json:"pause_max_ms"`
	// HeapBefore and HeapAfter are the runtimes' heap in use at the
	// window's start and end; RSSBefore and RSSAfter the processes'
	// resident set; RSSGrowth is (RSSAfter - RSSBefore) / RSSBefore.
	HeapBefore int64   `json:"heap_before_bytes"`
	HeapAfter  int64   `json:"heap_after_bytes"`
	RSSBefore  int64   `json:"rss_before_bytes"`
	RSSAfter   int64   `json:"rss_after_bytes"`
	RSSGrowth  float64 `json:"rss_growth"`
}

package eventloop

import (
	"slices"
	"strings"

	"github.com/tfbench/tfbench/harness/model"
)

// ProcMemory is one process's answer about memory and GC since the last
// reset (the read answer's "memory"): bytes, ms, and Threads, the threads its
// GC time is shared over (model.Memory). Node's preload and Go adapters'
// hooks write it (preload.cjs; docs/adapters.md).
type ProcMemory struct {
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

// Window is a server's answer to read: the worst event-loop delay of its Node
// processes (nil when none is Node) and the memory of those that told it (nil
// when none did), with the per-request and per-window shares left 0 (run fills them).
type Window struct {
	EventLoop *model.EventLoop `json:"event_loop,omitempty"`
	Memory    *model.Memory    `json:"memory,omitempty"`
}

// WindowOf is the Window of a server's readings: Worst of the "node" ones, and
// Memory summed over the others' (counts, times, bytes, threads), pauses the max.
func WindowOf(rs []Reading) Window {
	var w Window
	var node []Reading
	var mem model.Memory
	var sources []string
	for _, r := range rs {
		if r.Runtime == "node" {
			node = append(node, r)
		}
		m := r.Memory
		if m == nil {
			continue
		}
		if !slices.Contains(sources, r.Runtime) {
			sources = append(sources, r.Runtime)
		}
		mem.Processes++
		mem.Threads += m.Threads
		mem.AllocBytes += m.AllocBytes
		mem.GCCount += m.GCCount
		mem.GCms += m.GCms
		mem.PauseP99 = max(mem.PauseP99, m.PauseP99)
		mem.PauseMax = max(mem.PauseMax, m.PauseMax)
		mem.HeapBefore += m.HeapBefore
		mem.HeapAfter += m.HeapAfter
		mem.RSSBefore += m.RSSBefore
		mem.RSSAfter += m.RSSAfter
	}
	if len(node) > 0 {
		el := Worst(node)
		w.EventLoop = &el
	}
	if mem.Processes > 0 {
		slices.Sort(sources)
		mem.Source = strings.Join(sources, "+")
		w.Memory = &mem
	}
	return w
}

package probe

import "sync"

// rssKey names a process across pid reuse: pid and creation time (ms).
type rssKey struct {
	pid     int
	created int64
}

// maxSeen bounds rssMarks: the processes of many servers over a long run.
const maxSeen = 4096

// rssMarks is the highest RSS (bytes) read per process, for darwin's
// peakRSS; it is emptied when it holds maxSeen processes, which restarts
// those marks from the next reading. Plain logic, tested on Linux too.
type rssMarks struct {
	mu sync.Mutex
	m  map[rssKey]uint64
}

// max records rss for k and returns the highest value recorded for k.
func (r *rssMarks) max(k rssKey, rss uint64) uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.m) >= maxSeen {
		clear(r.m)
	}
	rss = max(rss, r.m[k])
	r.m[k] = rss
	return rss
}

package load

import (
	"time"

	"github.com/tfbench/tfbench/harness/model"
)

// MaxFlushes is the most flushes kept per response (the first ones): a
// stream page of K parts asks for K+1 (the shell, then each part), K ≤ 16.
const MaxFlushes = 32

// Flush is one read that brought body bytes of a checked chunked response:
// At is µs from the request's start (the start TTFB is measured from), End
// the decoded body bytes received up to and with this read.
type Flush = model.Flush

// Timeline is when a checked response arrived, µs from the request's start
// (TTFB's): First its first byte, Last its last, Flushes the reads that
// brought its chunked body (at most MaxFlushes, the first; Dropped counts
// the reads past them). Options.CheckTimeline receives it.
type Timeline struct {
	First, Last int64
	Flushes     []Flush
	Dropped     int
}

// flushMark is a Flush as the parser keeps it: the read's sequence number
// (to coalesce what one read brought), its time, and the body offset.
type flushMark struct {
	read uint64
	at   time.Time
	end  int64
}

// flush takes n more decoded body bytes brought by the current read (reads,
// readAt): they extend the read's mark, or the last mark when the read
// before filled the buffer (the bytes were there at once: one flush), or
// start a new one; past MaxFlushes a new read is only counted
// (flushDropped). No clock is read: readAt is the time the caller took for
// TTFB.
func (p *parser) flush(n int) {
	p.bodyN += int64(n)
	if p.flushRead != 0 && (p.flushRead == p.reads || p.contig && p.flushRead == p.reads-1) {
		if l := len(p.flushes); l > 0 && p.flushes[l-1].read == p.flushRead {
			p.flushes[l-1].read, p.flushes[l-1].end = p.reads, p.bodyN
		}
		p.flushRead = p.reads
		return
	}
	p.flushRead = p.reads
	if len(p.flushes) == MaxFlushes {
		p.flushDropped++
		return
	}
	p.flushes = append(p.flushes, flushMark{read: p.reads, at: p.readAt, end: p.bodyN})
}

// timeline is the Timeline of the response just kept, measured from from
// (the request's start), first byte at first, complete at done.
func (p *parser) timeline(from, first, done time.Time) Timeline {
	t := Timeline{First: first.Sub(from).Microseconds(), Last: done.Sub(from).Microseconds(), Dropped: p.flushDropped}
	t.Flushes = make([]Flush, len(p.flushes))
	for i, f := range p.flushes {
		t.Flushes[i] = Flush{At: max(f.at.Sub(from).Microseconds(), 0), End: f.end}
	}
	return t
}

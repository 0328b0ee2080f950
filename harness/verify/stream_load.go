package verify

import (
	"fmt"
	"net/http"
	"slices"
	"sync"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/tfbench/tfbench/harness/model"
)

// StreamChecker is the check under load of a stream sample (test type
// stream; load.Options.CheckTimeline): status, the page headers, no
// Content-Length or Content-Encoding, and the stream body rule for rows rows
// in parts parts against world; a response that passes gives rec its
// timeline (first byte, each part's arrival, last byte, flushes, all µs from
// the request's start). Only a fail is an error; safe for concurrent use.
func StreamChecker(world World, rows, parts int, rec *StreamRecorder) func(status int, head, body []byte, first, last int64, flushes []model.Flush) error {
	c := &loadCheck{ref: LoadRef{Type: model.Stream, Rows: rows, World: slices.Clone(world)}}
	c.ctBase, c.ctCharset = contentTypeRule(model.Stream)
	return func(status int, head, body []byte, first, last int64, flushes []model.Flush) error {
		if status != http.StatusOK {
			return fmt.Errorf("status %d, want 200 (body %s)", status, clip(body, clipBytes))
		}
		if err := c.headers(head); err != nil {
			return err
		}
		r := pass()
		checkStreamHeaders(&r, headerOf(head), true)
		p := checkStream(&r, body, c.ref.World, rows, parts, model.Fail)
		if err := failure(r); err != nil {
			return err
		}
		if rec != nil {
			one := false
			if pt := p.parts[parts-1]; pt != nil {
				one = flushHolding(flushes, int64(pt.end)) == 0
			}
			rec.add(first, last, partArrivals(p, parts, flushes, last), flushes, one)
		}
		return nil
	}
}

// headerOf reads the header lines a check under load gets (each ended by
// CRLF) into an http.Header, for the few framing headers the stream rule
// reads.
func headerOf(head []byte) http.Header {
	h := http.Header{}
	for rest := head; len(rest) > 0; {
		var line []byte
		line, rest = nextLine(rest)
		for i, c := range line {
			if c == ':' {
				name := string(line[:i])
				if equalFoldASCII(line[:i], "Content-Length") || equalFoldASCII(line[:i], "Content-Encoding") {
					h.Add(name, string(trimSpaceASCII(line[i+1:])))
				}
				break
			}
		}
	}
	return h
}

// trimSpaceASCII trims spaces and tabs from both ends of b.
func trimSpaceASCII(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// partArrivals is when each part of p arrived, µs from the request's start:
// the flush that brought the last byte of the latest of its rows
// (docs/ssr.md); last when that byte lies past the flushes kept.
func partArrivals(p streamPage, parts int, flushes []model.Flush, last int64) []int64 {
	out := make([]int64, parts)
	for k := range parts {
		out[k] = last
		pt := p.parts[k]
		if pt == nil {
			continue
		}
		if i := flushHolding(flushes, int64(pt.end)); i >= 0 {
			out[k] = flushes[i].At
		}
	}
	return out
}

// flushHolding is the index of the flush that brought body byte end-1 (the
// first whose End reaches end), or -1.
func flushHolding(flushes []model.Flush, end int64) int {
	for i, f := range flushes {
		if f.End >= end {
			return i
		}
	}
	return -1
}

// StreamRecorder gathers a stream sample's timelines from its checked
// responses (StreamChecker): HDR histograms in µs of the shell's first byte,
// each part's arrival and the last byte, and the flush counts. Safe for
// concurrent use.
type StreamRecorder struct {
	mu                    sync.Mutex
	parts                 int
	shell, last           *hdrhistogram.Histogram
	part                  []*hdrhistogram.Histogram
	responses, oneFlush   int64
	flushes, flushedBytes int64
}

// NewStreamRecorder records pages of parts parts, times up to maxMicros µs
// (the response timeout).
func NewStreamRecorder(parts int, maxMicros int64) *StreamRecorder {
	h := func() *hdrhistogram.Histogram { return hdrhistogram.New(1, max(maxMicros, 2), 3) }
	s := &StreamRecorder{parts: parts, shell: h(), last: h()}
	for range parts {
		s.part = append(s.part, h())
	}
	return s
}

// add records one response: first and last byte, its parts' arrivals and
// its flushes; one when its last part came in its first flush, with the
// shell.
func (s *StreamRecorder) add(first, last int64, arrivals []int64, flushes []model.Flush, one bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.responses++
	s.shell.RecordValue(max(first, 1))
	s.last.RecordValue(max(last, 1))
	for k, a := range arrivals {
		s.part[k].RecordValue(max(a, 1))
	}
	if len(flushes) > 0 {
		s.flushes += int64(len(flushes))
		s.flushedBytes += flushes[len(flushes)-1].End
	}
	if one {
		s.oneFlush++
	}
}

// NotStreamed is the reason of a sample whose every response came in one
// flush: n of n responses.
func NotStreamed(n int64) string {
	return fmt.Sprintf("not streamed: the whole page arrived in one flush (%d of %d responses)", n, n)
}

// Record is the sample's model.StreamRecord (nil when no response was
// recorded): times in ms, histograms encoded as Sample.Histogram is.
// Streamed is false, with NotStreamed's reason, when every response came in
// one flush.
func (s *StreamRecorder) Record() (*model.StreamRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.responses == 0 {
		return nil, nil
	}
	r := &model.StreamRecord{Parts: s.parts, Responses: s.responses, OneFlush: s.oneFlush, Streamed: s.oneFlush < s.responses,
		Shell: model.LatencyOf(s.shell), Last: model.LatencyOf(s.last),
		Flushes: float64(s.flushes) / float64(s.responses)}
	if s.flushes > 0 {
		r.BytesPerFlush = float64(s.flushedBytes) / float64(s.flushes)
	}
	if !r.Streamed {
		r.Reason = NotStreamed(s.responses)
	}
	var err error
	enc := func(h *hdrhistogram.Histogram) []byte {
		b, e := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
		if e != nil && err == nil {
			err = fmt.Errorf("encode a stream histogram: %w", e)
		}
		return b
	}
	r.ShellHist, r.LastHist = enc(s.shell), enc(s.last)
	for _, h := range s.part {
		r.Part = append(r.Part, model.LatencyOf(h))
		r.PartHist = append(r.PartHist, enc(h))
	}
	return r, err
}

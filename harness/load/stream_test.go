package load

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// piecesReader returns one piece per Read, then io.EOF.
type piecesReader struct {
	pieces []string
	n      int
}

func (r *piecesReader) Read(b []byte) (int, error) {
	if r.n >= len(r.pieces) {
		return 0, io.EOF
	}
	n := copy(b, r.pieces[r.n])
	r.n++
	return n, nil
}

const chunkedHead = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n"

// TestStreamParserFlushes: each read that brings body bytes of a kept chunked
// response is one flush (its time the caller's, its end the decoded bytes so
// far); two chunks in one read are one flush, a chunk split over two reads
// ends in the second; the next response starts a new list; an unkept
// response keeps none.
func TestStreamParserFlushes(t *testing.T) {
	resp := []string{
		chunkedHead + "5\r\nSHELL\r\n",       // read 1: the shell
		"3\r\nAAA\r\n2\r\nBB\r\n",            // read 2: two chunks, one flush
		"4\r\nCC",                            // read 3: half a chunk
		"CC\r\n0\r\n\r\n",                    // read 4: its rest and the end
		chunkedHead + "2\r\nXY\r\n0\r\n\r\n", // read 5: a whole second response
	}
	p := newParser(&piecesReader{pieces: resp}, readBufSize)
	p.keep, p.wantFlushes = true, true
	t0 := time.Now()
	var got []string
	var tl Timeline
	for i := range resp {
		p.readAt = t0.Add(time.Duration(i) * time.Millisecond)
		if _, err := p.more(); err != nil {
			t.Fatal(err)
		}
		r, done, err := p.parse()
		if err != nil {
			t.Fatal(err)
		}
		if done {
			tl = p.timeline(t0, t0, p.readAt)
			got = append(got, fmt.Sprintf("%s %+v last %d", p.body, tl.Flushes, tl.Last))
			if r.body != int64(len(p.body)) {
				t.Errorf("body %d bytes, kept %d", r.body, len(p.body))
			}
		}
	}
	want := []string{
		"SHELLAAABBCCCC [{At:0 End:5} {At:1000 End:10} {At:2000 End:12} {At:3000 End:14}] last 3000",
		"XY [{At:4000 End:2}] last 4000",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("flushes\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Kept for a check without a timeline (any test but stream): no flushes.
	p = newParser(&piecesReader{pieces: resp[:4]}, readBufSize)
	p.keep = true
	for range 4 {
		p.more()
		p.parse()
	}
	if len(p.flushes) != 0 {
		t.Errorf("kept response without a timeline: %d flushes, want 0", len(p.flushes))
	}

	// Unkept: no flushes.
	p = newParser(&piecesReader{pieces: resp[:4]}, readBufSize)
	for range 4 {
		p.more()
		p.parse()
	}
	if len(p.flushes) != 0 {
		t.Errorf("unkept response: %d flushes, want 0", len(p.flushes))
	}
}

// TestStreamParserFlushCap: of 40 reads with one chunk each, the first
// MaxFlushes are kept and the other 8 counted as Dropped.
func TestStreamParserFlushCap(t *testing.T) {
	pieces := []string{chunkedHead}
	for range 40 {
		pieces = append(pieces, "1\r\nx\r\n")
	}
	pieces = append(pieces, "0\r\n\r\n")
	p := newParser(&piecesReader{pieces: pieces}, readBufSize)
	p.keep, p.wantFlushes = true, true
	for range pieces {
		p.more()
		if _, done, err := p.parse(); err != nil || done {
			break
		}
	}
	now := time.Now()
	tl := p.timeline(now, now, now)
	if len(tl.Flushes) != MaxFlushes || tl.Dropped != 8 || tl.Flushes[MaxFlushes-1].End != MaxFlushes {
		t.Errorf("%d flushes (last %+v), %d dropped; want %d, the last ending at %d bytes, 8 dropped", len(tl.Flushes), tl.Flushes[len(tl.Flushes)-1], tl.Dropped, MaxFlushes, MaxFlushes)
	}
}

// stream3 is a chunked response in three writes: the shell, a part, and the
// last part with the end of the body.
var stream3 = []string{chunkedHead + "5\r\nshell\r\n", "6\r\npart-0\r\n", "6\r\npart-1\r\n0\r\n\r\n"}

// TestStreamLoopFlushes: in the event loop, a response whose three pieces
// come at least 30 ms apart reaches CheckTimeline with three flushes, each
// stamped with the time of the read that brought it (the TTFB's clock
// reading): the first at TTFB, each next at least 28 ms later.
func TestStreamLoopFlushes(t *testing.T) {
	w, peer := fakeLoop(t, 1, "/stream")
	var tls []Timeline
	w.p.Check = func(int, []byte, []byte) error { t.Error("Check called with CheckTimeline set"); return nil }
	w.p.CheckTimeline = func(status int, head, body []byte, tl Timeline) error {
		if status != 200 || string(body) != "shellpart-0part-1" {
			t.Errorf("status %d body %q", status, body)
		}
		tls = append(tls, tl)
		return nil
	}
	w.conns[0].parse.wantFlushes = true // as newConn sets it when CheckTimeline is set before the run
	w.conns[0].sent = time.Now()
	for i, piece := range stream3 {
		if i > 0 {
			time.Sleep(30 * time.Millisecond)
		}
		if n, err := writeFD(peer, []byte(piece)); n != len(piece) || err != nil {
			t.Fatalf("server wrote %d of %d bytes: %v", n, len(piece), err)
		}
		if !w.step() {
			t.Fatal("step ended the loop")
		}
	}
	if len(tls) != 1 {
		t.Fatalf("%d timelines, want 1", len(tls))
	}
	checkStream3(t, tls[0])
}

// TestStreamConnFlushes: at a Rate (a goroutine per connection), the same
// three pieces with 30 ms pauses give the same three flushes.
func TestStreamConnFlushes(t *testing.T) {
	k := fakeRoundData(t, 1, []byte(strings.Join(stream3, "")))
	var tls []Timeline
	k.p.Check = func(int, []byte, []byte) error { return nil }
	k.p.CheckTimeline = func(_ int, _, _ []byte, tl Timeline) error { tls = append(tls, tl); return nil }
	k.parse.wantFlushes = true // as newConn sets it when CheckTimeline is set before the run
	parts := make([][]byte, len(stream3))
	for i, s := range stream3 {
		parts[i] = []byte(s)
	}
	c := &pacedConn{parts: parts, pause: 30 * time.Millisecond}
	k.c = c
	k.parse.reset(c)
	if !k.round() {
		t.Fatal("round ended the run")
	}
	if len(tls) != 1 || k.tally.checked != 1 || k.tally.responses != 1 {
		t.Fatalf("%d timelines, %d checked, %d responses; want 1 each", len(tls), k.tally.checked, k.tally.responses)
	}
	checkStream3(t, tls[0])
}

// checkStream3 holds a timeline of stream3 read piece by piece, 30 ms apart.
func checkStream3(t *testing.T, tl Timeline) {
	t.Helper()
	f := tl.Flushes
	t.Logf("timeline %+v", tl)
	if len(f) != 3 || f[0].End != 5 || f[1].End != 11 || f[2].End != 17 || tl.Dropped != 0 {
		t.Fatalf("flushes %+v, want 3 ending at 5, 11 and 17 bytes", f)
	}
	if f[0].At != tl.First || f[1].At-f[0].At < 28_000 || f[2].At-f[1].At < 28_000 || tl.Last < f[2].At {
		t.Errorf("flushes at %d, %d, %d µs, first byte %d, last %d; want the first at the first byte, each next >= 28000 µs later, the last byte after them", f[0].At, f[1].At, f[2].At, tl.First, tl.Last)
	}
}

// TestStreamRunFlushes: against a real server that flushes a shell, then
// three parts 40 ms apart, every checked response in both modes has its
// flushes in order, each on a part's boundary, part j's not before j × 40 ms
// (the server's waits, whatever the machine), and the body's end last.
func TestStreamRunFlushes(t *testing.T) {
	if raceEnabled {
		t.Skip("times flushes to milliseconds, which the race detector stretches")
	}
	const gap = 40 * time.Millisecond
	parts := []string{"<shell>", "<part 0>", "<part 1>", "<part 2>"}
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		for i, p := range parts {
			if i > 0 {
				time.Sleep(gap)
			}
			io.WriteString(w, p)
			w.(http.Flusher).Flush()
		}
	})
	ends := map[int64]int{}
	var total int64
	for i, p := range parts {
		total += int64(len(p))
		ends[total] = i
	}
	for _, o := range []Options{{Connections: 1}, {Connections: 1, Rate: 4}} {
		var mu sync.Mutex
		var n, split int
		o.Addr, o.Path, o.Duration, o.Timeout = s.addr(), "/", 700*time.Millisecond, 2*time.Second
		o.Check = func(int, []byte, []byte) error { return nil }
		o.CheckTimeline = func(_ int, _, body []byte, tl Timeline) error {
			mu.Lock()
			defer mu.Unlock()
			n++
			if len(tl.Flushes) > 1 {
				split++
			}
			last := int64(0)
			for _, f := range tl.Flushes {
				part, ok := ends[f.End]
				if !ok || f.At < last || f.At < int64(part)*gap.Microseconds() || f.At < tl.First || f.At > tl.Last {
					return fmt.Errorf("flushes %+v (first byte %d µs, last %d): each must end on a part, in order, part j's at >= j × %d µs", tl.Flushes, tl.First, tl.Last, gap.Microseconds())
				}
				last = f.At
			}
			if f := tl.Flushes; len(f) == 0 || f[len(f)-1].End != int64(len(body)) {
				return fmt.Errorf("flushes %+v do not end at the body's %d bytes", f, len(body))
			}
			return nil
		}
		r := run(t, o)
		if r.Checked != r.Responses || r.Responses < 1 || r.Success != r.Responses || n != int(r.Checked) || split == 0 {
			t.Errorf("rate %v: %d responses, %d ok, %d checked, %d timelines, %d with more than one flush; errors %v", o.Rate, r.Responses, r.Success, r.Checked, n, split, r.Errors)
		}
	}
}

// TestStreamTimelineNeedsCheck: CheckTimeline alone is an options error.
func TestStreamTimelineNeedsCheck(t *testing.T) {
	o := Options{Addr: "127.0.0.1:1", Path: "/", Connections: 1, Duration: time.Second, Timeout: time.Second,
		CheckTimeline: func(int, []byte, []byte, Timeline) error { return nil }}
	if _, err := o.validate(); err == nil || err.Error() != "load: options: CheckTimeline is set without Check, which turns the checks on" {
		t.Errorf("error %v", err)
	}
}

// fullReader returns each piece in reads as large as the buffer allows, so
// a piece longer than the buffer fills it.
type fullReader struct{ pieces []string }

func (r *fullReader) Read(b []byte) (int, error) {
	if len(r.pieces) == 0 {
		return 0, io.EOF
	}
	n := copy(b, r.pieces[0])
	if r.pieces[0] = r.pieces[0][n:]; r.pieces[0] == "" {
		r.pieces = r.pieces[1:]
	}
	return n, nil
}

// TestStreamParserFullReads: reads that fill the buffer found more bytes
// waiting, so the read after one continues its flush: a 300-byte body sent at
// once through a 64-byte buffer is one flush, and a part written later (a
// piece of its own, read short) is the next.
func TestStreamParserFullReads(t *testing.T) {
	big := strings.Repeat("x", 300)
	head := "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
	pieces := []string{head + fmt.Sprintf("%x\r\n%s\r\n", len(big), big), "3\r\nend\r\n0\r\n\r\n"}
	p := newParser(&fullReader{pieces: pieces}, 64)
	p.keep, p.wantFlushes = true, true
	t0 := time.Now()
	for i := 0; ; i++ {
		p.readAt = t0.Add(time.Duration(i) * time.Millisecond)
		if _, err := p.more(); err != nil {
			t.Fatal(err)
		}
		_, done, err := p.parse()
		if err != nil {
			t.Fatal(err)
		}
		if done {
			break
		}
	}
	tl := p.timeline(t0, t0, t0)
	if len(tl.Flushes) != 2 || tl.Flushes[0].End != 300 || tl.Flushes[1].End != 303 || tl.Flushes[0].At != 0 || tl.Flushes[1].At <= tl.Flushes[0].At {
		t.Errorf("flushes %+v, want two: the 300 bytes sent at once (at 0 µs), then 3 bytes later", tl.Flushes)
	}
}

package load

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// slowBody is a handler that sends the status line and headers at once,
// then the body after delay: TTFB and total latency differ by delay.
func slowBody(delay time.Duration) http.HandlerFunc {
	body := strings.Repeat("x", 1000)
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		time.Sleep(delay)
		io.WriteString(w, body)
	}
}

// TTFB is measured apart from the total: against a server that sends its
// headers, waits 50 ms, then sends the body, every total is at least its
// TTFB + 50 ms (the injected wait, whatever the machine), so total p50 >=
// TTFB p50 + 45 ms, in closed-loop and in constant-rate mode.
func TestRunTTFB(t *testing.T) {
	if raceEnabled {
		t.Skip("times first bytes to milliseconds, which the race detector stretches")
	}
	s := newServer(t, slowBody(50*time.Millisecond))
	for _, o := range []Options{
		{Connections: 2},
		{Connections: 2, Rate: 20},
	} {
		o.Addr, o.Path, o.Duration, o.Timeout = s.addr(), "/", 800*time.Millisecond, 2*time.Second
		r := run(t, o)
		ttfb, total := r.TTFB.ValueAtQuantile(50), r.Latency.ValueAtQuantile(50)
		t.Logf("rate %v: %d responses, TTFB p50 %d µs, total p50 %d µs", o.Rate, r.Responses, ttfb, total)
		if r.Responses < 1 || r.Success != r.Responses || r.TTFB.TotalCount() != r.Responses {
			t.Errorf("rate %v: %d responses, %d status 200, %d TTFB values; want >= 1, all 200, one each", o.Rate, r.Responses, r.Success, r.TTFB.TotalCount())
		}
		if total-ttfb < 45_000 {
			t.Errorf("rate %v: TTFB p50 %d µs, total p50 %d µs; want total >= TTFB + 45000", o.Rate, ttfb, total)
		}
	}
}

// Pipelined (depth 2), the second response's headers come after the
// first's body, 50 ms in: each batch's second TTFB is >= its first + 50 ms,
// and each total >= its TTFB + 50 ms (injected waits, whatever the machine).
func TestRunTTFBPipelined(t *testing.T) {
	if raceEnabled {
		t.Skip("times first bytes to milliseconds, which the race detector stretches")
	}
	s := newServer(t, slowBody(50*time.Millisecond))
	r := run(t, Options{Addr: s.addr(), Path: "/", Connections: 1, Pipeline: 2, Duration: 800 * time.Millisecond, Timeout: 2 * time.Second})
	tt, lat := r.TTFB, r.Latency
	t.Logf("%d responses; TTFB min/p50/max %d/%d/%d µs; total %d/%d/%d µs", r.Responses,
		tt.Min(), tt.ValueAtQuantile(50), tt.Max(), lat.Min(), lat.ValueAtQuantile(50), lat.Max())
	if r.Responses < 2 || r.Success != r.Responses {
		t.Fatalf("%d responses, %d status 200; want >= 2 (one batch), all 200", r.Responses, r.Success)
	}
	if tt.Max()-tt.Min() < 45_000 || lat.Min() < 45_000 || lat.Max() < 95_000 || lat.Max()-tt.Max() < 45_000 {
		t.Errorf("TTFB min %d, max %d µs; total min %d, max %d µs; want TTFB max >= min + 45000; total min >= 45000, max >= 95000 and >= TTFB max + 45000",
			tt.Min(), tt.Max(), lat.Min(), lat.Max())
	}
}

// In the event loop, a pipelined response whose first bytes came with an
// earlier read takes that read's time as its TTFB; one that starts in a
// later read takes that read's. Depth 3: response 1 and the start of
// response 2 come at 0 ms, the rest of 2 at 30 ms, response 3 at 60 ms: TTFB
// ≈ 0, 0, 60 ms; total ≈ 0, 30, 60 ms (each sleep at least 30 ms).
func TestLoopTTFBEarlierRead(t *testing.T) {
	w, peer := fakeLoop(t, 3, "/plaintext")
	k := w.conns[0]
	one := plainResponses(1)
	k.sent = time.Now()
	for i, part := range [][]byte{append(append([]byte{}, one...), one[:10]...), one[10:], one} {
		if i > 0 {
			time.Sleep(30 * time.Millisecond)
		}
		if n, err := writeFD(peer, part); n != len(part) || err != nil {
			t.Fatalf("server wrote %d of %d bytes: %v", n, len(part), err)
		}
		if !w.step() {
			t.Fatal("step ended the loop")
		}
	}
	if k.tally.responses != 3 {
		t.Fatalf("%d responses, want 3", k.tally.responses)
	}
	tt, lat := w.ttfb, w.hist
	p := func(q float64) (int64, int64) { return tt.ValueAtQuantile(q), lat.ValueAtQuantile(q) }
	t1, l1 := p(1)
	t2, l2 := p(50)
	t3, l3 := p(100)
	t.Logf("TTFB %d, %d, %d µs; total %d, %d, %d µs", t1, t2, t3, l1, l2, l3)
	// Stamps, not durations, are what the test controls: responses 1 and 2
	// share the first read's TTFB, and the 30 ms sleeps are lower bounds.
	if tt.TotalCount() != 3 || t1 != t2 || l1 != t1 || t3-t2 < 55_000 || l2-l1 < 28_000 || l3-l2 < 28_000 || t3 > l3 {
		t.Errorf("TTFB %d, %d, %d µs; total %d, %d, %d µs; want TTFB 1 = 2 = total 1, TTFB 3 >= TTFB 2 + 55000, each total >= the one before + 28000, TTFB 3 <= total 3",
			t1, t2, t3, l1, l2, l3)
	}
}

// At a Rate, the connection's reads are stamped the same way: a response
// read in two pieces at least 30 ms apart has TTFB at the first piece, its
// total >= 28 ms later.
func TestConnTTFB(t *testing.T) {
	one := plainResponses(1)
	k := fakeRoundData(t, 1, one)
	c := &pacedConn{parts: [][]byte{one[:20], one[20:]}, pause: 30 * time.Millisecond}
	k.c = c
	k.parse.reset(c)
	if !k.round() {
		t.Fatal("round ended the run")
	}
	tt, lat := histogram(t, k.thist, k.p.maxMicros), histogram(t, k.hist, k.p.maxMicros)
	if k.tally.responses != 1 || lat.Max()-tt.Max() < 28_000 {
		t.Errorf("%d responses, TTFB %d µs, total %d µs; want 1, total >= TTFB + 28000 (the 30 ms pause)", k.tally.responses, tt.Max(), lat.Max())
	}
}

// pacedConn is a fakeConn whose reads return parts in turn, pausing before
// each but the first.
type pacedConn struct {
	fakeConn
	parts [][]byte
	pause time.Duration
	n     int
}

func (c *pacedConn) Read(b []byte) (int, error) {
	if c.n >= len(c.parts) {
		return 0, io.EOF
	}
	if c.n > 0 {
		time.Sleep(c.pause)
	}
	n := copy(b, c.parts[c.n])
	c.n++
	return n, nil
}

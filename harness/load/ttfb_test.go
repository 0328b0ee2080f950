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

// Issue 14, item 4: against a server that sends its headers, waits 50 ms,
// then sends the body, TTFB p50 is small and total p50 is 50 ms later, in
// closed-loop and in constant-rate mode.
func TestRunTTFB(t *testing.T) {
	s := newServer(t, slowBody(50*time.Millisecond))
	for _, o := range []Options{
		{Connections: 2},
		{Connections: 2, Rate: 20},
	} {
		o.Addr, o.Path, o.Duration, o.Timeout = s.addr(), "/", 800*time.Millisecond, 2*time.Second
		r := run(t, o)
		ttfb, total := r.TTFB.ValueAtQuantile(50), r.Latency.ValueAtQuantile(50)
		t.Logf("rate %v: %d responses, TTFB p50 %d µs, total p50 %d µs", o.Rate, r.Responses, ttfb, total)
		if r.Responses < 4 || r.Success != r.Responses {
			t.Errorf("rate %v: %d responses, %d status 200; want >= 4, all 200", o.Rate, r.Responses, r.Success)
		}
		if ttfb >= 20_000 || total-ttfb < 45_000 {
			t.Errorf("rate %v: TTFB p50 %d µs, total p50 %d µs; want TTFB < 20000 and total >= TTFB + 45000", o.Rate, ttfb, total)
		}
	}
}

// Pipelined (depth 2), the second response's headers come after the
// first's body, 50 ms in: the TTFB histogram holds one small value and one
// near 50 ms per batch, each below its response's total.
func TestRunTTFBPipelined(t *testing.T) {
	s := newServer(t, slowBody(50*time.Millisecond))
	r := run(t, Options{Addr: s.addr(), Path: "/", Connections: 1, Pipeline: 2, Duration: 800 * time.Millisecond, Timeout: 2 * time.Second})
	tt, lat := r.TTFB, r.Latency
	t.Logf("%d responses; TTFB min/p50/max %d/%d/%d µs; total %d/%d/%d µs", r.Responses,
		tt.Min(), tt.ValueAtQuantile(50), tt.Max(), lat.Min(), lat.ValueAtQuantile(50), lat.Max())
	if r.Responses < 4 || r.Success != r.Responses {
		t.Fatalf("%d responses, %d status 200; want >= 4, all 200", r.Responses, r.Success)
	}
	if tt.Min() >= 20_000 || tt.Max() < 45_000 || lat.Min() < 45_000 || lat.Max() < 95_000 || lat.Max()-tt.Max() < 45_000 {
		t.Errorf("TTFB min %d, max %d µs; total min %d, max %d µs; want TTFB min < 20000, max >= 45000; total min >= 45000, max >= 95000 and >= TTFB max + 45000",
			tt.Min(), tt.Max(), lat.Min(), lat.Max())
	}
}

// In the event loop, a pipelined response whose first bytes came with an
// earlier read takes that read's time as its TTFB; one that starts in a
// later read takes that read's. Depth 3: response 1 and the start of
// response 2 come at 0 ms, the rest of 2 at 30 ms, response 3 at 60 ms: TTFB
// ≈ 0, 0, 60 ms; total ≈ 0, 30, 60 ms.
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
	if tt.TotalCount() != 3 || t2 >= 20_000 || t3 < 55_000 || l1 >= 20_000 || l2 < 28_000 || l2 >= 55_000 || l3 < 55_000 || t3 > l3 {
		t.Errorf("TTFB %d, %d, %d µs; total %d, %d, %d µs; want TTFB two < 20000 then one >= 55000, total < 20000, 28000..55000, >= 55000",
			t1, t2, t3, l1, l2, l3)
	}
}

// At a Rate, the connection's reads are stamped the same way: a response
// read in two pieces 30 ms apart has TTFB at the first piece.
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
	if k.tally.responses != 1 || tt.Max() >= 20_000 || lat.Max() < 28_000 {
		t.Errorf("%d responses, TTFB %d µs, total %d µs; want 1, < 20000, >= 28000", k.tally.responses, tt.Max(), lat.Max())
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

package load

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

func TestRecordClampsLatency(t *testing.T) {
	p := &plan{config: config{Options: Options{Path: "/db", Timeout: 2 * time.Millisecond}, maxMicros: 2000}}
	k := newConn(p, 0)
	t0 := time.Now()
	// TTFB is clamped as latency is, and never above the response's latency.
	k.record(response{status: 200, body: 7}, t0, t0.Add(3*time.Second), t0.Add(5*time.Second))                 // over Timeout: clamped to 2000 µs
	k.record(response{status: 200, body: 7}, t0, t0, t0)                                                       // under 1 µs: recorded as 1 µs
	k.record(response{status: 500, body: 1}, t0, t0.Add(1000*time.Microsecond), t0.Add(1234*time.Microsecond)) // exact below 2048 µs
	h, th := hdrhistogram.New(1, 2000, 3), hdrhistogram.New(1, 2000, 3)
	if dropped := k.hist.MergeInto(h) + k.thist.MergeInto(th); dropped != 0 {
		t.Fatalf("%d values dropped merging into a 1..2000 µs histogram", dropped)
	}
	if h.TotalCount() != 3 || h.Min() != 1 || h.ValueAtPercentile(50) != 1234 || h.Max() != 2000 {
		t.Errorf("latencies: count %d, min %d, p50 %d, max %d µs; want 3, 1, 1234, 2000",
			h.TotalCount(), h.Min(), h.ValueAtPercentile(50), h.Max())
	}
	if th.TotalCount() != 3 || th.Min() != 1 || th.ValueAtPercentile(50) != 1000 || th.Max() != 2000 {
		t.Errorf("TTFB: count %d, min %d, p50 %d, max %d µs; want 3, 1, 1000, 2000",
			th.TotalCount(), th.Min(), th.ValueAtPercentile(50), th.Max())
	}
	tl := k.tally
	if tl.responses != 3 || tl.success != 2 || tl.bodyBytes != 15 || tl.errors[classIndex(Status)] != 1 ||
		tl.example[classIndex(Status)] != "status 500 for GET /db" {
		t.Errorf("tally %+v; want 3 responses, 2 successes, 15 body bytes, 1 status error for GET /db", tl)
	}
}

// fakeConn is a net.Conn whose reads replay a fixed response stream and
// whose writes go nowhere: the connection loop without a network.
type fakeConn struct {
	net.Conn // nil; only the methods below are used
	loopReader
}

func (*fakeConn) Write(b []byte) (int, error)      { return len(b), nil }
func (*fakeConn) SetDeadline(time.Time) error      { return nil }
func (*fakeConn) Close() error                     { return nil }
func (f *fakeConn) Read(b []byte) (int, error)     { return f.loopReader.Read(b) }
func (*fakeConn) SetReadDeadline(time.Time) error  { return nil }
func (*fakeConn) SetWriteDeadline(time.Time) error { return nil }

// fakeRound returns a connection in a one-hour window whose rounds write a
// batch of depth pipelined requests and read depth plaintext responses.
func fakeRound(tb testing.TB, depth int) *conn {
	tb.Helper()
	plain := "HTTP/1.1 200 OK\r\nServer: x\r\nDate: Mon, 02 Jan 2006 15:04:05 GMT\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!"
	return fakeRoundData(tb, depth, []byte(strings.Repeat(plain, depth)))
}

// fakeRoundData is fakeRound with responses read from data, over and over.
func fakeRoundData(tb testing.TB, depth int, data []byte) *conn {
	tb.Helper()
	o := Options{Addr: "127.0.0.1:1", Path: "/plaintext", Connections: 1, Pipeline: depth, Duration: time.Hour, Timeout: time.Second}
	cfg, err := o.validate()
	if err != nil {
		tb.Fatal(err)
	}
	p := &plan{config: cfg, batch: batch(cfg.Options), win: context.Background(), start: time.Now()}
	p.end = p.start.Add(time.Hour)
	k := newConn(p, 0)
	c := &fakeConn{loopReader: loopReader{data: data}}
	k.c = c
	k.parse.reset(c)
	return k
}

// The connection loop, a round of write, parse and record, does not
// allocate per response once its histogram has its buckets.
func TestRoundDoesNotAllocate(t *testing.T) {
	k := fakeRound(t, 16)
	for range 1000 { // populate the histogram's buckets
		k.round()
	}
	allocs := testing.AllocsPerRun(1000, func() {
		if !k.round() {
			t.Fatal("round ended the run")
		}
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per round of 16 responses, want 0", allocs)
	}
	if k.tally.responses != 2001*16 || k.tally.success != k.tally.responses || k.tally.bodyBytes != 13*k.tally.responses {
		t.Errorf("tally %+v after 2001 rounds of 16", k.tally)
	}
}

// BenchmarkRound measures one connection's loop per response, without the
// network: deadline, write, parse, latency record, count.
func BenchmarkRound(b *testing.B) {
	for _, depth := range []int{1, 16} {
		b.Run(fmt.Sprintf("pipeline-%d", depth), func(b *testing.B) {
			k := fakeRound(b, depth)
			b.ReportAllocs()
			for b.Loop() {
				k.round()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*depth), "ns/response")
		})
	}
}

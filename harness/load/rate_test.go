package load

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// fakeRate returns the only connection of a constant-rate run at rate
// requests/s whose window of d started at start, with the network replaced
// by a stream of plaintext responses.
func fakeRate(tb testing.TB, rate float64, start time.Time, d time.Duration) *conn {
	tb.Helper()
	o := Options{Addr: "127.0.0.1:1", Path: "/plaintext", Connections: 1, Rate: rate, Duration: d, Timeout: time.Second}
	cfg, err := o.validate()
	if err != nil {
		tb.Fatal(err)
	}
	p := &plan{config: cfg, batch: batch(cfg.Options), win: context.Background(), start: start, end: start.Add(d)}
	k := newConn(p, 0)
	plain := "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!"
	c := &fakeConn{loopReader: loopReader{data: []byte(plain)}}
	k.c = c
	k.parse.reset(c)
	return k
}

// histogram merges a connection's packed histogram for reading.
func histogram(tb testing.TB, ph *hdrhistogram.PackedHistogram, maxMicros int64) *hdrhistogram.Histogram {
	tb.Helper()
	h := hdrhistogram.New(1, maxMicros, 3)
	if dropped := ph.MergeInto(h); dropped != 0 {
		tb.Fatalf("%d values dropped merging", dropped)
	}
	return h
}

// A connection behind schedule sends its next requests at once, one per
// intended send time (none skipped), and measures each from its intended
// time: a connection that comes free only now (as after a 1 s response) in a
// window that started 1 s ago at 1,000 requests/s has 1,000 sends overdue,
// and its next 10 rounds are the sends intended at 0..9 ms.
func TestRateBehindScheduleSendsAtOnce(t *testing.T) {
	now := time.Now()
	k := fakeRate(t, 1000, now.Add(-time.Second), time.Hour)
	k.ready = now
	for range 10 {
		if !k.round() {
			t.Fatal("round ended the run")
		}
	}
	if k.slot != 10 || k.tally.responses != 10 {
		t.Fatalf("after 10 rounds: slot %v, %d responses; want 10, 10", k.slot, k.tally.responses)
	}
	// Corrected: the request intended at i ms, answered >= 1 s after the
	// window's start, waited >= 990 ms. Uncorrected: each took the fake
	// network's time, well under that.
	c, u := histogram(t, k.hist, k.p.maxMicros), histogram(t, k.uhist, k.p.maxUMicros)
	if c.TotalCount() != 10 || u.TotalCount() != 10 || c.Min() < 990_000 || u.Max() >= 990_000 {
		t.Errorf("corrected: %d values, min %d µs; uncorrected: %d values, max %d µs; want 10 >= 990000, 10 < 990000",
			c.TotalCount(), c.Min(), u.TotalCount(), u.Max())
	}
	// Behind schedule, with no check due, rounds allocate nothing.
	if allocs := testing.AllocsPerRun(100, func() { k.round() }); allocs != 0 {
		t.Errorf("%.1f allocations per constant-rate round, want 0", allocs)
	}
}

// A connection ahead of schedule waits for each intended send time, and
// sends nothing intended at or after the window's end: at 10 requests/s
// over a 250 ms window, the sends are intended at 0, 100 and 200 ms.
func TestRateWaitsForSchedule(t *testing.T) {
	start := time.Now()
	k := fakeRate(t, 10, start, 250*time.Millisecond)
	for i := range 3 {
		if !k.round() {
			t.Fatalf("round %d ended the run", i)
		}
		if took, want := time.Since(start), time.Duration(i)*100*time.Millisecond; took < want {
			t.Fatalf("round %d done %s after the window's start, before its intended send time %s", i, took, want)
		}
	}
	if k.round() || k.slot != 3 || k.tally.responses != 3 {
		t.Errorf("4th round (intended at 300 ms, after the 250 ms window): slot %v, %d responses; want it to end the run, 3, 3",
			k.slot, k.tally.responses)
	}
	// Each request waited for its timer, so its latency runs from its write:
	// the timer's lateness is not charged to the server.
	if c, u := histogram(t, k.hist, k.p.maxMicros), histogram(t, k.uhist, k.p.maxUMicros); c.TotalCount() != 3 || !c.Equals(u) {
		t.Errorf("corrected latencies (%d, max %d µs) differ from uncorrected (%d, max %d µs); want the same 3 values",
			c.TotalCount(), c.Max(), u.TotalCount(), u.Max())
	}
}

// rateRun runs raw in constant-rate mode and checks what holds for every
// such run: both histograms hold one value per counted response, and no
// value was measured from before its request's intended send time.
func rateRun(t *testing.T, o Options) *Result {
	t.Helper()
	r := run(t, o)
	if r.Uncorrected == nil {
		t.Fatal("Uncorrected is nil in constant-rate mode")
	}
	if r.Uncorrected.TotalCount() != r.Responses {
		t.Errorf("uncorrected histogram holds %d values, want %d", r.Uncorrected.TotalCount(), r.Responses)
	}
	for _, q := range []float64{50, 90, 99, 100} {
		if c, u := r.Latency.ValueAtQuantile(q), r.Uncorrected.ValueAtQuantile(q); c < u {
			t.Errorf("p%v corrected %d µs < uncorrected %d µs; a latency from the intended send time cannot be shorter", q, c, u)
		}
	}
	return r
}

// At 200 requests/s over 2 connections to a fast server for 1 s, the run
// sends at most the 200 requests the schedule holds (each connection's 100
// slots, none skipped and none added), every one answered 200. How many come
// back inside the window depends on the machine; that corrected and
// uncorrected latency agree for requests sent on time is
// TestRateWaitsForSchedule's, with no network.
func TestRunRate(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	r := rateRun(t, Options{Addr: s.addr(), Path: "/", Connections: 2, Rate: 200, Duration: time.Second, Timeout: 2 * time.Second})
	if r.Responses < 1 || r.Responses > 200 || r.Success != r.Responses || len(r.Errors) != 0 {
		t.Errorf("%d responses (%d successes), errors %v; want 1..200 (the schedule's 200 slots), all 200, none", r.Responses, r.Success, r.Errors)
	}
	t.Logf("p50/p99 µs: corrected %d/%d, uncorrected %d/%d", r.Latency.ValueAtQuantile(50), r.Latency.ValueAtQuantile(99), r.Uncorrected.ValueAtQuantile(50), r.Uncorrected.ValueAtQuantile(99))
	if r.Latency.HighestTrackableValue() != 2_000_000 || r.Uncorrected.HighestTrackableValue() != 2_000_000 {
		t.Errorf("histogram ranges ..%d and ..%d µs, want ..2000000 (max(Timeout, Duration); Timeout)",
			r.Latency.HighestTrackableValue(), r.Uncorrected.HighestTrackableValue())
	}
}

// The test of wrk2's method (coordinated omission corrected): at 1,000
// requests/s over 4 connections for 4 s, a server that stalls once for at
// least 1 s shows the stall in the corrected p99 and not in the uncorrected
// one. The requests intended in the stall's first 500 ms (500 of the
// schedule's at most 4,000, so > 1%) are answered after it, so their
// corrected latency is >= 500 ms however busy the machine; each connection's
// one request in flight waits the stall out too, so at least 4 uncorrected
// values are >= 500 ms, but fewer than 1%.
func TestRunRateStall(t *testing.T) {
	if raceEnabled {
		t.Skip("times the generator at full speed, which the race detector takes away")
	}
	if testing.Short() {
		t.Skip("4 s run at a constant rate")
	}
	var stall sync.RWMutex // held for writing during the stall
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		stall.RLock()
		stall.RUnlock()
		io.WriteString(w, "ok")
	})
	stalled := make(chan struct{})
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		defer close(stalled)
		select {
		case <-time.After(time.Second):
		case <-stop:
			return
		}
		stall.Lock()
		defer stall.Unlock()
		select {
		case <-time.After(time.Second):
		case <-stop:
		}
	}()
	const conns = 4
	r := rateRun(t, Options{Addr: s.addr(), Path: "/", Connections: conns, Rate: 1000, Duration: 4 * time.Second, Timeout: 3 * time.Second})
	<-stalled
	if r.Responses > 4000 || r.Success != r.Responses || len(r.Errors) != 0 {
		t.Errorf("%d responses (%d successes), errors %v; want at most 4000 (the schedule), all 200, none", r.Responses, r.Success, r.Errors)
	}
	var slow, uslow int64 // corrected and uncorrected values >= 500 ms
	for _, b := range r.Latency.Distribution() {
		if b.From >= 500_000 {
			slow += b.Count
		}
	}
	for _, b := range r.Uncorrected.Distribution() {
		if b.From >= 500_000 {
			uslow += b.Count
		}
	}
	if slow < 500 || slow*100 <= r.Responses {
		t.Errorf("%d corrected values >= 500 ms of %d, want >= 500 and > 1%% (the requests intended in the stall's first 500 ms)", slow, r.Responses)
	}
	if uslow < conns || uslow*100 >= r.Responses {
		t.Errorf("%d uncorrected values >= 500 ms of %d, want >= %d (one request per connection waited out the stall) and < 1%% (the stall hidden by coordinated omission)",
			uslow, r.Responses, conns)
	}
	if c, u := r.Latency.ValueAtQuantile(99), r.Uncorrected.ValueAtQuantile(99); c < 500_000 || u >= 500_000 {
		t.Errorf("p99 corrected %d µs, uncorrected %d µs; want >= 500000 and < 500000", c, u)
	}
	t.Logf("RPS %.1f; p50/p90/p99/max µs: corrected %d/%d/%d/%d, uncorrected %d/%d/%d/%d", r.RPS(),
		r.Latency.ValueAtQuantile(50), r.Latency.ValueAtQuantile(90), r.Latency.ValueAtQuantile(99), r.Latency.Max(),
		r.Uncorrected.ValueAtQuantile(50), r.Uncorrected.ValueAtQuantile(90), r.Uncorrected.ValueAtQuantile(99), r.Uncorrected.Max())
}

// Checks work in constant-rate mode as in closed-loop mode: every response,
// or above CheckEvery 1 each connection's first and about 1 in CheckEvery.
func TestRunRateCheck(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "Hello, World!") })
	var mu sync.Mutex
	var bodies []string
	check := func(status int, h, body []byte) error {
		mu.Lock()
		bodies = append(bodies, string(body))
		mu.Unlock()
		return nil
	}
	r := rateRun(t, Options{Addr: s.addr(), Path: "/plaintext", Connections: 2, Rate: 200, Duration: 500 * time.Millisecond,
		Timeout: 2 * time.Second, Check: check, CheckEvery: 10, CheckSeed: 3})
	// Each connection sends about 50 requests: its first and about 1 in 10
	// of the others are checked (seed 3 draws the same every time).
	if r.Responses < 90 || r.Connects != 0 || len(r.Errors) != 0 {
		t.Fatalf("%d responses, %d reconnects, errors %v; want about 100, 0, none", r.Responses, r.Connects, r.Errors)
	}
	if r.Checked < 2 || r.Checked > r.Responses/3 || int64(len(bodies)) != r.Checked || r.CheckSeed != 3 {
		t.Errorf("%d checked (%d calls) of %d responses, seed %d; want 2..%d, seed 3", r.Checked, len(bodies), r.Responses, r.CheckSeed, r.Responses/3)
	}
	if strings.Join(bodies, "") != strings.Repeat("Hello, World!", len(bodies)) {
		t.Errorf("checked bodies %q, want Hello, World! each", bodies)
	}
}

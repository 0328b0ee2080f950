package load

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// fakeLoop returns an event loop with one connection in a one-hour window,
// its batch of depth requests for path just written, whose socket is one end of a
// Unix socket pair; the test plays the server on the other end, which it
// gets back (non-blocking). Both ends are closed with the test.
func fakeLoop(tb testing.TB, depth int, path string) (*worker, int) {
	tb.Helper()
	o := Options{Addr: "127.0.0.1:1", Path: path, Connections: 1, Pipeline: depth, Duration: time.Hour, Timeout: time.Second}
	cfg, err := o.validate()
	if err != nil {
		tb.Fatal(err)
	}
	p := &plan{config: cfg, batch: batch(cfg.Options), win: context.Background(), start: time.Now()}
	p.end = p.start.Add(time.Hour)
	wake, err := newWaker()
	if err != nil {
		tb.Fatal(err)
	}
	w, err := newWorker(p, nil, nil, wake)
	if err != nil {
		tb.Fatal(err)
	}
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		tb.Fatal(err)
	}
	setNonblocking(tb, fds)
	tb.Cleanup(func() {
		w.close() // closes fds[0]
		unix.Close(fds[1])
		wake.close()
	})
	k := w.newConn(0, 0)
	k.fd = fds[0]
	w.conns = []*lconn{k}
	if err := w.pl.add(k.fd, 0, readInterest); err != nil {
		tb.Fatal(err)
	}
	k.events = readInterest
	k.parse.reset(k)
	w.window, w.end = true, p.end
	k.state, k.sent, k.pending = lsReading, time.Now(), depth
	return w, fds[1]
}

// setNonblocking makes both descriptors of a socket pair or pipe
// non-blocking and close-on-exec (portable: darwin has no SOCK_NONBLOCK or
// pipe2).
func setNonblocking(tb testing.TB, fds [2]int) {
	tb.Helper()
	for _, fd := range fds {
		unix.CloseOnExec(fd)
		if err := unix.SetNonblock(fd, true); err != nil {
			tb.Fatal(err)
		}
	}
}

// loopRound plays the server for one batch: it writes depth plaintext
// responses, steps the loop until it has written its next batch, and reads
// that batch. It fails the test unless the batch is exactly p.batch.
func loopRound(tb testing.TB, w *worker, peer int, responses, got []byte) {
	if n, err := writeFD(peer, responses); n != len(responses) || err != nil {
		tb.Fatalf("server wrote %d of %d bytes: %v", n, len(responses), err)
	}
	for range 100 {
		if !w.step() {
			tb.Fatal("the loop ended")
		}
		n, err := readFD(peer, got)
		if err == unix.EAGAIN {
			continue // a step that was interrupted (EINTR) or saw nothing yet
		}
		if err != nil || string(got[:n]) != string(w.p.batch) {
			tb.Fatalf("server read %q, %v; want the batch %q", got[:n], err, w.p.batch)
		}
		return
	}
	tb.Fatal("no batch written after 100 steps")
}

// plainResponses is depth TFB plaintext responses, as fakeRound serves them.
func plainResponses(depth int) []byte {
	plain := "HTTP/1.1 200 OK\r\nServer: x\r\nDate: Mon, 02 Jan 2006 15:04:05 GMT\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!"
	return []byte(strings.Repeat(plain, depth))
}

// The event loop's round, read, parse, record, count and write the next
// batch, does not allocate per response once its histogram has its
// buckets; every response is counted and recorded.
func TestLoopDoesNotAllocate(t *testing.T) {
	w, peer := fakeLoop(t, 16, "/plaintext")
	resp, got := plainResponses(16), make([]byte, 64<<10)
	for range 1000 {
		loopRound(t, w, peer, resp, got)
	}
	allocs := testing.AllocsPerRun(1000, func() { loopRound(t, w, peer, resp, got) })
	if allocs != 0 {
		t.Errorf("%.1f allocations per round of 16 responses, want 0", allocs)
	}
	k := w.conns[0]
	if n := k.tally.responses; n != 2001*16 || k.tally.success != n || k.tally.bodyBytes != 13*n || w.hist.TotalCount() != n {
		t.Errorf("tally %+v, %d latencies after 2001 rounds of 16; want %d responses, all 200 with 13 bytes, each recorded",
			k.tally, w.hist.TotalCount(), 2001*16)
	}
}

// BenchmarkLoop measures the event loop per response over a Unix socket
// pair, the test playing the server: epoll_wait (kevent on darwin), read, parse, latency
// record, count, and the next batch's write (with the kernel's share of
// those system calls and of the server's write and read).
func BenchmarkLoop(b *testing.B) {
	for _, depth := range []int{1, 16} {
		b.Run(fmt.Sprintf("pipeline-%d", depth), func(b *testing.B) {
			w, peer := fakeLoop(b, depth, "/plaintext")
			resp, got := plainResponses(depth), make([]byte, 64<<10)
			b.ReportAllocs()
			for b.Loop() {
				loopRound(b, w, peer, resp, got)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*depth), "ns/response")
		})
	}
}

// A batch larger than the socket takes at once (64 requests with an 8 KiB
// path: 512 KiB, over a Unix socket pair that buffers about 200 KiB) is
// written in parts, the rest each time the socket is writable again, and
// the connection then reads its responses.
func TestLoopPartialWrite(t *testing.T) {
	w, peer := fakeLoop(t, 64, "/"+strings.Repeat("p", 8<<10))
	k := w.conns[0]
	if n, err := writeFD(peer, plainResponses(64)); n != len(plainResponses(64)) || err != nil {
		t.Fatalf("server wrote %d bytes: %v", n, err)
	}
	got, buf := 0, make([]byte, 64<<10)
	sawSending := false
	for steps := 0; got < len(w.p.batch); steps++ {
		if steps == 1000 {
			t.Fatalf("the server read %d of %d batch bytes after 1000 steps", got, len(w.p.batch))
		}
		if !w.step() {
			t.Fatal("the loop ended")
		}
		sawSending = sawSending || k.state == lsSending
		for {
			n, err := readFD(peer, buf)
			if err == unix.EAGAIN {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got += n
		}
	}
	if got != len(w.p.batch) || !sawSending || k.state != lsReading || k.pending != 64 || k.tally.responses != 64 {
		t.Errorf("server read %d bytes (batch %d), partial write seen %v, state %d, %d pending, %d counted; want the batch, true, reading (%d), 64, 64",
			got, len(w.p.batch), sawSending, k.state, k.pending, k.tally.responses, lsReading)
	}
}

// The nap is 1/20 of the batch latency average, none under 5 µs, at most 1 ms.
func TestNapFor(t *testing.T) {
	for _, c := range []struct {
		latency time.Duration
		want    time.Duration
	}{
		{0, 0},
		{99 * time.Microsecond, 0},
		{100 * time.Microsecond, 5 * time.Microsecond},
		{1500 * time.Microsecond, 75 * time.Microsecond},
		{20 * time.Millisecond, time.Millisecond},
		{8 * time.Second, time.Millisecond},
	} {
		w := &worker{latency: float64(c.latency)}
		if got := w.napFor(); got != c.want {
			t.Errorf("latency %v: nap %v, want %v", c.latency, got, c.want)
		}
	}
}

// wait returns a ready event at once, one that comes during the nap or the
// blocking wait when it comes, and nothing once its timeout has passed.
func TestWait(t *testing.T) {
	w := &worker{latency: float64(20 * time.Millisecond)} // naps 1 ms
	if err := w.pl.init(4, 8); err != nil {
		t.Fatal(err)
	}
	defer w.pl.close()
	var p [2]int
	if err := unix.Pipe(p[:]); err != nil {
		t.Fatal(err)
	}
	setNonblocking(t, p)
	defer unix.Close(p[0])
	defer unix.Close(p[1])
	if err := w.pl.add(p[0], 7, readInterest); err != nil {
		t.Fatal(err)
	}

	start := time.Now()
	if n, err := w.wait(30 * time.Millisecond); n != 0 || err != nil {
		t.Fatalf("nothing ready: wait = %d, %v; want 0, nil", n, err)
	}
	if took := time.Since(start); took < 29*time.Millisecond {
		t.Errorf("nothing ready: wait returned after %v, want its 30ms timeout", took)
	}

	for _, after := range []time.Duration{0, 300 * time.Microsecond, 5 * time.Millisecond} {
		done := make(chan struct{})
		go func() {
			defer close(done)
			time.Sleep(after)
			unix.Write(p[1], []byte{1})
		}()
		if after == 0 {
			<-done
		}
		n, err := w.wait(10 * time.Second)
		<-done
		if index, _, _ := w.pl.event(0); n != 1 || err != nil || index != 7 {
			t.Errorf("write after %v: wait = %d, %v (index %d); want 1 event of index 7", after, n, err, index)
		}
		var b [8]byte
		unix.Read(p[0], b[:])
	}
}

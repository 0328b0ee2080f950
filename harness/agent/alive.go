package agent

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/tfbench/tfbench/harness/supervise"
	"github.com/tfbench/tfbench/internal/procs"
)

// The heartbeat (docs/remote.md, When the server host dies or stalls): each
// side sends a line at least every heartbeat, the controller a ping request
// and the agent a beat event, when it has sent nothing else. The controller
// gives up on an agent it has heard nothing from for agentSilence (it kills
// the transport, every call fails naming the host), the agent on a
// controller silent for controllerSilence (it stops its servers and exits).
// Each side announces its heartbeat at hello; an older peer that sends none
// is not held to it. Variables only for the tests, which shorten them; a
// Client and Serve copy them when they start.
var (
	heartbeat         = 5 * time.Second
	agentSilence      = 30 * time.Second
	controllerSilence = 60 * time.Second
	// writeStall bounds a write to the agent that makes no progress: each
	// writeChunk bytes of a request must be taken within it.
	writeStall = 30 * time.Second
)

const (
	writeChunk = 64 << 10
	// waitDelay bounds the wait for the transport's pipes to close once its
	// process has exited or been killed (exec.Cmd.WaitDelay).
	waitDelay = 5 * time.Second
)

// silenceLimit is how long a side waits for a word from a peer that
// announced a heartbeat of ms milliseconds: limit, or three heartbeats when
// the peer's are rarer; 0 (not watched) when it announced none.
func silenceLimit(ms int64, limit time.Duration) time.Duration {
	if ms <= 0 {
		return 0
	}
	return max(limit, 3*time.Duration(ms)*time.Millisecond)
}

// clock is a time kept as Unix nanoseconds, read and set from several
// goroutines.
type clock struct{ ns atomic.Int64 }

func (c *clock) stamp()                     { c.ns.Store(time.Now().UnixNano()) }
func (c *clock) since() time.Duration       { return time.Since(time.Unix(0, c.ns.Load())) }
func (c *clock) older(d time.Duration) bool { return c.since() >= d }

// heardReader is r stamping heard whenever bytes arrive.
type heardReader struct {
	r     io.Reader
	heard *clock
}

func (h heardReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if n > 0 {
		h.heard.stamp()
	}
	return n, err
}

// errLineTooLong is lineReader's error for a line over its max.
var errLineTooLong = errors.New("line too long")

// lineReader reads newline-ended lines of at most max bytes, in time linear
// in their length (bufio.Scanner searches its whole buffer for a newline at
// every read: quadratic in a line of many reads).
type lineReader struct {
	r   *bufio.Reader
	max int
	buf []byte
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next line without its newline (valid until the next
// call), the last one even without a newline; at the end io.EOF, for a
// line over max errLineTooLong.
func (l *lineReader) next() ([]byte, error) {
	l.buf = l.buf[:0]
	for {
		frag, err := l.r.ReadSlice('\n')
		l.buf = append(l.buf, frag...)
		if n := len(l.buf); n > l.max && (n > l.max+1 || l.buf[n-1] != '\n') {
			return nil, errLineTooLong
		}
		switch {
		case err == nil:
			return l.buf[:len(l.buf)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(l.buf) > 0:
			return l.buf, nil
		}
		return nil, err
	}
}

// excerpt quotes the start of a line for an error, at most 60 bytes.
func excerpt(b []byte) string {
	if len(b) > 60 {
		return fmt.Sprintf("%q… (%d bytes)", b[:60], len(b))
	}
	return fmt.Sprintf("%q", b)
}

// reap kills what the agent of pid left running (its servers' process
// trees, by their TFBENCH_OWNER tags) and that agent itself when it still
// runs under this agent's command name (stopped, or cut off from its
// controller); it returns how many processes that was.
func reap(pid int) (int, error) {
	n, err := supervise.KillOwnedBy(pid)
	if err != nil || pid == os.Getpid() {
		return n, err
	}
	old, err := procs.Get(pid)
	if err != nil {
		return n, nil // gone already
	}
	self, err := procs.Get(os.Getpid())
	if err != nil || !old.Live() || old.Comm != self.Comm {
		return n, nil
	}
	k, err := procs.Kill([]procs.Proc{old}, syscall.SIGKILL)
	return n + k, err
}

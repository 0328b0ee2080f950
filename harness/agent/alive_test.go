package agent

import (
	"bufio"
	"context"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/serverhost"
)

// shorten sets the heartbeat's bounds (alive.go) for one test; 0 keeps one.
func shorten(t *testing.T, beat, agentQuiet, controllerQuiet, stall, close time.Duration) {
	saved := []time.Duration{heartbeat, agentSilence, controllerSilence, writeStall, closeTimeout}
	vars := []*time.Duration{&heartbeat, &agentSilence, &controllerSilence, &writeStall, &closeTimeout}
	for i, d := range []time.Duration{beat, agentQuiet, controllerQuiet, stall, close} {
		if d > 0 {
			*vars[i] = d
		}
	}
	t.Cleanup(func() {
		for i, v := range vars {
			*v = saved[i]
		}
	})
}

// standInAgent dials a stand-in agent, `sh -c`: it answers hello (announcing a
// heartbeat of beatMS, 0 for none, and pid 0, so nothing is reaped), then
// runs then.
func standInAgent(t *testing.T, beatMS int, then string) *Client {
	t.Helper()
	hello := `{"id":1,"result":{"protocol":1,"os":"linux","arch":"amd64","heartbeat_ms":` + strconv.Itoa(beatMS) + `}}`
	c, err := Dial(context.Background(), Transport{Argv: []string{"sh", "-c", "read -r hello; echo '" + hello + "'; " + then}, Name: "stand-in", Addr: "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.kill() })
	return c
}

// within runs f, failing the test when it has not returned within d: the
// call would otherwise hang the test until go test's own timeout.
func within[T any](t *testing.T, d time.Duration, what string, f func() T) T {
	t.Helper()
	got := make(chan T, 1)
	start := time.Now()
	go func() { got <- f() }()
	select {
	case v := <-got:
		t.Logf("%s returned after %v", what, time.Since(start).Round(time.Millisecond))
		return v
	case <-time.After(d):
		t.Fatalf("%s still waiting after %v", what, d)
		var zero T
		return zero
	}
}

// assertKilled checks that the stand-in's process group is gone (the
// session's end kills it and reaps its leader).
func assertKilled(t *testing.T, c *Client) {
	t.Helper()
	<-c.exit
	if err := syscall.Kill(-c.cmd.Process.Pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the stand-in's process group %d after the fault: %v; want it gone (ESRCH)", c.cmd.Process.Pid, err)
	}
}

// TestWriteStall: an agent that stops reading stalls a request's write;
// after writeStall without progress the session fails naming the host and
// the cause, the call that was writing returns that error, and the
// transport is killed.
func TestWriteStall(t *testing.T) {
	shorten(t, 0, 0, 0, time.Second, 0)
	c := standInAgent(t, 0, "exec sleep 600")
	err := within(t, 30*time.Second, "a 4 MB request to an agent that reads nothing", func() error {
		return c.call(context.Background(), "sources", sourcesArgs{Name: "x", Tar: make([]byte, 4<<20)}, nil, nil)
	})
	want := "server host gone: the agent on stand-in took no request bytes for 1s; the controller killed the connection"
	if !errors.Is(err, serverhost.ErrGone) || err.Error() != want {
		t.Errorf("call: %v\nwant %s", err, want)
	}
	assertKilled(t, c)
}

// TestCloseStalled: Close behind a write that stalls returns once the
// write fails (it waited on the write lock for good before); Close of an
// agent that reads but never answers shutdown returns after closeTimeout
// with that cause. Both kill the transport.
func TestCloseStalled(t *testing.T) {
	shorten(t, 0, 0, 0, time.Second, time.Second)
	c := standInAgent(t, 0, "exec sleep 600")
	writing := make(chan error, 1)
	go func() {
		writing <- c.call(context.Background(), "sources", sourcesArgs{Name: "x", Tar: make([]byte, 4<<20)}, nil, nil)
	}()
	for c.wmu.TryLock() { // until the big write holds the lock
		c.wmu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	if err := within(t, 30*time.Second, "Close behind a stalled write", c.Close); err != nil {
		t.Errorf("Close: %v; want nil (the stall was the call's error)", err)
	}
	if err := <-writing; err == nil || !strings.Contains(err.Error(), "took no request bytes for 1s") {
		t.Errorf("the stalled call: %v", err)
	}
	assertKilled(t, c)

	c = standInAgent(t, 0, "exec cat >/dev/null")
	err := within(t, 30*time.Second, "Close of an agent that never answers", c.Close)
	want := "server host gone: the agent on stand-in did not answer shutdown within 1s; the controller killed the connection"
	if err == nil || err.Error() != want {
		t.Errorf("Close: %v\nwant %s", err, want)
	}
	assertKilled(t, c)
}

// TestLineCap: a reply line over maxLine (an agent writing an endless
// line) fails the session with the cap named, instead of a scanner error
// dropped and a wait on a transport that never ends.
func TestLineCap(t *testing.T) {
	c := standInAgent(t, 0, "read -r next; exec cat /dev/zero")
	err := within(t, time.Minute, "info from an agent writing an endless line", func() error {
		_, err := c.Info(context.Background())
		return err
	})
	want := "server host gone: the agent on stand-in sent a line over 128 MiB, the protocol's cap; the controller killed the connection"
	if !errors.Is(err, serverhost.ErrGone) || err.Error() != want {
		t.Errorf("info: %v\nwant %s", err, want)
	}
	assertKilled(t, c)

	// The agent's side: a request line over the cap ends it.
	endless := io.LimitReader(zeros{}, maxLine+2)
	err = within(t, time.Minute, "an agent reading an endless line", func() error {
		return Serve(context.Background(), endless, io.Discard, Config{WorkDir: t.TempDir()})
	})
	if want := "agent: a request line over 128 MiB, the protocol's cap"; err == nil || err.Error() != want {
		t.Errorf("Serve: %v; want %s", err, want)
	}
}

// zeros reads as endless NUL bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestNotProtocolLine: what a login shell prints before the agent starts
// is passed over; a line that is not the protocol's after hello fails the
// session, quoting it.
func TestNotProtocolLine(t *testing.T) {
	c := standInAgent(t, 0, "read -r next; echo 'Welcome to bench-srv'; exec sleep 600")
	err := within(t, 30*time.Second, "info answered by a stray line", func() error {
		_, err := c.Info(context.Background())
		return err
	})
	want := `server host gone: the agent on stand-in sent a line that is not the protocol's: "Welcome to bench-srv"; the controller killed the connection`
	if err == nil || err.Error() != want {
		t.Errorf("info: %v\nwant %s", err, want)
	}
	assertKilled(t, c)

	hello := `{"id":1,"result":{"protocol":1,"os":"linux","arch":"amd64"}}`
	c, err = Dial(context.Background(), Transport{Argv: []string{"sh", "-c", "echo 'Last login: Mon'; read -r hello; echo '" + hello + "'; exec cat >/dev/null"}, Name: "chatty", Addr: "127.0.0.1"})
	if err != nil {
		t.Fatalf("a banner before hello: %v", err)
	}
	c.kill()
}

// TestAgentSilence: an agent that announced a heartbeat and then says
// nothing (stopped, its host or network down) fails the session after
// agentSilence; one that announced none is not held to it.
func TestAgentSilence(t *testing.T) {
	shorten(t, 0, time.Second, 0, 0, 0)
	c := standInAgent(t, 100, "exec sleep 600")
	err := within(t, 30*time.Second, "info from a silent agent", func() error {
		_, err := c.Info(context.Background())
		return err
	})
	want := "server host gone: no word from the agent on stand-in for 1s (the host, its network or the agent stalled); the controller killed the connection"
	if !errors.Is(err, serverhost.ErrGone) || err.Error() != want {
		t.Errorf("info: %v\nwant %s", err, want)
	}
	assertKilled(t, c)

	c = standInAgent(t, 0, "exec sleep 600")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if _, err := c.Info(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("info from an agent without a heartbeat, 3 s: %v; want the caller's deadline, not a fault", err)
	}
}

// TestHeartbeat: a real agent beats while idle and the client pings it,
// so a session quiet for several silence limits stays up; the agent stops
// and returns when the controller goes silent, its servers stopped.
func TestHeartbeat(t *testing.T) {
	shorten(t, 100*time.Millisecond, time.Second, 0, 0, 0)
	tr := testTransport(t, "1")
	tr.Argv = append(tr.Argv[:1], append([]string{"TFBENCH_TEST_AGENT_BEAT=100ms", "TFBENCH_TEST_AGENT_SILENCE=1s"}, tr.Argv[1:]...)...)
	c, err := Dial(context.Background(), tr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	time.Sleep(3 * time.Second) // three agentSilence limits of nothing but beats and pings
	if err := c.Gone(); err != nil {
		t.Fatalf("a quiet session: %v", err)
	}
	if _, err := c.Info(context.Background()); err != nil {
		t.Errorf("info after a quiet while: %v", err)
	}

	// The agent's side: hello with a heartbeat, a beat back, then silence.
	in, feed := io.Pipe()
	out, agentOut := io.Pipe()
	done := make(chan error, 1)
	shorten(t, 100*time.Millisecond, 0, time.Second, 0, 0)
	go func() { done <- Serve(context.Background(), in, agentOut, Config{WorkDir: t.TempDir()}) }()
	go feed.Write([]byte(`{"id":1,"op":"hello","args":{"protocol":1,"heartbeat_ms":100}}` + "\n"))
	read := make(chan []string)
	go func() {
		var lines []string
		for sc := bufio.NewScanner(out); sc.Scan(); {
			lines = append(lines, sc.Text())
		}
		read <- lines
	}()
	err = within(t, 30*time.Second, "Serve with a silent controller", func() error { return <-done })
	if want := "agent: no word from the controller for 1s: stopping its servers and exiting"; err == nil || err.Error() != want {
		t.Errorf("Serve: %v; want %s", err, want)
	}
	feed.Close()
	agentOut.Close()
	lines := <-read
	if len(lines) < 2 || !strings.Contains(lines[0], `"heartbeat_ms":100`) || !slices.Contains(lines[1:], `{"event":"beat"}`) {
		t.Errorf("the agent wrote %q; want the hello answer with its heartbeat, then beats", lines)
	}
}

// TestReapStoppedAgent: Reap kills an agent that is stopped (SIGSTOP) as
// well as what it started: it would never read its closed stdin.
func TestReapStoppedAgent(t *testing.T) {
	tr := testTransport(t, "1")
	c, err := Dial(context.Background(), tr)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(c.Pid(), syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	n, err := Reap(context.Background(), tr, c.Pid())
	if n != 1 || err != nil {
		t.Errorf("Reap of a stopped agent: %d, %v; want 1 (the agent), nil", n, err)
	}
	err = within(t, 30*time.Second, "the stopped agent's end", func() error { <-c.done; return c.Gone() })
	if want := "server host gone: the agent on test agent ended (signal: killed)"; err == nil || err.Error() != want {
		t.Errorf("the client of the stopped agent: %v; want %s", err, want)
	}
}

// TestLineReader reads lines up to its max, the last one without a
// newline too, and refuses a longer one.
func TestLineReader(t *testing.T) {
	long := strings.Repeat("x", 100<<10) // longer than the reader's buffer
	for _, c := range []struct {
		in   string
		max  int
		want []string
		err  error
	}{
		{"a\nbc\n\nd", 10, []string{"a", "bc", "", "d"}, io.EOF},
		{"abcd\n", 4, []string{"abcd"}, io.EOF},
		{"abcde\n", 4, nil, errLineTooLong},
		{"ab\nabcde", 4, []string{"ab"}, errLineTooLong},
		{long + "\n" + long, len(long), []string{long, long}, io.EOF},
		{long + "y\n", len(long), nil, errLineTooLong},
	} {
		l := newLineReader(strings.NewReader(c.in), c.max)
		var got []string
		var err error
		for {
			var line []byte
			if line, err = l.next(); err != nil {
				break
			}
			got = append(got, string(line))
		}
		if !slices.Equal(got, c.want) || !errors.Is(err, c.err) {
			t.Errorf("%.20q… max %d: %d lines, %v; want %d, %v", c.in, c.max, len(got), err, len(c.want), c.err)
		}
	}
}

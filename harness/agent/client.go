package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/serverhost"
	"github.com/tfbench/tfbench/harness/stage"
)

// Transport is how the controller reaches an agent: a command whose stdin
// and stdout carry the protocol (ssh, kubectl exec -i, sh -c …).
type Transport struct {
	// Argv is the command, e.g. ["ssh", "-p", "22", "bench@host",
	// ".tfbench-agent/tfbench agent --work .tfbench-agent/work"].
	Argv []string
	// Name names the server host in errors and results: "ssh bench@host"
	// or "command CMD".
	Name string
	// Addr is the server host's address as the generator reaches it.
	Addr string
	// SSH marks an ssh transport: its exit status 255 and messages are
	// read as connection and authentication failures.
	SSH bool
}

// helloTimeout bounds connecting and the hello exchange.
const helloTimeout = 60 * time.Second

// closeTimeout bounds the agent's answer to shutdown, then its exit, and
// reaping after a gone agent (a variable for the tests).
var closeTimeout = 30 * time.Second

// Client is a serverhost.Host on the agent at the other end of a
// Transport. It never waits on the agent without a bound: writes make
// progress within writeStall, the agent is heard within agentSilence, a
// line is at most maxLine; breaking one is a fault (fail).
type Client struct {
	t      Transport
	cmd    *exec.Cmd
	stdin  *os.File // pipes of our own, for write deadlines and to close
	stdout *os.File // the reader's end when a fault leaves it blocked
	hello  helloResult

	wmu      sync.Mutex // stdin
	mu       sync.Mutex
	next     uint64
	wait     map[uint64]*call
	srvs     map[string]*remoteServer
	fault    error         // why the controller killed the transport, if it did
	gone     error         // set once the agent's output ended
	done     chan struct{} // closed then
	exit     chan struct{} // closed when the command has been reaped
	heard    clock         // the last bytes from the agent
	lastSent clock         // the last request written whole
	stall    time.Duration // writeStall when it started
	greeted  atomic.Bool   // hello answered: other lines than the protocol's are a fault

	stderr tail
	run    serverhost.Run
	sent   map[string]bool // "TREEHASH/NAME" of the sources sent
}

type call struct {
	reply   chan message
	streams map[string]io.Writer
}

// Dial starts the transport's command and says hello. Errors name the
// host and the cause (unreachable, no agent, protocol version mismatch),
// with what the command wrote to stderr.
func Dial(ctx context.Context, t Transport) (*Client, error) {
	if len(t.Argv) == 0 {
		return nil, errors.New("agent: no transport command")
	}
	c := &Client{t: t, wait: map[uint64]*call{}, srvs: map[string]*remoteServer{}, done: make(chan struct{}), exit: make(chan struct{}), sent: map[string]bool{}}
	c.cmd = exec.Command(t.Argv[0], t.Argv[1:]...)
	// A process group of its own: the terminal's Ctrl-C reaches the
	// controller, which stops the remote servers before it lets go.
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.cmd.Stderr = &c.stderr
	c.cmd.WaitDelay = waitDelay
	stdinR, stdinW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	stdoutR, stdoutW, err := os.Pipe()
	if err != nil {
		stdinR.Close()
		stdinW.Close()
		return nil, err
	}
	c.cmd.Stdin, c.cmd.Stdout = stdinR, stdoutW
	c.stdin, c.stdout = stdinW, stdoutR
	err = c.cmd.Start()
	stdinR.Close()
	stdoutW.Close()
	if err != nil {
		stdinW.Close()
		stdoutR.Close()
		return nil, fmt.Errorf("server host %s: start %s: %w", t.Name, t.Argv[0], err)
	}
	c.heard.stamp()
	c.lastSent.stamp()
	c.stall = writeStall
	go c.read()
	hctx, cancel := context.WithTimeout(ctx, helloTimeout)
	defer cancel()
	var h helloResult
	if err := c.call(hctx, "hello", helloArgs{Protocol: Protocol, HeartbeatMS: heartbeat.Milliseconds()}, &h, nil); err != nil {
		c.kill()
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("server host %s: no answer from the agent within %s%s", t.Name, helloTimeout, c.stderr.suffix())
		}
		return nil, c.dialError(err)
	}
	c.hello = h
	c.greeted.Store(true)
	go c.watch(heartbeat, silenceLimit(h.HeartbeatMS, agentSilence))
	return c, nil
}

// watch pings the agent when nothing was sent for every, and fails the
// session when the agent has been silent for silence (0: an agent that
// announced no heartbeat is not watched), until the agent's output ends.
func (c *Client) watch(every, silence time.Duration) {
	tick := time.NewTicker(min(time.Second, every))
	defer tick.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-tick.C:
		}
		if silence > 0 && c.heard.older(silence) {
			c.fail(fmt.Errorf("no word from the agent on %s for %s (the host, its network or the agent stalled)", c.t.Name, silence))
			return
		}
		// A write in flight holds wmu and is bounded by writeStall on its
		// own; the ping waits for none.
		if c.lastSent.older(every) && c.wmu.TryLock() {
			go func() {
				defer c.wmu.Unlock()
				c.writeLocked(c.request("ping", struct{}{}))
			}()
		}
	}
}

// fail ends the session for cause, once: it kills the transport's process
// group and closes the pipes, so the reader ends and every call waiting,
// and every later one, fails with the host's gone error naming cause.
func (c *Client) fail(cause error) {
	c.mu.Lock()
	if c.fault != nil || c.gone != nil {
		c.mu.Unlock()
		return
	}
	c.fault = cause
	c.mu.Unlock()
	c.kill()
	c.stdout.Close() // a reader blocked on a pipe someone else holds
	c.stdin.Close()  // a write blocked in flight
}

// dialError words a failed hello: from ssh's own messages (exit status
// 255) or from the agent's answer.
func (c *Client) dialError(err error) error {
	if !errors.Is(err, serverhost.ErrGone) {
		return fmt.Errorf("server host %s: %w", c.t.Name, err)
	}
	code := -1
	if c.cmd.ProcessState != nil {
		code = c.cmd.ProcessState.ExitCode()
	}
	if code == 255 || code == 127 || strings.Contains(c.stderr.String(), "Permission denied") {
		return classify(c.t.Name, c.t.SSH, code, c.stderr.String(), err)
	}
	return fmt.Errorf("server host %s: the agent ended before it answered (exit status %d)%s", c.t.Name, code, c.stderr.suffix())
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[i+1:])
	}
	return s
}

// read routes the agent's lines until its output ends; then every call
// waiting and every server still running learn that the host is gone. A
// line over maxLine, or one not the protocol's once hello was answered (a
// login shell may chat before), is a fault.
func (c *Client) read() {
	lines := newLineReader(heardReader{c.stdout, &c.heard}, maxLine)
	var err error
	for {
		var line []byte
		if line, err = lines.next(); err != nil {
			break
		}
		var m message
		if err := json.Unmarshal(line, &m); err != nil {
			if c.greeted.Load() {
				c.fail(fmt.Errorf("the agent on %s sent a line that is not the protocol's: %s", c.t.Name, excerpt(line)))
				break
			}
			continue
		}
		c.mu.Lock()
		switch {
		case m.Event == "beat":
		case m.Event == "exited":
			if s := c.srvs[m.Server]; s != nil {
				s.exited(m.Error)
			}
		case m.Stream != "":
			if cl := c.wait[m.ID]; cl != nil && cl.streams[m.Stream] != nil {
				cl.streams[m.Stream].Write([]byte(m.Text))
			}
		default:
			if cl := c.wait[m.ID]; cl != nil {
				delete(c.wait, m.ID)
				cl.reply <- m
			}
		}
		c.mu.Unlock()
	}
	if errors.Is(err, errLineTooLong) {
		c.fail(fmt.Errorf("the agent on %s sent a line over %d MiB, the protocol's cap", c.t.Name, maxLine>>20))
	} else if err != nil && !errors.Is(err, io.EOF) {
		c.fail(fmt.Errorf("reading from the agent on %s: %w", c.t.Name, err)) // no-op after a fault closed the pipe
	}
	err = c.cmd.Wait()
	c.stdout.Close()
	c.stdin.Close()
	close(c.exit)
	status := "its output ended"
	if err != nil {
		status = err.Error()
	}
	c.mu.Lock()
	if c.fault != nil {
		c.gone = fmt.Errorf("%w: %v; the controller killed the connection%s", serverhost.ErrGone, c.fault, c.stderr.suffix())
	} else {
		c.gone = fmt.Errorf("%w: the agent on %s ended (%s)%s", serverhost.ErrGone, c.t.Name, status, c.stderr.suffix())
	}
	for _, s := range c.srvs {
		s.exited(c.gone.Error())
	}
	close(c.done)
	c.mu.Unlock()
}

// call sends one request and waits for its answer, decoding the result
// into res (when not nil); stream lines go to streams by name. When ctx
// ends first, the agent is asked to cancel the request.
func (c *Client) call(ctx context.Context, op string, args, res any, streams map[string]io.Writer) error {
	raw, err := json.Marshal(args)
	if err != nil {
		return err
	}
	cl := &call{reply: make(chan message, 1), streams: streams}
	c.mu.Lock()
	if c.gone != nil {
		c.mu.Unlock()
		return c.gone
	}
	c.next++
	id := c.next
	c.wait[id] = cl
	c.mu.Unlock()
	if werr := c.write(request{ID: id, Op: op, Args: raw}); werr != nil {
		// The transport is gone (its output ends) or stalled (a fault);
		// a pipe it left open is a fault too.
		select {
		case <-c.done:
		case <-time.After(c.stall):
			c.fail(fmt.Errorf("writing to the agent on %s: %w", c.t.Name, werr))
			<-c.done
		}
		return c.gone
	}
	select {
	case m := <-cl.reply:
		if m.Error != "" {
			return errors.New(m.Error)
		}
		if len(m.Result) == 0 {
			return fmt.Errorf("the answer to %s holds no result: is the other end tfbench agent?", op)
		}
		if res != nil {
			return json.Unmarshal(m.Result, res)
		}
		return nil
	case <-c.done:
		return c.gone
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.wait, id)
		c.mu.Unlock()
		c.send("cancel", cancelArgs{ID: id})
		return ctx.Err()
	}
}

// send writes a request whose answer nobody waits for.
func (c *Client) send(op string, args any) {
	c.write(c.request(op, args))
}

// request is a request with the next id.
func (c *Client) request(op string, args any) request {
	raw, _ := json.Marshal(args)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.next++
	return request{ID: c.next, Op: op, Args: raw}
}

// write sends one request line to the agent.
func (c *Client) write(req request) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.writeLocked(req)
}

// writeLocked writes req's line, wmu held, in writeChunk pieces that must
// each be taken within writeStall; one that is not is a fault.
func (c *Client) writeLocked(req request) error {
	line, err := json.Marshal(req)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	for len(line) > 0 {
		if err := c.stdin.SetWriteDeadline(time.Now().Add(c.stall)); err != nil {
			return err
		}
		n, err := c.stdin.Write(line[:min(len(line), writeChunk)])
		line = line[n:]
		if errors.Is(err, os.ErrDeadlineExceeded) {
			c.fail(fmt.Errorf("the agent on %s took no request bytes for %s", c.t.Name, c.stall))
		}
		if err != nil {
			return err
		}
	}
	c.lastSent.stamp()
	return nil
}

// Pid is the agent's process id on its host.
func (c *Client) Pid() int { return c.hello.Pid }

// Platform is the agent host's GOOS/GOARCH.
func (c *Client) Platform() string { return c.hello.OS + "/" + c.hello.Arch }

// Begin readies the agent's own work folder for the run: its dataset
// (made there when missing) and runs/ID.
func (c *Client) Begin(ctx context.Context, run serverhost.Run) error {
	if run.Log == nil {
		run.Log = io.Discard
	}
	c.run = run
	all := !isLoopback(c.t.Addr)
	return c.call(ctx, "begin", beginArgs{RunID: run.ID, Keep: run.Keep, AllInterfaces: all}, nil, map[string]io.Writer{"progress": run.Log})
}

func isLoopback(addr string) bool {
	if addr == "localhost" {
		return true
	}
	ip := net.ParseIP(addr)
	return ip != nil && ip.IsLoopback()
}

// Info is the server host's facts, its CPU set the whole machine.
func (c *Client) Info(ctx context.Context) (probe.Host, error) {
	var h probe.Host
	err := c.call(ctx, "info", struct{}{}, &h, nil)
	return h, err
}

// Build sends the adapter's sources (once per run and adapter; checked
// against their hash there) and has the agent build them; the build's
// output goes to req.Log and the controller's logs/LogName too.
func (c *Client) Build(ctx context.Context, req serverhost.BuildRequest) (serverhost.Build, error) {
	hash, err := stage.TreeHash(req.Spec.Dir)
	if err != nil {
		return serverhost.Build{}, err
	}
	if !c.sent[hash+"/"+req.Spec.Name] {
		tar, err := stage.PackSources(req.Spec.Dir)
		if err != nil {
			return serverhost.Build{}, err
		}
		if err := c.call(ctx, "sources", sourcesArgs{Name: req.Spec.Name, Hash: hash, Tar: tar}, nil, nil); err != nil {
			return serverhost.Build{}, err
		}
		c.sent[hash+"/"+req.Spec.Name] = true
	}
	logPath := filepath.Join(c.run.Dir, "logs", req.LogName)
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		return serverhost.Build{}, err
	}
	lf, err := os.Create(logPath)
	if err != nil {
		return serverhost.Build{}, err
	}
	defer lf.Close()
	streams := map[string]io.Writer{"log": lf, "progress": lf}
	if req.Log != nil {
		streams["log"] = io.MultiWriter(lf, req.Log)
	}
	if req.Progress != nil {
		streams["progress"] = io.MultiWriter(lf, req.Progress)
	}
	var b buildResult
	err = c.call(ctx, "build", buildArgs{Name: req.Spec.Name, Hash: hash, Variant: req.Variant.Name, Stage: filepath.ToSlash(req.Stage), LogName: req.LogName}, &b, streams)
	if err != nil {
		return serverhost.Build{}, fmt.Errorf("on %s: %w (log: %s)", c.t.Name, err, logPath)
	}
	return serverhost.Build{ID: b.ID, Hash: b.Hash, Runtime: b.Runtime, Text: b.Text + " on " + c.t.Name}, nil
}

// Start has the agent start a server; the generator reaches it at the
// transport's Addr and the port it got there.
func (c *Client) Start(ctx context.Context, req serverhost.StartRequest) (serverhost.Server, error) {
	var r startResult
	err := c.call(ctx, "start", startArgs{Build: req.Build, Variant: req.Variant, Tag: req.Tag, Profile: req.Profile, GraceMS: req.Grace.Milliseconds()}, &r, nil)
	if err != nil {
		return nil, err
	}
	s := &remoteServer{c: c, name: r.Server, tag: req.Tag, pid: r.Pid, logPath: r.LogPath, monitored: r.Monitored, grace: req.Grace,
		addr: net.JoinHostPort(c.t.Addr, strconv.Itoa(r.Port)), done: make(chan struct{})}
	c.mu.Lock()
	c.srvs[r.Server] = s
	if c.gone != nil {
		s.exited(c.gone.Error())
	}
	c.mu.Unlock()
	return s, nil
}

// Finish checks the agent's source dataset.
func (c *Client) Finish(ctx context.Context) error {
	return c.call(ctx, "finish", struct{}{}, nil, nil)
}

// Close asks the agent to stop what still runs and exit, and waits for the
// transport's command. When the agent is gone (died, or the session failed)
// or does not answer within closeTimeout, Close Reaps what it left running
// (within another closeTimeout) and returns how that went.
func (c *Client) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	err := c.call(ctx, "shutdown", struct{}{}, nil, nil)
	var unanswered error // the run has not heard of this one
	if errors.Is(err, context.DeadlineExceeded) {
		c.fail(fmt.Errorf("the agent on %s did not answer shutdown within %s", c.t.Name, closeTimeout))
		<-c.done
		unanswered, err = c.Gone(), c.Gone()
	}
	if errors.Is(err, serverhost.ErrGone) {
		err = unanswered
		if c.hello.Pid != 0 {
			rctx, rcancel := context.WithTimeout(context.Background(), closeTimeout)
			n, rerr := Reap(rctx, c.t, c.hello.Pid)
			rcancel()
			if rerr != nil {
				err = errors.Join(err, fmt.Errorf("server host %s: the agent is gone; stopping what it left running failed: %w", c.t.Name, rerr))
			} else if n > 0 {
				err = errors.Join(err, fmt.Errorf("server host %s: the agent is gone; %d processes it left running were killed", c.t.Name, n))
			}
		}
	}
	c.stdin.Close()
	select {
	case <-c.exit:
	case <-time.After(closeTimeout):
		c.kill()
		<-c.exit
	}
	return err
}

// Gone reports the error that ended the agent, nil while it runs.
func (c *Client) Gone() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gone
}

func (c *Client) kill() {
	if c.cmd.Process != nil {
		syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
	}
}

// Reap starts a new agent through the same transport and has it kill what
// the agent of pid left running there (its servers' process trees, by
// their TFBENCH_OWNER tags); it returns how many processes that was.
func Reap(ctx context.Context, t Transport, pid int) (int, error) {
	c, err := Dial(ctx, t)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	var n int
	err = c.call(ctx, "reap", reapArgs{Pid: pid}, &n, nil)
	return n, err
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// tail keeps the last tailBytes bytes written to it (the transport's
// stderr).
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailBytes = 4 << 10

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailBytes {
		t.buf = t.buf[len(t.buf)-tailBytes:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// suffix is "; stderr: …" with the last lines, or "" when there are none.
func (t *tail) suffix() string {
	s := strings.TrimSpace(t.String())
	if s == "" {
		return ""
	}
	return "; its stderr ends: " + strings.ReplaceAll(s, "\n", " | ")
}

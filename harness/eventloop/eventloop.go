// Package eventloop measures the event-loop delay of Node servers from inside
// their processes, without changing an adapter's code (docs/design.md,
// Event-loop delay). A preloaded script (NODE_OPTIONS=--require, Env) keeps a
// perf_hooks.monitorEventLoopDelay histogram and answers on a Unix socket per
// process; Reset and Read talk to every socket of a server's folder.
package eventloop

import (
	"bufio"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tfbench/tfbench/harness/model"
)

// preload is the script every Node process of a monitored server loads
// (preload.cjs: the histogram, the socket and its two commands).
//
//go:embed preload.cjs
var preload []byte

// EnvDir names the folder a monitored server's processes make their
// sockets in, <pid>.sock each; the preload does nothing without it.
const EnvDir = "TFBENCH_EVENTLOOP_DIR"

// PreloadName is the file name WritePreload gives the script.
const PreloadName = "eventloop.cjs"

// DefaultTimeout bounds Reset and Read (the package functions): an answer
// waits for the process's event loop to be free, so a server blocked for
// longer than this is reported as not answering.
const DefaultTimeout = 10 * time.Second

// maxSock is the longest socket name in a folder: a 7-digit pid (Linux's
// pid_max is at most 4194304; darwin's pids stay below 100000) plus ".sock".
// sunPath, the longest Unix socket path, is per system (sunpath_*.go).
const maxSock = len("/4194304.sock")

// WritePreload writes the preload script into folder dir (created if
// missing) as PreloadName and returns its absolute path, the one Env puts
// on NODE_OPTIONS. A run writes it once, into its run folder.
func WritePreload(dir string) (string, error) {
	abs, err := filepath.Abs(filepath.Join(dir, PreloadName))
	if err != nil {
		return "", fmt.Errorf("event loop: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return "", fmt.Errorf("event loop: %w", err)
	}
	if err := os.WriteFile(abs, preload, 0o644); err != nil {
		return "", fmt.Errorf("event loop: %w", err)
	}
	return abs, nil
}

// Dir is the absolute socket folder of the server tagged tag, runDir/eventloop/tag,
// or, when a socket path there would exceed sunPath (107 bytes on Linux, 103 on
// darwin), os.TempDir()/tfbench-eventloop-<16 hex of its SHA-256>, stable per server.
func Dir(runDir, tag string) string {
	dir := filepath.Join(runDir, "eventloop", tag)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if len(dir)+maxSock <= sunPath {
		return dir
	}
	sum := sha256.Sum256([]byte(dir))
	return filepath.Join(os.TempDir(), "tfbench-eventloop-"+hex.EncodeToString(sum[:8]))
}

// Env returns env with NODE_OPTIONS (env's last, the one os/exec uses, plus
// --require and the quoted preload path) and EnvDir=dir appended, so they win:
// every Node process then loads the preload.
func Env(env []string, preload, dir string) []string {
	return append(env, "NODE_OPTIONS="+NodeOptions(lastNodeOptions(env), preload), EnvDir+"="+dir)
}

// NodeOptions is current (a NODE_OPTIONS value) with `--require path` appended;
// a path with white space, " or \ is quoted as Node parses it (one argument), a
// plain one stays bare for tools that re-parse the value.
func NodeOptions(current, path string) string {
	return appendOptions(current, "--require "+quote(path))
}

// quote is path as one NODE_OPTIONS argument (NodeOptions).
func quote(path string) string {
	if strings.ContainsAny(path, " \t\n\"\\") {
		return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(path) + `"`
	}
	return path
}

// appendOptions is current (a NODE_OPTIONS value) with opts after it.
func appendOptions(current, opts string) string {
	if current = strings.TrimSpace(current); current != "" {
		return current + " " + opts
	}
	return opts
}

// lastNodeOptions is the value of env's last NODE_OPTIONS, the one os/exec
// uses ("" when there is none).
func lastNodeOptions(env []string) string {
	opts := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "NODE_OPTIONS="); ok {
			opts = v
		}
	}
	return opts
}

// EnvProfileDir names the folder a profiled Node server's processes write
// their CPU profiles to; with it set, the preload turns SIGTERM into a
// normal exit, so that Node writes the profile (ProfileEnv).
const EnvProfileDir = "TFBENCH_CPU_PROFILE_DIR"

// ProfileEnv returns env with every Node process CPU-profiled into dir (--cpu-prof
// on env's last NODE_OPTIONS, EnvProfileDir=dir). Node writes a profile only on a
// normal exit, so the preload exits on SIGTERM (after 3 s if the app handles it).
func ProfileEnv(env []string, dir string) []string {
	opts := appendOptions(lastNodeOptions(env), "--cpu-prof --cpu-prof-dir "+quote(dir))
	return append(env, "NODE_OPTIONS="+opts, EnvProfileDir+"="+dir)
}

// Reading is one Node process's answer to read: its event-loop delay
// since the last reset (or since it started), in ms as Node reports it
// (an idle loop reads about the 10 ms resolution), and the sample count.
type Reading struct {
	Pid   int     `json:"pid"`
	P50   float64 `json:"p50_ms"`
	P99   float64 `json:"p99_ms"`
	Max   float64 `json:"max_ms"`
	Count int64   `json:"count"`
	// Runtime is "node" (the preload, which measures the event loop) or
	// "go" (an adapter's hook, memory only: docs/adapters.md).
	Runtime string `json:"runtime"`
	// Memory is the process's memory and GC since the last reset; nil
	// when it was not reset or cannot tell (memory.go).
	Memory *ProcMemory `json:"memory"`
}

// Worst is a server's event-loop delay from its processes' readings: the largest
// max and p99, the p50 of the worst process (largest p99, then max, then lowest
// pid), and the number of readings; no readings give the zero value.
func Worst(rs []Reading) model.EventLoop {
	if len(rs) == 0 {
		return model.EventLoop{}
	}
	worst := rs[0]
	out := model.EventLoop{Processes: len(rs)}
	for _, r := range rs {
		out.Max = max(out.Max, r.Max)
		if r.P99 > worst.P99 || r.P99 == worst.P99 && (r.Max > worst.Max || r.Max == worst.Max && r.Pid < worst.Pid) {
			worst = r
		}
	}
	out.P99, out.P50 = worst.P99, worst.P50
	return out
}

// Client talks to the sockets of a server's folder; Timeout bounds each
// call (0 means DefaultTimeout).
type Client struct {
	Timeout time.Duration
}

// Reset clears the histogram of every Node process with a socket in dir
// (Client.Reset with DefaultTimeout).
func Reset(ctx context.Context, dir string) error { return Client{}.Reset(ctx, dir) }

// Read returns the worst event-loop delay among the Node processes with a
// socket in dir and their memory (Client.Read with DefaultTimeout).
func Read(ctx context.Context, dir string) (Window, error) { return Client{}.Read(ctx, dir) }

// Reset clears the histogram of every Node process with a socket in dir, all at
// once; each answers when its event loop is free, one 10 ms tick after clearing.
// Stale sockets (the process exited) are skipped; errors are as Read's.
func (c Client) Reset(ctx context.Context, dir string) error {
	_, err := c.ask(ctx, dir, "reset")
	return err
}

// Read asks every socket in dir at once and returns the Window of the readings
// of the processes that answered, stale sockets skipped. Errors (no answer within
// Timeout, a bad answer, no process answering) name the socket, joined in pid order.
func (c Client) Read(ctx context.Context, dir string) (Window, error) {
	rs, err := c.ask(ctx, dir, "read")
	if err != nil {
		return Window{}, err
	}
	return WindowOf(rs), nil
}

// sockRE matches a socket the preload makes: <pid>.sock.
var sockRE = regexp.MustCompile(`^([1-9][0-9]*)\.sock$`)

// ErrNoProcess is in the error of Reset and Read when no process answers
// in the folder: a Node server's preload failed, or the server does not
// answer at all (a Go adapter without the hook).
var ErrNoProcess = errors.New("no Node process answered")

// errStale marks a socket whose process is gone.
var errStale = errors.New("stale socket")

// ask sends cmd to every socket in dir in parallel and returns the
// readings (read) or empty readings (reset) of those that answered.
func (c Client) ask(ctx context.Context, dir, cmd string) ([]Reading, error) {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("event loop: %w", err)
	}
	type sock struct {
		pid  int
		path string
	}
	var socks []sock
	for _, e := range entries {
		if m := sockRE.FindStringSubmatch(e.Name()); m != nil && e.Type()&fs.ModeSocket != 0 {
			pid, _ := strconv.Atoi(m[1])
			socks = append(socks, sock{pid, filepath.Join(dir, e.Name())})
		}
	}
	slices.SortFunc(socks, func(a, b sock) int { return a.pid - b.pid })
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	readings := make([]Reading, len(socks))
	errs := make([]error, len(socks))
	var wg sync.WaitGroup
	for i, s := range socks {
		wg.Go(func() {
			readings[i], errs[i] = askOne(ctx, s.path, cmd, timeout)
		})
	}
	wg.Wait()
	var out []Reading
	var bad []error
	for i, err := range errs {
		switch {
		case errors.Is(err, errStale):
		case err != nil:
			bad = append(bad, err)
		default:
			out = append(out, readings[i])
		}
	}
	if len(bad) > 0 {
		return nil, errors.Join(bad...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("event loop: %w in %s", ErrNoProcess, dir)
	}
	return out, nil
}

// askOne sends cmd on the socket at path and reads the one-line answer,
// by ctx's deadline (timeout names it in the error).
func askOne(ctx context.Context, path, cmd string, timeout time.Duration) (Reading, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, fs.ErrNotExist) {
			return Reading{}, errStale
		}
		return Reading{}, answerErr(ctx, path, cmd, timeout, err)
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Now()) })
	defer stop()
	if _, err := io.WriteString(conn, cmd+"\n"); err != nil {
		return Reading{}, answerErr(ctx, path, cmd, timeout, err)
	}
	line, err := bufio.NewReader(io.LimitReader(conn, 4096)).ReadString('\n')
	if err != nil {
		if errors.Is(err, io.EOF) {
			return Reading{}, fmt.Errorf("event loop: %s: closed without an answer to %q", path, cmd)
		}
		return Reading{}, answerErr(ctx, path, cmd, timeout, err)
	}
	line = strings.TrimSuffix(line, "\n")
	if cmd == "reset" {
		if line != "ok" {
			return Reading{}, fmt.Errorf("event loop: %s: answer to %q is %q, want \"ok\"", path, cmd, line)
		}
		return Reading{}, nil
	}
	var r Reading
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil || r.Pid <= 0 {
		return Reading{}, fmt.Errorf("event loop: %s: answer to %q is not a reading: %q", path, cmd, line)
	}
	return r, nil
}

// answerErr names the socket and the command of a failed exchange; a
// deadline is reported as the timeout it came from, a cancelled ctx as
// ctx's error.
func answerErr(ctx context.Context, path, cmd string, timeout time.Duration, err error) error {
	if errors.Is(ctx.Err(), context.Canceled) {
		return fmt.Errorf("event loop: %s: %q: %w", path, cmd, ctx.Err())
	}
	if ctx.Err() != nil || errors.Is(err, os.ErrDeadlineExceeded) {
		return fmt.Errorf("event loop: %s: no answer to %q within %s", path, cmd, timeout)
	}
	return fmt.Errorf("event loop: %s: %q: %w", path, cmd, err)
}

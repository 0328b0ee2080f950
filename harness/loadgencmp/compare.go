package loadgencmp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/tfbench/tfbench/harness/internal/cpuset"
	"github.com/tfbench/tfbench/harness/probe"
)

// Setting is one load shape both generators run: concurrency (open
// connections) and pipeline depth (requests in flight per connection).
type Setting struct {
	Connections, Pipeline int
}

// String names the setting as the table does: "c=64 depth 1".
func (s Setting) String() string {
	return fmt.Sprintf("c=%d depth %d", s.Connections, s.Pipeline)
}

// Settings are the settings issue 3 sets its targets at: 64 connections
// without pipelining, and 256 connections at depth 16 (TFB's plaintext
// depth).
var Settings = []Setting{{Connections: 64, Pipeline: 1}, {Connections: 256, Pipeline: 16}}

// Generator names, as the table prints them.
const (
	Tfbench = "tfbench"
	Wrk     = "wrk"
)

// Run is one measured run of one generator.
type Run struct {
	Report
	// CPU is the generator process's user + system CPU time (rusage at
	// exit).
	CPU time.Duration
	// Wall is the time from the generator's start to its exit.
	Wall time.Duration
	// ServerCPU is the server process's CPU time during the run (its
	// /proc reading after minus before).
	ServerCPU time.Duration
}

// CPUPer100k is the generator's CPU seconds per 100,000 responses; 0 for a
// run without responses.
func (r Run) CPUPer100k() float64 {
	if r.Responses <= 0 {
		return 0
	}
	return r.CPU.Seconds() / float64(r.Responses) * 1e5
}

// Cell is one setting against one server: every round's run of each
// generator.
type Cell struct {
	Setting Setting
	Server  string // Length or Chunked
	Tfbench []Run
	Wrk     []Run
}

// Config is one comparison's parameters.
type Config struct {
	// Tfbench is the path of the tfbench binary (with its load command).
	Tfbench string
	// Wrk is the path of wrk.
	Wrk string
	// Self is this program's executable: the servers are Self run with
	// --serve KIND (see ServeMain).
	Self string
	// Rounds is how many measured runs each generator gets per cell (>= 1;
	// issue 3 asks for at least 5).
	Rounds int
	// Duration is each run's window, whole seconds (>= 1 s).
	Duration time.Duration
	// Warmup, if > 0, is one unmeasured run of each generator per cell
	// before the rounds (whole seconds).
	Warmup time.Duration
	// Generator and Server are the CPU sets the generators and the servers
	// are pinned to (cpuset.Split); wrk gets -t len(Generator) (1 if empty).
	Generator, Server cpuset.Set
	// Log, when not nil, gets a progress line per run.
	Log io.Writer
}

// validate checks cfg; the error names the field.
func (cfg Config) validate() error {
	switch {
	case cfg.Rounds < 1:
		return fmt.Errorf("rounds is %d, want >= 1", cfg.Rounds)
	case cfg.Duration < time.Second || cfg.Duration%time.Second != 0:
		return fmt.Errorf("duration is %s, want whole seconds >= 1s (wrk's -d unit)", cfg.Duration)
	case cfg.Warmup < 0 || cfg.Warmup%time.Second != 0:
		return fmt.Errorf("warmup is %s, want whole seconds >= 0s", cfg.Warmup)
	}
	return nil
}

// threads is wrk's -t: the generator CPU count.
func (cfg Config) threads() int { return max(len(cfg.Generator), 1) }

// Compare runs the side-by-side measurement (see the package doc): it
// starts one server per kind in Kinds on cfg.Server, then runs cfg.Rounds
// interleaved rounds over Settings × Kinds, each generator once per cell and
// round on cfg.Generator, the first generator alternating by round and cell.
// It returns the cells in Settings × Kinds order. Errors name what failed: a
// server that did not start, a generator that exited non-zero (with its
// standard error) or whose output did not parse.
func Compare(ctx context.Context, cfg Config) ([]*Cell, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "loadgen-compare-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, "pipeline.lua")
	if err := os.WriteFile(script, []byte(WrkScript), 0o644); err != nil {
		return nil, err
	}
	servers := map[string]*server{}
	defer func() {
		for _, s := range servers {
			s.stop()
		}
	}()
	for _, kind := range Kinds {
		s, err := startServer(cfg.Self, kind, cfg.Server)
		if err != nil {
			return nil, err
		}
		servers[kind] = s
	}

	var cells []*Cell
	for _, st := range Settings {
		for _, kind := range Kinds {
			cells = append(cells, &Cell{Setting: st, Server: kind})
		}
	}
	one := func(c *Cell, gen string, d time.Duration) (Run, error) {
		s := servers[c.Server]
		url := "http://" + s.addr + "/"
		var argv []string
		if gen == Wrk {
			argv = append([]string{cfg.Wrk}, WrkArgs(url, cfg.threads(), c.Setting.Connections, c.Setting.Pipeline, d, script)...)
		} else {
			argv = append([]string{cfg.Tfbench}, TfbenchArgs(url, c.Setting.Connections, c.Setting.Pipeline, d)...)
		}
		return runGenerator(ctx, gen, argv, cfg.Generator, s.pid)
	}
	if cfg.Warmup > 0 {
		for _, c := range cells {
			for _, gen := range []string{Tfbench, Wrk} {
				if _, err := one(c, gen, cfg.Warmup); err != nil {
					return nil, fmt.Errorf("warmup, %s %s: %w", c.Setting, c.Server, err)
				}
			}
		}
	}
	for round := range cfg.Rounds {
		for i, c := range cells {
			order := []string{Tfbench, Wrk}
			if (round+i)%2 == 1 {
				order = []string{Wrk, Tfbench}
			}
			for _, gen := range order {
				r, err := one(c, gen, cfg.Duration)
				if err != nil {
					return nil, fmt.Errorf("round %d, %s, %s server: %w", round+1, c.Setting, c.Server, err)
				}
				if gen == Wrk {
					c.Wrk = append(c.Wrk, r)
				} else {
					c.Tfbench = append(c.Tfbench, r)
				}
				if cfg.Log != nil {
					fmt.Fprintf(cfg.Log, "round %d/%d  %-16s %-8s %-8s %12s req/s  %.4f CPU s/100k req  %d errors\n",
						round+1, cfg.Rounds, c.Setting, c.Server, gen, thousands(r.RPS), r.CPUPer100k(), r.Errors)
				}
			}
		}
	}
	return cells, nil
}

// runGenerator runs argv pinned to cpus, waits for it, and parses its
// report; it also reads the CPU time of the server process serverPID around
// the run.
func runGenerator(ctx context.Context, gen string, argv []string, cpus cpuset.Set, serverPID int) (Run, error) {
	before, err := probe.Tree(ctx, serverPID)
	if err != nil {
		return Run{}, fmt.Errorf("server process %d: %w", serverPID, err)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cpuset.StartIn(cpus, cmd); err != nil {
		return Run{}, fmt.Errorf("start %s: %w", strings.Join(argv, " "), err)
	}
	err = cmd.Wait()
	wall := time.Since(start)
	if err != nil {
		return Run{}, fmt.Errorf("%s: %w: %s", strings.Join(argv, " "), err, clipOut(stderr.Bytes()))
	}
	after, err := probe.Tree(ctx, serverPID)
	if err != nil {
		return Run{}, fmt.Errorf("server process %d: %w", serverPID, err)
	}
	var rep Report
	if gen == Wrk {
		rep, err = ParseWrk(stdout.String())
	} else {
		rep, err = ParseTfbench(stdout.Bytes())
	}
	if err != nil {
		return Run{}, err
	}
	return Run{
		Report:    rep,
		CPU:       cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(),
		Wall:      wall,
		ServerCPU: time.Duration((after.CPU - before.CPU) * float64(time.Second)),
	}, nil
}

// server is one fixed-response server subprocess.
type server struct {
	kind, addr string
	pid        int
	cmd        *exec.Cmd
	stdin      io.WriteCloser // closing it stops the server
}

// startServer starts self --serve kind pinned to cpus and reads the address
// it listens on from its first line of output.
func startServer(self, kind string, cpus cpuset.Set) (*server, error) {
	cmd := exec.Command(self, "--serve", kind)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cpuset.StartIn(cpus, cmd); err != nil {
		return nil, fmt.Errorf("start %s server: %w", kind, err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		stdin.Close()
		cmd.Wait()
		return nil, fmt.Errorf("%s server (%s --serve %s) printed no address: %w", kind, self, kind, err)
	}
	return &server{kind: kind, addr: strings.TrimSpace(line), pid: cmd.Process.Pid, cmd: cmd, stdin: stdin}, nil
}

// stop closes the server's standard input, which ends its Serve loop, and
// waits for it to exit (killing it after 5 s).
func (s *server) stop() error {
	s.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		return errors.Join(fmt.Errorf("%s server did not stop within 5s; killed", s.kind), <-done)
	}
}

// ServeMain is the servers' side of Compare (this program run with --serve
// KIND): it listens on 127.0.0.1 at a free port, prints "127.0.0.1:PORT\n"
// to w, and serves kind's canned response (Response) until stop (a file
// descriptor that must be pollable, e.g. standard input connected to a pipe)
// becomes readable: the parent closing the pipe, or exiting. Errors: an
// unknown kind, a failed listen, a failed system call while serving.
func ServeMain(kind string, stop int, w io.Writer) error {
	resp, err := Response(kind)
	if err != nil {
		return err
	}
	fd, addr, err := Listen(0)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintln(w, addr); err != nil {
		return err
	}
	return Serve(fd, stop, resp)
}

// Pinning returns the CPU sets for the generators and the servers:
// cpuset.Split of the CPUs this process may run on (on 2 cores: generator
// CPU 0, server CPU 1; DESIGN.md, Measurement method).
func Pinning() (generator, server cpuset.Set) {
	return cpuset.Split(cpuset.Online())
}

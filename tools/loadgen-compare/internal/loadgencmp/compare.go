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
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/internal/cpuset"
)

// Config is one comparison's parameters.
type Config struct {
	// Tfbench is the path of the tfbench binary (with its load command).
	Tfbench string
	// Wrk is the path of wrk.
	Wrk string
	// Self is this program's executable: the fixed-response servers are
	// Self run with --serve KIND (see ServeMain).
	Self string
	// Servers names the servers to run, in report order: fixed-response
	// kinds (Kinds) and adapters (folders of Frameworks); DefaultServers
	// when empty.
	Servers []string
	// Frameworks is the folder holding the adapters (the command's
	// default: "frameworks").
	Frameworks string
	// WorkDir is tfbench's scratch folder (the command's default:
	// ".tfbench"): the dataset, runtimes and cached builds shared with
	// tfbench bench, and loadgen/ with each comparison's server logs.
	WorkDir string
	// Rounds is how many measured runs each generator gets per cell (>= 1;
	// the targets were set for medians of at least 5).
	Rounds int
	// Duration is each run's window, whole seconds (>= 1 s).
	Duration time.Duration
	// Warmup, if > 0, is one unmeasured run of each generator per cell
	// before the rounds (whole seconds).
	Warmup time.Duration
	// Generator and Server are the CPU sets the generators and the servers
	// are pinned to (cpuset.Split); wrk gets -t len(Generator), or NumCPU
	// when nothing is pinned (macOS), as tfbench then runs a loop per CPU.
	Generator, Server cpuset.Set
	// Log, when not nil, gets a progress line per step and run.
	Log io.Writer
}

// validate checks cfg's numbers; the error names the field.
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

// Validate checks cfg as Compare will, before anything starts: its
// numbers, and that every server is a fixed kind or an adapter of
// Frameworks with an endpoint for every test. Errors name the culprit.
func (cfg Config) Validate() error {
	_, _, err := cfg.plan()
	return err
}

// servers is cfg.Servers, or DefaultServers when empty.
func (cfg Config) servers() []string {
	if len(cfg.Servers) == 0 {
		return DefaultServers
	}
	return cfg.Servers
}

// plan checks cfg and returns its cells in server order (FixedCells,
// AdapterCells) and the specs of the adapters among its servers.
func (cfg Config) plan() ([]*Cell, map[string]*framework.Spec, error) {
	if err := cfg.validate(); err != nil {
		return nil, nil, err
	}
	servers := cfg.servers()
	specs := map[string]*framework.Spec{}
	var adapters []string
	if slices.ContainsFunc(servers, func(s string) bool { return !IsFixed(s) }) {
		found, err := framework.Discover(cfg.Frameworks)
		if err != nil {
			return nil, nil, err
		}
		for _, s := range found {
			specs[s.Name] = s
			adapters = append(adapters, s.Name)
		}
	}
	if err := checkServers(servers, adapters, cfg.Frameworks); err != nil {
		return nil, nil, err
	}
	var cells []*Cell
	wanted := map[string]*framework.Spec{}
	for _, name := range servers {
		if IsFixed(name) {
			cells = append(cells, FixedCells(name)...)
			continue
		}
		cs, err := AdapterCells(name, specs[name].Endpoints)
		if err != nil {
			return nil, nil, err
		}
		cells = append(cells, cs...)
		wanted[name] = specs[name]
	}
	return cells, wanted, nil
}

// threads is wrk's -t: the generator CPU count, or where nothing is pinned
// every CPU (tfbench's load then runs one event loop per CPU too).
func (cfg Config) threads() int { return cfg.Generator.Usable() }

// Compare runs the side-by-side measurement (package doc) over cfg.Rounds
// interleaved rounds and returns the cells in plan order; every server is
// stopped first, even on error, and errors name the server or generator.
func Compare(ctx context.Context, cfg Config) (cells []*Cell, err error) {
	cells, specs, err := cfg.plan()
	if err != nil {
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
		for _, name := range cfg.servers() {
			if s := servers[name]; s != nil {
				if serr := s.stop(); serr != nil {
					err = errors.Join(err, fmt.Errorf("stop the %s server: %w", name, serr))
				}
			}
		}
	}()
	var files *adapterFiles
	for _, name := range cfg.servers() {
		var s *server
		if spec := specs[name]; spec != nil {
			if files == nil {
				if files, err = newAdapterFiles(cfg); err != nil {
					return nil, err
				}
			}
			s, err = startAdapter(ctx, cfg, files, spec)
		} else {
			s, err = startServer(cfg.Self, name, cfg.Server)
		}
		if err != nil {
			return nil, err
		}
		servers[name] = s
	}

	one := func(c *Cell, gen string, d time.Duration) (Run, error) {
		s := servers[c.Server]
		shot := Shot{URL: "http://" + s.addr + c.Path, Setting: c.Setting, Type: c.Type, Duration: d}
		if files != nil && !IsFixed(c.Server) {
			// The source every adapter's copy is made from: the same rows,
			// and no reader on the file the server writes.
			shot.World = files.source
		}
		var argv []string
		if gen == Wrk {
			argv = append([]string{cfg.Wrk}, WrkArgs(shot, cfg.threads(), script)...)
		} else {
			argv = append([]string{cfg.Tfbench}, TfbenchArgs(shot)...)
		}
		r, err := runGenerator(ctx, gen, argv, cfg.Generator, s)
		if s.exited != nil {
			if why := s.exited(); why != "" {
				return Run{}, fmt.Errorf("the %s server exited during the run: %s", s.name, why)
			}
		}
		return r, err
	}
	logf := func(format string, a ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, format, a...)
		}
	}
	if cfg.Warmup > 0 {
		for _, c := range cells {
			for _, gen := range []string{Tfbench, Wrk} {
				r, err := one(c, gen, cfg.Warmup)
				if err != nil {
					return nil, fmt.Errorf("warmup, %s: %w", c, err)
				}
				logf("warmup     %-34s %-8s %12s req/s  %d errors%s\n", c, gen, thousands(r.RPS), r.Errors, servedLog(r))
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
					return nil, fmt.Errorf("round %d, %s: %w", round+1, c, err)
				}
				if gen == Wrk {
					c.Wrk = append(c.Wrk, r)
				} else {
					c.Tfbench = append(c.Tfbench, r)
				}
				logf("round %d/%d  %-34s %-8s %12s req/s  %.4f CPU s/100k resp  %d errors%s\n",
					round+1, cfg.Rounds, c, gen, thousands(r.RPS), r.CPUPer100k(), r.Errors, servedLog(r))
			}
		}
	}
	return cells, nil
}

// servedLog is a progress line's tail for r: the responses r's generator
// counted against those its server wrote, when the server counts.
func servedLog(r Run) string {
	if !r.Counted {
		return ""
	}
	return fmt.Sprintf("  %s responses, server wrote %s", thousands(float64(r.Responses)), thousands(float64(r.Served)))
}

// runGenerator runs argv pinned to cpus, waits for it, and parses its
// report; it also reads the CPU time of srv's process tree around the run
// and, when srv counts its responses, that count: first before, last after
// (so that the server's CPU time for the run's last requests is the run's).
func runGenerator(ctx context.Context, gen string, argv []string, cpus cpuset.Set, srv *server) (Run, error) {
	serverPID := srv.pid
	var servedBefore int64
	if srv.count != nil {
		var err error
		if servedBefore, err = srv.count(); err != nil {
			return Run{}, err
		}
	}
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
	var served int64
	if srv.count != nil {
		servedAfter, err := srv.count()
		if err != nil {
			return Run{}, err
		}
		served = servedAfter - servedBefore
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
		Served:    served,
		Counted:   srv.count != nil,
	}, nil
}

// server is one running server the generators load.
type server struct {
	name, addr string
	// pid is the process whose tree's CPU time is read around each run.
	pid int
	// stop stops the server and waits for it to be gone.
	stop func() error
	// exited, when set, says how the server ended once it has exited ("" while it runs).
	exited func() string
	// count, when set (the fixed-response servers), returns how many
	// responses the server has written since it started.
	count func() (int64, error)
}

// CountTimeout is how long a fixed-response server gets to answer a count
// request: it answers once idle, at most a moment after a generator exits.
const CountTimeout = 10 * time.Second

// startServer starts self --serve kind pinned to cpus and reads its address
// from its first output line; count writes a line to its stdin and reads
// the number on its next output line (ServeMain); stop closes its stdin
// and waits (killing it after 5 s: an error).
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
	out := bufio.NewReader(stdout)
	line, err := out.ReadString('\n')
	if err != nil {
		stdin.Close()
		cmd.Wait()
		return nil, fmt.Errorf("%s server (%s --serve %s) printed no address: %w", kind, self, kind, err)
	}
	// The rest of its output is count answers, one a line; lines closes
	// when the output ends. Read before cmd.Wait (stop), which closes the
	// pipe: the reader then ends with an error, and lines closes.
	lines := make(chan string, 1)
	go func() {
		defer close(lines)
		for {
			l, err := out.ReadString('\n')
			if err != nil {
				return
			}
			lines <- strings.TrimSpace(l)
		}
	}()
	count := func() (int64, error) {
		if _, err := io.WriteString(stdin, "count\n"); err != nil {
			return 0, fmt.Errorf("ask the %s server for its count: %w", kind, err)
		}
		select {
		case l, ok := <-lines:
			if !ok {
				return 0, fmt.Errorf("the %s server ended its output before it answered the count", kind)
			}
			n, err := strconv.ParseInt(l, 10, 64)
			if err != nil {
				return 0, fmt.Errorf("the %s server answered the count with %q, want a number", kind, l)
			}
			return n, nil
		case <-time.After(CountTimeout):
			return 0, fmt.Errorf("the %s server did not answer the count within %s", kind, CountTimeout)
		}
	}
	stop := func() error {
		stdin.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
			// How it exited does not matter (a Ctrl-C reaches it too), only
			// that it did.
			return nil
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
			return fmt.Errorf("%s server did not stop within 5s; killed", kind)
		}
	}
	return &server{name: kind, addr: strings.TrimSpace(line), pid: cmd.Process.Pid, stop: stop, count: count}, nil
}

// ServeMain is the servers' side of Compare (--serve KIND): it prints
// "127.0.0.1:PORT\n" to w and serves kind's Response until the fd ctl (a
// pollable one, e.g. a stdin pipe) ends, answering each line read from ctl
// with a line on w: the responses written so far (Serve).
func ServeMain(kind string, ctl int, w io.Writer) error {
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
	return Serve(fd, ctl, w, resp)
}

// Pinning returns the CPU sets for the generators and the servers:
// cpuset.Split of the CPUs this process may run on (on 2 cores: generator
// CPU 0, server CPU 1; docs/design.md, Measurement method).
func Pinning() (generator, server cpuset.Set) {
	return cpuset.Split(cpuset.Online())
}

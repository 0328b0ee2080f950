package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/serverhost"
	"github.com/tfbench/tfbench/internal/cpuset"
)

// Config is what Serve needs.
type Config struct {
	// WorkDir is the agent's own scratch folder (its .tfbench): dataset/,
	// src/ (the adapters' sources as received), build/, runtimes/, runs/.
	WorkDir string
	// Protocol is the version this agent speaks; 0 is Protocol (tests set
	// another to see a mismatch refused).
	Protocol int
}

// maxLine bounds one line either way, bytes: an adapter's packed sources
// and a server's profiles, base64-encoded, are the largest.
const maxLine = 128 << 20

// Serve answers the controller's requests from in on out until in ends or
// ctx is cancelled, then stops every server it started. Each request runs
// in its own goroutine, so cancel can end one in flight. With a controller
// that pings (alive.go), it sends beats and, when the controller has been
// silent for controllerSilence, stops its servers and returns at once.
func Serve(ctx context.Context, in io.Reader, out io.Writer, cfg Config) error {
	if cfg.Protocol == 0 {
		cfg.Protocol = Protocol
	}
	work, err := filepath.Abs(cfg.WorkDir)
	if err != nil {
		return err
	}
	a := &agent{cfg: cfg, work: work, out: json.NewEncoder(out), specs: map[string]*framework.Spec{},
		servers: map[string]serverhost.Server{}, inflight: map[uint64]context.CancelFunc{}, silent: make(chan time.Duration, 1),
		beat: heartbeat, silence: controllerSilence}
	a.heard.stamp()
	a.lastSent.stamp()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go a.watch(ctx)
	lines := make(chan []byte)
	readErr := make(chan error, 1)
	go func() {
		r := newLineReader(heardReader{in, &a.heard}, maxLine)
		for {
			line, err := r.next()
			switch {
			case errors.Is(err, io.EOF):
				readErr <- nil
				return
			case errors.Is(err, errLineTooLong):
				readErr <- fmt.Errorf("agent: a request line over %d MiB, the protocol's cap", maxLine>>20)
				return
			case err != nil:
				readErr <- err
				return
			}
			select {
			case lines <- append([]byte(nil), line...):
			case <-ctx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	abandon := false // requests in flight may be stuck writing to a dead controller
	defer func() {
		cancel()
		if abandon {
			a.closeAll()
			return
		}
		wg.Wait()
		a.closeAll()
	}()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-readErr:
			return err // nil at EOF: the controller is gone or done
		case d := <-a.silent:
			abandon = true
			return fmt.Errorf("agent: no word from the controller for %s: stopping its servers and exiting", d)
		case line := <-lines:
			var req request
			if err := json.Unmarshal(line, &req); err != nil {
				a.send(message{Error: fmt.Sprintf("agent: bad request line: %v", err)})
				continue
			}
			if req.Op == "ping" {
				continue // heard: that is all a ping is for
			}
			if req.Op == "cancel" {
				var c cancelArgs
				json.Unmarshal(req.Args, &c)
				a.cancel(c.ID)
				a.reply(req.ID, struct{}{}, nil)
				continue
			}
			if req.Op == "shutdown" {
				a.closeAll()
				a.reply(req.ID, struct{}{}, nil)
				return nil
			}
			rctx, rcancel := context.WithCancel(ctx)
			a.mu.Lock()
			a.inflight[req.ID] = rcancel
			a.mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer a.cancel(req.ID)
				res, err := a.handle(rctx, req)
				a.reply(req.ID, res, err)
			}()
		}
	}
}

// agent is one Serve's state.
type agent struct {
	cfg  Config
	work string

	wmu sync.Mutex // out
	out *json.Encoder

	heard    clock              // the last bytes from the controller
	lastSent clock              // the last line written whole
	silent   chan time.Duration // the controller's silence, once over its limit
	pingMS   atomic.Int64       // the controller's heartbeat, from hello (0: it sends none)
	beat     time.Duration      // heartbeat and controllerSilence when it started
	silence  time.Duration

	mu       sync.Mutex
	helloed  bool
	host     *serverhost.Local
	specs    map[string]*framework.Spec // by "TREEHASH/NAME", as received
	servers  map[string]serverhost.Server
	next     int
	inflight map[uint64]context.CancelFunc
	link     net.Listener
}

func (a *agent) send(m message) {
	a.wmu.Lock()
	defer a.wmu.Unlock()
	if a.out.Encode(m) == nil {
		a.lastSent.stamp()
	}
}

// watch sends a beat when nothing was sent for a heartbeat (once hello is
// answered), and reports on silent when a controller that announced its
// pings has been silent past its limit, until ctx ends.
func (a *agent) watch(ctx context.Context) {
	tick := time.NewTicker(min(time.Second, a.beat))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if limit := silenceLimit(a.pingMS.Load(), a.silence); limit > 0 && a.heard.older(limit) {
			a.silent <- limit
			return
		}
		a.mu.Lock()
		helloed := a.helloed
		a.mu.Unlock()
		// A send in flight holds wmu; a beat waits for none.
		if helloed && a.lastSent.older(a.beat) && a.wmu.TryLock() {
			go func() {
				defer a.wmu.Unlock()
				if a.out.Encode(message{Event: "beat"}) == nil {
					a.lastSent.stamp()
				}
			}()
		}
	}
}

func (a *agent) reply(id uint64, res any, err error) {
	if err != nil {
		a.send(message{ID: id, Error: err.Error()})
		return
	}
	b, merr := json.Marshal(res)
	if merr != nil {
		a.send(message{ID: id, Error: merr.Error()})
		return
	}
	a.send(message{ID: id, Result: b})
}

func (a *agent) cancel(id uint64) {
	a.mu.Lock()
	c := a.inflight[id]
	delete(a.inflight, id)
	a.mu.Unlock()
	if c != nil {
		c()
	}
}

// closeAll stops every server still running and the link listener.
func (a *agent) closeAll() {
	a.mu.Lock()
	h, link := a.host, a.link
	a.servers = map[string]serverhost.Server{}
	a.mu.Unlock()
	if h != nil {
		h.Close()
	}
	if link != nil {
		link.Close()
	}
}

// stream is an io.Writer sending each write as a stream line of request id.
type stream struct {
	a    *agent
	id   uint64
	name string
}

func (s stream) Write(p []byte) (int, error) {
	s.a.send(message{ID: s.id, Stream: s.name, Text: string(p)})
	return len(p), nil
}

func (a *agent) server(name string) (serverhost.Server, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s, ok := a.servers[name]
	if !ok {
		return nil, fmt.Errorf("no server %q on this agent", name)
	}
	return s, nil
}

func (a *agent) handle(ctx context.Context, req request) (any, error) {
	a.mu.Lock()
	helloed, host := a.helloed, a.host
	a.mu.Unlock()
	if req.Op != "hello" && !helloed {
		return nil, fmt.Errorf("agent: %q before hello", req.Op)
	}
	needsRun := map[string]bool{"build": true, "start": true, "finish": true}
	if needsRun[req.Op] && host == nil {
		return nil, fmt.Errorf("agent: %q before begin", req.Op)
	}
	switch req.Op {
	case "hello":
		var args helloArgs
		if err := json.Unmarshal(req.Args, &args); err != nil {
			return nil, err
		}
		if args.Protocol != a.cfg.Protocol {
			return nil, fmt.Errorf("protocol version mismatch: the controller speaks tfbench agent protocol %d, this agent %d; use the same tfbench on both hosts", args.Protocol, a.cfg.Protocol)
		}
		a.pingMS.Store(args.HeartbeatMS)
		a.mu.Lock()
		a.helloed = true
		a.mu.Unlock()
		return helloResult{Protocol: a.cfg.Protocol, Pid: os.Getpid(), OS: runtime.GOOS, Arch: runtime.GOARCH, Work: a.work,
			HeartbeatMS: a.beat.Milliseconds()}, nil
	case "begin":
		var args beginArgs
		if err := json.Unmarshal(req.Args, &args); err != nil {
			return nil, err
		}
		if err := checkName(args.RunID); err != nil {
			return nil, fmt.Errorf("run id: %w", err)
		}
		h := serverhost.NewLocal(serverhost.LocalConfig{WorkDir: a.work, CPUs: cpuset.Online(), AllInterfaces: args.AllInterfaces})
		run := serverhost.Run{ID: args.RunID, Dir: filepath.Join(a.work, "runs", args.RunID), Keep: args.Keep, Log: stream{a, req.ID, "progress"}}
		if err := h.Begin(ctx, run); err != nil {
			return nil, err
		}
		a.mu.Lock()
		a.host = h
		a.mu.Unlock()
		return struct{}{}, nil
	case "info":
		h := serverhost.NewLocal(serverhost.LocalConfig{CPUs: cpuset.Online()})
		return h.Info(ctx)
	case "sources":
		return nil, a.sources(req.Args)
	case "build":
		var args buildArgs
		if err := json.Unmarshal(req.Args, &args); err != nil {
			return nil, err
		}
		if err := checkStage(args.Stage); err != nil {
			return nil, err
		}
		if err := checkName(args.LogName); err != nil {
			return nil, fmt.Errorf("agent: log name: %w", err)
		}
		a.mu.Lock()
		spec := a.specs[args.Hash+"/"+args.Name]
		a.mu.Unlock()
		if spec == nil {
			return nil, fmt.Errorf("agent: no sources of %s (sha256 %.12s) received", args.Name, args.Hash)
		}
		v, err := spec.Variant(args.Variant)
		if err != nil {
			return nil, err
		}
		b, err := host.Build(ctx, serverhost.BuildRequest{Spec: spec, Variant: v, Stage: args.Stage, LogName: args.LogName,
			Log: stream{a, req.ID, "log"}, Progress: stream{a, req.ID, "progress"}})
		if err != nil {
			return nil, err
		}
		return buildResult{ID: b.ID, Hash: b.Hash, Runtime: b.Runtime, Text: b.Text}, nil
	case "start":
		var args startArgs
		if err := json.Unmarshal(req.Args, &args); err != nil {
			return nil, err
		}
		if err := checkName(args.Tag); err != nil {
			return nil, fmt.Errorf("tag: %w", err)
		}
		srv, err := host.Start(ctx, serverhost.StartRequest{Build: args.Build, Variant: args.Variant, Tag: args.Tag,
			Profile: args.Profile, Grace: time.Duration(args.GraceMS) * time.Millisecond})
		if err != nil {
			return nil, err
		}
		_, port, _ := net.SplitHostPort(srv.Addr())
		p, _ := strconv.Atoi(port)
		a.mu.Lock()
		a.next++
		name := "s" + strconv.Itoa(a.next)
		a.servers[name] = srv
		a.mu.Unlock()
		go func() {
			<-srv.Done()
			ev := message{Event: "exited", Server: name}
			if err := srv.Err(); err != nil {
				ev.Error = err.Error()
			}
			a.send(ev)
		}()
		return startResult{Server: name, Port: p, Pid: srv.Pid(), LogPath: srv.LogPath(), Monitored: srv.Monitored()}, nil
	case "finish":
		return struct{}{}, host.Finish(ctx)
	case "link":
		return a.linkListen()
	case "reap":
		var args reapArgs
		if err := json.Unmarshal(req.Args, &args); err != nil {
			return nil, err
		}
		return reap(args.Pid)
	case "db":
		return a.db(ctx, req.Args)
	}
	var args serverArgs
	if err := json.Unmarshal(req.Args, &args); err != nil {
		return nil, err
	}
	if req.Op == "profiles" {
		if err := checkName(args.Test); err != nil {
			return nil, fmt.Errorf("agent: profiles of test: %w", err)
		}
	}
	srv, err := a.server(args.Server)
	if err != nil {
		return nil, err
	}
	switch req.Op {
	case "stop":
		// The answer carries the server's log (its end), read once it is
		// stopped: the controller keeps it in its run folder.
		// A stopped server stays known until shutdown: its profiles are
		// asked for after it stops.
		err := srv.Stop(time.Duration(args.GraceMS) * time.Millisecond)
		log, _ := readLog(srv.LogPath())
		if err != nil {
			return nil, err
		}
		return log, nil
	case "usage":
		return srv.Usage(ctx)
	case "log_tail":
		return srv.LogTail(args.N), nil
	case "log_mark":
		return srv.LogMark(), nil
	case "log_faults":
		return srv.LogFaults(args.Mark), nil
	case "eventloop_reset":
		return struct{}{}, srv.EventLoopReset(ctx)
	case "eventloop_read":
		return srv.EventLoopRead(ctx)
	case "profiles":
		return a.profiles(srv, args)
	}
	return nil, fmt.Errorf("agent: unknown request %q", req.Op)
}

// maxLog is the most of a server's log the controller copies back, bytes
// (its end).
const maxLog = 8 << 20

func readLog(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	from := max(0, st.Size()-maxLog)
	b, err := io.ReadAll(io.NewSectionReader(f, from, maxLog))
	return string(b), err
}

// profiles collects a stopped, profiled server's profiles and sends them.
func (a *agent) profiles(srv serverhost.Server, args serverArgs) ([]file, error) {
	dest, err := os.MkdirTemp(a.work, "profiles-")
	if err != nil {
		return nil, err
	}
	paths, err := srv.Profiles(dest, args.Test)
	files, rerr := readProfiles(paths, dest)
	if !errors.Is(rerr, errProfilesKept) {
		os.RemoveAll(dest)
	}
	return files, cmpErr(rerr, err)
}

// maxProfiles bounds the profiles of one server and test sent back, bytes:
// base64 in one line of at most maxLine, less room for the rest. A Node
// profile of a minute's load is a few MB (docs/profiles.md).
const maxProfiles = maxLine/4*3 - 1<<20

var errProfilesKept = errors.New("left on the server host")

// readProfiles reads the profiles at paths, or, when they are more than
// maxProfiles together, refuses with an error naming their folder dir
// (kept: errProfilesKept).
func readProfiles(paths []string, dir string) ([]file, error) {
	var total int64
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		total += st.Size()
	}
	if total > maxProfiles {
		return nil, fmt.Errorf("profiles of %.1f MB in all (%d files), over the %d MiB one answer carries: %w in %s", float64(total)/1e6, len(paths), maxProfiles>>20, errProfilesKept, dir)
	}
	var files []file
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return files, err
		}
		files = append(files, file{Name: filepath.Base(p), Data: b})
	}
	return files, nil
}

// db runs one of verification's database calls on a server's copy.
func (a *agent) db(ctx context.Context, raw json.RawMessage) (any, error) {
	var args dbArgs
	if err := json.Unmarshal(raw, &args); err != nil {
		return nil, err
	}
	srv, err := a.server(args.Server)
	if err != nil {
		return nil, err
	}
	db, err := srv.Database()
	if err != nil {
		return nil, err
	}
	switch args.Call {
	case "world":
		m, err := db.World(ctx)
		if err != nil {
			return nil, err
		}
		pairs := make([][2]int64, 0, len(m))
		for id, n := range m {
			pairs = append(pairs, [2]int64{id, n})
		}
		return pairs, nil
	case "insert_fortune":
		return db.InsertFortune(ctx, args.Message)
	case "delete_fortune":
		return struct{}{}, db.DeleteFortune(ctx, args.ID)
	case "set_random_number":
		return struct{}{}, db.SetRandomNumber(ctx, args.ID, args.N)
	case "where":
		return db.Where(), nil
	}
	return nil, errors.New("agent: unknown database call " + strconv.Quote(args.Call))
}

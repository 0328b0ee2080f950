package serverhost

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/tfbench/tfbench/dataset"
	"github.com/tfbench/tfbench/harness/eventloop"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/runtimes"
	"github.com/tfbench/tfbench/harness/stage"
	"github.com/tfbench/tfbench/harness/supervise"
	"github.com/tfbench/tfbench/internal/cpuset"
)

// LocalConfig is what a Local host needs.
type LocalConfig struct {
	// WorkDir is the scratch folder (.tfbench): dataset/, build/, runtimes/.
	WorkDir string
	// CPUs is the server CPU set servers are pinned to; empty: not pinned.
	CPUs cpuset.Set
	// AllInterfaces has servers listen on every interface (a generator on
	// another host reaches them); otherwise on 127.0.0.1.
	AllInterfaces bool
}

// Local is the Host this process runs on: the source dataset under
// WorkDir, ensured and read for its guard by Begin.
type Local struct {
	cfg     LocalConfig
	run     Run
	source  string
	guard   sourceGuard
	preload string // the event-loop preload in the run folder

	mu      sync.Mutex
	builds  map[string]*localBuild
	running map[*localServer]bool
}

type localBuild struct {
	b  *stage.Build
	rt runtimes.Runtime
}

// NewLocal is this machine as a server host; Begin readies it for a run.
func NewLocal(cfg LocalConfig) *Local {
	return &Local{cfg: cfg, source: DatasetPath(cfg.WorkDir), builds: map[string]*localBuild{}, running: map[*localServer]bool{}}
}

// Begin makes the source dataset when it is missing (logged), reads it for
// the end-of-run guard and writes the event-loop preload into the run's
// folder.
func (h *Local) Begin(ctx context.Context, run Run) error {
	if run.Log == nil {
		run.Log = io.Discard
	}
	h.run = run
	created, err := dataset.Ensure(h.source)
	if err != nil {
		return fmt.Errorf("dataset %s: %w", h.source, err)
	}
	if created {
		fmt.Fprintf(run.Log, "dataset: generated %s\n", h.source)
	}
	if h.guard, err = guardSource(h.source); err != nil {
		return err
	}
	h.preload, err = eventloop.WritePreload(run.Dir)
	return err
}

// Info is this machine's facts, ServerCPUs the servers' CPU set.
func (h *Local) Info(ctx context.Context) (probe.Host, error) {
	info := probe.HostInfo(ctx)
	info.ServerCPUs = h.cfg.CPUs.String()
	return info, nil
}

// Build installs the variant's runtime and stages the adapter's build in
// WorkDir/req.Stage (stage.Stage: reused when nothing changed);
// its output goes to req.Log and to RunDir/logs/req.LogName.
func (h *Local) Build(ctx context.Context, req BuildRequest) (Build, error) {
	s, spec := req.Spec.ForVariant(req.Variant), req.Spec.RuntimeOf(req.Variant)
	logPath := filepath.Join(h.run.Dir, "logs", req.LogName)
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		return Build{}, err
	}
	lf, err := os.Create(logPath)
	if err != nil {
		return Build{}, err
	}
	defer lf.Close()
	out, progress := io.Writer(lf), io.Writer(lf)
	if req.Log != nil {
		out = io.MultiWriter(lf, req.Log)
	}
	if req.Progress != nil {
		progress = io.MultiWriter(lf, req.Progress)
	}
	began := time.Now()
	rt, err := runtimes.EnsureRuntime(ctx, spec, s.Dir, runtimes.RuntimesDir(h.cfg.WorkDir), progress)
	if err != nil {
		return Build{}, err
	}
	install := time.Since(began)
	b, err := stage.Stage(ctx, s, filepath.Join(h.cfg.WorkDir, req.Stage), rt, out)
	if err != nil {
		return Build{}, fmt.Errorf("%w (log: %s)", err, logPath)
	}
	h.mu.Lock()
	h.builds[req.Stage] = &localBuild{b, rt}
	h.mu.Unlock()
	return Build{ID: req.Stage, Hash: b.Hash, Runtime: rt.String(), Text: b.String(), Install: install}, nil
}

// Start copies the dataset to RunDir/db/TAG.db and starts the build's
// server on it, pinned to the server CPUs, logging to RunDir/logs/TAG.log.
func (h *Local) Start(ctx context.Context, req StartRequest) (Server, error) {
	h.mu.Lock()
	lb := h.builds[req.Build]
	h.mu.Unlock()
	if lb == nil {
		return nil, fmt.Errorf("no build %q on this host", req.Build)
	}
	dbPath := filepath.Join(h.run.Dir, "db", req.Tag+".db")
	if err := os.MkdirAll(filepath.Dir(dbPath), 0o755); err != nil {
		return nil, err
	}
	s := &localServer{host: h, dbPath: dbPath, grace: req.Grace}
	if err := dataset.Copy(h.source, dbPath); err != nil {
		s.removeDB()
		return nil, fmt.Errorf("copy the dataset for %s: %w", model.ID{Framework: lb.b.Spec.Name, Variant: req.Variant}, err)
	}
	var profileDir string
	if req.Profile {
		profileDir = filepath.Join(h.run.Dir, "profiles", "."+req.Tag)
	}
	srv, err := supervise.Start(ctx, lb.b.Spec, supervise.StartOptions{
		Runtime: lb.rt, Variant: req.Variant, DatabasePath: dbPath, BuildDir: lb.b.OutDir,
		CPUs: h.cfg.CPUs, LogPath: filepath.Join(h.run.Dir, "logs", req.Tag+".log"),
		EventLoopPreload: h.preload, EventLoopDir: eventloop.Dir(h.run.Dir, req.Tag), ProfileDir: profileDir,
		AllInterfaces: h.cfg.AllInterfaces, AcceptPoll: req.AcceptPoll,
	})
	if err != nil {
		s.removeDB()
		return nil, err
	}
	s.srv = srv
	h.mu.Lock()
	h.running[s] = true
	h.mu.Unlock()
	return s, nil
}

// Finish checks the source dataset against its bytes at NewLocal.
func (h *Local) Finish(context.Context) error { return h.guard.check() }

// Gone is nil: this machine is always there.
func (h *Local) Gone() error { return nil }

// Close stops the servers still running (with no grace).
func (h *Local) Close() error {
	h.mu.Lock()
	left := make([]*localServer, 0, len(h.running))
	for s := range h.running {
		left = append(left, s)
	}
	h.mu.Unlock()
	var errs []error
	for _, s := range left {
		if err := s.Stop(0); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// localServer is a supervise.Server with its database copy.
type localServer struct {
	host   *Local
	srv    *supervise.Server
	dbPath string
	grace  time.Duration

	dbOnce sync.Once
	db     dataset.Database
	dbErr  error
}

func (s *localServer) Addr() string          { return s.srv.Addr }
func (s *localServer) BaseURL() string       { return s.srv.BaseURL }
func (s *localServer) Pid() int              { return s.srv.Pid }
func (s *localServer) LogPath() string       { return s.srv.LogPath }
func (s *localServer) Done() <-chan struct{} { return s.srv.Done() }
func (s *localServer) Err() error            { return s.srv.Err() }
func (s *localServer) LogTail(n int) string  { return s.srv.LogTail(n) }
func (s *localServer) LogMark() int64        { return LogSize(s.srv.LogPath) }
func (s *localServer) LogFaults(mark int64) int64 {
	return LogFaults(s.srv.LogPath, mark)
}

// SpawnToAccept is supervise.Server.SpawnToAccept (0 without AcceptPoll).
func (s *localServer) SpawnToAccept() time.Duration { return s.srv.SpawnToAccept }

func (s *localServer) Usage(ctx context.Context) (probe.Usage, error) {
	return probe.Tree(ctx, s.srv.Pid)
}
func (s *localServer) Monitored() bool { return s.srv.EventLoopDir != "" }

// EventLoopReset and EventLoopRead: a server that is not Node and has no
// process answering does not have the hook, which is no fault.
func (s *localServer) EventLoopReset(ctx context.Context) error {
	err := eventloop.Reset(ctx, s.srv.EventLoopDir)
	if !s.srv.Node && errors.Is(err, eventloop.ErrNoProcess) {
		return nil
	}
	return err
}
func (s *localServer) EventLoopRead(ctx context.Context) (eventloop.Window, error) {
	w, err := eventloop.Read(ctx, s.srv.EventLoopDir)
	if !s.srv.Node && errors.Is(err, eventloop.ErrNoProcess) {
		return eventloop.Window{}, nil
	}
	return w, err
}

// Database opens the server's copy on first use; Stop closes it.
func (s *localServer) Database() (dataset.Database, error) {
	s.dbOnce.Do(func() { s.db, s.dbErr = dataset.Open(s.dbPath) })
	return s.db, s.dbErr
}

// Profiles moves the profiles of a stopped, profiled server into dest and
// removes its scratch folder.
func (s *localServer) Profiles(dest, test string) ([]string, error) {
	if s.srv.ProfileDir == "" {
		return nil, nil
	}
	defer os.RemoveAll(s.srv.ProfileDir)
	if err := os.MkdirAll(dest, 0o755); err != nil {
		return nil, err
	}
	return CollectProfiles(s.srv.ProfileDir, dest, test)
}

// Stop stops the server with at least the start's Grace and removes its
// database copy (unless Keep).
func (s *localServer) Stop(grace time.Duration) error {
	err := s.srv.Stop(max(grace, s.grace))
	if s.db != nil {
		s.db.Close()
	}
	s.removeDB()
	s.host.mu.Lock()
	delete(s.host.running, s)
	s.host.mu.Unlock()
	return err
}

func (s *localServer) removeDB() {
	if s.host.run.Keep {
		return
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(s.dbPath + suffix)
	}
}

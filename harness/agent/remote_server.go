package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/tfbench/tfbench/dataset"
	"github.com/tfbench/tfbench/harness/eventloop"
	"github.com/tfbench/tfbench/harness/probe"
)

// remoteServer is a server the agent started.
type remoteServer struct {
	c         *Client
	name, tag string
	pid       int
	logPath   string
	dbOnce    sync.Once
	db        dataset.Database
	dbErr     error
	addr      string
	monitored bool
	grace     time.Duration

	once sync.Once
	done chan struct{}
	err  error
}

// exited records the server's end (called with c.mu held).
func (s *remoteServer) exited(why string) {
	s.once.Do(func() {
		if why != "" {
			s.err = errors.New(why)
		}
		close(s.done)
	})
}

func (s *remoteServer) Addr() string          { return s.addr }
func (s *remoteServer) BaseURL() string       { return "http://" + s.addr }
func (s *remoteServer) Pid() int              { return s.pid }
func (s *remoteServer) LogPath() string       { return s.c.t.Name + ":" + s.logPath }
func (s *remoteServer) Done() <-chan struct{} { return s.done }
func (s *remoteServer) Monitored() bool       { return s.monitored }

func (s *remoteServer) Err() error {
	select {
	case <-s.done:
		return s.err
	default:
		return nil
	}
}

// bg is the context of calls the Server interface gives none: bounded.
func bg() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 30*time.Second)
}

func (s *remoteServer) LogTail(n int) string {
	ctx, cancel := bg()
	defer cancel()
	var out string
	if err := s.c.call(ctx, "log_tail", serverArgs{Server: s.name, N: n}, &out, nil); err != nil {
		return "(the log on " + s.c.t.Name + " cannot be read: " + err.Error() + ")"
	}
	return out
}

func (s *remoteServer) LogMark() int64 {
	ctx, cancel := bg()
	defer cancel()
	var n int64
	s.c.call(ctx, "log_mark", serverArgs{Server: s.name}, &n, nil)
	return n
}

func (s *remoteServer) LogFaults(mark int64) int64 {
	ctx, cancel := bg()
	defer cancel()
	var n int64
	s.c.call(ctx, "log_faults", serverArgs{Server: s.name, Mark: mark}, &n, nil)
	return n
}

func (s *remoteServer) Usage(ctx context.Context) (probe.Usage, error) {
	var u probe.Usage
	err := s.c.call(ctx, "usage", serverArgs{Server: s.name}, &u, nil)
	return u, err
}

func (s *remoteServer) EventLoopReset(ctx context.Context) error {
	return s.c.call(ctx, "eventloop_reset", serverArgs{Server: s.name}, nil, nil)
}

func (s *remoteServer) EventLoopRead(ctx context.Context) (eventloop.Window, error) {
	var w eventloop.Window
	err := s.c.call(ctx, "eventloop_read", serverArgs{Server: s.name}, &w, nil)
	return w, err
}

// Database is the server's copy on the agent's host, named HOST:PATH (its
// path asked once).
func (s *remoteServer) Database() (dataset.Database, error) {
	s.dbOnce.Do(func() {
		ctx, cancel := bg()
		defer cancel()
		var where string
		if s.dbErr = s.c.call(ctx, "db", dbArgs{Server: s.name, Call: "where"}, &where, nil); s.dbErr == nil {
			s.db = remoteDB{s: s, where: s.c.t.Name + ":" + where}
		}
	})
	return s.db, s.dbErr
}

// Profiles copies the profiles the agent collected into dest.
func (s *remoteServer) Profiles(dest, test string) ([]string, error) {
	ctx, cancel := bg()
	defer cancel()
	var files []file
	err := s.c.call(ctx, "profiles", serverArgs{Server: s.name, Test: test}, &files, nil)
	if len(files) > 0 {
		if merr := os.MkdirAll(dest, 0o755); merr != nil {
			return nil, merr
		}
	}
	var out []string
	for _, f := range files {
		p := filepath.Join(dest, filepath.Base(f.Name))
		if werr := os.WriteFile(p, f.Data, 0o644); werr != nil {
			return out, werr
		}
		out = append(out, p)
	}
	return out, err
}

// Stop stops the server there and copies its log into the controller's
// run folder (logs/TAG.log).
func (s *remoteServer) Stop(grace time.Duration) error {
	grace = max(grace, s.grace)
	ctx, cancel := context.WithTimeout(context.Background(), grace+time.Minute)
	defer cancel()
	var log string
	err := s.c.call(ctx, "stop", serverArgs{Server: s.name, GraceMS: grace.Milliseconds()}, &log, nil)
	if err == nil && s.c.run.Dir != "" {
		p := filepath.Join(s.c.run.Dir, "logs", s.tag+".log")
		if os.MkdirAll(filepath.Dir(p), 0o755) == nil {
			os.WriteFile(p, []byte(log), 0o644)
		}
	}
	return err
}

// remoteDB is a server's database copy on the agent's host.
type remoteDB struct {
	s     *remoteServer
	where string
}

func (d remoteDB) call(ctx context.Context, a dbArgs, res any) error {
	a.Server = d.s.name
	return d.s.c.call(ctx, "db", a, res, nil)
}

func (d remoteDB) World(ctx context.Context) (map[int64]int64, error) {
	var pairs [][2]int64
	if err := d.call(ctx, dbArgs{Call: "world"}, &pairs); err != nil {
		return nil, err
	}
	m := make(map[int64]int64, len(pairs))
	for _, p := range pairs {
		m[p[0]] = p[1]
	}
	return m, nil
}

func (d remoteDB) InsertFortune(ctx context.Context, message string) (int, error) {
	var id int
	err := d.call(ctx, dbArgs{Call: "insert_fortune", Message: message}, &id)
	return id, err
}

func (d remoteDB) DeleteFortune(ctx context.Context, id int) error {
	return d.call(ctx, dbArgs{Call: "delete_fortune", ID: id}, nil)
}

func (d remoteDB) SetRandomNumber(ctx context.Context, id int, n int64) error {
	return d.call(ctx, dbArgs{Call: "set_random_number", ID: id, N: n}, nil)
}

func (d remoteDB) Where() string { return d.where }
func (d remoteDB) Close() error  { return nil }

package loadgencmp

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/tfbench/tfbench/dataset"
	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/run"
	"github.com/tfbench/tfbench/harness/runtimes"
	"github.com/tfbench/tfbench/harness/stage"
	"github.com/tfbench/tfbench/harness/supervise"
)

// StopGrace is how long an adapter's server gets between SIGTERM and
// SIGKILL when the comparison stops it (run.Config's default).
const StopGrace = 5 * time.Second

// adapterFiles is where one comparison keeps its adapters' files.
type adapterFiles struct {
	// source is the dataset every server gets a fresh copy of
	// (run.DatasetPath, made if missing).
	source string
	// dir is WorkDir/loadgen/<UTC time>-<random>: NAME-build.log, NAME.log
	// (the server's output) and db-NAME/ (its database copy, removed when
	// it stops).
	dir string
}

// newAdapterFiles makes the dataset if it is missing, as tfbench bench
// and tfbench dataset do, and the comparison's folder under WorkDir/loadgen.
func newAdapterFiles(cfg Config) (*adapterFiles, error) {
	source := run.DatasetPath(cfg.WorkDir)
	created, err := dataset.Ensure(source)
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", source, err)
	}
	if created && cfg.Log != nil {
		fmt.Fprintf(cfg.Log, "dataset: generated %s\n", source)
	}
	parent := filepath.Join(cfg.WorkDir, "loadgen")
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(parent, time.Now().UTC().Format("20060102-150405-"))
	if err != nil {
		return nil, err
	}
	return &adapterFiles{source: source, dir: dir}, nil
}

// startAdapter builds spec's default variant as tfbench bench does (shared
// cached builds) and starts it on cfg.Server with a fresh dataset copy,
// removed after a stop with StopGrace. Errors name the adapter and step.
func startAdapter(ctx context.Context, cfg Config, files *adapterFiles, spec *framework.Spec) (*server, error) {
	v, err := spec.Variant("")
	if err != nil {
		return nil, err
	}
	rtSpec := spec.RuntimeOf(v)
	buildLog := filepath.Join(files.dir, spec.Name+"-build.log")
	lf, err := os.Create(buildLog)
	if err != nil {
		return nil, err
	}
	defer lf.Close()
	progress := io.Writer(lf)
	if cfg.Log != nil {
		progress = io.MultiWriter(lf, cfg.Log) // a first Node.js download takes a while
	}
	rt, err := runtimes.EnsureRuntime(ctx, rtSpec, spec.Dir, runtimes.RuntimesDir(cfg.WorkDir), progress)
	if err != nil {
		return nil, err
	}
	b, err := stage.Stage(ctx, spec.ForVariant(v), stage.StageRoot(cfg.WorkDir, spec, v), rt, lf)
	if err != nil {
		return nil, fmt.Errorf("%w (log: %s)", err, buildLog)
	}
	if cfg.Log != nil {
		fmt.Fprintf(cfg.Log, "%s (%s): %s\n", spec.Name, stage.RuntimeSlug(rtSpec), b)
	}

	dbDir := filepath.Join(files.dir, "db-"+spec.Name)
	if err := os.MkdirAll(dbDir, 0o755); err != nil {
		return nil, err
	}
	dbPath := filepath.Join(dbDir, "tfb.db")
	if err := dataset.Copy(files.source, dbPath); err != nil {
		os.RemoveAll(dbDir)
		return nil, fmt.Errorf("copy the dataset for %s: %w", spec.Name, err)
	}
	srv, err := supervise.Start(ctx, b.Spec, supervise.StartOptions{
		Runtime: rt, Variant: v.Name, DatabasePath: dbPath, BuildDir: b.OutDir,
		CPUs: cfg.Server, LogPath: filepath.Join(files.dir, spec.Name+".log"),
	})
	if err != nil {
		os.RemoveAll(dbDir)
		return nil, err
	}
	if cfg.Log != nil {
		fmt.Fprintf(cfg.Log, "%s: listening on %s, log %s\n", spec.Name, srv.Addr, srv.LogPath)
	}
	return &server{
		name: spec.Name, addr: srv.Addr, pid: srv.Pid,
		stop: func() error {
			err := srv.Stop(StopGrace)
			os.RemoveAll(dbDir)
			return err
		},
		exited: func() string {
			select {
			case <-srv.Done():
				how := "exit status 0"
				if err := srv.Err(); err != nil {
					how = err.Error()
				}
				return fmt.Sprintf("%s; last lines of %s:\n%s", how, srv.LogPath, srv.LogTail(10))
			default:
				return ""
			}
		},
	}, nil
}

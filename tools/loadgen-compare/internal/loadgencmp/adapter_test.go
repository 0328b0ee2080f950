package loadgencmp

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/stage"
	"github.com/tfbench/tfbench/harness/supervise"
	"github.com/tfbench/tfbench/internal/procs"
)

func TestMain(m *testing.M) {
	code := m.Run()
	// Nothing a test started may outlive it.
	if left, err := supervise.OwnedBy(os.Getpid()); err != nil || len(left) > 0 {
		fmt.Fprintf(os.Stderr, "processes tagged %s=%d-* left running: %v (%v)\n", framework.EnvOwner, os.Getpid(), left, err)
		procs.Kill(left, syscall.SIGKILL)
		code = 1
	}
	os.Exit(code)
}

// startAdapter builds go-stdlib where tfbench bench would (the dataset made
// first), starts it on its own database copy, and its stop leaves no
// process and no copy behind. No wrk needed: the wiring Compare uses for
// every adapter, without the measurement (about 4 s with Go's build cache
// warm).
func TestStartAdapterGoStdlib(t *testing.T) {
	spec, err := framework.Load(filepath.Join(frameworksDir, "go-stdlib", framework.FileName))
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	work := t.TempDir()
	cfg := Config{Frameworks: frameworksDir, WorkDir: work, Log: &log}
	files, err := newAdapterFiles(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s, err := startAdapter(context.Background(), cfg, files, spec)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			s.stop()
		}
	})

	resp, err := http.Get("http://" + s.addr + "/db")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 || !strings.Contains(string(body), `"randomNumber"`) {
		t.Errorf("GET /db: %s %q %v", resp.Status, body, err)
	}
	if s.exited() != "" {
		t.Errorf("exited says %q while it runs", s.exited())
	}

	stopped = true
	if err := s.stop(); err != nil {
		t.Errorf("stop: %v", err)
	}
	if left, err := supervise.OwnedBy(os.Getpid()); err != nil || len(left) > 0 {
		t.Errorf("processes left running: %v (%v)", left, err)
	}
	if s.exited() == "" {
		t.Error("exited says nothing after stop")
	}
	if dbs, _ := filepath.Glob(filepath.Join(files.dir, "db-*")); len(dbs) > 0 {
		t.Errorf("database copies left after stop: %v", dbs)
	}
	for _, p := range []string{
		filepath.Join(work, "dataset", "tfb.db"),
		filepath.Join(stage.StageRoot(work, &framework.Spec{Name: "go-stdlib", Runtime: "go"}, framework.Variant{Name: "default"}), "build.json"),
		filepath.Join(files.dir, "go-stdlib.log"),
		filepath.Join(files.dir, "go-stdlib-build.log"),
	} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%v", err)
		}
	}
	if !strings.Contains(log.String(), "dataset: generated "+filepath.Join(work, "dataset", "tfb.db")) ||
		!strings.Contains(log.String(), "go-stdlib (go): built ") {
		t.Errorf("log:\n%s", log.String())
	}
}

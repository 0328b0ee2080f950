package stage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/runtimes"
	"github.com/tfbench/tfbench/harness/supervise"
	"github.com/tfbench/tfbench/internal/tail"
)

// buildEnv is the parent's environment plus NODE_ENV=production,
// TFBENCH_BUILD_DIR, TMPDIR (buildDir/.tmp: tools that write fixed names in
// the system's temporary folder, as Qwik's vite plugin does, would collide
// between users and runs) and the adapter's `env:` (so e.g. a telemetry
// switch holds during the build too), with binDir (if any) first on PATH.
func buildEnv(s *framework.Spec, buildDir, binDir string) []string {
	env := append(os.Environ(), framework.EnvNodeEnv+"=production", framework.EnvBuildDir+"="+buildDir, "TMPDIR="+filepath.Join(buildDir, buildTmp))
	for k, val := range s.Env {
		env = append(env, k+"="+val)
	}
	return runtimes.WithBinDir(env, binDir)
}

// buildTmp is the build's temporary folder inside its build dir (TMPDIR).
const buildTmp = ".tmp"

// BuildCmd is BuildCmdWith with the zero Runtime: the machine's PATH as it
// is. For an adapter whose `runtime:` is a pinned node@X.Y.Z it fails
// (see BuildCmdWith); use BuildCmdWith with runtimes.EnsureRuntime's result.
func BuildCmd(ctx context.Context, s *framework.Spec, buildDir string, log io.Writer) error {
	return BuildCmdWith(ctx, s, buildDir, runtimes.Runtime{}, log)
}

// BuildCmdWith runs the adapter's build command, if any, with `sh -c` in Dir,
// buildEnv (TFBENCH_BUILD_DIR=buildDir, created; rt.BinDir first on PATH) and
// output to log (nil discards), in a process group (supervise.Run) killed with
// ctx. An adapter pinning node@X.Y.Z needs rt to be its or a variant's node.
func BuildCmdWith(ctx context.Context, s *framework.Spec, buildDir string, rt runtimes.Runtime, log io.Writer) error {
	if s.Build == "" {
		return nil
	}
	if err := rt.Require("framework "+s.Name+": build", s.Runtime); err != nil && !slices.ContainsFunc(s.Variants, func(v framework.Variant) bool {
		_, pinned := framework.NodeVersion(v.Runtime)
		return pinned && rt.Matches(v.Runtime)
	}) {
		return err
	}
	abs, err := filepath.Abs(buildDir)
	if err != nil {
		return fmt.Errorf("framework %s: build dir: %w", s.Name, err)
	}
	if err := os.MkdirAll(filepath.Join(abs, buildTmp), 0o755); err != nil {
		return fmt.Errorf("framework %s: build dir: %w", s.Name, err)
	}
	if log == nil {
		log = io.Discard
	}
	last := &tail.Buffer{Max: 8 << 10}
	out := io.MultiWriter(log, last)
	cmd := exec.CommandContext(ctx, "sh", "-c", s.Build)
	cmd.Dir = s.Dir
	cmd.Env = buildEnv(s, abs, rt.BinDir)
	cmd.Stdout, cmd.Stderr = out, out
	start := time.Now()
	left, err := supervise.Run(cmd)
	if len(left) > 0 {
		fmt.Fprintf(out, "--- tfbench: the build left processes %v running; killed them\n", left)
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, supervise.ErrExiting):
		return fmt.Errorf("framework %s: build: %w", s.Name, err)
	case cmd.Process == nil:
		return fmt.Errorf("framework %s: build `%s`: %w", s.Name, s.Build, err)
	case ctx.Err() != nil:
		return fmt.Errorf("framework %s: build `%s` stopped after %s: %w", s.Name, s.Build, time.Since(start).Round(time.Millisecond), ctx.Err())
	default:
		return fmt.Errorf("framework %s: build `%s` failed: %v\n%s", s.Name, s.Build, err, tail.Indent(tail.Last(last.Bytes(), tail.Lines)))
	}
}

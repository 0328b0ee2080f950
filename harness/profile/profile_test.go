package profile

import (
	"bytes"
	"github.com/tfbench/tfbench/internal/golden"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

func read(t *testing.T, file string) *Profile {
	t.Helper()
	p, err := Read(file)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestWriteGolden pins the output of the committed fixtures (made by
// testdata/make-fixtures.sh with the pinned Node and a tiny Go program):
// a Node .cpuprofile, a Go pprof and the two summed.
func TestWriteGolden(t *testing.T) {
	node, gop := read(t, "testdata/node.cpuprofile"), read(t, "testdata/go.pprof")
	for _, c := range []struct {
		name string
		p    *Profile
		top  int
	}{
		{"node.golden", node, 20},
		{"go.golden", gop, 20},
		{"sum.golden", Sum(node, gop), 5},
	} {
		var b bytes.Buffer
		if err := Write(&b, c.p, c.top); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, c.name, b.String())
	}
}

// TestReadNode checks the Node fixture's figures: self times add up to
// the sampled time, idle is apart, the areas are the ones its tiny app
// was made of.
func TestReadNode(t *testing.T) {
	p := read(t, "testdata/node.cpuprofile")
	f := p.Files[0]
	if f.Format != Node || f.Samples == 0 || p.Total <= 0 || p.Idle <= 0 || f.Wall < p.Total+p.Idle-time.Millisecond {
		t.Fatalf("file %+v, total %v, idle %v", f, p.Total, p.Idle)
	}
	var sum time.Duration
	areas := map[string]bool{}
	for _, fn := range p.Funcs {
		sum += fn.Self
		areas[fn.Area] = true
		if fn.Name == "(idle)" {
			t.Errorf("(idle) among the functions: %+v", fn)
		}
	}
	if sum != p.Total {
		t.Errorf("functions' self time %v, total %v", sum, p.Total)
	}
	for _, a := range []string{"@tiny/json", "tiny-html", AreaApp, AreaRuntime, AreaNode} {
		if !areas[a] {
			t.Errorf("no area %q in %v", a, areas)
		}
	}
}

// TestReadNodeHitCounts: a .cpuprofile without samples charges each
// node's hitCount × the mean interval.
func TestReadNodeHitCounts(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "hits.cpuprofile")
	os.WriteFile(file, []byte(`{"nodes":[
		{"id":1,"callFrame":{"functionName":"(root)","url":"","lineNumber":-1},"hitCount":0,"children":[2,3,4]},
		{"id":2,"callFrame":{"functionName":"render","url":"file:///app/node_modules/react-dom/server.js","lineNumber":9},"hitCount":3},
		{"id":3,"callFrame":{"functionName":"(idle)","url":"","lineNumber":-1},"hitCount":1},
		{"id":4,"callFrame":{"functionName":"(garbage collector)","url":"","lineNumber":-1},"hitCount":0}
	],"startTime":1000,"endTime":9000}`), 0o644)
	p := read(t, file)
	if p.Samples != 4 || p.Total != 6*time.Millisecond || p.Idle != 2*time.Millisecond || len(p.Funcs) != 1 {
		t.Fatalf("samples %d total %v idle %v funcs %+v", p.Samples, p.Total, p.Idle, p.Funcs)
	}
	if fn := p.Funcs[0]; fn.Name != "render" || fn.File != "react-dom/server.js:10" || fn.Area != "react-dom" {
		t.Errorf("func %+v", fn)
	}
}

func TestReadPprof(t *testing.T) {
	p := read(t, "testdata/go.pprof")
	if f := p.Files[0]; f.Format != Pprof || f.Samples == 0 || p.Total <= 0 || p.Idle != 0 || f.Wall < 900*time.Millisecond {
		t.Fatalf("file %+v, total %v", f, p.Total)
	}
	areas := map[string]bool{}
	for _, fn := range p.Funcs {
		areas[fn.Area] = true
	}
	for _, a := range []string{"modernc.org/sqlite", AreaRuntime, AreaGoStd} {
		if !areas[a] {
			t.Errorf("no area %q in %v", a, areas)
		}
	}
}

// TestReadErrors pins the errors for files that are no CPU profile.
func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	var heap bytes.Buffer
	hp := &profile.Profile{SampleType: []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"}}}
	if err := hp.Write(&heap); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, data, want string
	}{
		{"empty", "", "FILE: not a Node .cpuprofile or pprof profile: empty file"},
		{"blank", " \n", "FILE: not a Node .cpuprofile or pprof profile: empty file"},
		{"text", "hello, world\n", "FILE: not a Node .cpuprofile or pprof profile: parsing profile: unrecognized profile format"},
		{"json", `{"traceEvents":[]}`, `FILE: not a Node .cpuprofile or pprof profile: JSON without a "nodes" list`},
		{"truncated", `{"nodes":[{"id":1,`, "FILE: not a Node .cpuprofile or pprof profile: JSON: unexpected end of JSON input"},
		{"deltas", `{"nodes":[{"id":1}],"samples":[1,1],"timeDeltas":[5]}`, "FILE: not a Node .cpuprofile or pprof profile: 2 samples but 1 time deltas"},
		{"node id", `{"nodes":[{"id":1}],"samples":[1,7],"timeDeltas":[5,5]}`, "FILE: not a Node .cpuprofile or pprof profile: sample 1 is of node 7, which is not in nodes"},
		{"heap", heap.String(), "FILE: not a CPU profile: pprof sample types alloc_objects/count, alloc_space/bytes"},
	} {
		file := filepath.Join(dir, c.name)
		if err := os.WriteFile(file, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Read(file)
		if want := strings.ReplaceAll(c.want, "FILE", file); err == nil || err.Error() != want {
			t.Errorf("%s: err %v\nwant %s", c.name, err, want)
		}
	}
	if _, err := Read(filepath.Join(dir, "missing")); err == nil || !os.IsNotExist(err) {
		t.Errorf("missing file: err %v", err)
	}
}

// TestNodeArea pins the Node areas by function name and script URL.
func TestNodeArea(t *testing.T) {
	for _, c := range []struct{ fn, url, want string }{
		{"(garbage collector)", "", AreaRuntime},
		{"(program)", "", AreaNode},
		{"stringify", "", AreaNode},
		{"emit", "node:events", AreaNode},
		{"parserOnHeadersComplete", "node:_http_common", AreaNode},
		{"x", "internal/streams/readable.js", AreaNode},
		{"render", "file:///srv/app/node_modules/react-dom/cjs/react-dom-server.node.production.js", "react-dom"},
		{"h", "/srv/app/node_modules/@vinext/core/dist/server.js", "@vinext/core"},
		{"h", "file:///srv/app/node_modules/%40scope/pkg/index.js", "@scope/pkg"},
		{"h", "file:///srv/app/node_modules/.pnpm/solid-js@1.9.0/node_modules/solid-js/web/dist/server.js", "solid-js"},
		{"h", "file:///srv/app/node_modules/next/dist/server/base-server.js", "next"},
		{"h", "file:///srv/app/node_modules/next/dist/compiled/react-dom/cjs/react-dom-server.node.production.js", "react-dom (compiled into next)"},
		{"h", "file:///srv/app/node_modules/next/dist/compiled/next-server/app-page-turbo.runtime.prod.js", "next-server (compiled into next)"},
		{"h", "file:///srv/app/node_modules/next/dist/compiled/@vercel/og/index.node.js", "@vercel/og (compiled into next)"},
		{"h", "file:///srv/app/.next/standalone/.next/server/chunks/ssr/%5Broot-of-the-server%5D__1xzx._.js", "bundle .next/server/chunks/ssr/[root-of-the-server]__1xzx._.js"},
		{"h", "file:///srv/app/.next/server/chunks/ssr/node_modules_next_dist_esm_build_templates_app-page_1q9s.js", "next"},
		{"h", "file:///srv/app/.next/server/chunks/ssr/node_modules_@swc_helpers_cjs_x_1a.js", "@swc/helpers"},
		{"h", "file:///srv/app/.next/server/app/ssr/page.js", "bundle .next/server/app/ssr/page.js"},
		{"h", "file:///srv/astro/dist/server/chunks/ssr_B-5LaxIQ.mjs", "bundle dist/server/chunks/ssr_B-5LaxIQ.mjs"},
		{"h", "file:///srv/rr/build/server/index.js", "bundle build/server/index.js"},
		{"h", "file:///srv/solid/.output/server/chunks/app.mjs", "bundle .output/server/chunks/app.mjs"},
		{"h", "file:///srv/solid/.output/server/_libs/solid-js.mjs", "solid-js"},
		{"h", "file:///srv/solid/.output/server/_libs/h3+rou3+srvx.mjs", "h3+rou3+srvx"},
		{"ask", "file:///work/.tfbench/runs/20260102-030405/eventloop.cjs", AreaPreload},
		// tfbench's staged build folder is not a bundle.
		{"handler", "file:///work/.tfbench/build/node-http/node-24.22.3/src/server.mjs", AreaApp},
		{"handler", "file:///srv/app/server.mjs", AreaApp},
	} {
		if got := NodeArea(c.fn, c.url); got != c.want {
			t.Errorf("NodeArea(%q, %q) = %q, want %q", c.fn, c.url, got, c.want)
		}
	}
}

// TestGoArea pins the Go areas by function name and file.
func TestGoArea(t *testing.T) {
	for _, c := range []struct{ fn, file, want string }{
		{"runtime.mallocgc", "runtime/malloc.go", AreaRuntime},
		{"runtime.gcBgMarkWorker", "/usr/local/go/src/runtime/mgc.go", AreaRuntime},
		{"internal/runtime/atomic.(*Uint32).Load", "internal/runtime/atomic/types.go", AreaRuntime},
		{"runtime._GC", "", AreaRuntime},
		{"gogo", "runtime/asm_amd64.s", AreaRuntime},
		{"indexbytebody", "/usr/local/go/src/internal/bytealg/indexbyte_amd64.s", AreaGoStd},
		{"internal/runtime/syscall/linux.Syscall6", "internal/runtime/syscall/linux/asm_linux_amd64.s", AreaSyscall},
		{"syscall.RawSyscall6", "syscall/syscall_linux.go", AreaSyscall},
		{"golang.org/x/sys/unix.Syscall", "/root/go/pkg/mod/golang.org/x/sys@v0.50.0/unix/syscall_linux.go", AreaSyscall},
		{"golang.org/x/sys/unix.Getpagesize", "/root/go/pkg/mod/golang.org/x/sys@v0.50.0/unix/syscall_linux.go", "golang.org/x/sys"},
		{"runtime.futex", "runtime/sys_linux_amd64.s", AreaRuntime},
		{"runtime.cgocall", "runtime/cgocall.go", AreaCgo},
		{"runtime._ExternalCode", "", AreaCgo},
		{"v8::internal::Heap::Scavenge", "", AreaCgo},
		{"github.com/tommie/v8go._Cfunc_RunScript", "_cgo_gotypes.go", AreaCgo},
		{"net/http.(*conn).serve", "net/http/server.go", AreaGoStd},
		{"encoding/json.Marshal", "/root/go/pkg/mod/golang.org/toolchain@v0.0.1-go1.26.8.linux-amd64/src/encoding/json/encode.go", AreaGoStd},
		{"modernc.org/sqlite/lib._sqlite3VdbeExec", "modernc.org/sqlite@v1.62.0/lib/sqlite_linux_amd64.go", "modernc.org/sqlite"},
		{"modernc.org/libc.Xmemcpy", "/root/go/pkg/mod/modernc.org/libc@v1.80.1/libc.go", "modernc.org/libc"},
		{"github.com/tommie/v8go.(*Context).RunScript", "/root/go/pkg/mod/github.com/tommie/v8go@v0.34.0/context.go", "github.com/tommie/v8go"},
		{"github.com/BurntSushi/toml.Decode", "/root/go/pkg/mod/github.com/!burnt!sushi/toml@v1.4.0/decode.go", "github.com/BurntSushi/toml"},
		{"gopkg.in/yaml.v3.(*parser).parse", "/app/vendor/gopkg.in/yaml.v3/parserc.go", "gopkg.in/yaml.v3"},
		{"golang.org/x/net/http2.(*Framer).ReadFrame", "/app/vendor/golang.org/x/net/http2/frame.go", "golang.org/x/net"},
		{"github.com/tommie/v8go.(*Value).AppendBytes", "/work/frameworks/engine/third_party/v8go/value_bytes.go", "github.com/tommie/v8go"},
		{"main.(*app).fortunes", "/work/frameworks/go-stdlib/main.go", AreaApp},
		{"github.com/tfbench/tfbench/frameworks/engine/server.(*Server).ServeHTTP", "github.com/tfbench/tfbench/frameworks/engine/server/server.go", AreaApp},
	} {
		if got := GoArea(c.fn, c.file); got != c.want {
			t.Errorf("GoArea(%q, %q) = %q, want %q", c.fn, c.file, got, c.want)
		}
	}
}

// TestAppFiles: an app file of an adapter tfbench staged shows as
// NAME/FILE; others relative to the parent of the folder they share.
func TestAppFiles(t *testing.T) {
	for _, c := range []struct{ file, dir, want string }{
		{"/w/.tfbench/build/node-http/node-24.22.3/src/server.mjs", "/w", "node-http/server.mjs"},
		{"/w/.tfbench/build/engine/go@1a2b3c4d/src/server/server.go", "", "engine/server/server.go"},
		{"/srv/apps/shop/lib/db.js", "/srv/apps", "shop/lib/db.js"},
		{"/elsewhere/x.js", "/srv/apps", "/elsewhere/x.js"},
	} {
		if got := relTo(c.file, c.dir); got != c.want {
			t.Errorf("relTo(%q, %q) = %q, want %q", c.file, c.dir, got, c.want)
		}
	}
}

// TestReadPprofCountsAndC: a pprof with counts only is charged count ×
// period; an unsymbolized location is named by its mapping, as C code.
func TestReadPprofCountsAndC(t *testing.T) {
	fn := &profile.Function{ID: 1, Name: "main.handler", Filename: "/src/app/main.go", StartLine: 12}
	libc := &profile.Mapping{ID: 1, File: "/usr/lib/x86_64-linux-gnu/libc.so.6"}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10_000_000,
		Function: []*profile.Function{fn}, Mapping: []*profile.Mapping{libc},
		Location: []*profile.Location{
			{ID: 1, Address: 0x1000, Line: []profile.Line{{Function: fn, Line: 14}}},
			{ID: 2, Address: 0x7f00, Mapping: libc},
		},
	}
	p.Sample = []*profile.Sample{{Location: p.Location[:1], Value: []int64{3}}, {Location: p.Location[1:], Value: []int64{2}}}
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "counts.pprof")
	os.WriteFile(file, b.Bytes(), 0o644)
	got := read(t, file)
	want := []Func{{Name: "main.handler", File: "app/main.go:12", Area: AreaApp, Self: 30 * time.Millisecond}, {Name: "[libc.so.6]", Area: AreaCgo, Self: 20 * time.Millisecond}}
	if got.Samples != 5 || got.Total != 50*time.Millisecond || len(got.Funcs) != 2 || got.Funcs[0] != want[0] || got.Funcs[1] != want[1] {
		t.Errorf("samples %d total %v funcs %+v, want %+v", got.Samples, got.Total, got.Funcs, want)
	}
}

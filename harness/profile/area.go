package profile

import (
	"net/url"
	"path"
	"strings"
)

// The areas every profile's time is split into besides package and bundle
// areas (a package area is the package's name, "next", "@scope/pkg",
// "modernc.org/sqlite"; a bundle area is "bundle " and the bundle file).
const (
	AreaRuntime = "runtime and GC"      // Go runtime.*, Node's (garbage collector)
	AreaNode    = "Node internals"      // node: modules, native code, (program)
	AreaGoStd   = "Go standard library" // net/http, encoding/json, ...
	AreaCgo     = "C code (cgo)"        // Go: time in C called through cgo, threads outside Go
	AreaSyscall = "system calls"        // Go: the syscall package's calls (the network's reads and writes)
	AreaApp     = "the app"             // everything else
	// AreaPreload is tfbench's own Node preload (eventloop.cjs), a
	// measurement aid: its share is what the harness costs the server.
	AreaPreload = "tfbench preload"
)

// NodeArea is the area of a Node function by its name and script URL
// (docs/profiles.md, Areas): runtime, Node internals, a node_modules
// package, a server bundle's chunk package or "bundle FILE", preload or app.
func NodeArea(functionName, scriptURL string) string {
	switch functionName {
	case "(garbage collector)":
		return AreaRuntime
	case "(program)", "(root)", "(idle)":
		return AreaNode
	}
	if scriptURL == "" || strings.HasPrefix(scriptURL, "node:") {
		return AreaNode
	}
	p := filePath(scriptURL)
	if path.Base(p) == "eventloop.cjs" {
		return AreaPreload
	}
	if !strings.HasPrefix(p, "/") && !strings.Contains(p, ":") && strings.HasPrefix(p, "internal/") {
		return AreaNode // Node before node: URLs
	}
	segs := strings.Split(p, "/")
	if pkg := nodeModule(segs); pkg != "" {
		return pkg
	}
	if b := bundleFile(segs); b != "" {
		if pkg := chunkPackage(path.Base(b)); pkg != "" {
			return pkg
		}
		if lib, ok := strings.CutPrefix(b, ".output/server/_libs/"); ok && !strings.Contains(lib, "/") {
			return strings.TrimSuffix(lib, path.Ext(lib)) // Nitro's bundled packages: _libs/solid-js.mjs, _libs/h3+rou3+srvx.mjs
		}
		return "bundle " + b
	}
	return AreaApp
}

// filePath is a script URL as a path: a file: URL's unescaped path, else
// the URL as it is (CommonJS scripts may be plain paths).
func filePath(scriptURL string) string {
	if rest, ok := strings.CutPrefix(scriptURL, "file://"); ok {
		if p, err := url.PathUnescape(rest); err == nil {
			return p
		}
		return rest
	}
	return scriptURL
}

// nodeModule is the package of a path under node_modules ("" if none).
func nodeModule(segs []string) string {
	last := -1
	for i, s := range segs {
		if s == "node_modules" {
			last = i
		}
	}
	if last < 0 || last+1 >= len(segs) {
		return ""
	}
	pkg, rest := scoped(segs[last+1:])
	if pkg == "next" && len(rest) > 3 && rest[0] == "dist" && rest[1] == "compiled" {
		inner, _ := scoped(rest[2:])
		return inner + " (compiled into next)"
	}
	return pkg
}

// scoped is the package name at the start of segs (@scope/pkg takes two
// segments) and the segments after it.
func scoped(segs []string) (string, []string) {
	if len(segs) == 0 {
		return "", nil
	}
	if strings.HasPrefix(segs[0], "@") && len(segs) > 1 {
		return segs[0] + "/" + segs[1], segs[2:]
	}
	return segs[0], segs[1:]
}

// bundleFile is the path of a server bundle's file from its bundle folder
// on (".next/server/chunks/x.js"), "" when not in one; the last bundle
// folder in the path wins.
func bundleFile(segs []string) string {
	for i := len(segs) - 2; i >= 0; i-- {
		s := segs[i]
		switch {
		case s == ".next":
			return strings.Join(segs[i:], "/")
		case (s == "dist" || s == "build" || s == ".output") && segs[i+1] == "server" && i+2 < len(segs):
			return strings.Join(segs[i:], "/")
		case s == ".svelte-kit" && segs[i+1] == "output":
			return strings.Join(segs[i:], "/")
		}
	}
	return ""
}

// chunkPackage is the package a bundler's chunk file name names, as
// Turbopack's node_modules_next_dist_…_hash.js (next) or
// node_modules_@scope_pkg_…js (@scope/pkg); "" for other names.
func chunkPackage(base string) string {
	rest, ok := strings.CutPrefix(base, "node_modules_")
	if !ok {
		return ""
	}
	parts := strings.Split(rest, "_")
	if len(parts) < 2 || parts[0] == "" {
		return ""
	}
	if strings.HasPrefix(parts[0], "@") && len(parts) > 2 && parts[1] != "" {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}

// GoArea is the area of a Go function by its pprof name and file: system
// calls, runtime and GC, C code (cgo), the standard library, a module (from
// the module cache, vendor/ or third_party/), or the app (docs/profiles.md,
// Areas).
func GoArea(name, file string) string {
	switch name {
	case "runtime.cgocall", "runtime.asmcgocall", "runtime._ExternalCode", "runtime._LostExternalCode", "runtime.cgocallbackg":
		return AreaCgo
	case "runtime._GC", "runtime._System":
		return AreaRuntime
	}
	pkg := goPackage(name)
	if pkg == "" {
		// An assembly routine without a package in its name (gogo,
		// indexbytebody) goes by its file's folder; else a C symbol.
		pkg = stdDir(file)
		if pkg == "" {
			return AreaCgo
		}
	}
	switch {
	case strings.Contains(name, "._Cfunc_") || strings.HasPrefix(name, "_cgo_"):
		return AreaCgo
	case pkg == "syscall" || strings.HasPrefix(pkg, "internal/runtime/syscall") || pkg == "golang.org/x/sys/unix" && strings.Contains(name, "Syscall"):
		return AreaSyscall
	case pkg == "runtime" || strings.HasPrefix(pkg, "runtime/internal/") || strings.HasPrefix(pkg, "internal/runtime/"):
		return AreaRuntime
	case pkg == "main":
		return AreaApp
	case !strings.Contains(strings.SplitN(pkg, "/", 2)[0], "."):
		return AreaGoStd
	}
	if mod := cacheModule(file); mod != "" {
		return mod
	}
	if i := strings.LastIndex(file, "/vendor/"); i >= 0 {
		return modulePath(path.Dir(file[i+len("/vendor/"):]))
	}
	if strings.Contains(file, "/third_party/") {
		return pkg // a patched copy of a module (the engine's third_party/v8go): its package
	}
	return AreaApp
}

// stdDir is the folder of a standard-library file, "runtime" of
// runtime/asm_amd64.s (-trimpath) or of GOROOT/src/runtime/asm_amd64.s;
// "" for other files.
func stdDir(file string) string {
	rel := file
	if strings.HasPrefix(file, "/") {
		i := strings.LastIndex(file, "/src/")
		if i < 0 {
			return ""
		}
		rel = file[i+len("/src/"):]
	}
	dir := path.Dir(rel)
	if dir == "." || strings.Contains(strings.SplitN(dir, "/", 2)[0], ".") {
		return ""
	}
	return dir
}

// goPackage is the import path of a Go function name ("net/http" of
// "net/http.(*conn).serve", "main" of "main.main"), "" when the name has
// none (a C symbol).
func goPackage(name string) string {
	slash := strings.LastIndex(name, "/")
	dot := strings.Index(name[slash+1:], ".")
	if dot < 0 {
		return ""
	}
	pkg := name[:slash+1+dot]
	if strings.ContainsAny(pkg, " :<>()") {
		return "" // C++ names (v8::internal::…) are not Go's
	}
	return pkg
}

// cacheModule is the module path of a file in the module cache (or a
// -trimpath MODULE@VERSION/file), with the cache's !x escapes undone; ""
// when file is in neither.
func cacheModule(file string) string {
	rest := file
	if i := strings.LastIndex(file, "/pkg/mod/"); i >= 0 {
		rest = file[i+len("/pkg/mod/"):]
	} else if strings.HasPrefix(file, "/") {
		return ""
	}
	at := strings.Index(rest, "@")
	if at <= 0 {
		return ""
	}
	mod := rest[:at]
	if strings.HasPrefix(mod, "golang.org/toolchain") {
		return "" // the toolchain's own sources, not a dependency
	}
	var b strings.Builder
	for i := 0; i < len(mod); i++ {
		if mod[i] == '!' && i+1 < len(mod) {
			i++
			b.WriteString(strings.ToUpper(mod[i : i+1]))
			continue
		}
		b.WriteByte(mod[i])
	}
	return b.String()
}

// modulePath guesses the module of import path pkg: three elements on
// the code hosts whose paths are host/owner/repo (github.com, gitlab.com,
// bitbucket.org, golang.org/x), else two (modernc.org/sqlite, gopkg.in/yaml.v3).
func modulePath(pkg string) string {
	parts := strings.Split(pkg, "/")
	n := 2
	switch parts[0] {
	case "github.com", "gitlab.com", "bitbucket.org", "golang.org":
		n = 3
	}
	if len(parts) < n {
		return pkg
	}
	return strings.Join(parts[:n], "/")
}

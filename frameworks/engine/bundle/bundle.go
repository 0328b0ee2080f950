// Package bundle compiles a render-engine app (its routes/*.ts(x) files and the components they import) together
// with the engine's TypeScript library (package jsx) into one classic script and an external source map, with
// esbuild's Go API (docs/design.md, The render engine; runtime/doc.go). Pure Go, no cgo.
package bundle

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/tfbench/tfbench/frameworks/engine/jsx"
)

// Route is one route of an app, in the order of Bundle.Routes, which is the route index of __engine.render(i).
type Route struct {
	// Path is the URL path: "/" + the file's path under routes/ without its extension, "index" naming its
	// directory (routes/json.ts -> "/json", routes/index.tsx -> "/", routes/a/index.tsx -> "/a").
	Path string
	// File is the source file relative to the app directory's parent, slash-separated ("app/routes/json.ts"),
	// the same form as the source map's sources and bundle error locations.
	File string
}

// Bundle is a compiled app.
type Bundle struct {
	// Script is one classic script (IIFE, ES2022): running it once in a fresh V8 context defines
	// globalThis.__engine with meta() and render(i).
	Script string
	// SourceMap is the script's source map (JSON, version 3); its sources are relative to the app directory's
	// parent ("app/routes/fortunes.tsx"); the engine library's files appear as "engine:jsx.ts" and so on.
	SourceMap []byte
	// Routes lists the app's routes sorted by file path; index i is route i of __engine.render(i).
	Routes []Route
}

// ScriptName is the name the script should be compiled under in V8, so that stack traces read
// "bundle.js:LINE:COLUMN"; the source map is external (the script has no sourceMappingURL comment).
const ScriptName = "bundle.js"

// routesDir is the directory under the app directory whose files are the routes.
const routesDir = "routes"

// Build bundles the app in appDir: every appDir/routes/**/*.ts and *.tsx file (not *.d.ts) is a route, and
// `import ... from "engine"` resolves to the embedded jsx library. The output is an IIFE for a neutral platform,
// target ES2022, the automatic JSX runtime of import source "engine" (jsx(type, props) with children in props; a
// file that imports h from "engine" still compiles, h is unused), with an external source map.
//
// Errors: appDir or its routes directory unreadable or without routes, two files with the same route path, or a
// compile error, reported as "file:line:column: message" per esbuild message (file relative to appDir's parent,
// line and column 1-based).
func Build(appDir string) (*Bundle, error) {
	return BuildWith(appDir, Options{})
}

// Options changes how BuildWith compiles an app.
type Options struct {
	// RuntimeJSX leaves every JSX element a call of the runtime's jsx(),
	// as esbuild writes it; by default elements with a literal tag and plain
	// props are precompiled into string concatenation (precompile.go).
	RuntimeJSX bool
	// TwoBytePages renders HTML pages as plain text strings, as before issue
	// 16: a page with one character above U+00FF becomes a two-byte V8
	// string. By default pages are byte strings (jsx.ts, Pages are byte
	// strings); the option exists for the A/B that measures the difference.
	TwoBytePages bool
}

// BuildWith is Build with options.
func BuildWith(appDir string, o Options) (*Bundle, error) {
	abs, err := filepath.Abs(appDir)
	if err != nil {
		return nil, fmt.Errorf("bundle %s: %w", appDir, err)
	}
	routes, err := findRoutes(abs)
	if err != nil {
		return nil, err
	}
	parent := filepath.Dir(abs)
	res := api.Build(api.BuildOptions{
		Stdin: &api.StdinOptions{
			Contents:   entrySource(abs, routes),
			ResolveDir: abs,
			Sourcefile: "engine:generated-entry.ts",
			Loader:     api.LoaderTS,
		},
		AbsWorkingDir:     parent,
		Bundle:            true,
		Write:             false,
		Outfile:           filepath.Join(parent, ScriptName),
		Format:            api.FormatIIFE,
		Platform:          api.PlatformNeutral,
		Target:            api.ES2022,
		JSX:               api.JSXAutomatic,
		JSXImportSource:   "engine",
		Charset:           api.CharsetUTF8,
		Sourcemap:         api.SourceMapExternal,
		SourcesContent:    api.SourcesContentExclude,
		ResolveExtensions: []string{".tsx", ".ts", ".jsx", ".js", ".json"},
		LogLevel:          api.LogLevelSilent,
		Plugins:           plugins(o),
		Define:            map[string]string{"ENGINE_BYTE_PAGES": strconv.FormatBool(!o.TwoBytePages)},
	})
	if len(res.Errors) > 0 {
		return nil, fmt.Errorf("bundle %s: %s", appDir, messages(res.Errors))
	}
	b := &Bundle{Routes: routes}
	for _, f := range res.OutputFiles {
		switch {
		case strings.HasSuffix(f.Path, ".map"):
			b.SourceMap = f.Contents
		case strings.HasSuffix(f.Path, ".js"):
			b.Script = string(f.Contents)
		}
	}
	if b.Script == "" || b.SourceMap == nil {
		return nil, fmt.Errorf("bundle %s: esbuild returned %d output files, want the script and its source map", appDir, len(res.OutputFiles))
	}
	return b, nil
}

// findRoutes lists the route files under abs/routes, sorted by file path.
func findRoutes(abs string) ([]Route, error) {
	dir := filepath.Join(abs, routesDir)
	prefix := filepath.Base(abs) + "/" + routesDir + "/"
	var routes []Route
	byPath := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() || strings.HasSuffix(name, ".d.ts") {
			return nil
		}
		ext := path.Ext(name)
		if ext != ".ts" && ext != ".tsx" {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		stem := strings.TrimSuffix(rel, ext)
		urlPath := "/" + stem
		if stem == "index" {
			urlPath = "/"
		} else if strings.HasSuffix(stem, "/index") {
			urlPath = "/" + strings.TrimSuffix(stem, "/index")
		}
		file := prefix + rel
		if other, ok := byPath[urlPath]; ok {
			return fmt.Errorf("%s and %s both define route %s", other, file, urlPath)
		}
		byPath[urlPath] = file
		routes = append(routes, Route{Path: urlPath, File: file})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("bundle %s: routes: %w", abs, err)
	}
	if len(routes) == 0 {
		return nil, fmt.Errorf("bundle %s: no routes (*.ts or *.tsx files) in %s", abs, dir)
	}
	sort.Slice(routes, func(i, j int) bool { return routes[i].File < routes[j].File })
	return routes, nil
}

// entrySource generates the virtual entry module: it imports every route and passes them to jsx's start().
func entrySource(abs string, routes []Route) string {
	var sb strings.Builder
	sb.WriteString("import { start } from \"engine/entry\";\n")
	base := filepath.Base(abs) + "/"
	for i, r := range routes {
		fmt.Fprintf(&sb, "import * as r%d from %s;\n", i, strconv.Quote("./"+strings.TrimPrefix(r.File, base)))
	}
	sb.WriteString("start([\n")
	for i, r := range routes {
		fmt.Fprintf(&sb, "  { path: %s, file: %s, mod: r%d },\n", strconv.Quote(r.Path), strconv.Quote(r.File), i)
	}
	sb.WriteString("]);\n")
	return sb.String()
}

func plugins(o Options) []api.Plugin {
	if o.RuntimeJSX {
		return []api.Plugin{enginePlugin()}
	}
	return []api.Plugin{enginePlugin(), precompilePlugin(!o.TwoBytePages)}
}

// precompilePlugin loads the app's .tsx and .jsx files through esbuild's
// Transform (TypeScript and the automatic JSX runtime, with an inline
// source map to the file) and precompile, so the bundle maps positions in
// the compiled code back to the source lines. bytePages writes the static
// HTML as page bytes (Options.TwoBytePages false).
func precompilePlugin(bytePages bool) api.Plugin {
	return api.Plugin{
		Name: "engine-precompile",
		Setup: func(b api.PluginBuild) {
			b.OnLoad(api.OnLoadOptions{Filter: `\.[jt]sx$`, Namespace: "file"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
				src, err := os.ReadFile(a.Path)
				if err != nil {
					return api.OnLoadResult{}, err
				}
				loader := api.LoaderTSX
				if strings.HasSuffix(a.Path, ".jsx") {
					loader = api.LoaderJSX
				}
				r := api.Transform(string(src), api.TransformOptions{
					Loader:          loader,
					Sourcefile:      a.Path,
					Sourcemap:       api.SourceMapInline,
					SourcesContent:  api.SourcesContentExclude,
					Target:          api.ES2022,
					Format:          api.FormatESModule,
					JSX:             api.JSXAutomatic,
					JSXImportSource: "engine",
					Charset:         api.CharsetUTF8,
					LogLevel:        api.LogLevelSilent,
				})
				if len(r.Errors) > 0 {
					// Let the bundle's own load report the error at its position.
					return api.OnLoadResult{}, nil
				}
				code, _, err := precompile(string(r.Code), bytePages)
				if err != nil {
					code = string(r.Code) // left as esbuild wrote it
				}
				return api.OnLoadResult{Contents: &code, Loader: api.LoaderJS, ResolveDir: filepath.Dir(a.Path)}, nil
			})
		},
	}
}

// engineNamespace is the esbuild namespace of the embedded jsx library's files.
const engineNamespace = "engine"

// enginePlugin resolves "engine" (jsx.Index), "engine/jsx-runtime" (jsx.Runtime) and "engine/entry" (jsx.Entry)
// to the embedded library, and the library's relative imports ("./jsx") to its other files.
func enginePlugin() api.Plugin {
	return api.Plugin{
		Name: "engine",
		Setup: func(b api.PluginBuild) {
			b.OnResolve(api.OnResolveOptions{Filter: `^engine(/entry|/jsx-runtime)?$`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
				file := jsx.Index
				switch a.Path {
				case "engine/entry":
					file = jsx.Entry
				case "engine/jsx-runtime":
					file = jsx.Runtime
				}
				return api.OnResolveResult{Path: file, Namespace: engineNamespace}, nil
			})
			b.OnResolve(api.OnResolveOptions{Filter: `^\.\.?/`, Namespace: engineNamespace}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
				p := path.Join(path.Dir(a.Importer), a.Path)
				if path.Ext(p) == "" {
					p += ".ts"
				}
				return api.OnResolveResult{Path: p, Namespace: engineNamespace}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: engineNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
				src, err := jsx.FS.ReadFile(a.Path)
				if err != nil {
					return api.OnLoadResult{}, fmt.Errorf("engine library: %w", err)
				}
				s := string(src)
				return api.OnLoadResult{Contents: &s, Loader: api.LoaderTS}, nil
			})
		},
	}
}

// messages formats esbuild errors as "file:line:column: text" (1-based line and column), joined by "; ".
func messages(ms []api.Message) string {
	parts := make([]string, 0, len(ms))
	for _, m := range ms {
		text := m.Text
		if m.PluginName != "" {
			text = "[plugin " + m.PluginName + "] " + text
		}
		if l := m.Location; l != nil {
			parts = append(parts, fmt.Sprintf("%s:%d:%d: %s", l.File, l.Line, l.Column+1, text))
		} else {
			parts = append(parts, text)
		}
	}
	return strings.Join(parts, "; ")
}

// Package framework owns the framework.yaml schema: Load reads one adapter's
// file (frameworks/<name>/framework.yaml) strictly into a Spec, with
// `FILE:LINE: key "k": message` errors; the rules are docs/adapters.md's.
//
// Schema 1 is versioned because third parties write these files: an unknown
// key, a wrong type, a missing required key or a bad value is an error. The
// keys are the fields of Spec, Cache and Variant (each names its `key:`);
// required are schema (1), name (the directory's), start and variants.
package framework

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/internal/yamlfile"
)

// FileName is the name of an adapter's spec file inside its directory.
const FileName = "framework.yaml"

// SchemaVersion is the only framework.yaml schema this package reads.
const SchemaVersion = 1

// Defaults for optional keys.
const (
	// DefaultReady is the readiness path when `ready` is absent.
	DefaultReady = "/json"
	// DefaultReadyTimeout is the readiness wait when `ready_timeout` is absent.
	DefaultReadyTimeout = 60 * time.Second
)

// Environment variables the harness sets for every build and server; a
// framework.yaml may not set them in `env`.
const (
	// EnvPort is the TCP port the server must listen on (127.0.0.1).
	EnvPort = "PORT"
	// EnvDatabasePath is the path of this server's own copy of the dataset.
	EnvDatabasePath = "DATABASE_PATH"
	// EnvBuildDir is the directory build writes its output to and start
	// runs it from (scratch space under .tfbench/, outside the source tree).
	EnvBuildDir = "TFBENCH_BUILD_DIR"
	// EnvNodeEnv is set to "production" for every server and build
	// (docs/design.md: NODE_ENV=production or the equivalent); env may override it.
	EnvNodeEnv = "NODE_ENV"
	// EnvOwner tags every server and build process with its owner, "<harness
	// pid>-<n>" (n from 1); children inherit it across setsid and double forks, so
	// supervise's Stop and KillAll find processes that left the process group.
	EnvOwner = "TFBENCH_OWNER"
)

// reserved are the variables env may not set: the harness owns them.
var reserved = []string{EnvPort, EnvDatabasePath, EnvBuildDir, EnvOwner}

// Spec is one loaded, validated framework.yaml.
type Spec struct {
	// Schema is the file's `schema:` value; always SchemaVersion.
	Schema int
	// Name is the adapter's name (`name:`), equal to its directory's name;
	// results and reports are keyed by it.
	Name string
	// Dir is the adapter's directory (the directory holding File); build
	// and start run there.
	Dir string
	// File is the path framework.yaml was loaded from, as given to Load.
	File string
	// Description is a one-line summary shown in reports (`description:`).
	Description string
	// Language is the adapter's implementation language, free text
	// (`language:`, e.g. "go", "typescript").
	Language string
	// Rendering is the rendering model reports show beside the numbers so
	// readers compare like with like (`rendering:`, e.g. "html/template, no
	// JavaScript", "React with RSC payload").
	Rendering string
	// Runtime names what builds and runs the server (`runtime:`, ValidRuntime):
	// "go", the machine's toolchain, or "node@X.Y.Z", installed by
	// runtimes.EnsureRuntime and first on PATH; empty: the environment as it is.
	Runtime string
	// Versions are the locked versions of the packages `versions:` lists, read at
	// Load from package-lock.json or go.mod, in list order; reports show them as
	// the framework's version.
	Versions []Package
	// Build is a shell command run with `sh -c` in Dir before the first
	// start, with TFBENCH_BUILD_DIR set (`build:`); empty means nothing to
	// build.
	Build string
	// Start is the shell command that starts the server, run with `sh -c`
	// in Dir (`start:`); a variant may override it.
	Start string
	// Ready is the path that must answer 200 before the server counts as
	// started (`ready:`, default DefaultReady).
	Ready string
	// ReadyTimeout is how long supervise.Start waits for Ready to answer
	// 200 (`ready_timeout:`, a Go duration such as "60s", default
	// DefaultReadyTimeout).
	ReadyTimeout time.Duration
	// RenderCounts is the path answering how many times the server rendered each
	// route, e.g. {"/json": 120} (`render_counts:`); when set, verification and the
	// gate require a render per response, so no hidden cache makes a figure.
	// Empty when absent.
	RenderCounts string
	// Env is extra environment for every variant (`env:`), applied after the
	// harness's own variables and before the variant's env. PORT,
	// DATABASE_PATH, TFBENCH_BUILD_DIR and TFBENCH_OWNER may not be set here.
	Env map[string]string
	// Endpoints overrides the suite's path per test type (`endpoints:`);
	// queries, updates and page paths hold the "{n}" placeholder.
	Endpoints map[model.TestType]string
	// Unsupported says why the adapter serves no endpoint for a test type
	// (`unsupported:`, test type → reason); the report shows "n/a: reason".
	// Nil when absent.
	Unsupported map[model.TestType]string
	// Masks match what changes per request or build in this adapter's pages (ids,
	// build hashes; `masks:`, RE2), masked by tfbench ab besides its defaults before
	// it compares two variants' bodies. Nil when absent.
	Masks []*regexp.Regexp
	// Cache is the adapter's cached page route (`cache:`), nil when it has
	// none: a suite test with `cache: hit` is then not applicable.
	Cache *Cache
	// Variants are the named alternatives of this app, in file order
	// (`variants:`); at least one. Results are keyed by variant.
	Variants []Variant
}

// Cache is a framework's cached page route (`cache:` in framework.yaml):
// the page test's page served from the framework's own cache (ISR).
type Cache struct {
	// Path is the route, holding "{n}" for the rows (`path:`).
	Path string
	// HitHeader and HitValue are the header and value a cache hit carries
	// (`hit_header: "x-nextjs-cache: HIT"`, compared without case); empty when
	// render counts confirm hits instead.
	HitHeader, HitValue string
}

// Variant is one named way to run the adapter (an entry of `variants:`):
// e.g. engine `pool` / `serialized`, a Node `cluster` deployment, a patched
// build for an A/B comparison.
type Variant struct {
	// Name is the variant's key under `variants:`.
	Name string
	// Description says what differs in this variant (`description:`).
	Description string
	// Runtime, when not empty, replaces the adapter's runtime for this
	// variant (`runtime:`, same values; e.g. "node@22.22.0" for a Node 22
	// vs 24 comparison). See Spec.RuntimeOf.
	Runtime string
	// Build, when not empty, replaces the adapter's build command
	// (`build:`): the variant is staged and built on its own (e.g. a
	// patch-package patch applied before the framework's build).
	Build string
	// Start, when not empty, replaces the adapter's start command
	// (`start:`).
	Start string
	// ByName keeps the variant out of a run that selects its adapter
	// without naming variants (`by_name: true`): it is measured only as
	// NAME:VARIANT, NAME:* or in tfbench ab (variants that exist for an A/B).
	ByName bool
	// Env is extra environment for this variant (`env:`), applied last, so
	// it overrides the adapter's env.
	Env map[string]string
}

// Error is a framework.yaml problem at a line of a file (yamlfile.Error):
// `FILE:LINE: key "KEY": MSG`, or `FILE:LINE: MSG` without a key. Key is the
// dotted path, e.g. "variants.pool.env"; Line is at least 1.
type Error = yamlfile.Error

var (
	nameRE   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	envKeyRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// loader reads one framework.yaml; its yamlfile.File names the file in
// errors.
type loader struct{ yamlfile.File }

// Load reads and validates one framework.yaml (schema 1, see the package doc),
// reading `versions:` from the adapter's lockfiles. A broken rule is an *Error
// naming file, line and key; an unreadable file is a plain error.
func Load(path string) (*Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("framework: %w", err)
	}
	l := loader{yamlfile.File{Path: path}}
	root, err := l.Decode(data, "a mapping of keys (schema, name, start, ...)")
	if err != nil {
		return nil, err
	}
	s := &Spec{
		File:         path,
		Dir:          filepath.Dir(path),
		Ready:        DefaultReady,
		ReadyTimeout: DefaultReadyTimeout,
	}
	if err := l.spec(root, s); err != nil {
		return nil, err
	}
	return s, nil
}

func (l loader) spec(root *yaml.Node, s *Spec) error {
	kv, err := l.Entries(root, "")
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, e := range kv {
		k, v := e.Key, e.Value
		key := k.Value
		have[key] = true
		switch key {
		case "schema":
			if v.Kind != yaml.ScalarNode || v.Tag != "!!int" {
				return l.Errorf(v, key, "must be the integer %d, found %s", SchemaVersion, yamlfile.Describe(v))
			}
			n, err := strconv.Atoi(v.Value)
			if err != nil || n != SchemaVersion {
				return l.Errorf(v, key, "unsupported schema %s (this tfbench reads schema %d)", v.Value, SchemaVersion)
			}
			s.Schema = n
		case "name":
			if s.Name, err = l.Str(v, key); err != nil {
				return err
			}
			dir := s.Dir
			if abs, err := filepath.Abs(dir); err == nil {
				dir = abs
			}
			if dir = filepath.Base(dir); s.Name != dir {
				return l.Errorf(v, key, "%q must equal the directory name %q", s.Name, dir)
			}
		case "description":
			s.Description, err = l.Str(v, key)
		case "language":
			s.Language, err = l.Str(v, key)
		case "rendering":
			s.Rendering, err = l.Str(v, key)
		case "runtime":
			s.Runtime, err = l.runtime(v, key)
		case "versions":
			s.Versions, err = l.versions(v, key, s.Dir)
		case "build":
			s.Build, err = l.Str(v, key)
		case "start":
			if s.Start, err = l.Str(v, key); err == nil && strings.TrimSpace(s.Start) == "" {
				err = l.Errorf(v, key, "must not be empty")
			}
		case "ready":
			if s.Ready, err = l.Str(v, key); err == nil && !strings.HasPrefix(s.Ready, "/") {
				err = l.Errorf(v, key, "%q must be a path starting with /", s.Ready)
			}
		case "ready_timeout":
			if s.ReadyTimeout, err = l.Duration(v, key); err == nil && s.ReadyTimeout <= 0 {
				err = l.Errorf(v, key, "%q must be positive", v.Value)
			}
		case "render_counts":
			if s.RenderCounts, err = l.Str(v, key); err == nil && !strings.HasPrefix(s.RenderCounts, "/") {
				err = l.Errorf(v, key, "%q must be a path starting with /", s.RenderCounts)
			}
		case "env":
			s.Env, err = l.env(v, key)
		case "endpoints":
			s.Endpoints, err = l.endpoints(v, key)
		case "variants":
			s.Variants, err = l.variants(v, key)
		case "masks":
			s.Masks, err = l.masks(v, key)
		case "cache":
			s.Cache, err = l.cache(v, key)
		case "unsupported":
			s.Unsupported, err = l.unsupported(v, key)
		default:
			return l.Errorf(k, key, "unknown key (known: schema, name, description, language, rendering, runtime, versions, build, start, ready, ready_timeout, render_counts, env, endpoints, unsupported, masks, cache, variants)")
		}
		if err != nil {
			return err
		}
	}
	if err := l.unsupportedServed(root, s); err != nil {
		return err
	}
	if s.Cache != nil && s.Cache.HitHeader == "" && s.RenderCounts == "" {
		return l.Errorf(root, "cache", "a cache hit needs a confirmation: set cache.hit_header (e.g. \"x-nextjs-cache: HIT\") or render_counts")
	}
	for _, req := range []struct{ key, why string }{
		{"schema", fmt.Sprintf("missing (required: schema: %d)", SchemaVersion)},
		{"name", "missing (required: the adapter's directory name)"},
		{"start", "missing (required: the shell command that starts the server)"},
		{"variants", "missing (required: at least one variant, e.g. `default: {}`)"},
	} {
		if !have[req.key] {
			return l.Errorf(root, req.key, "%s", req.why)
		}
	}
	return nil
}

// masks reads `masks:`, a list of regular expressions (RE2).
func (l loader) masks(n *yaml.Node, key string) ([]*regexp.Regexp, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, l.Errorf(n, key, "must be a list of regular expressions, found %s", yamlfile.Describe(n))
	}
	var out []*regexp.Regexp
	for i, item := range n.Content {
		ik := key + "." + strconv.Itoa(i)
		src, err := l.Str(item, ik)
		if err != nil {
			return nil, err
		}
		re, err := regexp.Compile(src)
		if err != nil {
			return nil, l.Errorf(item, ik, "%q is not a regular expression: %v", src, err)
		}
		if re.MatchString("") {
			return nil, l.Errorf(item, ik, "%q matches the empty string; a mask must match what changes", src)
		}
		out = append(out, re)
	}
	return out, nil
}

// cache reads `cache:`: path (with {n}) and an optional hit_header.
func (l loader) cache(n *yaml.Node, keyPath string) (*Cache, error) {
	kv, err := l.Entries(n, keyPath)
	if err != nil {
		return nil, err
	}
	c := &Cache{}
	for _, e := range kv {
		k, v := e.Key, e.Value
		key := e.Path
		switch k.Value {
		case "path":
			if c.Path, err = l.Str(v, key); err != nil {
				return nil, err
			}
			if !strings.HasPrefix(c.Path, "/") {
				return nil, l.Errorf(v, key, "%q must be a path starting with /", c.Path)
			}
			if !strings.Contains(c.Path, "{n}") {
				return nil, l.Errorf(v, key, "%q lacks the {n} placeholder for the rows (e.g. /isr?rows={n})", c.Path)
			}
		case "hit_header":
			h, err := l.Str(v, key)
			if err != nil {
				return nil, err
			}
			name, value, ok := strings.Cut(h, ":")
			c.HitHeader, c.HitValue = strings.TrimSpace(name), strings.TrimSpace(value)
			if !ok || c.HitHeader == "" || c.HitValue == "" {
				return nil, l.Errorf(v, key, "%q: write the header a hit carries as \"name: value\" (e.g. \"x-nextjs-cache: HIT\")", h)
			}
		default:
			return nil, l.Errorf(k, key, "unknown key (known: path, hit_header)")
		}
	}
	if c.Path == "" {
		return nil, l.Errorf(n, keyPath+".path", "missing (required: the cached page route, e.g. /isr?rows={n})")
	}
	return c, nil
}

// versions reads `versions:`, a list of package names, and looks each up
// in the adapter's lockfiles (lockedVersions).
func (l loader) versions(n *yaml.Node, key, dir string) ([]Package, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, l.Errorf(n, key, "must be a list of package names, e.g. [next, react], found %s", yamlfile.Describe(n))
	}
	var out []Package
	for i, item := range n.Content {
		ik := key + "." + strconv.Itoa(i)
		name, err := l.Str(item, ik)
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(out, func(p Package) bool { return p.Name == name }) {
			return nil, l.Errorf(item, ik, "%q is listed twice", name)
		}
		ps, err := lockedVersions(dir, []string{name})
		if err != nil {
			return nil, l.Errorf(item, ik, "%v", err)
		}
		out = append(out, ps...)
	}
	return out, nil
}

// runtime reads a `runtime:` value: "go" or "node@X.Y.Z" (ValidRuntime).
func (l loader) runtime(v *yaml.Node, key string) (string, error) {
	r, err := l.Str(v, key)
	if err != nil {
		return "", err
	}
	if !ValidRuntime(r) {
		return "", l.Errorf(v, key, "%q %s", r, RuntimeSyntax)
	}
	return r, nil
}

func (l loader) env(n *yaml.Node, keyPath string) (map[string]string, error) {
	if n.Tag == "!!null" {
		return nil, nil
	}
	kv, err := l.Entries(n, keyPath)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(kv))
	for _, e := range kv {
		k, v := e.Key, e.Value
		key := e.Path
		if !envKeyRE.MatchString(k.Value) {
			return nil, l.Errorf(k, key, "not a valid environment variable name")
		}
		if slices.Contains(reserved, k.Value) {
			return nil, l.Errorf(k, key, "is set by the harness and may not be overridden")
		}
		val, err := l.Str(v, key)
		if err != nil {
			return nil, err
		}
		out[k.Value] = val
	}
	return out, nil
}

func (l loader) endpoints(n *yaml.Node, keyPath string) (map[model.TestType]string, error) {
	if n.Tag == "!!null" {
		return nil, nil
	}
	kv, err := l.Entries(n, keyPath)
	if err != nil {
		return nil, err
	}
	out := make(map[model.TestType]string, len(kv))
	for _, e := range kv {
		k, v := e.Key, e.Value
		key := e.Path
		t := model.TestType(k.Value)
		if !t.Valid() {
			names := make([]string, len(model.Types))
			for i, t := range model.Types {
				names[i] = string(t)
			}
			return nil, l.Errorf(k, key, "unknown test type (known: %s)", strings.Join(names, ", "))
		}
		p, err := l.Str(v, key)
		if err != nil {
			return nil, err
		}
		if !strings.HasPrefix(p, "/") {
			return nil, l.Errorf(v, key, "%q must be a path starting with /", p)
		}
		hasN := strings.Contains(p, "{n}")
		if t.TakesN() && !hasN {
			return nil, l.Errorf(v, key, "%q lacks the {n} placeholder for the row count (e.g. /%s?queries={n})", p, t)
		}
		if !t.TakesN() && hasN {
			return nil, l.Errorf(v, key, "%q has {n}, which only queries, updates, page and stream take", p)
		}
		if err := l.parts(v, key, t, p); err != nil {
			return nil, err
		}
		out[t] = p
	}
	return out, nil
}

func (l loader) variants(n *yaml.Node, keyPath string) ([]Variant, error) {
	if n.Tag == "!!null" {
		return nil, l.Errorf(n, keyPath, "needs at least one variant, e.g. `default: {}`")
	}
	kv, err := l.Entries(n, keyPath)
	if err != nil {
		return nil, err
	}
	if len(kv) == 0 {
		return nil, l.Errorf(n, keyPath, "needs at least one variant, e.g. `default: {}`")
	}
	out := make([]Variant, 0, len(kv))
	for _, e := range kv {
		k, v := e.Key, e.Value
		vp := e.Path
		if !nameRE.MatchString(k.Value) {
			return nil, l.Errorf(k, vp, "variant names use letters, digits, '.', '_' and '-'")
		}
		vr := Variant{Name: k.Value}
		if v.Tag == "!!null" {
			out = append(out, vr)
			continue
		}
		fields, err := l.Entries(v, vp)
		if err != nil {
			return nil, err
		}
		for _, f := range fields {
			fk, fv := f.Key, f.Value
			key := f.Path
			switch fk.Value {
			case "description":
				vr.Description, err = l.Str(fv, key)
			case "start":
				if vr.Start, err = l.Str(fv, key); err == nil && strings.TrimSpace(vr.Start) == "" {
					err = l.Errorf(fv, key, "must not be empty (omit it to use the adapter's start)")
				}
			case "build":
				if vr.Build, err = l.Str(fv, key); err == nil && strings.TrimSpace(vr.Build) == "" {
					err = l.Errorf(fv, key, "must not be empty (omit it to use the adapter's build)")
				}
			case "runtime":
				vr.Runtime, err = l.runtime(fv, key)
			case "env":
				vr.Env, err = l.env(fv, key)
			case "by_name":
				if vr.ByName, err = l.Bool(fv, key); err == nil && vr.ByName && len(out) == 0 {
					err = l.Errorf(fv, key, "the first variant is the adapter's default and is always selectable; put a by_name variant after it")
				}
			default:
				err = l.Errorf(fk, key, "unknown key (known: description, runtime, build, start, env, by_name)")
			}
			if err != nil {
				return nil, err
			}
		}
		out = append(out, vr)
	}
	return out, nil
}

// Discover loads every dir/*/framework.yaml (dir holds the adapters, e.g. the
// repository's "frameworks"), sorted by name, skipping folders without one. A
// missing dir or the first invalid file (an *Error) is the error.
func Discover(dir string) ([]*Spec, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("framework: discover: %w", err)
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*", FileName))
	if err != nil {
		return nil, fmt.Errorf("framework: discover %s: %w", dir, err)
	}
	var out []*Spec
	for _, p := range paths {
		s, err := Load(p)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Endpoint returns the adapter's path for test type t from `endpoints:`,
// or fallback (normally the suite test's path) when the adapter does not
// override it. Paths of queries and updates hold "{n}" (suite.FillPath).
func (s *Spec) Endpoint(t model.TestType, fallback string) string {
	if p, ok := s.Endpoints[t]; ok {
		return p
	}
	return fallback
}

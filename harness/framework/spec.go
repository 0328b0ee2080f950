// Package framework loads framework adapters (frameworks/<name>/framework.yaml)
// and runs their servers: build, start on a CPU set, wait for readiness, and
// stop the whole process group so that no process outlives a run (DESIGN.md,
// Framework adapters).
//
// # framework.yaml, schema 1
//
// Third parties write these files, so the format is versioned and loading is
// strict: an unknown key, a wrong type, a missing required key or a bad value
// is an error of the form
//
//	frameworks/x/framework.yaml:LINE: key "k": message
//
// Keys (see the fields of Spec and Variant for each one's meaning):
//
//	schema         required, the integer 1
//	name           required, equal to the adapter's directory name
//	description    optional, one line for reports
//	language       optional, free text ("go", "typescript")
//	rendering      optional, the rendering model reports show
//	runtime        optional, "go" or a pinned runtime such as "node@24.22.3"
//	build          optional, shell command (sh -c) run in the adapter directory
//	start          required, shell command (sh -c) run in the adapter directory
//	ready          optional, readiness path answering 200, default /json
//	ready_timeout  optional, Go duration, default 60s
//	env            optional, map of extra environment for every variant
//	endpoints      optional, map of test type to path; {n} required on
//	               queries and updates
//	variants       required, ordered map of at least one variant; each with
//	               optional description, start and env
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
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/tfbench/tfbench/harness/suite"
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
	// (DESIGN.md: NODE_ENV=production or the equivalent); env may override it.
	EnvNodeEnv = "NODE_ENV"
)

// reserved are the variables env may not set: the harness owns them.
var reserved = []string{EnvPort, EnvDatabasePath, EnvBuildDir}

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
	// Runtime names what runs the server (`runtime:`): "go" is the
	// machine's Go toolchain (results record `go version`); "node@24.22.3"
	// is a Node.js version the harness installs itself. Free text here;
	// empty when absent.
	Runtime string
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
	// ReadyTimeout is how long Start waits for Ready to answer 200
	// (`ready_timeout:`, a Go duration such as "60s", default
	// DefaultReadyTimeout).
	ReadyTimeout time.Duration
	// Env is extra environment for every variant (`env:`), applied after the
	// harness's own variables and before the variant's env. PORT,
	// DATABASE_PATH and TFBENCH_BUILD_DIR may not be set here.
	Env map[string]string
	// Endpoints overrides the suite's path per test type (`endpoints:`);
	// queries and updates paths hold the "{n}" placeholder.
	Endpoints map[suite.Type]string
	// Variants are the named alternatives of this app, in file order
	// (`variants:`); at least one. Results are keyed by variant.
	Variants []Variant
}

// Variant is one named way to run the adapter (an entry of `variants:`):
// e.g. engine `pool` / `serialized`, a Node `cluster` deployment, a patched
// build for an A/B comparison.
type Variant struct {
	// Name is the variant's key under `variants:`.
	Name string
	// Description says what differs in this variant (`description:`).
	Description string
	// Start, when not empty, replaces the adapter's start command
	// (`start:`).
	Start string
	// Env is extra environment for this variant (`env:`), applied last, so
	// it overrides the adapter's env.
	Env map[string]string
}

// Error is a framework.yaml problem at a line of a file. Error() formats it
// as "FILE:LINE: key "KEY": MSG", or "FILE:LINE: MSG" when no key applies
// (a YAML syntax error).
type Error struct {
	// File is the framework.yaml path as given to Load.
	File string
	// Line is the 1-based line of the offending key or value (for a missing
	// key, the line of the mapping that lacks it).
	Line int
	// Key is the dotted path of the offending key, e.g. "ready_timeout",
	// "endpoints.queries", "variants.pool.env".
	Key string
	// Msg says what is wrong and, where it helps, what is accepted.
	Msg string
}

func (e *Error) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d: key %q: %s", e.File, e.Line, e.Key, e.Msg)
}

var (
	nameRE   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	envKeyRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
)

// yamlParserProblems are the problems go.yaml.in/yaml/v3 reports from its
// parser (parserc.go) rather than its scanner. For these it prints the
// 0-based line of the construct it was parsing ("line 2" for the third
// line) and omits "line 0"; scanner errors are already 1-based.
var yamlParserProblems = []string{
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"did not find expected '-' indicator",
	"did not find expected <document start>",
	"did not find expected <stream-start>",
	"did not find expected key",
	"did not find expected node content",
	"found duplicate %TAG directive",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found undefined tag handle",
}

// yamlErrorLine turns a yaml.v3 syntax error into a 1-based line and the
// message without the "yaml: line N: " prefix.
func yamlErrorLine(err error) (int, string) {
	text := err.Error()
	line, msg := 0, strings.TrimPrefix(text, "yaml: ")
	if m := yamlLine.FindStringSubmatch(text); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	if slices.Contains(yamlParserProblems, msg) {
		line++
	}
	return max(line, 1), msg
}

// loader carries the file name for error messages.
type loader struct{ file string }

func (l loader) errf(n *yaml.Node, key, format string, args ...any) error {
	line := 1
	if n != nil && n.Line > 0 {
		line = n.Line
	}
	return &Error{File: l.file, Line: line, Key: key, Msg: fmt.Sprintf(format, args...)}
}

// Load reads and validates one framework.yaml. Errors: the file cannot be
// read; YAML syntax; and every schema rule, each as an *Error naming file,
// line and key: unknown key, duplicate key, schema not 1, name missing or
// not equal to the directory name, start missing, a bad ready path or
// ready_timeout, an env variable that is badly named or reserved (PORT,
// DATABASE_PATH, TFBENCH_BUILD_DIR), an endpoint for an unknown test type,
// an endpoint path not starting with "/", "{n}" missing on queries or
// updates or present on another type, no variants, a bad variant name.
func Load(path string) (*Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("framework: %w", err)
	}
	l := loader{file: path}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, l.errf(nil, "", "empty file (want a mapping with schema: 1)")
		}
		line, msg := yamlErrorLine(err)
		return nil, &Error{File: path, Line: line, Msg: "YAML: " + msg}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, l.errf(&extra, "", "more than one YAML document")
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
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

// entries returns a mapping's key/value pairs, rejecting non-mappings and
// duplicate keys. keyPath is the dotted path of n itself ("" for the root).
func (l loader) entries(n *yaml.Node, keyPath string) ([][2]*yaml.Node, error) {
	n = deref(n)
	if n.Kind != yaml.MappingNode {
		what := keyPath
		if what == "" {
			return nil, l.errf(n, "", "the file must be a mapping of keys (schema, name, start, ...), found %s", kindName(n))
		}
		return nil, l.errf(n, what, "must be a mapping, found %s", kindName(n))
	}
	seen := map[string]int{}
	var out [][2]*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), deref(n.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			return nil, l.errf(k, keyPath, "keys must be plain strings")
		}
		if prev, dup := seen[k.Value]; dup {
			return nil, l.errf(k, join(keyPath, k.Value), "duplicate key (first on line %d)", prev)
		}
		seen[k.Value] = k.Line
		out = append(out, [2]*yaml.Node{k, v})
	}
	return out, nil
}

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func join(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "nothing (null)"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "an empty document"
}

// str reads a scalar as a string; null and non-scalars are errors.
func (l loader) str(v *yaml.Node, key string) (string, error) {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		return "", l.errf(v, key, "must be a string, found %s", kindName(v))
	}
	return v.Value, nil
}

func (l loader) spec(root *yaml.Node, s *Spec) error {
	kv, err := l.entries(root, "")
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, e := range kv {
		k, v := e[0], e[1]
		key := k.Value
		have[key] = true
		switch key {
		case "schema":
			if v.Kind != yaml.ScalarNode || v.Tag != "!!int" {
				return l.errf(v, key, "must be the integer %d, found %s", SchemaVersion, kindName(v))
			}
			n, err := strconv.Atoi(v.Value)
			if err != nil || n != SchemaVersion {
				return l.errf(v, key, "unsupported schema %s (this tfbench reads schema %d)", v.Value, SchemaVersion)
			}
			s.Schema = n
		case "name":
			if s.Name, err = l.str(v, key); err != nil {
				return err
			}
			dir := s.Dir
			if abs, err := filepath.Abs(dir); err == nil {
				dir = abs
			}
			if dir = filepath.Base(dir); s.Name != dir {
				return l.errf(v, key, "%q must equal the directory name %q", s.Name, dir)
			}
		case "description":
			s.Description, err = l.str(v, key)
		case "language":
			s.Language, err = l.str(v, key)
		case "rendering":
			s.Rendering, err = l.str(v, key)
		case "runtime":
			s.Runtime, err = l.str(v, key)
		case "build":
			s.Build, err = l.str(v, key)
		case "start":
			if s.Start, err = l.str(v, key); err == nil && strings.TrimSpace(s.Start) == "" {
				err = l.errf(v, key, "must not be empty")
			}
		case "ready":
			if s.Ready, err = l.str(v, key); err == nil && !strings.HasPrefix(s.Ready, "/") {
				err = l.errf(v, key, "%q must be a path starting with /", s.Ready)
			}
		case "ready_timeout":
			var txt string
			if txt, err = l.str(v, key); err != nil {
				break
			}
			d, perr := time.ParseDuration(txt)
			switch {
			case perr != nil:
				err = l.errf(v, key, "%q is not a duration (e.g. 60s, 2m)", txt)
			case d <= 0:
				err = l.errf(v, key, "%q must be positive", txt)
			}
			s.ReadyTimeout = d
		case "env":
			s.Env, err = l.env(v, key)
		case "endpoints":
			s.Endpoints, err = l.endpoints(v, key)
		case "variants":
			s.Variants, err = l.variants(v, key)
		default:
			return l.errf(k, key, "unknown key (known: schema, name, description, language, rendering, runtime, build, start, ready, ready_timeout, env, endpoints, variants)")
		}
		if err != nil {
			return err
		}
	}
	for _, req := range []struct{ key, why string }{
		{"schema", fmt.Sprintf("missing (required: schema: %d)", SchemaVersion)},
		{"name", "missing (required: the adapter's directory name)"},
		{"start", "missing (required: the shell command that starts the server)"},
		{"variants", "missing (required: at least one variant, e.g. `default: {}`)"},
	} {
		if !have[req.key] {
			return l.errf(root, req.key, "%s", req.why)
		}
	}
	return nil
}

func (l loader) env(n *yaml.Node, keyPath string) (map[string]string, error) {
	if n.Tag == "!!null" {
		return nil, nil
	}
	kv, err := l.entries(n, keyPath)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(kv))
	for _, e := range kv {
		k, v := e[0], e[1]
		key := join(keyPath, k.Value)
		if !envKeyRE.MatchString(k.Value) {
			return nil, l.errf(k, key, "not a valid environment variable name")
		}
		if slices.Contains(reserved, k.Value) {
			return nil, l.errf(k, key, "is set by the harness and may not be overridden")
		}
		val, err := l.str(v, key)
		if err != nil {
			return nil, err
		}
		out[k.Value] = val
	}
	return out, nil
}

func (l loader) endpoints(n *yaml.Node, keyPath string) (map[suite.Type]string, error) {
	if n.Tag == "!!null" {
		return nil, nil
	}
	kv, err := l.entries(n, keyPath)
	if err != nil {
		return nil, err
	}
	out := make(map[suite.Type]string, len(kv))
	for _, e := range kv {
		k, v := e[0], e[1]
		key := join(keyPath, k.Value)
		t := suite.Type(k.Value)
		if !t.Valid() {
			names := make([]string, len(suite.Types))
			for i, t := range suite.Types {
				names[i] = string(t)
			}
			return nil, l.errf(k, key, "unknown test type (known: %s)", strings.Join(names, ", "))
		}
		p, err := l.str(v, key)
		if err != nil {
			return nil, err
		}
		if !strings.HasPrefix(p, "/") {
			return nil, l.errf(v, key, "%q must be a path starting with /", p)
		}
		hasN := strings.Contains(p, "{n}")
		if t.TakesN() && !hasN {
			return nil, l.errf(v, key, "%q lacks the {n} placeholder for the row count (e.g. /%s?queries={n})", p, t)
		}
		if !t.TakesN() && hasN {
			return nil, l.errf(v, key, "%q has {n}, which only queries and updates take", p)
		}
		out[t] = p
	}
	return out, nil
}

func (l loader) variants(n *yaml.Node, keyPath string) ([]Variant, error) {
	if n.Tag == "!!null" {
		return nil, l.errf(n, keyPath, "needs at least one variant, e.g. `default: {}`")
	}
	kv, err := l.entries(n, keyPath)
	if err != nil {
		return nil, err
	}
	if len(kv) == 0 {
		return nil, l.errf(n, keyPath, "needs at least one variant, e.g. `default: {}`")
	}
	out := make([]Variant, 0, len(kv))
	for _, e := range kv {
		k, v := e[0], e[1]
		vp := join(keyPath, k.Value)
		if !nameRE.MatchString(k.Value) {
			return nil, l.errf(k, vp, "variant names use letters, digits, '.', '_' and '-'")
		}
		vr := Variant{Name: k.Value}
		if v.Tag == "!!null" {
			out = append(out, vr)
			continue
		}
		fields, err := l.entries(v, vp)
		if err != nil {
			return nil, err
		}
		for _, f := range fields {
			fk, fv := f[0], f[1]
			key := join(vp, fk.Value)
			switch fk.Value {
			case "description":
				vr.Description, err = l.str(fv, key)
			case "start":
				if vr.Start, err = l.str(fv, key); err == nil && strings.TrimSpace(vr.Start) == "" {
					err = l.errf(fv, key, "must not be empty (omit it to use the adapter's start)")
				}
			case "env":
				vr.Env, err = l.env(fv, key)
			default:
				err = l.errf(fk, key, "unknown key (known: description, start, env)")
			}
			if err != nil {
				return nil, err
			}
		}
		out = append(out, vr)
	}
	return out, nil
}

// Discover loads every dir/*/framework.yaml, where dir is the directory
// holding the adapters (the repository's "frameworks"), and returns them
// sorted by name. Subdirectories without a framework.yaml are skipped. The
// first invalid file is returned as an error (an *Error naming file, line
// and key); a missing dir is an error too.
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

// Variant returns the variant called name; "" selects the first variant in
// file order (the default). An unknown name is an error that lists the
// adapter's variants.
func (s *Spec) Variant(name string) (Variant, error) {
	if name == "" {
		return s.Variants[0], nil
	}
	names := make([]string, len(s.Variants))
	for i, v := range s.Variants {
		if v.Name == name {
			return v, nil
		}
		names[i] = v.Name
	}
	return Variant{}, fmt.Errorf("framework %s: no variant %q (have: %s)", s.Name, name, strings.Join(names, ", "))
}

// Endpoint returns the adapter's path for test type t from `endpoints:`,
// or fallback (normally the suite test's path) when the adapter does not
// override it. Paths of queries and updates hold "{n}" (suite.FillPath).
func (s *Spec) Endpoint(t suite.Type, fallback string) string {
	if p, ok := s.Endpoints[t]; ok {
		return p
	}
	return fallback
}

// baseEnv is the parent's environment plus the harness's variables.
func baseEnv(buildDir string) []string {
	return append(os.Environ(), EnvNodeEnv+"=production", EnvBuildDir+"="+buildDir)
}

// BuildCmd runs the adapter's build command (if any) with `sh -c` in Dir,
// with the parent's environment plus NODE_ENV=production and
// TFBENCH_BUILD_DIR=buildDir (created if missing; made absolute). Output
// (stdout and stderr) goes to log (nil discards it). The build runs in its
// own process group, killed as a whole when ctx ends. An adapter without
// build returns nil at once. A failure is an error naming the framework,
// the exit status and the last lines of output.
func (s *Spec) BuildCmd(ctx context.Context, buildDir string, log io.Writer) error {
	if s.Build == "" {
		return nil
	}
	abs, err := filepath.Abs(buildDir)
	if err != nil {
		return fmt.Errorf("framework %s: build dir: %w", s.Name, err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return fmt.Errorf("framework %s: build dir: %w", s.Name, err)
	}
	if log == nil {
		log = io.Discard
	}
	tail := &tailBuffer{max: 8 << 10}
	out := io.MultiWriter(log, tail)
	cmd := exec.CommandContext(ctx, "sh", "-c", s.Build)
	cmd.Dir = s.Dir
	cmd.Env = baseEnv(abs)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	// A grandchild holding the output pipe open must not hang Wait forever.
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err = cmd.Run()
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("framework %s: build `%s` stopped after %s: %w", s.Name, s.Build, time.Since(start).Round(time.Millisecond), ctx.Err())
		}
		return fmt.Errorf("framework %s: build `%s` failed: %v\n%s", s.Name, s.Build, err, indent(lastLines(tail.Bytes(), tailLines)))
	}
	return nil
}

// tailLines is how many lines of build output or server log errors quote.
const tailLines = 20

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) Bytes() []byte { return t.buf }

// lastLines returns the last n lines of b (without a trailing newline).
func lastLines(b []byte, n int) string {
	s := strings.TrimRight(string(b), "\n")
	if s == "" {
		return "(no output)"
	}
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func indent(s string) string { return "  | " + strings.ReplaceAll(s, "\n", "\n  | ") }

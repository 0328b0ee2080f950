package framework

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/suite"
)

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		dir  string
		line int
		key  string
		msg  string // substring of the message
	}{
		{"unknown-key", 5, "colour", "unknown key (known: schema, name,"},
		{"schema-2", 1, "schema", "unsupported schema 2 (this tfbench reads schema 1)"},
		{"schema-string", 2, "schema", `must be the integer 1, found "1"`},
		{"no-schema", 1, "schema", "missing (required: schema: 1)"},
		{"no-start", 1, "start", "missing (required: the shell command that starts the server)"},
		{"empty-start", 3, "start", "must not be empty"},
		{"bad-duration", 4, "ready_timeout", `"10 parsecs" is not a duration`},
		{"negative-duration", 4, "ready_timeout", `"-5s" must be positive`},
		{"ready-relative", 4, "ready", `"health" must be a path starting with /`},
		{"endpoint-type", 6, "endpoints.jsonp", "unknown test type (known: json, plaintext, db, queries, fortunes, updates, page, stream, coldstart)"},
		{"stream-no-k", 5, "endpoints.stream", `"/stream?rows={n}" lacks the {k} placeholder for the parts (e.g. /stream?rows={n}&parts={k})`},
		{"k-on-page", 5, "endpoints.page", `"/ssr?rows={n}&parts={k}" has {k}, which only stream takes`},
		{"unsupported-type", 5, "unsupported.streaming", "unknown test type (known: json, plaintext, db, queries, fortunes, updates, page, stream, coldstart)"},
		{"unsupported-empty", 5, "unsupported.stream", `the reason must be one line of text, e.g. "renders the whole page before its first byte"`},
		{"unsupported-list", 5, "unsupported.stream", "must be a string, found a list"},
		{"unsupported-served", 7, "unsupported.stream", "the adapter serves stream at /s?rows={n}&parts={k} (endpoints.stream): drop one of the two"},
		{"queries-no-n", 5, "endpoints.queries", `"/queries?queries=5" lacks the {n} placeholder`},
		{"updates-no-n", 6, "endpoints.updates", `"/updates" lacks the {n} placeholder`},
		{"n-on-db", 5, "endpoints.db", `"/db?x={n}" has {n}, which only queries, updates, page and stream take`},
		{"endpoint-relative", 5, "endpoints.json", `"json" must be a path starting with /`},
		{"no-variants", 1, "variants", "missing (required: at least one variant"},
		{"empty-variants", 4, "variants", "needs at least one variant"},
		{"wrong-name", 2, "name", `"other" must equal the directory name "wrong-name"`},
		{"variant-key", 8, "variants.pool.cmd", "unknown key (known: description, runtime, build, start, env, by_name)"},
		{"variant-by-name-first", 6, "variants.patched.by_name", "the first variant is the adapter's default and is always selectable; put a by_name variant after it"},
		{"variant-by-name-text", 7, "variants.patched.by_name", `must be true or false, found "yes"`},
		{"variant-build-empty", 7, "variants.patched.build", "must not be empty (omit it to use the adapter's build)"},
		{"runtime-range", 4, "runtime", `"node@^24.0.0" must be "go" or an exact Node.js version such as "node@24.22.3"`},
		{"runtime-name", 3, "runtime", `"python" must be "go" or an exact Node.js version`},
		{"runtime-list", 4, "runtime", "must be a string, found a list"},
		{"variant-runtime", 9, "variants.node22.runtime", `"node@22" must be "go" or an exact Node.js version such as "node@24.22.3"`},
		{"versions-missing", 5, "versions.1", `"nuxt" is in neither package-lock.json nor go.mod of testdata/bad/versions-missing`},
		{"render-counts-relative", 4, "render_counts", `"__tfbench/renders" must be a path starting with /`},
		{"mask-bad", 6, "masks.1", `"(unclosed" is not a regular expression: error parsing regexp: missing closing ): ` + "`(unclosed`"},
		{"mask-empty", 4, "masks.0", `"x*" matches the empty string; a mask must match what changes`},
		{"cache-no-n", 6, "cache.path", `"/isr" lacks the {n} placeholder for the rows (e.g. /isr?rows={n})`},
		{"cache-header", 6, "cache.hit_header", `"HIT": write the header a hit carries as "name: value" (e.g. "x-nextjs-cache: HIT")`},
		{"cache-unconfirmed", 1, "cache", `a cache hit needs a confirmation: set cache.hit_header (e.g. "x-nextjs-cache: HIT") or render_counts`},
		{"versions-scalar", 4, "versions", `must be a list of package names, e.g. [next, react], found "next"`},
		{"bad-variant-name", 5, "variants.my variant", "variant names use letters"},
		{"reserved-env", 6, "env.PORT", "is set by the harness and may not be overridden"},
		{"reserved-owner", 7, "variants.default.env.TFBENCH_OWNER", "is set by the harness and may not be overridden"},
		{"variant-env-list", 6, "variants.default.env", "must be a mapping, found a list"},
		{"duplicate-key", 5, "start", "duplicate key (first on line 3)"},
		{"not-mapping", 1, "", "the file must be a mapping of keys"},
		{"empty-file", 1, "", "empty file"},
		{"syntax", 3, "", "YAML: did not find expected ',' or ']'"},
		{"syntax-scanner", 4, "", "YAML: mapping values are not allowed in this context"},
		{"syntax-key", 5, "", "YAML: did not find expected key"},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			path := filepath.Join("testdata", "bad", tc.dir, "framework.yaml")
			s, err := Load(path)
			if err == nil {
				t.Fatalf("Load(%s) = %+v, want an error", path, s)
			}
			var fe *Error
			if !errors.As(err, &fe) {
				t.Fatalf("error %q is %T, want *Error", err, err)
			}
			if fe.File != path || fe.Line != tc.line || fe.Key != tc.key || !strings.Contains(fe.Msg, tc.msg) {
				t.Errorf("error %q\nwant file %s line %d key %q message containing %q", err, path, tc.line, tc.key, tc.msg)
			}
			prefix := path + ":" + strconv.Itoa(tc.line) + ": "
			if tc.key != "" {
				prefix += `key "` + tc.key + `": `
			}
			if !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("error %q does not start with %q", err, prefix)
			}
		})
	}
}

func TestLoadFixture(t *testing.T) {
	path := filepath.Join("testdata", "frameworks", "fixture", "framework.yaml")
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	want := &Spec{
		Schema:       1,
		Name:         "fixture",
		Dir:          filepath.Join("testdata", "frameworks", "fixture"),
		File:         path,
		Description:  "test fixture server",
		Language:     "go",
		Rendering:    "none",
		Runtime:      "go",
		Build:        `CGO_ENABLED=0 go build -o "$TFBENCH_BUILD_DIR/server" .`,
		Start:        `exec "$TFBENCH_BUILD_DIR/server"`,
		Ready:        "/json",
		ReadyTimeout: 20 * time.Second,
		Env:          map[string]string{"FIXTURE_SPEC": "from-spec", "FIXTURE_BOTH": "from-spec", "NODE_ENV": "fixture"},
		Endpoints:    map[model.TestType]string{model.Queries: "/q?n={n}", model.JSON: "/j"},
		Variants: []Variant{
			{Name: "default", Description: "the server replaces the shell (exec)", Env: map[string]string{"FIXTURE_BOTH": "from-variant"}},
			{Name: "shell", Description: "the shell stays the group leader and spawns a sleep beside the server", Start: `sleep 300 & "$TFBENCH_BUILD_DIR/server"`},
			{Name: "never", Env: map[string]string{"FIXTURE_MODE": "never"}},
			{Name: "exit", Env: map[string]string{"FIXTURE_MODE": "exit"}},
			{Name: "stubborn", Description: "ignores SIGTERM, so Stop must SIGKILL", Env: map[string]string{"FIXTURE_MODE": "stubborn"}},
			{Name: "escape", Description: "spawns processes that leave the group (setsid, double fork)", Env: map[string]string{"FIXTURE_MODE": "escape"}},
			{Name: "foreign", Description: "does not listen; a detached copy of itself with a cleared environment does", Env: map[string]string{"FIXTURE_MODE": "foreign"}},
		},
	}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("Load(%s)\n got %+v\nwant %+v", path, s, want)
	}

	if got := s.Endpoint(model.Queries, "/queries?queries={n}"); got != "/q?n={n}" {
		t.Errorf("Endpoint(queries) = %q, want the override /q?n={n}", got)
	}
	if got := s.Endpoint(model.Fortunes, "/fortunes"); got != "/fortunes" {
		t.Errorf("Endpoint(fortunes) = %q, want the fallback /fortunes", got)
	}
	if got := suite.PathFor(s.Endpoint(model.Queries, ""), 20); got != "/q?n=20" {
		t.Errorf("PathFor(Endpoint(queries), 20) = %q", got)
	}

	v, err := s.Variant("")
	if err != nil || v.Name != "default" {
		t.Errorf(`Variant("") = %+v, %v; want default`, v, err)
	}
	v, err = s.Variant("stubborn")
	if err != nil || v.Env["FIXTURE_MODE"] != "stubborn" {
		t.Errorf(`Variant("stubborn") = %+v, %v`, v, err)
	}
	_, err = s.Variant("cluster")
	if err == nil || err.Error() != `framework fixture: no variant "cluster" (have: default, shell, never, exit, stubborn, escape, foreign)` {
		t.Errorf(`Variant("cluster") error = %v`, err)
	}
}

func TestLoadDefaults(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "minimal")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, "framework.yaml")
	os.WriteFile(path, []byte("schema: 1\nname: minimal\nstart: ./s\nvariants:\n  only:\n"), 0o644)
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Ready != "/json" || s.ReadyTimeout != 60*time.Second || s.Build != "" || s.Env != nil || s.Endpoints != nil {
		t.Errorf("defaults: %+v", s)
	}
	if len(s.Variants) != 1 || !reflect.DeepEqual(s.Variants[0], Variant{Name: "only"}) {
		t.Errorf("variants %+v, want one empty variant named only", s.Variants)
	}
}

// TestGoStdlibSpec loads the repository's reference adapter.
func TestGoStdlibSpec(t *testing.T) {
	path := filepath.Join("..", "..", "frameworks", "go-stdlib", "framework.yaml")
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "go-stdlib" || s.Runtime != "go" || s.Ready != "/json" || s.ReadyTimeout != time.Minute {
		t.Errorf("go-stdlib spec %+v", s)
	}
	if !strings.Contains(s.Build, `"$TFBENCH_BUILD_DIR/server"`) || s.Start != `exec "$TFBENCH_BUILD_DIR/server"` {
		t.Errorf("go-stdlib build %q start %q", s.Build, s.Start)
	}
	wantEP := map[model.TestType]string{
		model.JSON: "/json", model.Plaintext: "/plaintext", model.DB: "/db",
		model.Queries: "/queries?queries={n}", model.Fortunes: "/fortunes", model.Updates: "/updates?queries={n}", model.Page: "/ssr?rows={n}",
		model.Stream: "/stream?rows={n}&parts={k}",
	}
	if !maps.Equal(s.Endpoints, wantEP) {
		t.Errorf("go-stdlib endpoints %v, want %v", s.Endpoints, wantEP)
	}
	if len(s.Variants) != 1 || s.Variants[0].Name != "default" {
		t.Errorf("go-stdlib variants %+v, want [default]", s.Variants)
	}
}

func TestDiscover(t *testing.T) {
	root := t.TempDir()
	write := func(name, body string) {
		os.MkdirAll(filepath.Join(root, name), 0o755)
		if body != "" {
			os.WriteFile(filepath.Join(root, name, "framework.yaml"), []byte(body), 0o644)
		}
	}
	write("zeta", "schema: 1\nname: zeta\nstart: ./z\nvariants: {default: {}}\n")
	write("alpha", "schema: 1\nname: alpha\nstart: ./a\nvariants: {default: {}}\n")
	write("notes", "") // a directory without framework.yaml
	os.WriteFile(filepath.Join(root, "README.md"), []byte("x"), 0o644)

	specs, err := Discover(root)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
	}
	if !reflect.DeepEqual(names, []string{"alpha", "zeta"}) {
		t.Errorf("Discover names %v, want [alpha zeta]", names)
	}
	if specs[0].Dir != filepath.Join(root, "alpha") {
		t.Errorf("alpha Dir %q", specs[0].Dir)
	}

	write("broken", "schema: 1\nname: broken\nstart: ./b\nvariants: {default: {}}\nport: 8080\n")
	_, err = Discover(root)
	want := filepath.Join(root, "broken", "framework.yaml") + `:5: key "port": unknown key`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Discover with a broken file: %v, want prefix %q", err, want)
	}

	if _, err := Discover(filepath.Join(root, "missing")); err == nil {
		t.Error("Discover of a missing directory: no error")
	}
}

// TestStreamEndpoint: `endpoints: stream:` is read as the other endpoints
// (both placeholders), and `unsupported:` gives a test type's reason.
func TestStreamEndpoint(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "streamer")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, "framework.yaml")
	os.WriteFile(path, []byte("schema: 1\nname: streamer\nstart: ./s\nendpoints:\n  stream: /st?rows={n}&parts={k}\nunsupported:\n  page: \"renders only streamed pages\"\nvariants:\n  only:\n"), 0o644)
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := suite.PathFor(suite.FillParts(s.Endpoint(model.Stream, "/stream?rows={n}&parts={k}"), 4), 1000); got != "/st?rows=1000&parts=4" {
		t.Errorf("stream path %q", got)
	}
	if !maps.Equal(s.Unsupported, map[model.TestType]string{model.Page: "renders only streamed pages"}) {
		t.Errorf("unsupported %v", s.Unsupported)
	}
	if got, none := s.NotApplicable(model.Page), s.NotApplicable(model.Stream); got != "renders only streamed pages" || none != "" {
		t.Errorf("NotApplicable(page) %q, (stream) %q", got, none)
	}
}

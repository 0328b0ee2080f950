package stage

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/runtimes"
)

// stageFixture writes an adapter directory whose build counts its runs in
// counter (outside the stage), writes into its cwd and TFBENCH_BUILD_DIR,
// and lists what it was given to build from.
func stageFixture(t *testing.T) (s *framework.Spec, counter string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "app")
	counter = filepath.Join(t.TempDir(), "builds")
	files := map[string]string{
		"framework.yaml":            "schema: 1\n",
		"src/page.jsx":              "export default 1\n",
		"package-lock.json":         "{}\n",
		"node_modules/dep/index.js": "installed\n",
		".git/HEAD":                 "ref: refs/heads/main\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "run.sh"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("src/page.jsx", filepath.Join(dir, "page-link.jsx")); err != nil {
		t.Fatal(err)
	}
	build := `echo x >> ` + counter + ` && find . -type f | sort > "$TFBENCH_BUILD_DIR/inputs.txt" && mkdir -p dist && echo built > dist/out.txt`
	return &framework.Spec{Name: "app", Dir: dir, Build: build}, counter
}

func builds(t *testing.T, counter string) int {
	t.Helper()
	b, err := os.ReadFile(counter)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "x")
}

func TestStageCopiesBuildsAndCaches(t *testing.T) {
	s, counter := stageFixture(t)
	root := filepath.Join(t.TempDir(), "build", "app", "go")
	rt := runtimes.Runtime{Name: framework.RuntimeGo, Version: "go1.26.8"}
	ctx := context.Background()

	b1, err := Stage(ctx, s, root, rt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b1.Cached || builds(t, counter) != 1 {
		t.Fatalf("first Stage: cached=%v, builds=%d; want a build", b1.Cached, builds(t, counter))
	}
	if b1.Spec.Dir != filepath.Join(root, "src") || b1.OutDir != filepath.Join(root, "out") || s.Dir == b1.Spec.Dir {
		t.Errorf("staged Dir %s OutDir %s (source %s)", b1.Spec.Dir, b1.OutDir, s.Dir)
	}
	inputs, err := os.ReadFile(filepath.Join(b1.OutDir, "inputs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// node_modules and .git are not copied; the symbolic link is copied as a link (find -type f skips it).
	want := "./framework.yaml\n./package-lock.json\n./run.sh\n./src/page.jsx\n"
	if string(inputs) != want {
		t.Errorf("the build saw\n%s\nwant\n%s", inputs, want)
	}
	if st, err := os.Stat(filepath.Join(b1.Spec.Dir, "run.sh")); err != nil || st.Mode().Perm() != 0o755 {
		t.Errorf("run.sh in the stage: %v, %v; want mode 0755", st, err)
	}
	if target, err := os.Readlink(filepath.Join(b1.Spec.Dir, "page-link.jsx")); err != nil || target != "src/page.jsx" {
		t.Errorf("symbolic link in the stage: %q, %v", target, err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "dist")); !os.IsNotExist(err) {
		t.Errorf("the build wrote into the source tree: %v", err)
	}

	// Unchanged sources, and a change inside node_modules only: cached.
	if err := os.WriteFile(filepath.Join(s.Dir, "node_modules", "dep", "index.js"), []byte("other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b2, err := Stage(ctx, s, root, rt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !b2.Cached || b2.Hash != b1.Hash || builds(t, counter) != 1 {
		t.Errorf("second Stage: cached=%v, same hash %v, builds=%d; want the cached build", b2.Cached, b2.Hash == b1.Hash, builds(t, counter))
	}

	// A changed source file, then a changed lockfile, then another runtime: each rebuilds.
	steps := []func(){
		func() { os.WriteFile(filepath.Join(s.Dir, "src", "page.jsx"), []byte("export default 2\n"), 0o644) },
		func() {
			os.WriteFile(filepath.Join(s.Dir, "package-lock.json"), []byte(`{"lockfileVersion":3}`), 0o644)
		},
		func() { rt.Version = "go1.26.9" },
		func() { os.Chmod(filepath.Join(s.Dir, "src", "page.jsx"), 0o755) },
	}
	seen := map[string]bool{b1.Hash: true}
	for i, change := range steps {
		change()
		b, err := Stage(ctx, s, root, rt, nil)
		if err != nil {
			t.Fatal(err)
		}
		if b.Cached || seen[b.Hash] || builds(t, counter) != i+2 {
			t.Errorf("after change %d: cached=%v, hash seen before %v, builds=%d; want a new build", i+1, b.Cached, seen[b.Hash], builds(t, counter))
		}
		seen[b.Hash] = true
		if got, _ := os.ReadFile(filepath.Join(b.Spec.Dir, "src", "page.jsx")); string(got) != "export default 2\n" {
			t.Errorf("after change %d the stage holds %q", i+1, got)
		}
	}
}

func TestStageFailedBuildLeavesNoStamp(t *testing.T) {
	s, counter := stageFixture(t)
	root := filepath.Join(t.TempDir(), "stage")
	good := s.Build
	s.Build = `echo x >> ` + counter + ` && echo "no such tool" >&2 && exit 3`
	_, err := Stage(context.Background(), s, root, runtimes.Runtime{}, nil)
	if err == nil || !strings.Contains(err.Error(), "framework app: build") || !strings.Contains(err.Error(), "no such tool") {
		t.Fatalf("failed build error = %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, stampFile)); !os.IsNotExist(err) {
		t.Errorf("a failed build left a stamp: %v", err)
	}
	// The same failing build is tried again, not taken from a cache.
	if _, err := Stage(context.Background(), s, root, runtimes.Runtime{}, nil); err == nil || builds(t, counter) != 2 {
		t.Errorf("second failing Stage: %v, builds=%d; want the build tried again", err, builds(t, counter))
	}
	s.Build = good
	b, err := Stage(context.Background(), s, root, runtimes.Runtime{}, nil)
	if err != nil || b.Cached || builds(t, counter) != 3 {
		t.Errorf("fixed build: %v, cached=%v, builds=%d", err, b != nil && b.Cached, builds(t, counter))
	}
}

func TestRuntimeSlug(t *testing.T) {
	for spec, want := range map[string]string{"node@24.22.3": "node-24.22.3", "go": "go", "": "default"} {
		if got := RuntimeSlug(spec); got != want {
			t.Errorf("RuntimeSlug(%q) = %q, want %q", spec, got, want)
		}
	}
}

// Every command stages and installs in the same places of the work folder.
func TestStageRootAndRuntimesDir(t *testing.T) {
	s := &framework.Spec{Name: "vinext", Runtime: "node@24.22.3"}
	for _, tc := range []struct {
		v    framework.Variant
		want string
	}{
		{framework.Variant{Name: "default"}, filepath.Join(".tfbench", "build", "vinext", "node-24.22.3")},
		{framework.Variant{Name: "node26", Runtime: "node@26.12.1"}, filepath.Join(".tfbench", "build", "vinext", "node-26.12.1")},
		{framework.Variant{Name: "server-node", Build: "npm ci && patch-package && vinext build"}, filepath.Join(".tfbench", "build", "vinext", "node-24.22.3+server-node")},
	} {
		if got := StageRoot(".tfbench", s, tc.v); got != tc.want {
			t.Errorf("StageRoot(%s) = %q, want %q", tc.v.Name, got, tc.want)
		}
	}
	if got, want := runtimes.RuntimesDir(".tfbench"), filepath.Join(".tfbench", "runtimes"); got != want {
		t.Errorf("RuntimesDir = %q, want %q", got, want)
	}
}

// A variant with its own build (a patch applied before the framework's
// build) stages apart from the default's: its command and env, its own
// hash and folder; the default's build stays cached beside it.
func TestStageVariantBuild(t *testing.T) {
	s, counter := stageFixture(t)
	s.Env = map[string]string{"FLAVOR": "plain", "KEEP": "kept"}
	s.Variants = []framework.Variant{{Name: "default"}, {Name: "patched", ByName: true,
		Build: `echo x >> ` + counter + ` && mkdir -p dist && echo "patched $FLAVOR $KEEP" > dist/out.txt`,
		Env:   map[string]string{"FLAVOR": "sliced"}}}
	work := t.TempDir()
	rt := runtimes.Runtime{Name: framework.RuntimeGo, Version: "go1.26.8"}
	ctx := context.Background()
	var got []*Build
	for _, v := range s.Variants {
		b, err := Stage(ctx, s.ForVariant(v), StageRoot(work, s, v), rt, nil)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, b)
	}
	if s.ForVariant(s.Variants[0]) != s || s.Env["FLAVOR"] != "plain" {
		t.Errorf("ForVariant changed the default or the adapter: %+v", s.Env)
	}
	if got[0].Hash == got[1].Hash || got[0].Root == got[1].Root || filepath.Base(got[1].Root) != "default+patched" {
		t.Errorf("builds not apart: %s %s, %s %s", got[0].Hash[:8], got[0].Root, got[1].Hash[:8], got[1].Root)
	}
	for i, want := range []string{"built\n", "patched sliced kept\n"} {
		b, err := os.ReadFile(filepath.Join(got[i].Spec.Dir, "dist", "out.txt"))
		if err != nil || string(b) != want {
			t.Errorf("%s: dist/out.txt %q (%v), want %q", s.Variants[i].Name, b, err, want)
		}
	}
	if n := builds(t, counter); n != 2 {
		t.Errorf("%d builds, want 2", n)
	}
	again, err := Stage(ctx, s, StageRoot(work, s, s.Variants[0]), rt, nil)
	if err != nil || !again.Cached {
		t.Errorf("default rebuilt after the variant's build: cached %v, %v", again != nil && again.Cached, err)
	}
}

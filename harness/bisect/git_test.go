package bisect

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/internal/gittest"
)

var adapter = []string{"frameworks/x"}

// TestBisectRange: GOOD..BAD on a generated history lists every commit,
// oldest first, with its tree key; a README change and an adapter change
// undone later collapse, and each candidate names the adapter files it
// changed.
func TestBisectRange(t *testing.T) {
	r := gittest.New(t, t.TempDir())
	good := r.Commit("good", map[string]string{"frameworks/x/main.go": "package main\n", "frameworks/y/main.go": "y\n", "README.md": "r\n"})
	r.Commit("readme", map[string]string{"README.md": "r2\n"})
	c2 := r.Commit("x: comment", map[string]string{"frameworks/x/main.go": "package main // x\n", "frameworks/x/go.mod": "module x\n"})
	r.Commit("y only", map[string]string{"frameworks/y/main.go": "y2\n"})
	c4 := r.Commit("x: back", map[string]string{"frameworks/x/main.go": "package main\n"})
	bad := r.Commit("readme again", map[string]string{"README.md": "r3\n"})

	g := Git{Dir: r.Dir}
	gc, list, err := g.Range(context.Background(), good[:7], "main", adapter)
	if err != nil {
		t.Fatal(err)
	}
	if gc.SHA != good || gc.Subject != "good" || !strings.HasPrefix(gc.Key, "040000 tree ") || !strings.HasSuffix(gc.Key, "\tframeworks/x") {
		t.Errorf("good %+v", gc)
	}
	var subjects []string
	for _, c := range list {
		subjects = append(subjects, c.Subject)
	}
	if strings.Join(subjects, ",") != "readme,x: comment,y only,x: back,readme again" || list[4].SHA != bad {
		t.Errorf("range %v", subjects)
	}
	cands := Candidates(gc, list)
	if len(cands) != 2 || cands[0].SHA != c2 || cands[1].SHA != c4 {
		t.Fatalf("candidates %+v", cands)
	}
	if !reflect.DeepEqual(cands[0].Files, []string{"frameworks/x/go.mod", "frameworks/x/main.go"}) || !reflect.DeepEqual(cands[1].Files, []string{"frameworks/x/main.go"}) {
		t.Errorf("files %v, %v", cands[0].Files, cands[1].Files)
	}
	if cands[0].Date.IsZero() || cands[0].Short != c2[:len(cands[0].Short)] {
		t.Errorf("candidate %+v", cands[0])
	}
}

// TestBisectNotAncestor: GOOD on another branch than BAD is refused,
// naming both; so is an unknown revision.
func TestBisectNotAncestor(t *testing.T) {
	r := gittest.New(t, t.TempDir())
	r.Commit("root", map[string]string{"frameworks/x/a": "1\n"})
	r.Git("checkout", "-q", "-b", "side")
	side := r.Commit("side", map[string]string{"frameworks/x/a": "2\n"})
	r.Git("checkout", "-q", "main")
	main := r.Commit("main", map[string]string{"frameworks/x/a": "3\n"})
	g := Git{Dir: r.Dir}
	_, _, err := g.Range(context.Background(), "side", "main", adapter)
	want := fmt.Sprintf("--good side (%s) is not an ancestor of --bad main (%s): bisect needs GOOD older than BAD on one line of history", side[:7], main[:7])
	if err == nil || err.Error() != want {
		t.Errorf("err %v\nwant %s", err, want)
	}
	_, _, err = g.Range(context.Background(), "nope", "main", adapter)
	if want := "--good: nope is not a commit of the repository " + r.Dir; err == nil || err.Error() != want {
		t.Errorf("err %v, want %s", err, want)
	}
}

// TestBisectExtract: a commit's adapter is written under the folder as it
// was at that commit (git archive), with its executable bit, nothing else
// and no worktree added; a second call reuses it.
func TestBisectExtract(t *testing.T) {
	r := gittest.New(t, t.TempDir())
	r.Write(map[string]string{"frameworks/x/sub/run.sh": "#!/bin/sh\n"})
	if err := os.Chmod(filepath.Join(r.Dir, "frameworks/x/sub/run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	first := r.Commit("one", map[string]string{"frameworks/x/main.go": "v1\n", "other/f": "o\n"})
	r.Commit("two", map[string]string{"frameworks/x/main.go": "v2\n"})
	g := Git{Dir: r.Dir}
	dst := filepath.Join(t.TempDir(), "trees", "one")
	if err := g.Extract(context.Background(), first, adapter, dst); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dst, "frameworks/x/main.go"))
	if err != nil || string(data) != "v1\n" {
		t.Errorf("main.go %q, %v", data, err)
	}
	if _, err := os.Stat(filepath.Join(dst, "other")); !os.IsNotExist(err) {
		t.Errorf("other/ extracted too: %v", err)
	}
	head := r.Git("rev-parse", "HEAD")
	dst2 := filepath.Join(filepath.Dir(dst), "head")
	if err := g.Extract(context.Background(), head, adapter, dst2); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(dst2, "frameworks/x/sub/run.sh")); err != nil || st.Mode().Perm()&0o100 == 0 {
		t.Errorf("run.sh: %v, %v (want executable)", st, err)
	}
	if err := os.WriteFile(filepath.Join(dst, "frameworks/x/built"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := g.Extract(context.Background(), first, adapter, dst); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dst, "frameworks/x/built")); err != nil {
		t.Errorf("the second extraction did not reuse the folder: %v", err)
	}
	if wt := r.Git("worktree", "list"); strings.Count(wt, "\n") != 0 {
		t.Errorf("worktrees:\n%s", wt)
	}
	if st := r.Git("status", "--porcelain"); st != "" {
		t.Errorf("the repository changed:\n%s", st)
	}
}

// TestBisectDependencyBump: a commit changing only package-lock.json and
// package.json's dependencies is a bump that lists the lockfile's moved
// versions (testdata fixtures) and the manifest's ranges; go.mod's require
// versions too; a package.json script change or a source file is not.
func TestBisectDependencyBump(t *testing.T) {
	before, err := os.ReadFile("testdata/package-lock.before.json")
	if err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile("testdata/package-lock.after.json")
	if err != nil {
		t.Fatal(err)
	}
	r := gittest.New(t, t.TempDir())
	pkg := `{"name": "x", "scripts": {"start": "node s.mjs"}, "dependencies": {"fastify": "^5.2.0", "left-pad": "^1.3.0"}}`
	c0 := r.Commit("start", map[string]string{
		"frameworks/x/package-lock.json": string(before), "frameworks/x/package.json": pkg, "frameworks/x/s.mjs": "1\n",
		"frameworks/g/go.mod": "module g\n\ngo 1.24\n\nrequire (\n\tgolang.org/x/net v0.30.0\n\tmodernc.org/sqlite v1.34.0\n)\n",
	})
	c1 := r.Commit("bump fastify", map[string]string{
		"frameworks/x/package-lock.json": string(after),
		"frameworks/x/package.json":      `{"name": "x", "scripts": {"start": "node s.mjs"}, "dependencies": {"fastify": "^5.3.1", "left-pad": "^1.3.0"}}`,
	})
	g := Git{Dir: r.Dir}
	ctx := context.Background()
	b, err := DependencyBump(ctx, g, c0, c1, []string{"frameworks/x/package-lock.json", "frameworks/x/package.json"})
	if err != nil {
		t.Fatal(err)
	}
	lock, man := "frameworks/x/package-lock.json", "frameworks/x/package.json"
	want := &Bump{Files: []string{lock, man}, Moves: []Move{
		{lock, "fastify", "5.2.0", "5.3.1"},
		{lock, "fastify/node_modules/semver", "7.6.0", "7.7.1"},
		{lock, "new-dep", "", "2.0.0"},
		{lock, "old-dep", "0.1.0", ""},
		{man, "fastify", "^5.2.0", "^5.3.1"},
	}}
	if !reflect.DeepEqual(b, want) {
		t.Errorf("bump %+v\nwant %+v", b, want)
	}

	c2 := r.Commit("script", map[string]string{"frameworks/x/package.json": `{"name": "x", "scripts": {"start": "node --jitless s.mjs"}, "dependencies": {"fastify": "^5.3.1", "left-pad": "^1.3.0"}}`})
	if b, err := DependencyBump(ctx, g, c1, c2, []string{man}); err != nil || b != nil {
		t.Errorf("a script change: bump %+v, %v (want none)", b, err)
	}
	if b, err := DependencyBump(ctx, g, c1, c2, []string{lock, "frameworks/x/s.mjs"}); err != nil || b != nil {
		t.Errorf("a source file: bump %+v, %v (want none)", b, err)
	}

	c3 := r.Commit("go bump", map[string]string{"frameworks/g/go.mod": "module g\n\ngo 1.24\n\nrequire (\n\tgolang.org/x/net v0.31.0\n\tmodernc.org/sqlite v1.34.0\n)\n", "frameworks/g/go.sum": "x\n"})
	b, err = DependencyBump(ctx, g, c2, c3, []string{"frameworks/g/go.mod", "frameworks/g/go.sum"})
	want = &Bump{Files: []string{"frameworks/g/go.mod", "frameworks/g/go.sum"}, Moves: []Move{{"frameworks/g/go.mod", "golang.org/x/net", "v0.30.0", "v0.31.0"}}}
	if err != nil || !reflect.DeepEqual(b, want) {
		t.Errorf("go.mod: bump %+v, %v\nwant %+v", b, err, want)
	}
}

// TestBisectAdaptersSelfContained holds the tree key's premise: no adapter
// reads outside frameworks/NAME when it builds or starts, so that folder's
// tree is what a commit builds. framework.yaml, package.json (scripts,
// file: dependencies) and go.mod (replace) name no path with "../"; an
// adapter that needs one must have that path added to the tree key.
func TestBisectAdaptersSelfContained(t *testing.T) {
	dirs, err := filepath.Glob("../../frameworks/*/framework.yaml")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no adapters under ../../frameworks: %v", err)
	}
	for _, y := range dirs {
		dir := filepath.Dir(y)
		for _, name := range []string{"framework.yaml", "package.json", "go.mod"} {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(string(data), "\n") {
				if strings.Contains(line, "../") || strings.Contains(line, `..\`) {
					t.Errorf("%s:%d: %q reaches outside the adapter's folder: add that path to bisect's tree key (cmd/tfbench/bisect.go) or keep the adapter self-contained", filepath.Join(dir, name), i+1, strings.TrimSpace(line))
				}
			}
		}
	}
}

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fakeGH puts a gh on PATH that appends its argv, one argument a line and
// "--" after each call, to the file it returns, prints "gh says hi" and
// exits 1 when an argument is "id=" + GH_FAIL_ID.
func fakeGH(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh for the fake gh")
	}
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >>\"$GH_CALLS\"; done\necho -- >>\"$GH_CALLS\"\necho 'gh says hi'\n" +
		"for a in \"$@\"; do if [ -n \"$GH_FAIL_ID\" ] && [ \"$a\" = \"id=$GH_FAIL_ID\" ]; then exit 1; fi; done\n"
	if err := os.WriteFile(filepath.Join(dir, "gh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("GH_CALLS", calls)
	t.Setenv("GH_FAIL_ID", "")
	return calls
}

// ghCalls reads the fake gh's record: one argv a call.
func ghCalls(t *testing.T, path string) [][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var calls [][]string
	var argv []string
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if line == "--" {
			calls = append(calls, argv)
			argv = nil
			continue
		}
		argv = append(argv, line)
	}
	return calls
}

func call(ref, good, bad, adapter, test, n, id string) []string {
	a := []string{"workflow", "run", "bisect.yml"}
	if ref != "" {
		a = append(a, "--ref", ref)
	}
	a = append(a, "-f", "good="+good, "-f", "bad="+bad, "-f", "adapter="+adapter, "-f", "test="+test)
	if n != "" {
		a = append(a, "-f", "n="+n)
	}
	return append(a, "-f", "id="+id)
}

var a, b, c, d, e = strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 40), strings.Repeat("d", 40), strings.Repeat("e", 40)

// TestDispatch runs the dispatcher on eight new regressions with a fake gh:
// the five largest slowdowns are started, largest first, each with its
// exact argv (n only for a test with one, --ref the workflow's branch); the
// one whose nights measured one commit is not bisected; the two past the
// cap are listed with the command that starts them.
func TestDispatch(t *testing.T) {
	calls := fakeGH(t)
	t.Setenv("GITHUB_REF_NAME", "main")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"testdata/new-changes.json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s%s", code, stdout.String(), stderr.String())
	}
	want := [][]string{
		call("main", c, a, "fastify:default", "page", "1000", "2026-12-03-fastify-default-page-1000-ratio"),
		call("main", a, b, "node-http:default", "json", "", "2026-12-04-node-http-default-json-ratio"),
		call("main", d, c, "nextjs:default", "page", "100", "2026-12-02-nextjs-default-page-100-ratio"),
		call("main", d, c, "koa:default", "db", "", "2026-12-02-koa-default-db-ratio"),
		call("main", a, b, "express:default", "plaintext", "", "2026-12-04-express-default-plaintext-ratio"),
	}
	if got := ghCalls(t, calls); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("gh was called with\n%q\nwant\n%q", got, want)
	}
	wantOut := "bisect-dispatch: started bisect.yml for 2026-12-03-fastify-default-page-1000-ratio: fastify:default page n=1000, ratio -30.0% [-33.0%, -28.0%], ccccccc..aaaaaaa (2026-12-02..2026-12-03)\n" +
		"bisect-dispatch: not started: 2026-12-03-hono-default-json-ratio: the nights before and after (2026-12-02, 2026-12-03) both measured aaaaaaa: nothing to bisect (the change is outside the code: the runner, the network or the dataset)\n" +
		"bisect-dispatch: started bisect.yml for 2026-12-04-node-http-default-json-ratio: node-http:default json, ratio -12.0% [-15.0%, -10.0%], aaaaaaa..bbbbbbb (2026-12-03..2026-12-04)\n" +
		"bisect-dispatch: started bisect.yml for 2026-12-02-nextjs-default-page-100-ratio: nextjs:default page n=100, ratio -10.0% [-13.0%, -8.0%], ddddddd..ccccccc (2026-12-01..2026-12-02)\n" +
		"bisect-dispatch: started bisect.yml for 2026-12-02-koa-default-db-ratio: koa:default db, ratio -8.0% [-11.0%, -6.0%], ddddddd..ccccccc (2026-12-01..2026-12-02)\n" +
		"bisect-dispatch: started bisect.yml for 2026-12-04-express-default-plaintext-ratio: express:default plaintext, ratio -5.0% [-8.0%, -3.0%], aaaaaaa..bbbbbbb (2026-12-03..2026-12-04)\n" +
		"bisect-dispatch: not started (over the cap of 5 a night): 2026-12-01-elysia-default-json-ratio: elysia:default json, ratio -4.0% [-7.0%, -2.0%], eeeeeee..ddddddd (2026-11-30..2026-12-01); by hand: gh workflow run bisect.yml --ref main -f good=" + e + " -f bad=" + d + " -f adapter=elysia:default -f test=json -f id=2026-12-01-elysia-default-json-ratio\n" +
		"bisect-dispatch: not started (over the cap of 5 a night): 2026-12-01-h3-uws-json-ratio: h3:uws json, ratio -3.0% [-6.0%, -1.0%], eeeeeee..ddddddd (2026-11-30..2026-12-01); by hand: gh workflow run bisect.yml --ref main -f good=" + e + " -f bad=" + d + " -f adapter=h3:uws -f test=json -f id=2026-12-01-h3-uws-json-ratio\n" +
		"bisect-dispatch: 8 new regressions, 5 bisects started (at most 5 a night)\n"
	if got := stdout.String(); got != wantOut {
		t.Errorf("stdout\n%s\nwant\n%s", got, wantOut)
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr %q", stderr.String())
	}
}

// TestDispatchFailure: a gh call that fails is said on stderr with gh's
// output, the others still start, and the exit status is 1. Without
// GITHUB_REF_NAME gh gets no --ref (it takes the default branch).
func TestDispatchFailure(t *testing.T) {
	calls := fakeGH(t)
	t.Setenv("GITHUB_REF_NAME", "")
	t.Setenv("GH_FAIL_ID", "2026-12-04-node-http-default-json-ratio")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--max", "2", "testdata/new-changes.json"}, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1: %s%s", code, stdout.String(), stderr.String())
	}
	want := [][]string{
		call("", c, a, "fastify:default", "page", "1000", "2026-12-03-fastify-default-page-1000-ratio"),
		call("", a, b, "node-http:default", "json", "", "2026-12-04-node-http-default-json-ratio"),
	}
	if got := ghCalls(t, calls); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("gh was called with\n%q\nwant\n%q", got, want)
	}
	if got, want := stderr.String(), "gh says hi\nbisect-dispatch: gh workflow run bisect.yml for 2026-12-04-node-http-default-json-ratio failed: exit status 1\n"; got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
	out := stdout.String()
	if !strings.HasSuffix(out, "bisect-dispatch: 8 new regressions, 1 bisects started (at most 2 a night), 1 failed to start\n") ||
		!strings.Contains(out, "bisect-dispatch: not started (over the cap of 2 a night): 2026-12-02-nextjs-default-page-100-ratio: nextjs:default page n=100, ratio -10.0% [-13.0%, -8.0%], ddddddd..ccccccc (2026-12-01..2026-12-02); by hand: gh workflow run bisect.yml -f good="+d+" -f bad="+c+" -f adapter=nextjs:default -f test=page -f n=100 -f id=2026-12-02-nextjs-default-page-100-ratio\n") {
		t.Errorf("stdout\n%s", out)
	}
}

// TestDispatchNone: a night without new regressions starts nothing and says so.
func TestDispatchNone(t *testing.T) {
	calls := fakeGH(t)
	path := filepath.Join(t.TempDir(), "new-changes.json")
	os.WriteFile(path, []byte(`{"schema":1,"changes":[]}`), 0o644)
	var stdout, stderr bytes.Buffer
	if code := run([]string{path}, &stdout, &stderr); code != 0 || stdout.String() != "bisect-dispatch: no new regressions in "+path+": no bisect started\n" || stderr.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	if got := ghCalls(t, calls); got != nil {
		t.Errorf("gh was called: %q", got)
	}
}

// TestDispatchBadFile: a file that is missing, of another schema or with a
// change lacking a key starts nothing and exits 2 naming the file, the
// change and the key.
func TestDispatchBadFile(t *testing.T) {
	calls := fakeGH(t)
	dir := t.TempDir()
	for _, tc := range []struct{ name, body, want string }{
		{"missing.json", "", "stat DIR/missing.json: no such file or directory (.ci/publish-pages writes it with tfbench history --new-changes)"},
		{"schema.json", `{"schema":2,"changes":[]}`, "DIR/schema.json: changes schema 2, this tfbench reads schema 1"},
		{"syntax.json", `{"schema":1,"changes":[}`, "DIR/syntax.json: not a tfbench changes file: invalid character '}' looking for beginning of value"},
		{"commit.json", `{"schema":1,"changes":[{"id":"x","framework":"f","variant":"v","test":"json","before":{"commit":"` + a + `"},"after":{"commit":""}}]}`, `DIR/commit.json: changes[0] (id "x"): no after.commit`},
		{"id.json", `{"schema":1,"changes":[{"id":"../x","framework":"f","variant":"v","test":"json","before":{"commit":"` + a + `"},"after":{"commit":"` + b + `"}}]}`, `DIR/id.json: changes[0]: id "../x" is not a slug (letters, digits, '.', '_', '-')`},
	} {
		path := filepath.Join(dir, tc.name)
		if tc.body != "" {
			os.WriteFile(path, []byte(tc.body), 0o644)
		}
		var stdout, stderr bytes.Buffer
		code := run([]string{path}, &stdout, &stderr)
		if want := "bisect-dispatch: " + strings.ReplaceAll(tc.want, "DIR", dir) + "\n"; code != 2 || stderr.String() != want || stdout.Len() != 0 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.name, code, stdout.String(), stderr.String(), want)
		}
	}
	if got := ghCalls(t, calls); got != nil {
		t.Errorf("gh was called: %q", got)
	}
}

// TestScript runs .ci/bisect-dispatch (go run of this command from the
// repository root) on the fixture, named relative to the caller's folder.
func TestScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command with go run")
	}
	calls := fakeGH(t)
	t.Setenv("GITHUB_REF_NAME", "main")
	// A relative file is the caller's, though the command runs from the root.
	cmd := exec.Command("../../.ci/bisect-dispatch", "--max", "1", "testdata/new-changes.json")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.HasSuffix(string(out), "bisect-dispatch: 8 new regressions, 1 bisects started (at most 1 a night)\n") {
		t.Errorf("said\n%s", out)
	}
	want := [][]string{call("main", c, a, "fastify:default", "page", "1000", "2026-12-03-fastify-default-page-1000-ratio")}
	if got := ghCalls(t, calls); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("gh was called with\n%q\nwant\n%q", got, want)
	}
}

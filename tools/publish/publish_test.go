package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/internal/testenv"
)

// TestPublish runs go tool task publish end to end on a copy of the
// repository made a git repository of one commit, on the tiny suites of
// testdata/suites (json; the page at 10 and 100 rows; the streamed page of
// 100 rows in 2 parts and the page at 100 rows; one round of 1 s windows)
// with go-stdlib alone:
//
//   - in a dirty tree it is refused with the exact message, nothing run;
//   - stopped by Ctrl-C (SIGINT to the task's process group) once the SSR
//     run has a sample, it exits non-zero, reports/ byte for byte as it was,
//     no staging folder left, no process of the copy alive;
//   - run to the end, reports/ is replaced whole: exactly the three runs'
//     pages (no hand-made file of before survives: ab/, engine/ratios.txt,
//     ssr/merged.json), its index naming the commit and the three run IDs,
//     the three latest.json files (main, ssr/, ssr-extra/) those runs at
//     that commit, engine/index.md from the main and SSR runs; git status
//     lists reports/ alone;
//   - committed, the same runs passed by --main-run, --ssr-run and
//     --extra-run are refused: they were measured at the commit before;
//     so is the SSR extras run alone beside the other two relabelled as
//     the new commit's.
func TestPublish(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tfbench and go-stdlib in a copy of the repository and runs go tool task publish three times")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	clone := testenv.CopyRepo(t, root)
	git(t, clone, "init", "-q")
	git(t, clone, "add", "-A")
	git(t, clone, "commit", "-q", "-m", "the tree under test")
	head := strings.TrimSpace(git(t, clone, "rev-parse", "HEAD"))
	before := readTree(t, filepath.Join(clone, "reports"))
	if len(before) == 0 {
		t.Fatal("the copy has no reports/ to replace")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	task := []string{"tool", "task", "publish", "--", "--suite", "tools/publish/testdata/suites/main.yaml",
		"--ssr-suite", "tools/publish/testdata/suites/ssr.yaml", "--extra-suite", "tools/publish/testdata/suites/ssr-extra.yaml", "--frameworks", "go-stdlib"}
	unchanged := func(when string) {
		t.Helper()
		if diff := diffTrees(before, readTree(t, filepath.Join(clone, "reports"))); diff != "" {
			t.Errorf("%s: reports/ changed: %s", when, diff)
		}
		if entries, _ := os.ReadDir(filepath.Join(clone, ".tfbench", "publish")); len(entries) > 0 {
			t.Errorf("%s: .tfbench/publish/ holds %d entries: a staging folder was left", when, len(entries))
		}
	}

	// Dirty: refused before anything runs.
	os.WriteFile(filepath.Join(clone, "scratch.txt"), []byte("x\n"), 0o644)
	c := start(t, clone, goBin, task...)
	code := c.wait(t, 10*time.Minute)
	want := "publish: the work tree has uncommitted changes (?? scratch.txt): reports/ is published from one clean commit; commit or stash them first\n"
	if code == 0 || !strings.Contains(c.out.String(), want) {
		t.Errorf("dirty tree: exit %d; want non-zero and %q:\n%s", code, want, c.out.String())
	}
	if _, err := os.Stat(filepath.Join(clone, ".tfbench", "runs")); err == nil {
		t.Errorf("publish in a dirty tree ran a benchmark (.tfbench/runs/ exists)")
	}
	unchanged("dirty tree")
	os.Remove(filepath.Join(clone, "scratch.txt"))

	// Stopped during the SSR run.
	latest := filepath.Join(clone, ".tfbench", "runs", "latest", "results.json")
	began := time.Now()
	c = start(t, clone, goBin, task...)
	c.until(t, "a sample of the SSR run in "+latest, 20*time.Minute, func() bool {
		f, err := results.Read(latest)
		return err == nil && f.Suite.Name == "publish-ssr" && len(f.Samples) > 0
	})
	if err := syscall.Kill(-c.cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	code = c.wait(t, 3*time.Minute)
	t.Logf("interrupted publish: exit %d after %s", code, time.Since(began).Round(time.Millisecond))
	if want := "publish: interrupted: reports/ not replaced\n"; code == 0 || !strings.Contains(c.out.String(), want) {
		t.Errorf("interrupted publish: exit %d; want non-zero and %q:\n%s", code, want, c.out.String())
	}
	if f, err := results.Read(latest); err != nil || f.Status != results.Interrupted {
		t.Errorf("the SSR run after the interrupt: %v, %v; want status interrupted", f, err)
	}
	unchanged("interrupted publish")
	c.gone(t, clone)

	// To the end.
	began = time.Now()
	c = start(t, clone, goBin, task...)
	code = c.wait(t, 30*time.Minute)
	t.Logf("complete publish: exit %d after %s", code, time.Since(began).Round(time.Millisecond))
	out := c.out.String()
	if code != 0 {
		t.Fatalf("publish: exit %d\n%s", code, out)
	}
	c.gone(t, clone)
	reports := filepath.Join(clone, "reports")
	after := readTree(t, reports)
	wantFiles := []string{"engine/index.md", "index.md", "json.md", "json.svg", "latest.json", "latest.md", "results.csv",
		"ssr-extra/index.md", "ssr-extra/latest.json", "ssr-extra/latest.md", "ssr-extra/page-alloc.svg", "ssr-extra/page-cpu.svg", "ssr-extra/page-rps.svg", "ssr-extra/page.md",
		"ssr-extra/results.csv", "ssr-extra/stream-stream-100.svg", "ssr-extra/stream.md", "ssr-extra/stream.svg",
		"ssr/index.md", "ssr/latest.json", "ssr/latest.md", "ssr/page-alloc.svg", "ssr/page-cpu.svg", "ssr/page-rps.svg", "ssr/page.md", "ssr/results.csv"}
	if got := sortedKeys(after); !slices.Equal(got, wantFiles) {
		t.Errorf("reports/ holds %q; want %q", got, wantFiles)
	}
	var ids []string
	for _, sub := range []string{"", "ssr", "ssr-extra"} {
		f, err := results.Read(filepath.Join(reports, sub, "latest.json"))
		if err != nil {
			t.Fatal(err)
		}
		suite := map[string]string{"": "publish-main", "ssr": "publish-ssr", "ssr-extra": "publish-ssr-extra"}[sub]
		if f.Status != results.Complete || f.Suite.Name != suite || f.Source == nil || *f.Source != (results.Source{Commit: head}) {
			t.Errorf("reports/%s: run %s, status %s, suite %s, source %v; want complete, suite %s, clean commit %s", filepath.Join(sub, "latest.json"), f.RunID, f.Status, f.Suite.Name, f.Source, suite, head)
		}
		run, err := os.ReadFile(filepath.Join(clone, ".tfbench", "runs", f.RunID, "results.json"))
		if err != nil || !bytes.Equal(run, after[filepath.Join(sub, "latest.json")]) {
			t.Errorf("reports/%s is not run %s's results.json (%v)", filepath.Join(sub, "latest.json"), f.RunID, err)
		}
		if md := string(after[filepath.Join(sub, "latest.md")]); !strings.HasPrefix(md, "# tfbench: "+suite+"\n") {
			t.Errorf("reports/%s is not the run's report:\n%.200s", filepath.Join(sub, "latest.md"), md)
		}
		if sub == "ssr-extra" {
			// go-stdlib streams: each of its stream samples has the
			// timeline of its checked responses in 2 parts.
			streamed := 0
			for _, sm := range f.Samples {
				if sm.Type != model.Stream || sm.Framework != "go-stdlib" {
					continue
				}
				if sm.Stream == nil || sm.Stream.Parts != 2 || sm.Stream.Responses < 1 || len(sm.Stream.Part) != 2 {
					t.Errorf("reports/ssr-extra/latest.json: go-stdlib's stream sample at c=%d has timeline %+v; want 2 parts of checked responses", sm.Connections, sm.Stream)
				}
				streamed++
			}
			if streamed == 0 {
				t.Errorf("reports/ssr-extra/latest.json holds no stream sample of go-stdlib")
			}
		}
		ids = append(ids, f.RunID)
	}
	index := string(after["index.md"])
	// The title, the provenance line every page opens with, then the
	// publication.
	paras := strings.SplitN(index, "\n\n", 3)
	if len(paras) < 3 || paras[0] != "# tfbench: publish-main" || !strings.HasPrefix(paras[1], "Run `"+ids[0]+"`, ") || !strings.Contains(paras[1], ", commit `"+head[:12]+"`, machine ") {
		t.Errorf("reports/index.md does not open with its title and provenance line:\n%.600s", index)
	}
	wantIndex := "Published by `go tool task publish` on " + time.Now().UTC().Format("2006-01-02") + " from commit `" + head + "`; every file of this folder comes from these three runs of that commit:\n\n" +
		"- the main suite, run `" + ids[0] + "` (`tfbench bench --suite tools/publish/testdata/suites/main.yaml --frameworks go-stdlib`, 1 round, started "
	if len(paras) < 3 || !strings.HasPrefix(paras[2], wantIndex) || !strings.Contains(index, "- the SSR suite, run `"+ids[1]+"` (`tfbench bench --suite tools/publish/testdata/suites/ssr.yaml --frameworks go-stdlib`, 1 round, ") ||
		!strings.Contains(index, "- the SSR extras (the streamed page, memory and GC per request), run `"+ids[2]+"` (`tfbench bench --suite tools/publish/testdata/suites/ssr-extra.yaml --frameworks go-stdlib`, 1 round, started ") ||
		!strings.Contains(index, "): [ssr-extra/](ssr-extra/index.md);\n") {
		t.Errorf("reports/index.md does not open with the publication (commit %s, runs %v):\n%.1200s", head, ids, index)
	}
	// Every page of the publication opens with its title and a provenance
	// line naming the run of its folder, so a page read alone says where its
	// figures come from.
	for name, data := range after {
		if !strings.HasSuffix(name, ".md") {
			continue
		}
		id := ids[0] // the main folder and engine/
		if strings.HasPrefix(name, "ssr/") {
			id = ids[1]
		} else if strings.HasPrefix(name, "ssr-extra/") {
			id = ids[2]
		}
		paras := strings.SplitN(string(data), "\n\n", 3)
		if len(paras) < 2 || !strings.HasPrefix(paras[0], "# ") || !strings.HasPrefix(paras[1], "Run `"+id+"`, ") {
			t.Errorf("reports/%s does not open with its title and provenance line:\n%.300s", name, data)
		}
	}
	engine := string(after["engine/index.md"])
	if !strings.HasPrefix(engine, "# The render engine against go-stdlib and node-http\n\nRun `"+ids[0]+"`, ") {
		t.Errorf("engine/index.md does not open with its title and provenance line:\n%.400s", engine)
	}
	for _, want := range []string{
		"from run `" + ids[0] + "` (suite publish-main, 1 round, commit `" + head[:12] + "`: json) and run `" + ids[1] + "` (suite publish-ssr, 1 round, commit `" + head[:12] + "`: page)",
		"run `" + ids[0] + "` has 1 and run `" + ids[1] + "` has 1, too few for any verdict.",
		"### engine/pool ≥ 1.0× node-http on every page size: unknown (",
	} {
		if !strings.Contains(engine, want) {
			t.Errorf("reports/engine/index.md lacks %q:\n%s", want, engine)
		}
	}
	if want := "publish: reports/ replaced: runs " + ids[0] + " (publish-main), " + ids[1] + " (publish-ssr) and " + ids[2] + " (publish-ssr-extra) at commit " + head + "; commit it with git add -A reports\n"; !strings.Contains(out, want) {
		t.Errorf("publish's output lacks %q:\n%s", want, out)
	}
	if left := readTree(t, filepath.Join(clone, ".tfbench", "publish")); len(left) > 0 {
		t.Errorf(".tfbench/publish/ holds %v after the publish", sortedKeys(left))
	}
	for _, line := range strings.Split(strings.TrimRight(git(t, clone, "status", "--porcelain"), "\n"), "\n") {
		if !strings.HasPrefix(line[3:], "reports/") {
			t.Errorf("git status lists %q: publish changed a file outside reports/", line)
		}
	}

	// The publication committed, the same three runs given by --main-run,
	// --ssr-run and --extra-run are refused: they belong to the commit
	// before.
	git(t, clone, "add", "-A")
	git(t, clone, "commit", "-q", "-m", "reports: publish")
	newHead := strings.TrimSpace(git(t, clone, "rev-parse", "HEAD"))
	before = readTree(t, reports)
	c = start(t, clone, goBin, "tool", "task", "publish", "--", "--main-run", filepath.Join(".tfbench", "runs", ids[0]), "--ssr-run", filepath.Join(".tfbench", "runs", ids[1]),
		"--extra-run", filepath.Join(".tfbench", "runs", ids[2]))
	code = c.wait(t, 10*time.Minute)
	if want := "publish: run " + ids[0] + " was measured at " + head + ", not at the clean commit " + newHead + ": reports/ not replaced\n"; code == 0 || !strings.Contains(c.out.String(), want) {
		t.Errorf("runs of the commit before: exit %d; want non-zero and %q:\n%s", code, want, c.out.String())
	}
	unchanged("runs of the commit before")
	// The main and SSR runs relabelled as of the new commit (copies outside
	// the tree): the SSR extras run of the commit before is still refused.
	var relabelled []string
	for _, id := range ids[:2] {
		f, err := results.Read(filepath.Join(clone, ".tfbench", "runs", id, "results.json"))
		if err != nil {
			t.Fatal(err)
		}
		f.Source = &results.Source{Commit: newHead}
		dir := t.TempDir()
		if err := results.Write(filepath.Join(dir, "results.json"), f); err != nil {
			t.Fatal(err)
		}
		relabelled = append(relabelled, dir)
	}
	c = start(t, clone, goBin, "tool", "task", "publish", "--", "--main-run", relabelled[0], "--ssr-run", relabelled[1], "--extra-run", filepath.Join(".tfbench", "runs", ids[2]))
	code = c.wait(t, 10*time.Minute)
	if want := "publish: run " + ids[2] + " was measured at " + head + ", not at the clean commit " + newHead + ": reports/ not replaced\n"; code == 0 || !strings.Contains(c.out.String(), want) {
		t.Errorf("an SSR extras run of the commit before: exit %d; want non-zero and %q:\n%s", code, want, c.out.String())
	}
	unchanged("an SSR extras run of the commit before")
}

// readTree reads every file under dir, by slash path relative to it; none
// when dir does not exist.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	if _, err := os.Stat(dir); err != nil {
		return files
	}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)], err = os.ReadFile(path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// diffTrees names the files added, removed or changed from a to b; "" when
// they are the same.
func diffTrees(a, b map[string][]byte) string {
	var d []string
	for _, name := range sortedKeys(a) {
		if other, ok := b[name]; !ok {
			d = append(d, name+" removed")
		} else if !bytes.Equal(a[name], other) {
			d = append(d, name+" changed")
		}
	}
	for _, name := range sortedKeys(b) {
		if _, ok := a[name]; !ok {
			d = append(d, name+" added")
		}
	}
	return strings.Join(d, ", ")
}

// child is a command started by start: its output (both streams) and its
// end.
type child struct {
	cmd  *exec.Cmd
	out  *testenv.SyncBuffer
	done chan struct{}
	code int
}

// start starts name args in dir as a process group of its own (as a shell
// runs a command line), killed whole at the test's cleanup if still there.
func start(t *testing.T, dir, name string, args ...string) *child {
	t.Helper()
	c := &child{cmd: exec.Command(name, args...), out: &testenv.SyncBuffer{}, done: make(chan struct{})}
	c.cmd.Dir = dir
	c.cmd.Env = append(os.Environ(), "NO_COLOR=1")
	c.cmd.Stdout, c.cmd.Stderr = c.out, c.out
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		c.cmd.Wait()
		c.code = c.cmd.ProcessState.ExitCode()
		close(c.done)
	}()
	t.Cleanup(func() {
		syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
		<-c.done
	})
	return c
}

// wait waits up to d for c to exit and returns its exit status.
func (c *child) wait(t *testing.T, d time.Duration) int {
	t.Helper()
	select {
	case <-c.done:
		return c.code
	case <-time.After(d):
		t.Fatalf("%s still running after %s:\n%s", strings.Join(c.cmd.Args, " "), d, c.out.String())
	}
	return 0
}

// until polls ok every 200 ms for up to d; it fails t when c exits first or
// the time is up.
func (c *child) until(t *testing.T, what string, d time.Duration, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		select {
		case <-c.done:
			t.Fatalf("exited %d before %s:\n%s", c.code, what, c.out.String())
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s after %s:\n%s", what, d, c.out.String())
		}
	}
}

// gone fails t when a process of c's group, or one whose command line names
// a path under dir (a server in a group of its own), is alive after c
// exited; the second check needs /proc (Linux) and is left out without it.
func (c *child) gone(t *testing.T, dir string) {
	t.Helper()
	if err := syscall.Kill(-c.cmd.Process.Pid, 0); err != syscall.ESRCH {
		t.Errorf("processes of the task's group outlived it (kill -0: %v)", err)
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range entries {
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(cmdline, []byte(dir+string(filepath.Separator))) {
			t.Errorf("process %s outlived the publish: %s", e.Name(), bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))
		}
	}
}

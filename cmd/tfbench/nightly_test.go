package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/history"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/run"
)

// workflow is the part of .github/workflows/nightly.yml the test reads.
type workflow struct {
	On          map[string]any    `yaml:"on"`
	Env         map[string]string `yaml:"env"`
	Concurrency struct {
		Group            string `yaml:"group"`
		CancelInProgress string `yaml:"cancel-in-progress"`
	} `yaml:"concurrency"`
	Permissions map[string]string `yaml:"permissions"`
	Jobs        map[string]struct {
		RunsOn      string            `yaml:"runs-on"`
		Name        string            `yaml:"name"`
		Env         map[string]string `yaml:"env"`
		Permissions map[string]string `yaml:"permissions"`
		Strategy    struct {
			Matrix struct {
				Shard []int `yaml:"shard"`
			} `yaml:"matrix"`
		} `yaml:"strategy"`
		Steps []workflowStep `yaml:"steps"`
	} `yaml:"jobs"`
}

// workflowStep is the part of a workflow's step the tests read.
type workflowStep struct {
	Name string            `yaml:"name"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	If   string            `yaml:"if"`
	Env  map[string]string `yaml:"env"`
	With map[string]string `yaml:"with"`
}

// taskfile is the part of Taskfile.yml the test reads (a var is a string
// or, for a dynamic one, {sh: …}).
type taskfile struct {
	Vars  map[string]any `yaml:"vars"`
	Tasks map[string]struct {
		Cmds []any `yaml:"cmds"`
	} `yaml:"tasks"`
}

func readYAML(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestNightlyWorkflow checks what makes the nightly workflow run locally as
// written: it runs on a schedule and on demand; its bench matrix is shard:
// 1..N with N Taskfile's NIGHTLY_SHARDS, every SHARD it passes is
// "${{ matrix.shard }}/N" and every file it uploads the shard's
// ("shard-I-of-N…"); the N shards of the adapters under frameworks/ are
// valid (N at most the default variants other than go-stdlib) and cover
// every one; every step is one `go tool task NAME` of a task that exists;
// and every tfbench command those tasks run exists and takes the flags
// they pass; after the publish the final job, the only one with actions:
// write, starts a bisect of each new regression (nightly:bisect-dispatch
// reading the file nightly:publish writes).
func TestNightlyWorkflow(t *testing.T) {
	var wf workflow
	readYAML(t, "../../.github/workflows/nightly.yml", &wf)
	var tf taskfile
	readYAML(t, "../../Taskfile.yml", &tf)

	if _, ok := wf.On["schedule"]; !ok {
		t.Error("nightly.yml has no schedule trigger")
	}
	if _, ok := wf.On["workflow_dispatch"]; !ok {
		t.Error("nightly.yml cannot be started on demand (workflow_dispatch)")
	}
	nVar, _ := tf.Vars["NIGHTLY_SHARDS"].(string)
	n, err := strconv.Atoi(nVar)
	if err != nil || n < 1 {
		t.Fatalf("Taskfile's NIGHTLY_SHARDS is %q, want a count of shards", nVar)
	}
	bench := wf.Jobs["bench"]
	var want []int
	for i := 1; i <= n; i++ {
		want = append(want, i)
	}
	if got := bench.Strategy.Matrix.Shard; !slices.Equal(got, want) {
		t.Errorf("the workflow's matrix is shard: %v; want %v (1 to NIGHTLY_SHARDS)", got, want)
	}
	of := fmt.Sprintf("/%d", n)
	if !strings.Contains(bench.Name, "${{ matrix.shard }}"+of) {
		t.Errorf("job bench is named %q; want it to name its shard ${{ matrix.shard }}%s", bench.Name, of)
	}
	shardSteps, uploads := 0, 0
	for _, st := range bench.Steps {
		if st.Run != "" {
			if got := st.Env["SHARD"]; got != "${{ matrix.shard }}"+of {
				t.Errorf("step %q passes SHARD=%q; want ${{ matrix.shard }}%s", st.Name, got, of)
			}
			shardSteps++
		}
		if strings.HasPrefix(st.Uses, "actions/upload-artifact@") {
			for _, p := range strings.Split(strings.TrimSpace(st.With["path"]), "\n") {
				if !strings.Contains(p, fmt.Sprintf("/shard-${{ matrix.shard }}-of-%d", n)) || !strings.Contains(st.With["name"], "shard-${{ matrix.shard }}") {
					t.Errorf("an upload of job bench is named %q with path %q; want the shard's files shard-${{ matrix.shard }}-of-%d…", st.With["name"], p, n)
				}
			}
			uploads++
		}
	}
	if shardSteps != 4 || uploads != 4 {
		t.Errorf("job bench has %d task steps and %d uploads; want 4 each (nightly:job, nightly:ssr-job, nightly:ssr-extra-job, nightly:ab)", shardSteps, uploads)
	}
	// The N shards of the adapters as the nightly runs them (no
	// --frameworks): each valid, each with go-stdlib, together every
	// default variant once.
	specs, err := framework.Discover("../../frameworks")
	if err != nil {
		t.Fatal(err)
	}
	all, err := run.Select(specs, nil, "frameworks")
	if err != nil {
		t.Fatal(err)
	}
	var covered, variants []string
	for _, tg := range all {
		if tg.ID() != model.Reference {
			variants = append(variants, tg.ID().String())
		}
	}
	for i := 1; i <= n; i++ {
		targets, err := run.ShardTargets(model.Shard{I: i, N: n}, all, specs, "frameworks")
		if err != nil {
			t.Errorf("nightly shard %d/%d: %v", i, n, err)
			continue
		}
		for _, tg := range targets {
			if tg.ID() != model.Reference {
				covered = append(covered, tg.ID().String())
			}
		}
		if !slices.ContainsFunc(targets, func(tg run.Target) bool { return tg.ID() == model.Reference }) {
			t.Errorf("nightly shard %d/%d has no %s", i, n, model.Reference)
		}
	}
	slices.Sort(covered)
	slices.Sort(variants)
	if !slices.Equal(covered, variants) {
		t.Errorf("the %d nightly shards run %v; the default variants other than go-stdlib are %v", n, covered, variants)
	}

	if got := wf.Jobs["macos"].RunsOn; got != "macos-latest" {
		t.Errorf("job macos runs on %q, want macos-latest (docs/platforms.md)", got)
	}
	// The runner label results record is each job's own.
	if v, ok := wf.Env["TFBENCH_RUNNER"]; ok {
		t.Errorf("nightly.yml sets TFBENCH_RUNNER=%s for every job; set it per job to its runs-on", v)
	}
	for name, job := range wf.Jobs {
		if got := job.Env["TFBENCH_RUNNER"]; got != job.RunsOn {
			t.Errorf("job %s runs on %s with TFBENCH_RUNNER=%q; want its runs-on", name, job.RunsOn, got)
		}
	}
	// One queue per branch, never cancelled: a run by hand on a branch
	// cannot take the place of a night's.
	if !strings.Contains(wf.Concurrency.Group, "${{ github.ref }}") || wf.Concurrency.CancelInProgress != "false" {
		t.Errorf("nightly.yml's concurrency is group %q, cancel-in-progress %q; want a group per ref (${{ github.ref }}) and false", wf.Concurrency.Group, wf.Concurrency.CancelInProgress)
	}

	runRE := regexp.MustCompile(`^go tool task ([a-z:-]+)$`)
	var tasks []string
	for name, job := range wf.Jobs {
		for _, st := range job.Steps {
			if st.Run == "" {
				continue
			}
			m := runRE.FindStringSubmatch(strings.TrimSpace(st.Run))
			if m == nil {
				t.Errorf("job %s: step %q is not one `go tool task NAME`", name, st.Run)
				continue
			}
			if _, ok := tf.Tasks[m[1]]; !ok {
				t.Errorf("job %s: task %s is not in Taskfile.yml", name, m[1])
			}
			tasks = append(tasks, m[1])
		}
	}
	if want := []string{"nightly:ab", "nightly:bisect-dispatch", "nightly:final", "nightly:gate", "nightly:job", "nightly:macos", "nightly:publish", "nightly:ssr-extra-job", "nightly:ssr-job"}; !slices.Equal(slices.Sorted(slices.Values(tasks)), want) {
		t.Errorf("workflow steps run tasks %v, want %v", tasks, want)
	}

	// The bisect dispatch (docs/ci.md, Bisecting a change point): right
	// after the publish, on main only (skipped when publishing failed: the
	// file is then not tonight's), with the job's token, which may start
	// workflows (actions: write) in the final job alone; the file
	// nightly:publish has tfbench history write is the one it reads.
	if !maps.Equal(wf.Permissions, map[string]string{"contents": "read"}) {
		t.Errorf("nightly.yml's permissions are %v; want contents: read", wf.Permissions)
	}
	for name, job := range wf.Jobs {
		want := map[string]string(nil)
		if name == "final" {
			want = map[string]string{"contents": "write", "actions": "write"}
		}
		if !maps.Equal(job.Permissions, want) {
			t.Errorf("job %s's permissions are %v; want %v", name, job.Permissions, want)
		}
	}
	var after []string // the final job's steps from the publish on
	for _, st := range wf.Jobs["final"].Steps {
		if st.Run == "go tool task nightly:publish" || len(after) > 0 {
			after = append(after, fmt.Sprintf("%s if %q env %v", st.Run, st.If, st.Env))
		}
	}
	if want := fmt.Sprintf("go tool task nightly:bisect-dispatch if %q env %v", "github.ref == 'refs/heads/main'", map[string]string{"GH_TOKEN": "${{ github.token }}"}); len(after) < 2 || after[1] != want {
		t.Errorf("the final job's steps after the publish are %q; want first %q", after, want)
	}
	publishCmd, _ := tf.Tasks["nightly:publish"].Cmds[0].(string)
	dispatchCmd, _ := tf.Tasks["nightly:bisect-dispatch"].Cmds[0].(string)
	if !strings.Contains(publishCmd, "NEW_CHANGES={{.NIGHTLY}}/new-changes.json ") || dispatchCmd != ".ci/bisect-dispatch {{.NIGHTLY}}/new-changes.json" {
		t.Errorf("nightly:publish runs %q and nightly:bisect-dispatch %q; want NEW_CHANGES={{.NIGHTLY}}/new-changes.json and .ci/bisect-dispatch of that file", publishCmd, dispatchCmd)
	}

	// Every tfbench command line in the nightly tasks, in bench:ssr and in
	// bench:ssr-extra (the runs of the nightly's SSR halves): its subcommand
	// exists and lists each flag it is given.
	cmdRE := regexp.MustCompile(`\{\{\.TFBENCH\}\} ([a-z]+)((?: [^|;&\n]*)?)`)
	flagRE := regexp.MustCompile(`(?:^| )--([a-z-]+)`)
	checked := 0
	for name, task := range tf.Tasks {
		if !strings.HasPrefix(name, "nightly:") && name != "bench:ssr" && name != "bench:ssr-extra" {
			continue
		}
		for _, c := range task.Cmds {
			line, _ := c.(string)
			line = regexp.MustCompile(`\{\{\.[A-Z_]+ \|[^}]*\}\}`).ReplaceAllString(line, "X")
			for _, m := range cmdRE.FindAllStringSubmatch(line, -1) {
				var stdout, stderr bytes.Buffer
				if code := cli(context.Background(), []string{m[1], "--help"}, &stdout, &stderr); code != 0 {
					t.Errorf("task %s: tfbench %s --help exits %d: %s", name, m[1], code, stderr.String())
					continue
				}
				for _, f := range flagRE.FindAllStringSubmatch(m[2], -1) {
					if !strings.Contains(stderr.String(), "  -"+f[1]+" ") && !strings.Contains(stderr.String(), "  -"+f[1]+"\n") {
						t.Errorf("task %s: tfbench %s has no flag --%s", name, m[1], f[1])
					}
					checked++
				}
			}
		}
	}
	if checked < 10 {
		t.Errorf("checked %d flags of tfbench commands in the nightly tasks; the pattern missed them", checked)
	}
}

// TestPublishPages runs .ci/publish-pages (the nightly's publish step) in a
// scratch clone with a scratch origin: the first run makes an orphan
// gh-pages with the site under nightly/latest/ and nightly/DATE/, an index
// of dates and a root index.md linking it, and pushes it with PUSH=1; the
// second day adds its date; the same site again commits nothing; a root
// index.md made by hand stays.
func TestPublishPages(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	script, err := filepath.Abs("../../.ci/publish-pages")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	origin, clone, site := filepath.Join(dir, "origin.git"), filepath.Join(dir, "clone"), filepath.Join(dir, "site")
	git := func(wd string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = wd
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git(dir, "init", "-q", "--bare", origin)
	git(dir, "init", "-q", "-b", "main", clone)
	git(clone, "remote", "add", "origin", origin)
	git(clone, "commit", "-q", "--allow-empty", "-m", "main")
	os.MkdirAll(site, 0o755)
	os.WriteFile(filepath.Join(site, "index.md"), []byte("# run 1\n"), 0o644)
	os.WriteFile(filepath.Join(site, "json.svg"), []byte("<svg/>"), 0o644)
	publish := func(stamp string) string {
		t.Helper()
		cmd := exec.Command(script, site)
		cmd.Dir = clone
		cmd.Env = append(os.Environ(), "PUSH=1", "STAMP="+stamp)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("publish-pages: %v\n%s", err, out)
		}
		return string(out)
	}
	out := publish("2026-11-29")
	if !strings.Contains(out, "publish-pages: origin has no gh-pages branch\n") || !strings.Contains(out, "committed nightly/2026-11-29 and nightly/latest to gh-pages") || !strings.Contains(out, "pushed gh-pages to origin") {
		t.Errorf("first publish said %q", out)
	}
	os.WriteFile(filepath.Join(site, "index.md"), []byte("# run 2\n"), 0o644)
	publish("2026-11-30")
	if got := git(origin, "show", "gh-pages:nightly/latest/index.md"); got != "# run 2\n" {
		t.Errorf("latest index %q", got)
	}
	if got := git(origin, "show", "gh-pages:nightly/2026-11-29/index.md"); got != "# run 1\n" {
		t.Errorf("first day's index %q", got)
	}
	want := "# tfbench nightly\n\n- [latest](latest/index.md)\n- [2026-11-30](2026-11-30/index.md)\n- [2026-11-29](2026-11-29/index.md)\n"
	if got := git(origin, "show", "gh-pages:nightly/index.md"); got != want {
		t.Errorf("nightly index\n%s\nwant\n%s", got, want)
	}
	if got, want := git(origin, "show", "gh-pages:index.md"), "# tfbench\n\nWeb-framework benchmark results measured by tfbench's nightly run: [nightly reports](nightly/index.md) (the latest run, each earlier day, and each compared with its baseline).\n"; got != want {
		t.Errorf("root index\n%s\nwant\n%s", got, want)
	}
	if got := git(origin, "ls-tree", "-r", "--name-only", "gh-pages"); got != "index.md\nnightly/2026-11-29/index.md\nnightly/2026-11-29/json.svg\nnightly/2026-11-30/index.md\nnightly/2026-11-30/json.svg\nnightly/index.md\nnightly/latest/index.md\nnightly/latest/json.svg\n" {
		t.Errorf("gh-pages holds\n%s", got)
	}
	if out := publish("2026-11-30"); !strings.Contains(out, "gh-pages already holds this site") {
		t.Errorf("publishing the same site again said %q", out)
	}
	// A front page of the maintainers' own is kept.
	pages := filepath.Join(dir, "pages")
	git(dir, "clone", "-q", "-b", "gh-pages", origin, pages)
	os.WriteFile(filepath.Join(pages, "index.md"), []byte("# ours\n"), 0o644)
	git(pages, "commit", "-qam", "our front page")
	git(pages, "push", "-q", "origin", "gh-pages")
	publish("2026-12-01")
	if got := git(origin, "show", "gh-pages:index.md"); got != "# ours\n" {
		t.Errorf("root index after a publish over our own: %q", got)
	}
	if got := git(clone, "worktree", "list"); strings.Count(got, "\n") != 1 {
		t.Errorf("worktrees left behind:\n%s", got)
	}
	if got := git(clone, "rev-parse", "--abbrev-ref", "HEAD"); got != "main\n" {
		t.Errorf("the clone's checkout moved to %q", got)
	}

	// A remote that cannot be read is an error, not "no gh-pages branch":
	// nothing is committed or pushed (an orphan would start the site over).
	git(clone, "remote", "set-url", "origin", filepath.Join(dir, "gone.git"))
	before := git(origin, "rev-parse", "gh-pages")
	git(clone, "branch", "-D", "gh-pages")
	cmd := exec.Command(script, site)
	cmd.Dir = clone
	cmd.Env = append(os.Environ(), "PUSH=1", "STAMP=2026-12-02")
	failed, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(failed), "publish-pages: cannot list origin's branches (git ls-remote exit status 128): not publishing, so that gh-pages is not started over\n") {
		t.Errorf("publishing through a remote that cannot be read: %v\n%s", err, failed)
	}
	if out, err := exec.Command("git", "-C", clone, "rev-parse", "-q", "--verify", "refs/heads/gh-pages").CombinedOutput(); err == nil {
		t.Errorf("a failed publish made a local gh-pages: %s", out)
	}
	if after := git(origin, "rev-parse", "gh-pages"); after != before {
		t.Errorf("a failed publish moved origin's gh-pages from %s to %s", before, after)
	}
}

// TestPublishPagesHistory runs .ci/publish-pages with MERGED on two dates
// against a local gh-pages branch (no remote), with this test binary as
// TFBENCH: nightly/history.json holds both nights with the clone's commit,
// nightly/trends/ has its index, charts and change points (none), and
// nightly/index.md links it; NEW_CHANGES gets tfbench history
// --new-changes' file (no change point in two nights: none). A MERGED that
// does not exist fails before anything is committed, and leaves no
// NEW_CHANGES file of an earlier publish.
func TestPublishPagesHistory(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	script, err := filepath.Abs("../../.ci/publish-pages")
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	fixtures, err := filepath.Abs("../../harness/history/testdata")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	clone, site := filepath.Join(dir, "clone"), filepath.Join(dir, "site")
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = clone
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	os.MkdirAll(clone, 0o755)
	git("init", "-q", "-b", "main")
	git("commit", "-q", "--allow-empty", "-m", "main")
	head := strings.TrimSpace(git("rev-parse", "HEAD"))
	os.MkdirAll(site, 0o755)
	os.WriteFile(filepath.Join(site, "index.md"), []byte("# a night\n"), 0o644)
	newChanges := filepath.Join(dir, "nightly", "new-changes.json")
	publish := func(stamp, merged string) (string, error) {
		t.Helper()
		cmd := exec.Command(script, site)
		cmd.Dir = clone
		cmd.Env = append(os.Environ(), "STAMP="+stamp, "MERGED="+merged, "NEW_CHANGES="+newChanges, "TFBENCH="+exe, envTestMain+"=1")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, c := range []struct{ stamp, merged string }{{"2026-12-01", "night1-merged.json"}, {"2026-12-02", "night2-shard1.json"}} {
		if out, err := publish(c.stamp, filepath.Join(fixtures, c.merged)); err != nil || !strings.Contains(out, "committed nightly/"+c.stamp) {
			t.Fatalf("publish-pages %s: %v\n%s", c.stamp, err, out)
		}
	}
	var h history.History
	if err := json.Unmarshal([]byte(git("show", "gh-pages:nightly/history.json")), &h); err != nil {
		t.Fatal(err)
	}
	if len(h.Nights) != 2 || h.Nights[0].Date != "2026-12-01" || h.Nights[1].Date != "2026-12-02" || h.Nights[1].Commit != head || len(h.Nights[0].Rows) != 3 {
		t.Errorf("history.json: %+v", h)
	}
	files := git("ls-tree", "-r", "--name-only", "gh-pages", "nightly/trends/")
	if files != "nightly/trends/changes.json\nnightly/trends/changes.md\nnightly/trends/index.md\nnightly/trends/json-p99.svg\nnightly/trends/json-ratio.svg\n" {
		t.Errorf("nightly/trends/ holds\n%s", files)
	}
	if index := git("show", "gh-pages:nightly/index.md"); !strings.Contains(index, "- [trends over the nights](trends/index.md)\n") {
		t.Errorf("nightly/index.md does not link the trends:\n%s", index)
	}
	// tfbench history --new-changes: the regressions
	// first seen tonight, for .ci/bisect-dispatch.
	var fresh struct {
		Schema  int               `json:"schema"`
		Changes []json.RawMessage `json:"changes"`
	}
	if data, err := os.ReadFile(newChanges); err != nil || json.Unmarshal(data, &fresh) != nil || fresh.Schema != 1 || len(fresh.Changes) != 0 {
		t.Errorf("NEW_CHANGES %s: %v: %+v; want schema 1, no changes", newChanges, err, fresh)
	}
	before := git("rev-parse", "gh-pages")
	missing := filepath.Join(dir, "none.json")
	if out, err := publish("2026-12-03", missing); err == nil || out != "publish-pages: MERGED="+missing+" is missing\n" {
		t.Errorf("a missing MERGED: %v\n%s", err, out)
	}
	if after := git("rev-parse", "gh-pages"); after != before {
		t.Error("a failed publish committed")
	}
	if _, err := os.Stat(newChanges); !os.IsNotExist(err) {
		t.Errorf("a failed publish left %s (%v): the dispatch would start an earlier night's bisects", newChanges, err)
	}
	if got := git("worktree", "list"); strings.Count(got, "\n") != 1 {
		t.Errorf("worktrees left behind:\n%s", got)
	}
}

// TestNightlyTasks runs the nightly workflow's steps as the workflow does,
// through go-task, at a small scale (shard 1/1 of node-http, with
// go-stdlib, json only, 5 rounds of 1 s; scratch folders): a job, its
// SSR half and its SSR extras (the same small suite in place of
// suites/ssr.yaml and suites/ssr-extra.yaml), then final and gate against
// three baselines. A baseline where node-http was ten times as fast makes
// final publish compare pages (the site's, ssr/'s and ssr-extra/'s) that
// say slower and gate exit 1; the run itself as baseline passes; no
// baseline passes and says so.
func TestNightlyTasks(t *testing.T) {
	if testing.Short() {
		t.Skip("installs Node.js, builds node-http and go-stdlib, 5 rounds")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	work, nightly := t.TempDir(), t.TempDir()
	task := func(name, baseline string, extra ...string) (string, int) {
		t.Helper()
		cmd := exec.Command("go", append([]string{"tool", "task", name}, extra...)...)
		cmd.Dir = root
		small := filepath.Join(root, "cmd/tfbench/testdata/ab.yaml")
		cmd.Env = append(os.Environ(), "FRAMEWORKS=node-http", "SHARD=1/1", "NIGHTLY="+nightly, "BASELINE="+baseline, "SSR_BASELINE="+baseline,
			"EXTRA_BASELINE="+baseline, "SUITE="+small, "SSR_SUITE="+small, "SSR_ROUNDS=5", "EXTRA_SUITE="+small, "EXTRA_ROUNDS=5", "NO_COLOR=1")
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("task %s: %v", name, err)
		}
		return string(out), code
	}
	if out, code := task("nightly:job", "", "--", "--work", work); code != 0 {
		t.Fatalf("nightly:job exit %d:\n%s", code, out)
	}
	job := filepath.Join(nightly, "jobs", "shard-1-of-1.json")
	f, err := results.Read(job)
	if err != nil {
		t.Fatal(err)
	}
	if f.Suite.Rounds != 5 || len(f.Samples) != 10 || f.Shard != "1/1" {
		t.Fatalf("job results: %d rounds, %d samples, shard %q (want 5 rounds of node-http and go-stdlib, shard 1/1)", f.Suite.Rounds, len(f.Samples), f.Shard)
	}
	// The job records the checkout's commit (results.Source), as git saw it.
	if want, ok := checkoutSource(root); ok && (f.Source == nil || *f.Source != want) {
		t.Errorf("job results record source %+v, want %+v", f.Source, want)
	}
	// Without SSR results final renders the rest and says so.
	if out, code := task("nightly:final", filepath.Join(t.TempDir(), "none.json")); code != 0 || !strings.Contains(out, "no SSR job results in "+nightly+"/ssr-jobs: the site has no ssr/") ||
		!strings.Contains(out, "no SSR extras job results in "+nightly+"/ssr-extra-jobs: the site has no ssr-extra/") {
		t.Errorf("nightly:final without SSR jobs: exit %d\n%s", code, out)
	}
	if out, code := task("nightly:ssr-job", "", "--", "--work", work); code != 0 {
		t.Fatalf("nightly:ssr-job exit %d:\n%s", code, out)
	}
	ssrJob, err := results.Read(filepath.Join(nightly, "ssr-jobs", "shard-1-of-1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if ssrJob.Suite.Rounds != 5 || len(ssrJob.Samples) != 10 || !slices.Contains(ssrJob.Command, "--rounds") {
		t.Fatalf("SSR job results: %d rounds, %d samples, command %q (want --rounds 5 of node-http and go-stdlib)", ssrJob.Suite.Rounds, len(ssrJob.Samples), ssrJob.Command)
	}
	if out, code := task("nightly:ssr-extra-job", "", "--", "--work", work); code != 0 {
		t.Fatalf("nightly:ssr-extra-job exit %d:\n%s", code, out)
	}
	extraJob, err := results.Read(filepath.Join(nightly, "ssr-extra-jobs", "shard-1-of-1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if extraJob.Suite.Rounds != 5 || len(extraJob.Samples) != 10 || !slices.Contains(extraJob.Command, "--rounds") {
		t.Fatalf("SSR extras job results: %d rounds, %d samples, command %q (want --rounds 5 of node-http and go-stdlib)", extraJob.Suite.Rounds, len(extraJob.Samples), extraJob.Command)
	}
	// From here on both SSR halves hold the first job's results, so that
	// their verdicts against each baseline are the main half's (a second
	// measurement on a busy machine would make them noise).
	for _, half := range []string{"ssr-jobs", "ssr-extra-jobs"} {
		if err := results.Write(filepath.Join(nightly, half, "shard-1-of-1.json"), f); err != nil {
			t.Fatal(err)
		}
	}

	// A baseline in which node-http ran ten times as fast (so its per-round ratios to go-stdlib stay apart even when the machine is busy and rounds scatter): its ratio to
	// go-stdlib halved since.
	faster := *f
	faster.Source = nil // no baseline commit: the A/B half is TestNightlyABGate's
	faster.Samples = slices.Clone(f.Samples)
	for i := range faster.Samples {
		if faster.Samples[i].Framework == "node-http" {
			faster.Samples[i].RPS *= 10
		}
	}
	baseline := filepath.Join(t.TempDir(), "baseline.json")
	if err := results.Write(baseline, &faster); err != nil {
		t.Fatal(err)
	}
	if out, code := task("nightly:ab", baseline); code != 0 || !strings.Contains(out, "nightly:ab: no baseline commit: "+baseline+" records none") {
		t.Fatalf("nightly:ab against a baseline without source: exit %d\n%s", code, out)
	}
	if out, code := task("nightly:final", baseline); code != 0 {
		t.Fatalf("nightly:final exit %d (a regression must still publish):\n%s", code, out)
	}
	site := filepath.Join(nightly, "site")
	for _, name := range []string{"index.md", "json.md", "json.svg", "results.csv", "compare.md"} {
		if _, err := os.Stat(filepath.Join(site, name)); err != nil {
			t.Errorf("the site lacks %s: %v", name, err)
		}
	}
	for _, sub := range []string{"ssr", "ssr-extra"} {
		for _, name := range []string{"index.md", "json.md", "json.svg", "results.csv", "compare.md"} {
			if _, err := os.Stat(filepath.Join(site, sub, name)); err != nil {
				t.Errorf("the site lacks %s/%s: %v", sub, name, err)
			}
		}
	}
	for _, name := range []string{"compare.md", "ssr/compare.md", "ssr-extra/compare.md"} {
		page, _ := os.ReadFile(filepath.Join(site, name))
		if !strings.Contains(string(page), "Verdicts: 1 slower, 0 faster, 0 same, 0 unknown.") || !strings.Contains(string(page), "| slower  |") {
			t.Errorf("%s does not say slower:\n%s", name, page)
		}
	}
	if index, _ := os.ReadFile(filepath.Join(site, "index.md")); !strings.Contains(string(index), "[ssr/index.md](ssr/index.md), compared with its baseline: [ssr/compare.md](ssr/compare.md).\n") ||
		!strings.Contains(string(index), "[ssr-extra/index.md](ssr-extra/index.md), compared with its baseline: [ssr-extra/compare.md](ssr-extra/compare.md).\n") {
		t.Errorf("index.md does not link the SSR pages and the SSR extras:\n%s", index)
	}
	// go-task exits 201 when a command fails; the workflow's step fails on any non-zero status.
	if out, code := task("nightly:gate", baseline); code == 0 || !strings.Contains(out, "tfbench compare: 1 of 1 rows slower than base: node-http/default json") {
		t.Errorf("nightly:gate against a faster baseline: exit %d, want a failure naming the slower row\n%s", code, out)
	}

	// The run against itself, and no baseline: nothing slower.
	self, err := results.ReadSet(filepath.Join(nightly, "merged.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range self.Runs {
		r.File.Source = nil
	}
	same := filepath.Join(t.TempDir(), "same.json")
	if err := results.WriteSet(same, self); err != nil {
		t.Fatal(err)
	}
	if out, code := task("nightly:final", same); code != 0 {
		t.Fatalf("nightly:final against itself: exit %d\n%s", code, out)
	}
	if out, code := task("nightly:gate", same); code != 0 {
		t.Errorf("nightly:gate against itself: exit %d\n%s", code, out)
	}
	none := filepath.Join(t.TempDir(), "none.json")
	out, code := task("nightly:final", none)
	if code != 0 || strings.Count(out, "no baseline at "+none+": nothing compared") != 3 {
		t.Errorf("nightly:final without a baseline: exit %d\n%s", code, out)
	}
	if out, code := task("nightly:gate", none); code != 0 {
		t.Errorf("nightly:gate without a baseline: exit %d\n%s", code, out)
	}
	if left := processesUnder(work); len(left) > 0 {
		t.Errorf("processes left: %v", left)
	}
}

// checkoutSource is git's view of the checkout at dir as results.Source,
// and whether git could read it (false outside a checkout or without git).
func checkoutSource(dir string) (results.Source, bool) {
	head, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		return results.Source{}, false
	}
	status, err := exec.Command("git", "-C", dir, "status", "--porcelain").Output()
	if err != nil {
		return results.Source{}, false
	}
	return results.Source{Commit: strings.TrimSpace(string(head)), Dirty: len(bytes.TrimSpace(status)) > 0}, true
}

// nightlyResults writes a results file of 5 rounds of json at one level
// for go-stdlib and each of others, every sample through the gate, with
// method version method; the RPS of round r is 1000·r, others' half that.
func nightlyResults(t *testing.T, path string, method int, others ...string) *results.File {
	t.Helper()
	f := &results.File{SchemaVersion: results.SchemaVersion, MethodVersion: method, RunID: "run-nightly", Status: results.Complete, Shard: "1/1",
		Suite: results.Suite{Name: "nightly", Hash: "abc", Rounds: 5, Tests: []results.Test{{Name: "json", Type: model.JSON, Path: "/json",
			Concurrency: []int{16}, Pipeline: 1, Duration: 1, Gate: 0.99, MinResponses: 1, Engine: "tfbench"}}}}
	f.Host.Hostname = "runner"
	for i, fw := range append([]string{"go-stdlib"}, others...) {
		f.Frameworks = append(f.Frameworks, results.Framework{Name: fw, Variant: "default"})
		for r := 1; r <= 5; r++ {
			rps := float64(1000*r) / float64(i+1)
			f.Samples = append(f.Samples, model.Sample{Key: model.Key{ID: model.ID{Framework: fw, Variant: "default"}, Test: "json", Type: model.JSON, Connections: 16, Pipeline: 1, Engine: "tfbench", Round: r},
				Window: 1, Responses: int64(rps), Success: int64(rps), RPS: rps, Gate: model.GateResult{Passed: true}})
		}
	}
	if err := results.Write(path, f); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestComparePage runs .ci/compare-page with this test binary as tfbench:
// verdicts (the run against itself) and no baseline exit 0 with their
// page; a stale baseline (another method version) exits 0 with a page
// that holds compare's refusal and how to refresh the baseline, and no
// JSON; an unreadable merged file is an error (exit 2, compare's status).
func TestComparePage(t *testing.T) {
	script, err := filepath.Abs("../../.ci/compare-page")
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	merged, stale := filepath.Join(dir, "merged.json"), filepath.Join(dir, "baseline.json")
	nightlyResults(t, merged, results.MethodVersion, "node-http")
	nightlyResults(t, stale, results.MethodVersion-1, "node-http")
	page, js := filepath.Join(dir, "site", "compare.md"), filepath.Join(dir, "compare.json")
	run := func(baseline, merged string) (string, int) {
		t.Helper()
		cmd := exec.Command(script, baseline, merged, page, js)
		cmd.Env = append(os.Environ(), "TFBENCH="+exe, envTestMain+"=1")
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	read := func(path string) string {
		data, _ := os.ReadFile(path)
		return string(data)
	}

	if out, code := run(merged, merged); code != 0 || !strings.Contains(read(page), "Verdicts: 0 slower, 0 faster, 1 same, 0 unknown.") || read(js) == "" {
		t.Errorf("against itself: exit %d\n%s\npage:\n%s", code, out, read(page))
	}
	refusal := "tfbench compare: results do not compare: " + stale + ": method version " + strconv.Itoa(results.MethodVersion-1) + ", " + merged +
		": method version " + strconv.Itoa(results.MethodVersion) + ": results measured by different methods never compare\n"
	out, code := run(stale, merged)
	if code != 0 || out != refusal+"compare refused "+stale+" (stale baseline): the refusal is on "+page+"\n" {
		t.Errorf("a stale baseline: exit %d, said\n%s", code, out)
	}
	want := "# Compared with the baseline\n\nNo verdicts: tfbench compare refused the baseline " + stale + ", so nothing was checked and the nightly's gate fails:\n\n```\n" + refusal + "```\n\n" +
		"A baseline must be measured by the same method version and with the same suite file (its SHA-256) as the run it is compared with; a change of either makes the old baseline stale.\n" +
		"To refresh it, take merged.json from the nightly-merged artifact of a run you trust (this one, once its figures are reviewed) and commit it as " + stale + " (docs/ci.md, The nightly).\n"
	if got := read(page); got != want {
		t.Errorf("the page of a stale baseline:\n%s\nwant\n%s", got, want)
	}
	if _, err := os.Stat(js); !os.IsNotExist(err) {
		t.Errorf("a refused compare left its JSON: %v", err)
	}

	none := filepath.Join(dir, "none.json")
	if out, code := run(none, merged); code != 0 || out != "no baseline at "+none+": nothing compared\n" ||
		read(page) != "# Compared with the baseline\n\nNo baseline: "+none+" does not exist. Commit a nightly merged.json there (a reviewed change) to get verdicts.\n" {
		t.Errorf("no baseline: exit %d, said %q, page\n%s", code, out, read(page))
	}
	if out, code := run(merged, none); code != 2 || !strings.Contains(out, none) {
		t.Errorf("a missing merged file: exit %d, said %q; want exit 2 naming it", code, out)
	}
}

// TestNightlyGateRefusals runs nightly:final and nightly:gate through
// go-task on hand-made job results (go-stdlib and node-http, all three
// halves: the main suite, the SSR pages, the SSR extras):
// against a stale baseline (another method version) final exits 0 with
// compare pages that hold compare's refusal, and gate fails with the same
// message; when a framework the gate expects (FRAMEWORKS=node-http,nextjs)
// has no figures, final still renders the site and gate fails naming it.
func TestNightlyGateRefusals(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tfbench through go-task")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	nightly := t.TempDir()
	for _, half := range []string{"jobs", "ssr-jobs", "ssr-extra-jobs"} {
		os.MkdirAll(filepath.Join(nightly, half), 0o755)
		nightlyResults(t, filepath.Join(nightly, half, "shard-1-of-1.json"), results.MethodVersion, "node-http")
	}
	stale := filepath.Join(t.TempDir(), "baseline.json")
	nightlyResults(t, stale, results.MethodVersion-1, "node-http")
	task := func(name, frameworks string) (string, int) {
		t.Helper()
		cmd := exec.Command("go", "tool", "task", name)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "FRAMEWORKS="+frameworks, "NIGHTLY="+nightly, "BASELINE="+stale, "SSR_BASELINE="+stale, "EXTRA_BASELINE="+stale, "SHARD=1/1", "NO_COLOR=1")
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("task %s: %v", name, err)
		}
		return string(out), code
	}
	refusal := "tfbench compare: results do not compare: " + stale + ": method version " + strconv.Itoa(results.MethodVersion-1) + ", "
	// No baseline commit (the stale baseline records no source): nightly:ab says so for the gate.
	if out, code := task("nightly:ab", "node-http"); code != 0 {
		t.Fatalf("nightly:ab without a baseline commit: exit %d\n%s", code, out)
	}
	if out, code := task("nightly:final", "node-http"); code != 0 {
		t.Fatalf("nightly:final against a stale baseline: exit %d (the site must still be published)\n%s", code, out)
	}
	for _, name := range []string{"compare.md", "ssr/compare.md", "ssr-extra/compare.md"} {
		page, _ := os.ReadFile(filepath.Join(nightly, "site", name))
		if !strings.Contains(string(page), "No verdicts: tfbench compare refused the baseline "+stale) || !strings.Contains(string(page), refusal) {
			t.Errorf("%s does not hold the refusal:\n%s", name, page)
		}
	}
	out, code := task("nightly:gate", "node-http")
	if code == 0 || !strings.Contains(out, refusal) || strings.Count(out, "nightly:gate: no verdicts against "+stale) != 3 {
		t.Errorf("nightly:gate against a stale baseline: exit %d, want a failure with the refusal for all three halves\n%s", code, out)
	}

	// A framework without figures: the site is made, the gate names it.
	none := filepath.Join(t.TempDir(), "none.json")
	stale = none
	if out, code := task("nightly:final", "node-http,nextjs"); code != 0 {
		t.Fatalf("nightly:final with nextjs missing: exit %d\n%s", code, out)
	}
	out, code = task("nightly:gate", "node-http,nextjs")
	missing := "tfbench merge: nextjs/default: no measured figures in the merged results (no run holds it: its shard did not run, or it was not in the plan)\n"
	if code == 0 || strings.Count(out, missing) != 3 {
		t.Errorf("nightly:gate with nextjs missing: exit %d, want a failure naming nextjs for all three halves\n%s", code, out)
	}
	if out, code := task("nightly:gate", "node-http"); code != 0 {
		t.Errorf("nightly:gate with node-http measured and no baseline: exit %d\n%s", code, out)
	}
}

// TestCIWorkflow checks every workflow under .github/workflows: ci.yml
// runs .ci/run on push and pull_request and go tool task test:race; every
// `go tool task NAME` in a run step names a task of Taskfile.yml; every
// action or reusable workflow a job uses is pinned to a full commit SHA
// (40 hex digits; a local ./path needs none); every upload runs under
// always().
func TestCIWorkflow(t *testing.T) {
	var tf taskfile
	readYAML(t, "../../Taskfile.yml", &tf)
	paths, err := filepath.Glob("../../.github/workflows/*.y*ml")
	if err != nil || len(paths) < 2 {
		t.Fatalf("workflows %v: %v; want ci.yml and nightly.yml at least", paths, err)
	}
	type step struct {
		Uses string `yaml:"uses"`
		Run  string `yaml:"run"`
		If   string `yaml:"if"`
	}
	type file struct {
		On          map[string]any `yaml:"on"`
		Concurrency struct {
			CancelInProgress string `yaml:"cancel-in-progress"`
		} `yaml:"concurrency"`
		Jobs map[string]struct {
			Uses  string `yaml:"uses"`
			Steps []step `yaml:"steps"`
		} `yaml:"jobs"`
	}
	taskRE := regexp.MustCompile(`go tool task ([a-z][a-z0-9:_-]*)`)
	pinRE := regexp.MustCompile(`^[^@\s]+@[0-9a-f]{40}$`)
	runs := map[string][]string{} // workflow file → its run steps
	for _, path := range paths {
		name := filepath.Base(path)
		var wf file
		readYAML(t, path, &wf)
		if len(wf.Jobs) == 0 {
			t.Errorf("%s: no jobs", name)
		}
		for jname, job := range wf.Jobs {
			uses := []string{job.Uses}
			for _, st := range job.Steps {
				uses = append(uses, st.Uses)
				// A job past its timeout-minutes is cancelled: !cancelled() skips the upload, always() runs it.
				if strings.HasPrefix(st.Uses, "actions/upload-artifact@") && strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(st.If, "${{"), "}}")) != "always()" {
					t.Errorf("%s: job %s uploads under if: %q; want always(), so that a timed-out or cancelled job keeps what it made", name, jname, st.If)
				}
				if st.Run == "" {
					continue
				}
				runs[name] = append(runs[name], strings.TrimSpace(st.Run))
				for _, m := range taskRE.FindAllStringSubmatch(st.Run, -1) {
					if _, ok := tf.Tasks[m[1]]; !ok {
						t.Errorf("%s: job %s runs go tool task %s, which is not in Taskfile.yml", name, jname, m[1])
					}
				}
			}
			for _, u := range uses {
				if u != "" && !strings.HasPrefix(u, "./") && !pinRE.MatchString(u) {
					t.Errorf("%s: job %s uses %s, not pinned to a full commit SHA", name, jname, u)
				}
			}
		}
		if name != "ci.yml" {
			continue
		}
		for _, ev := range []string{"push", "pull_request"} {
			if _, ok := wf.On[ev]; !ok {
				t.Errorf("ci.yml does not run on %s", ev)
			}
		}
		// A push to main never cancels main's previous run.
		if got := wf.Concurrency.CancelInProgress; got != "${{ github.ref != 'refs/heads/main' }}" {
			t.Errorf("ci.yml's cancel-in-progress is %q; want ${{ github.ref != 'refs/heads/main' }}", got)
		}
		// The fuzz crashers .ci/run's fuzzing leaves are uploaded, also after a failure.
		var crashers []string
		for _, st := range wf.Jobs["test"].Steps {
			if strings.HasPrefix(st.Run, ".ci/fuzz-crashers ") || (strings.HasPrefix(st.Uses, "actions/upload-artifact@") && len(crashers) == 1) {
				crashers = append(crashers, st.Uses+st.Run+" if "+st.If)
			}
		}
		if len(crashers) != 2 || !strings.HasSuffix(crashers[0], " if always()") {
			t.Errorf("ci.yml's job test: fuzz crasher steps %q; want .ci/fuzz-crashers then its upload, under always()", crashers)
		}
	}
	for _, want := range []string{".ci/run", "go tool task test:race"} {
		if !slices.Contains(runs["ci.yml"], want) {
			t.Errorf("ci.yml's run steps %q lack %q", runs["ci.yml"], want)
		}
	}
	if len(runs["nightly.yml"]) == 0 {
		t.Error("nightly.yml has no run steps: the workflow was not read")
	}
}

// nightlyTask runs go-task's task name in the repository root with env
// added (NO_COLOR=1 too) and returns its combined output and exit status.
func nightlyTask(t *testing.T, name string, env ...string) (string, int) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "tool", "task", name)
	cmd.Dir = root
	cmd.Env = append(append(os.Environ(), "NO_COLOR=1"), env...)
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("task %s: %v", name, err)
	}
	return string(out), code
}

// TestNightlyABGate runs nightly:ab and nightly:ab-gate through go-task on
// hand-made shard outputs for 2 shards (SHARD=1/2). With a baseline that
// records a clean commit every shard's result is required: a missing one
// is named, a slower one fails, both present pass with their tables in
// all.md, and a shard that said "no baseline commit" fails. Without a
// baseline commit (no file, or a file without source) nightly:ab writes
// shard-I-of-N.none and exits 0, and the gate passes only when every shard
// has one. A baseline from a dirty tree fails both with the reason.
func TestNightlyABGate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tfbench through go-task")
	}
	const commit = "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d"
	dir := t.TempDir()
	baseline := func(name string, src *results.Source) string {
		path := filepath.Join(dir, name)
		f := nightlyResults(t, path, results.MethodVersion, "node-http")
		f.Source = src
		if err := results.Write(path, f); err != nil {
			t.Fatal(err)
		}
		return path
	}
	clean, dirty, nosrc := baseline("clean.json", &results.Source{Commit: commit}), baseline("dirty.json", &results.Source{Commit: commit, Dirty: true}), baseline("nosrc.json", nil)
	missing := filepath.Join(dir, "missing.json")
	nightly := t.TempDir()
	ab := filepath.Join(nightly, "ab-jobs")
	write := func(name, content string) {
		t.Helper()
		os.MkdirAll(filepath.Dir(filepath.Join(ab, name)), 0o755)
		if err := os.WriteFile(filepath.Join(ab, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gate := func(base string, env ...string) (string, int) {
		t.Helper()
		return nightlyTask(t, "nightly:ab-gate", append([]string{"NIGHTLY=" + nightly, "BASELINE=" + base, "SHARD=1/2"}, env...)...)
	}
	read := func(name string) string {
		data, _ := os.ReadFile(filepath.Join(ab, name))
		return string(data)
	}

	// A baseline commit: shard 2's result lost.
	write("shard-1-of-2/exit", "0\n")
	write("shard-1-of-2.md", "# shard 1\n")
	out, code := gate(clean)
	if want := "nightly:ab-gate: shard 2/2: no A/B result against baseline commit " + commit + " (no " + ab + "/shard-2-of-2/exit: its job failed, timed out or was cancelled before nightly:ab finished, or its upload was lost)\n"; code == 0 || !strings.Contains(out, want) || strings.Contains(out, "shard 1/2") {
		t.Errorf("shard 2's result missing: exit %d, want a failure saying\n%s\n%s", code, want, out)
	}
	write("shard-2-of-2/exit", "0\n")
	write("shard-2-of-2.md", "# shard 2\n")
	if out, code := gate(clean); code != 0 || read("all.md") != "# shard 1\n# shard 2\n" {
		t.Errorf("both shards' results, none slower: exit %d, all.md %q\n%s", code, read("all.md"), out)
	}
	write("shard-2-of-2/exit", "1\n")
	if out, code := gate(clean); code == 0 || !strings.Contains(out, "nightly:ab-gate: shard 2/2: check status 1 (1: slower past fail_slower_than, 2: no verdict)\n") {
		t.Errorf("shard 2 slower: exit %d\n%s", code, out)
	}

	// No baseline commit: nightly:ab says so in shard-I-of-N.none, exit 0.
	for _, c := range []struct{ base, why string }{
		{missing, "no baseline commit: " + missing + " does not exist (BASE_REF unset)\n"},
		{nosrc, "no baseline commit: " + nosrc + " records none (measured outside a git checkout, or by a tfbench before results recorded their source; BASE_REF unset)\n"},
	} {
		os.RemoveAll(ab)
		out, code := nightlyTask(t, "nightly:ab", "NIGHTLY="+nightly, "BASELINE="+c.base, "SHARD=1/2")
		if code != 0 || read("shard-1-of-2.none") != c.why || !strings.Contains(out, "nightly:ab: "+strings.TrimSuffix(c.why, "\n")+": nothing A/B'd, said in ") {
			t.Errorf("nightly:ab against %s: exit %d, shard-1-of-2.none %q, want %q\n%s", filepath.Base(c.base), code, read("shard-1-of-2.none"), c.why, out)
		}
		out, code = gate(c.base)
		if want := "nightly:ab-gate: shard 2/2: no A/B result (" + strings.TrimSuffix(c.why, "\n") + ", but no " + ab + "/shard-2-of-2.none either"; code == 0 || !strings.Contains(out, want) {
			t.Errorf("gate against %s with shard 2 lost: exit %d, want %q\n%s", filepath.Base(c.base), code, want, out)
		}
		if out, code := nightlyTask(t, "nightly:ab", "NIGHTLY="+nightly, "BASELINE="+c.base, "SHARD=2/2"); code != 0 {
			t.Errorf("nightly:ab shard 2 against %s: exit %d\n%s", filepath.Base(c.base), code, out)
		}
		out, code = gate(c.base)
		if code != 0 || !strings.Contains(out, "nightly:ab-gate: shard 1/2: "+c.why) || !strings.Contains(out, "nightly:ab-gate: shard 2/2: "+c.why) {
			t.Errorf("gate against %s, both shards without a baseline commit: exit %d\n%s", filepath.Base(c.base), code, out)
		}
	}
	// Shards that said "no baseline commit" against a baseline that has one.
	out, code = gate(clean)
	if want := "nightly:ab-gate: shard 1/2 said \"no baseline commit: " + nosrc; code == 0 || !strings.Contains(out, want) || !strings.Contains(out, "\", but the baseline commit is "+commit+"\n") {
		t.Errorf("no-baseline markers against a baseline commit: exit %d, want %q\n%s", code, want, out)
	}
	if out, code := gate(missing, "BASE_REF=v1.2"); code == 0 || !strings.Contains(out, "but the baseline commit is v1.2\n") {
		t.Errorf("no-baseline markers with BASE_REF: exit %d\n%s", code, out)
	}

	// A baseline from a dirty tree: both refuse it, nightly:ab writes nothing.
	os.RemoveAll(ab)
	refusal := "baseline-commit: " + dirty + " was measured from a dirty tree at " + commit + " (uncommitted or untracked files): its figures belong to no commit, so there is nothing to build its side at; take the baseline from a nightly of a clean checkout (docs/ci.md, Setting or refreshing a baseline)\n"
	if out, code := nightlyTask(t, "nightly:ab", "NIGHTLY="+nightly, "BASELINE="+dirty, "SHARD=1/2"); code == 0 || !strings.Contains(out, refusal) || read("shard-1-of-2.none") != "" {
		t.Errorf("nightly:ab against a dirty baseline: exit %d, want a failure saying\n%s\n%s", code, refusal, out)
	}
	if out, code := gate(dirty); code == 0 || !strings.Contains(out, refusal) {
		t.Errorf("nightly:ab-gate against a dirty baseline: exit %d\n%s", code, out)
	}
}

// TestNightlyFinalStops: nightly:final's multi-line commands stop at the
// first failing command. An SSR compare page that fails (a baseline that is
// not JSON: compare exits 2) fails the task and the site's index does not
// link ssr/; a shard table that cannot be read (a folder) fails it before
// ab.md is linked.
func TestNightlyFinalStops(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tfbench through go-task")
	}
	nightly := t.TempDir()
	for _, half := range []string{"jobs", "ssr-jobs"} {
		os.MkdirAll(filepath.Join(nightly, half), 0o755)
		nightlyResults(t, filepath.Join(nightly, half, "shard-1-of-1.json"), results.MethodVersion, "node-http")
	}
	bad := filepath.Join(t.TempDir(), "ssr-baseline.json")
	os.WriteFile(bad, []byte("not JSON\n"), 0o644)
	none := filepath.Join(t.TempDir(), "none.json")
	index := func() string {
		data, _ := os.ReadFile(filepath.Join(nightly, "site", "index.md"))
		return string(data)
	}
	out, code := nightlyTask(t, "nightly:final", "NIGHTLY="+nightly, "BASELINE="+none, "SSR_BASELINE="+bad)
	if code == 0 || !strings.Contains(out, bad) || strings.Contains(index(), "ssr/") {
		t.Errorf("nightly:final with an SSR baseline that is not JSON: exit %d, want a failure naming it and an index without ssr/\n%s\nindex:\n%s", code, out, index())
	}
	os.MkdirAll(filepath.Join(nightly, "ab-jobs", "shard-1-of-1.md"), 0o755)
	out, code = nightlyTask(t, "nightly:final", "NIGHTLY="+nightly, "BASELINE="+none, "SSR_BASELINE="+none)
	if code == 0 || !strings.Contains(out, "shard-1-of-1.md: Is a directory") || strings.Contains(index(), "ab.md") || !strings.Contains(index(), "ssr/index.md") {
		t.Errorf("nightly:final with a shard table it cannot read: exit %d, want a failure and an index with ssr/ but not ab.md\n%s\nindex:\n%s", code, out, index())
	}
}

// jobSetup is what a CI job's timeout-minutes must leave beyond its Go
// tests' timeouts: checkout, Go and the caches, module downloads (V8
// too), g++ and openssh-server, lint (go vet on four platforms) and builds.
const jobSetup = 15 * time.Minute

// goTestRE finds a go test command line; timeoutRE its -timeout flag.
var (
	goTestRE  = regexp.MustCompile(`\bgo test\b[^\n;&|]*`)
	timeoutRE = regexp.MustCompile(`(?:^|\s)-{1,2}timeout[= ](\S+)`)
	ciTaskRE  = regexp.MustCompile(`\bgo tool task ([a-z][a-z0-9:_-]*)`)
	ciFileRE  = regexp.MustCompile(`(?:^|\s)(\.ci/[a-z0-9-]+)\b`)
)

// goTestBudget is the sum of the -timeout of every go test command that
// text runs (10m, go test's default, without one), following `go tool
// task NAME` into Taskfile.yml's task (its cmds, and the tasks those call
// by `task:` or `go tool task`) and `.ci/NAME` into the script, one level
// of shell at a time; it lists where each came from in trail.
func goTestBudget(t *testing.T, text string, tasks map[string]any, trail *[]string, depth int) time.Duration {
	t.Helper()
	if depth > 8 {
		t.Fatalf("go tool task calls nest deeper than 8: %v", *trail)
	}
	var sum time.Duration
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "#"); i >= 0 && (i == 0 || line[i-1] == ' ') {
			line = line[:i] // a comment
		}
		for _, m := range goTestRE.FindAllString(line, -1) {
			d := 10 * time.Minute
			if tm := timeoutRE.FindStringSubmatch(m); tm != nil {
				var err error
				if d, err = time.ParseDuration(tm[1]); err != nil {
					t.Errorf("%s: -timeout %q: %v", m, tm[1], err)
				}
			}
			*trail = append(*trail, fmt.Sprintf("%s: %s", d, strings.TrimSpace(m)))
			sum += d
		}
		for _, m := range ciTaskRE.FindAllStringSubmatch(line, -1) {
			sum += taskBudget(t, m[1], tasks, trail, depth+1)
		}
		for _, m := range ciFileRE.FindAllStringSubmatch(line, -1) {
			if slices.Contains(*trail, "file "+m[1]) {
				continue // a script naming itself (its usage line)
			}
			*trail = append(*trail, "file "+m[1])
			data, err := os.ReadFile("../../" + m[1])
			if err != nil {
				t.Errorf("a CI step runs %s: %v", m[1], err)
				continue
			}
			sum += goTestBudget(t, string(data), tasks, trail, depth+1)
		}
	}
	return sum
}

// taskBudget is goTestBudget of task name's commands (strings, `cmd:` and
// `defer:` entries, and the tasks `task:` entries call).
func taskBudget(t *testing.T, name string, tasks map[string]any, trail *[]string, depth int) time.Duration {
	t.Helper()
	task, ok := tasks[name].(map[string]any)
	if !ok {
		t.Errorf("task %s is not in Taskfile.yml", name)
		return 0
	}
	var sum time.Duration
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			sum += goTestBudget(t, v, tasks, trail, depth)
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			if sub, ok := v["task"].(string); ok {
				sum += taskBudget(t, sub, tasks, trail, depth+1)
			}
			for _, k := range []string{"cmd", "cmds", "defer"} {
				walk(v[k])
			}
		}
	}
	walk(task["cmds"])
	return sum
}

// TestCIWorkflowTimeouts: every job of every workflow gives its Go tests
// the time their -timeout flags allow, so that a hung test ends with Go's
// own report (the goroutines, the test's name) and the job's always()
// steps still run, not with the runner killing the job: timeout-minutes is
// at least the sum of the -timeout of every go test the job runs (through
// its tasks and .ci/ scripts; 10m for one without the flag) plus jobSetup,
// when it runs any.
func TestCIWorkflowTimeouts(t *testing.T) {
	var tf struct {
		Tasks map[string]any `yaml:"tasks"`
	}
	readYAML(t, "../../Taskfile.yml", &tf)
	paths, _ := filepath.Glob("../../.github/workflows/*.yml")
	budgets := map[string]time.Duration{}
	for _, path := range paths {
		var wf struct {
			Jobs map[string]struct {
				Timeout int `yaml:"timeout-minutes"`
				Steps   []struct {
					Run string `yaml:"run"`
				} `yaml:"steps"`
			} `yaml:"jobs"`
		}
		readYAML(t, path, &wf)
		for name, job := range wf.Jobs {
			var trail []string
			var sum time.Duration
			for _, st := range job.Steps {
				sum += goTestBudget(t, st.Run, tf.Tasks, &trail, 0)
			}
			id := filepath.Base(path) + " job " + name
			budgets[id] = sum
			if job.Timeout == 0 {
				t.Errorf("%s has no timeout-minutes (GitHub's default is 6 hours)", id)
				continue
			}
			if need := sum + jobSetup; sum > 0 && time.Duration(job.Timeout)*time.Minute < need {
				t.Errorf("%s: timeout-minutes %d, below its Go tests' timeouts (%s) and %s of setup: want at least %.0f\n\t%s",
					id, job.Timeout, sum, jobSetup, need.Minutes(), strings.Join(trail, "\n\t"))
			}
		}
	}
	// The pattern must find what the jobs are known to run: the README's
	// test command and the race detector.
	if budgets["ci.yml job test"] < 120*time.Minute || budgets["ci.yml job race"] < 75*time.Minute {
		t.Errorf("Go test budgets %v: the test job runs go tool task test (45m, 45m, 30m and more), the race job test:race (45m and 30m)", budgets)
	}
}

// TestCIWorkflowFuzzCrashers runs .ci/fuzz-crashers (ci.yml's test job,
// after .ci/run) in a scratch repository: an untracked input under a
// package's testdata/fuzz/FuzzX/ is copied to OUT under its path and
// named; a committed seed, an ignored file and other untracked files are
// not; without new inputs OUT stays empty.
func TestCIWorkflowFuzzCrashers(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	script, err := filepath.Abs("../../.ci/fuzz-crashers")
	if err != nil {
		t.Fatal(err)
	}
	repo, out := t.TempDir(), filepath.Join(t.TempDir(), "crashers")
	write := func(name string) {
		os.MkdirAll(filepath.Dir(filepath.Join(repo, name)), 0o755)
		os.WriteFile(filepath.Join(repo, name), []byte("go test fuzz v1\n[]byte(\""+name+"\")\n"), 0o644)
	}
	gitRun := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, b)
		}
	}
	gitRun("init", "-q")
	write("harness/load/testdata/fuzz/FuzzParseResponse/seed1")
	write(".gitignore")
	os.WriteFile(filepath.Join(repo, ".gitignore"), []byte(".tfbench/\n"), 0o644)
	gitRun("add", "-A")
	gitRun("commit", "-qm", "seeds")
	collect := func() string {
		t.Helper()
		cmd := exec.Command(script, out)
		cmd.Dir = repo
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("fuzz-crashers: %v\n%s", err, b)
		}
		return string(b)
	}
	write("notes.txt")
	write(".tfbench/testdata/fuzz/FuzzX/ignored")
	if got := collect(); got != "fuzz-crashers: 0 new failing input(s) in "+out+"\n" {
		t.Errorf("without new inputs it said %q", got)
	}
	write("harness/load/testdata/fuzz/FuzzParseResponse/771e938e4458e983")
	write("harness/suite/testdata/fuzz/FuzzParseSuite/0a1b2c3d4e5f6a7b")
	want := "fuzz-crashers: harness/load/testdata/fuzz/FuzzParseResponse/771e938e4458e983\nfuzz-crashers: harness/suite/testdata/fuzz/FuzzParseSuite/0a1b2c3d4e5f6a7b\nfuzz-crashers: 2 new failing input(s) in " + out + "\n"
	if got := collect(); got != want {
		t.Errorf("fuzz-crashers said\n%s\nwant\n%s", got, want)
	}
	var files []string
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(out, p)
			files = append(files, rel)
		}
		return nil
	})
	if want := []string{"harness/load/testdata/fuzz/FuzzParseResponse/771e938e4458e983", "harness/suite/testdata/fuzz/FuzzParseSuite/0a1b2c3d4e5f6a7b"}; !slices.Equal(files, want) {
		t.Errorf("OUT holds %v, want %v", files, want)
	}
	if data, _ := os.ReadFile(filepath.Join(out, "harness/load/testdata/fuzz/FuzzParseResponse/771e938e4458e983")); !strings.Contains(string(data), "771e938e4458e983") {
		t.Errorf("the copy holds %q", data)
	}
}

// TestCIWorkflowSudo: the SSH tests run somewhere in CI. ci.yml has a job
// that installs openssh-server through sudo (.ci/install-sshd) and runs go
// tool task test:ssh through sudo with the runner's PATH, HOME and Go
// caches and REQUIRE_SSH=1; test:ssh runs ./internal/sshtest and the SSH
// tests of ./cmd/tfbench; .ci/run installs sshd and runs .ci/test-nonroot
// when root. Then test:ssh runs with a PATH that lacks ip(8): every
// fixture skips, and with REQUIRE_SSH=1 the task fails saying so.
func TestCIWorkflowSudo(t *testing.T) {
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Run string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	readYAML(t, "../../.github/workflows/ci.yml", &wf)
	var install, run bool
	for _, job := range wf.Jobs {
		for _, st := range job.Steps {
			install = install || strings.Contains(st.Run, "sudo .ci/install-sshd")
			if strings.Contains(st.Run, "sudo ") && strings.Contains(st.Run, "go tool task test:ssh") {
				run = true
				for _, want := range []string{`"PATH=$PATH"`, `"HOME=$HOME"`, `"GOCACHE=$(go env GOCACHE)"`, `"GOMODCACHE=$(go env GOMODCACHE)"`, "REQUIRE_SSH=1"} {
					if !strings.Contains(st.Run, want) {
						t.Errorf("ci.yml runs test:ssh through sudo without %s:\n%s", want, st.Run)
					}
				}
			}
		}
	}
	if !install || !run {
		t.Errorf("ci.yml: a step runs sudo .ci/install-sshd: %v; one runs go tool task test:ssh through sudo: %v; want both", install, run)
	}
	var tf taskfile
	readYAML(t, "../../Taskfile.yml", &tf)
	cmds := fmt.Sprint(tf.Tasks["test:ssh"].Cmds)
	for _, want := range []string{"./internal/sshtest", "-run 'SSH' ./cmd/tfbench ./harness/agent"} {
		if !strings.Contains(cmds, want) {
			t.Errorf("test:ssh does not run %s:\n%s", want, cmds)
		}
	}
	script, _ := os.ReadFile("../../.ci/run")
	for _, want := range []string{"  .ci/install-sshd\n", "  .ci/test-nonroot\n"} {
		if !strings.Contains(string(script), want) {
			t.Errorf(".ci/run does not run %q", strings.TrimSpace(want))
		}
	}

	if testing.Short() {
		t.Skip("runs go tool task test:ssh")
	}
	// A PATH of go and the shell tools the task (and Taskfile.yml's vars) use, without ip(8).
	bin := t.TempDir()
	for _, tool := range []string{"go", "mktemp", "tee", "grep", "rm", "cat", "seq"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("no %s: %v", tool, err)
		}
		if err := os.Symlink(p, filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	out, code := nightlyTask(t, "test:ssh", "PATH="+bin, "REQUIRE_SSH=1")
	if code == 0 || !strings.Contains(out, "--- SKIP: TestRemoteSSH") || !strings.Contains(out, "test:ssh: REQUIRE_SSH=1, and the tests above skipped (their reasons are in the log above)\n") {
		t.Errorf("test:ssh REQUIRE_SSH=1 where the fixture skips: exit %d, want a failure naming the skipped tests\n%s", code, out)
	}
}

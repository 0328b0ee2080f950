package main

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// bisectWorkflow is the part of .github/workflows/bisect.yml the test reads.
type bisectWorkflow struct {
	On struct {
		WorkflowDispatch struct {
			Inputs map[string]struct {
				Required bool   `yaml:"required"`
				Type     string `yaml:"type"`
			} `yaml:"inputs"`
		} `yaml:"workflow_dispatch"`
	} `yaml:"on"`
	Permissions map[string]string `yaml:"permissions"`
	Jobs        map[string]struct {
		RunsOn         string            `yaml:"runs-on"`
		TimeoutMinutes int               `yaml:"timeout-minutes"`
		Env            map[string]string `yaml:"env"`
		Permissions    map[string]string `yaml:"permissions"`
		Steps          []workflowStep    `yaml:"steps"`
	} `yaml:"jobs"`
}

// TestBisectWorkflow checks bisect.yml (docs/ci.md, Bisecting a change
// point): started by workflow_dispatch alone with the inputs
// .ci/bisect-dispatch sends (good, bad, adapter and test required; n and
// id optional); one job on ubuntu-24.04 with TFBENCH_RUNNER its runs-on,
// 180 minutes; every action pinned to the SHA nightly.yml pins it to, the
// Node cache the nightly's; a full-history checkout that keeps no
// credentials; the bisect step, run by bash with a fake go, passes each
// input as one argument to `go tool task bisect` (--n only when n is set),
// never expanding it; the output folder is uploaded under always() and, on
// main with an id, published by .ci/publish-bisect with the token, the
// job's only write permission. No run: holds ${{ }}.
func TestBisectWorkflow(t *testing.T) {
	var wf bisectWorkflow
	readYAML(t, "../../.github/workflows/bisect.yml", &wf)
	var raw struct {
		On map[string]any `yaml:"on"`
	}
	readYAML(t, "../../.github/workflows/bisect.yml", &raw)
	var nightly workflow
	readYAML(t, "../../.github/workflows/nightly.yml", &nightly)
	var tf taskfile
	readYAML(t, "../../Taskfile.yml", &tf)

	if keys := slices.Sorted(maps.Keys(raw.On)); !slices.Equal(keys, []string{"workflow_dispatch"}) {
		t.Errorf("bisect.yml runs on %v; want workflow_dispatch alone", keys)
	}
	inputs := map[string]bool{}
	for name, in := range wf.On.WorkflowDispatch.Inputs {
		inputs[name] = in.Required
		if in.Type != "string" {
			t.Errorf("input %s is of type %q; want string", name, in.Type)
		}
	}
	if want := map[string]bool{"good": true, "bad": true, "adapter": true, "test": true, "n": false, "id": false}; !maps.Equal(inputs, want) {
		t.Errorf("bisect.yml's inputs (name: required) are %v; want %v", inputs, want)
	}
	if !maps.Equal(wf.Permissions, map[string]string{"contents": "read"}) {
		t.Errorf("bisect.yml's permissions are %v; want contents: read", wf.Permissions)
	}
	if len(wf.Jobs) != 1 {
		t.Fatalf("bisect.yml has jobs %v; want one", slices.Sorted(maps.Keys(wf.Jobs)))
	}
	job := wf.Jobs["bisect"]
	if job.RunsOn != "ubuntu-24.04" || job.Env["TFBENCH_RUNNER"] != job.RunsOn || job.TimeoutMinutes != 180 {
		t.Errorf("job bisect runs on %q with TFBENCH_RUNNER=%q, %d minutes; want ubuntu-24.04, its runs-on, 180", job.RunsOn, job.Env["TFBENCH_RUNNER"], job.TimeoutMinutes)
	}
	if !maps.Equal(job.Permissions, map[string]string{"contents": "write"}) {
		t.Errorf("job bisect's permissions are %v; want contents: write (the publish step's push)", job.Permissions)
	}

	// Pins: each action at the commit nightly.yml uses; the Node cache the nightly's.
	pins := map[string]string{}
	var nightlyCache map[string]string
	for _, st := range nightly.Jobs["bench"].Steps {
		if action, sha, ok := strings.Cut(st.Uses, "@"); ok {
			pins[action] = sha
			if action == "actions/cache" {
				nightlyCache = st.With
			}
		}
	}
	for _, st := range nightly.Jobs["final"].Steps {
		if action, sha, ok := strings.Cut(st.Uses, "@"); ok {
			pins[action] = sha
		}
	}
	var used []string
	for _, st := range job.Steps {
		action, sha, ok := strings.Cut(st.Uses, "@")
		if !ok {
			continue
		}
		used = append(used, action)
		if want, ok := pins[action]; !ok || sha != want {
			t.Errorf("bisect.yml uses %s; nightly.yml pins %s to %q", st.Uses, action, want)
		}
		switch action {
		case "actions/checkout":
			if st.With["fetch-depth"] != "0" || st.With["persist-credentials"] != "false" {
				t.Errorf("the checkout is with %v; want fetch-depth 0 (every commit between good and bad) and persist-credentials false (the builds get no token)", st.With)
			}
		case "actions/cache":
			if !maps.Equal(st.With, nightlyCache) {
				t.Errorf("the cache step is with %v; want nightly's %v", st.With, nightlyCache)
			}
		}
	}
	if want := []string{"actions/checkout", "actions/setup-go", "actions/cache", "actions/upload-artifact"}; !slices.Equal(used, want) {
		t.Errorf("bisect.yml uses %v; want %v", used, want)
	}

	// The steps that run: bisect, then the upload and the publish.
	const out = ".tfbench/bisect/out"
	var runs []string
	bisect, upload, publish := -1, -1, -1
	for i, st := range job.Steps {
		if strings.Contains(st.Run, "${{") {
			t.Errorf("step %q runs %q: inputs reach the shell through env, never ${{ }} inside run:", st.Name, st.Run)
		}
		switch {
		case strings.HasPrefix(st.Run, "go tool task bisect "):
			bisect = i
		case strings.HasPrefix(st.Uses, "actions/upload-artifact@"):
			upload = i
			if st.If != "always()" || st.With["path"] != out+"/" {
				t.Errorf("the upload is if %q of %q; want always() of %s/", st.If, st.With["path"], out)
			}
		case strings.HasPrefix(st.Run, ".ci/publish-bisect "):
			publish = i
			if st.Run != ".ci/publish-bisect "+out+` "$ID"` || st.If != "always() && github.ref == 'refs/heads/main' && inputs.id != ''" ||
				!maps.Equal(st.Env, map[string]string{"ID": "${{ inputs.id }}", "PUSH": "1", "GH_TOKEN": "${{ github.token }}"}) {
				t.Errorf("the publish step runs %q if %q with env %v", st.Run, st.If, st.Env)
			}
		}
		if st.Run != "" {
			runs = append(runs, st.Run)
		}
	}
	if bisect < 0 || upload != bisect+1 || publish != upload+1 || len(runs) != 2 {
		t.Fatalf("bisect.yml runs %q; want go tool task bisect, then the upload, then .ci/publish-bisect", runs)
	}
	if _, ok := tf.Tasks["bisect"]; !ok {
		t.Error("bisect.yml runs go tool task bisect, which is not in Taskfile.yml")
	}
	st := job.Steps[bisect]
	for _, in := range []string{"good", "bad", "adapter", "test", "n"} {
		if got := st.Env[strings.ToUpper(in)]; got != "${{ inputs."+in+" }}" {
			t.Errorf("the bisect step's env %s is %q; want ${{ inputs.%s }}", strings.ToUpper(in), got, in)
		}
	}
	// The step's command under bash with a go that prints its argv, one
	// argument a line: inputs with spaces and shell syntax stay one
	// argument each, unexpanded; --n only with an n.
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	bin := t.TempDir()
	os.WriteFile(filepath.Join(bin, "go"), []byte("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n"), 0o755)
	for _, n := range []string{"", "1000"} {
		cmd := exec.Command(bash, "-e", "-c", st.Run)
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
			"GOOD=1a2b3c4", "BAD=main~1", "ADAPTER=node-http:default", "TEST=json $(touch pwned) `touch pwned`", "N="+n)
		got, err := cmd.Output()
		if err != nil {
			t.Fatalf("the bisect step under bash: %v", err)
		}
		want := "tool\ntask\nbisect\n--\n--good\n1a2b3c4\n--bad\nmain~1\n--adapter\nnode-http:default\n--test\njson $(touch pwned) `touch pwned`\n"
		if n != "" {
			want += "--n\n" + n + "\n"
		}
		want += "--out\n" + out + "\n"
		if string(got) != want {
			t.Errorf("with n=%q the bisect step runs go with\n%s\nwant\n%s", n, got, want)
		}
		if _, err := os.Stat(filepath.Join(cmd.Dir, "pwned")); err == nil {
			t.Error("an input was run as a command")
		}
	}
}

// TestPublishBisect runs .ci/publish-bisect against a local gh-pages branch
// (no remote), then through a scratch origin with PUSH=1: bisect.md and
// diff.folded land in nightly/trends/regressions/ID/ beside what the branch
// holds; the same folder again commits nothing; a re-run without
// diff.folded drops it; a push the origin refuses once is retried. An ID
// that is not a slug, a folder without bisect.md and a branch that does
// not exist fail before anything is committed, with the reason.
func TestPublishBisect(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	script, err := filepath.Abs("../../.ci/publish-bisect")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	clone, out := filepath.Join(dir, "clone"), filepath.Join(dir, "out")
	gitEnv := append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_NOSYSTEM=1")
	git := func(wd string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = wd
		cmd.Env = gitEnv
		got, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, got)
		}
		return string(got)
	}
	publish := func(wd string, env []string, args ...string) (string, error) {
		t.Helper()
		cmd := exec.Command(script, args...)
		cmd.Dir = wd
		cmd.Env = append(gitEnv, env...)
		got, err := cmd.CombinedOutput()
		return string(got), err
	}
	os.MkdirAll(clone, 0o755)
	git(clone, "init", "-q", "-b", "main")
	git(clone, "commit", "-q", "--allow-empty", "-m", "main")
	git(clone, "checkout", "-q", "--orphan", "gh-pages")
	os.MkdirAll(filepath.Join(clone, "nightly/trends/regressions"), 0o755)
	os.WriteFile(filepath.Join(clone, "nightly/trends/regressions/2026-12-04-node-http-default-json-ratio.md"), []byte("# the regression\n"), 0o644)
	git(clone, "add", "nightly")
	git(clone, "commit", "-q", "-m", "nightly")
	git(clone, "checkout", "-q", "main")
	os.MkdirAll(out, 0o755)
	os.WriteFile(filepath.Join(out, "bisect.md"), []byte("# bisect\n"), 0o644)
	os.WriteFile(filepath.Join(out, "diff.folded"), []byte("main;handler 10 20\n"), 0o644)
	os.WriteFile(filepath.Join(out, "bisect.json"), []byte("{}\n"), 0o644)
	const id = "2026-12-04-node-http-default-json-ratio"
	const dest = "nightly/trends/regressions/" + id

	got, err := publish(clone, nil, out, id)
	if want := "publish-bisect: no remote origin: publishing to the local gh-pages\npublish-bisect: committed " + dest + " to gh-pages\n"; err != nil || got != want {
		t.Fatalf("publish-bisect: %v\n%s\nwant\n%s", err, got, want)
	}
	if files := git(clone, "ls-tree", "-r", "--name-only", "gh-pages"); files != "nightly/trends/regressions/"+id+".md\n"+dest+"/bisect.md\n"+dest+"/diff.folded\n" {
		t.Errorf("gh-pages holds\n%s", files)
	}
	if got := git(clone, "show", "gh-pages:"+dest+"/bisect.md"); got != "# bisect\n" {
		t.Errorf("bisect.md on gh-pages: %q", got)
	}
	if got := git(clone, "log", "-1", "--format=%s", "gh-pages"); got != "bisect "+id+"\n" {
		t.Errorf("the commit says %q", got)
	}
	if got, err := publish(clone, nil, out, id); err != nil || !strings.HasSuffix(got, "publish-bisect: gh-pages already holds "+dest+"\n") {
		t.Errorf("the same folder again: %v\n%s", err, got)
	}
	os.Remove(filepath.Join(out, "diff.folded"))
	if _, err := publish(clone, nil, out, id); err != nil {
		t.Fatal(err)
	}
	if files := git(clone, "ls-tree", "-r", "--name-only", "gh-pages", dest+"/"); files != dest+"/bisect.md\n" {
		t.Errorf("after a bisect without diff.folded %s/ holds\n%s", dest, files)
	}

	// Refusals: nothing committed, the reason said.
	before := git(clone, "rev-parse", "gh-pages")
	empty := filepath.Join(dir, "empty")
	os.MkdirAll(empty, 0o755)
	other := filepath.Join(dir, "other") // no remote, no gh-pages
	os.MkdirAll(other, 0o755)
	git(other, "init", "-q", "-b", "main")
	git(other, "commit", "-q", "--allow-empty", "-m", "main")
	for _, c := range []struct {
		wd, dir, id, want string
	}{
		{clone, out, "../x", `publish-bisect: id "../x" is not a change point's ID (letters, digits, '.', '_', '-')` + "\n"},
		{clone, out, "a/b", `publish-bisect: id "a/b" is not a change point's ID (letters, digits, '.', '_', '-')` + "\n"},
		{clone, empty, id, "publish-bisect: " + empty + "/bisect.md is missing (tfbench bisect --out " + empty + " writes it after its first step)\n"},
		{other, out, id, "publish-bisect: no remote origin and no local gh-pages branch: nothing to publish beside (the nightly's .ci/publish-pages starts it)\n"},
	} {
		if got, err := publish(c.wd, nil, c.dir, c.id); err == nil || got != c.want {
			t.Errorf("publish-bisect %s %s: %v\n%s\nwant\n%s", c.dir, c.id, err, got, c.want)
		}
	}
	if after := git(clone, "rev-parse", "gh-pages"); after != before {
		t.Error("a refused publish committed")
	}
	if got := git(other, "branch", "--list"); got != "* main\n" {
		t.Errorf("a refused publish made branches:\n%s", got)
	}

	// Through a remote, PUSH=1 (with a token, as bisect.yml passes one):
	// the remote's branch is built on, and a push the remote refuses once
	// (its pre-receive hook) is fetched again and retried.
	origin := filepath.Join(dir, "origin.git")
	git(dir, "init", "-q", "--bare", origin)
	git(clone, "remote", "add", "origin", origin)
	git(clone, "push", "-q", "origin", "main", "gh-pages")
	git(clone, "branch", "-D", "gh-pages")
	hook := filepath.Join(origin, "hooks", "pre-receive")
	os.WriteFile(hook, []byte("#!/bin/sh\nif [ ! -e \"$GIT_DIR/refused\" ]; then touch \"$GIT_DIR/refused\"; echo refused once >&2; exit 1; fi\n"), 0o755)
	const id2 = "2026-12-05-express-default-db-ratio"
	os.WriteFile(filepath.Join(out, "diff.folded"), []byte("main;db 1 2\n"), 0o644)
	got, err = publish(clone, []string{"PUSH=1", "GH_TOKEN=not-a-token"}, out, id2)
	if err != nil || !strings.Contains(got, "publish-bisect: push 1 of 3 refused (gh-pages moved?): fetching it again\n") || !strings.HasSuffix(got, "publish-bisect: committed nightly/trends/regressions/"+id2+" to gh-pages\npublish-bisect: pushed gh-pages to origin\n") {
		t.Errorf("publish-bisect through origin: %v\n%s", err, got)
	}
	if files := git(origin, "ls-tree", "-r", "--name-only", "gh-pages"); files != "nightly/trends/regressions/"+id+".md\n"+dest+"/bisect.md\nnightly/trends/regressions/"+id2+"/bisect.md\nnightly/trends/regressions/"+id2+"/diff.folded\n" {
		t.Errorf("origin's gh-pages holds\n%s", files)
	}
	if got := git(clone, "worktree", "list"); strings.Count(got, "\n") != 1 {
		t.Errorf("worktrees left behind:\n%s", got)
	}
	if got := git(clone, "rev-parse", "--abbrev-ref", "HEAD"); got != "main\n" {
		t.Errorf("the clone's checkout moved to %q", got)
	}
	// A remote without the branch is refused, never an orphan started.
	empty2 := filepath.Join(dir, "empty.git")
	git(dir, "init", "-q", "--bare", empty2)
	if got, err := publish(clone, []string{"REMOTE=" + empty2}, out, id2); err == nil || got != "publish-bisect: "+empty2+" has no gh-pages branch: nothing to publish beside (the nightly's .ci/publish-pages starts it)\n" {
		t.Errorf("a remote without gh-pages: %v\n%s", err, got)
	}
}

package main

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

type workflow struct {
	Name        string            `yaml:"name"`
	On          map[string]any    `yaml:"on"`
	Permissions map[string]string `yaml:"permissions"`
	Jobs        map[string]struct {
		If    string `yaml:"if"`
		Steps []struct {
			Uses string `yaml:"uses"`
			Run  string `yaml:"run"`
			If   string `yaml:"if"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// TestWorkflows checks the two pull-request workflows: the bench job runs
// with a read-only token and runs the pr:bench task, the comment job runs on
// workflow_run with pull-requests: write, and every action is pinned by a
// full commit SHA. A timed-out bench job is cancelled, so after the
// benchmark .ci/pr-bench-finish and the upload run under always(), and the
// comment job also runs for a cancelled run.
func TestWorkflows(t *testing.T) {
	names := map[string]string{} // file → name
	pinned := regexp.MustCompile(`^[\w.-]+/[\w.-]+@[0-9a-f]{40}$`)
	for _, tc := range []struct {
		file, event, run string
		perms            map[string]string
	}{
		{"pr-bench.yml", "pull_request", "go tool task pr:bench ", map[string]string{"contents": "read"}},
		{"pr-bench-comment.yml", "workflow_run", ".ci/pr-comment ", map[string]string{"contents": "read", "pull-requests": "write", "actions": "read"}},
	} {
		data, err := os.ReadFile("../../.github/workflows/" + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		var w workflow
		if err := yaml.Unmarshal(data, &w); err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		names[tc.file] = w.Name
		if tc.event == "workflow_run" {
			wr, _ := w.On[tc.event].(map[string]any)
			if ws, _ := wr["workflows"].([]any); len(ws) != 1 || ws[0] != names["pr-bench.yml"] {
				t.Errorf("%s: workflow_run of %v, want [%s] (pr-bench.yml's name)", tc.file, wr["workflows"], names["pr-bench.yml"])
			}
		}
		if _, ok := w.On[tc.event]; !ok || len(w.On) != 1 {
			t.Errorf("%s: on %v, want %s alone", tc.file, w.On, tc.event)
		}
		if !maps.Equal(w.Permissions, tc.perms) {
			t.Errorf("%s: permissions %v, want %v", tc.file, w.Permissions, tc.perms)
		}
		ran := false
		for job, j := range w.Jobs {
			for _, s := range j.Steps {
				if s.Uses != "" && !pinned.MatchString(s.Uses) {
					t.Errorf("%s: job %s: %s is not pinned by a full commit SHA", tc.file, job, s.Uses)
				}
				ran = ran || strings.HasPrefix(s.Run, tc.run)
			}
		}
		if !ran {
			t.Errorf("%s: no step runs %q", tc.file, tc.run)
		}
		if tc.file == "pr-bench-comment.yml" {
			for job, j := range w.Jobs {
				if strings.Contains(j.If, "cancelled") {
					t.Errorf("%s: job %s runs if %q: a run past its timeout concludes cancelled and must get its comment too", tc.file, job, j.If)
				}
			}
			continue
		}
		var order []string // the steps after the benchmark, with their if
		after := false
		for _, j := range w.Jobs {
			for _, s := range j.Steps {
				if after {
					order = append(order, s.Uses+s.Run+" if "+s.If)
				}
				after = after || strings.HasPrefix(s.Run, tc.run)
			}
		}
		if len(order) < 2 || !strings.HasPrefix(order[0], ".ci/pr-bench-finish ") || !strings.HasSuffix(order[0], " if always()") ||
			!strings.HasPrefix(order[1], "actions/upload-artifact@") || !strings.HasSuffix(order[1], " if always()") {
			t.Errorf("%s: the steps after the benchmark are %q; want .ci/pr-bench-finish then the upload, both if always()", tc.file, order)
		}
	}
}

// TestFinishScript runs .ci/pr-bench-finish on a folder pr-bench wrote
// (only pr-number is added) and on one where it wrote nothing (a timed-out
// job): a comment under the marker that says the benchmark did not finish,
// and exit 2.
func TestFinishScript(t *testing.T) {
	script, err := filepath.Abs("../../.ci/pr-bench-finish")
	if err != nil {
		t.Fatal(err)
	}
	run := func(dir string) string {
		t.Helper()
		cmd := exec.Command(script, dir)
		cmd.Env = append(os.Environ(), "PR_NUMBER=42", "JOB_STATUS=cancelled", "REPORT_URL=https://github.com/o/r/actions/runs/1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("pr-bench-finish %s: %v\n%s", dir, err, out)
		}
		return string(out)
	}
	read := func(path string) string {
		data, _ := os.ReadFile(path)
		return string(data)
	}
	done := t.TempDir()
	os.WriteFile(filepath.Join(done, "comment.md"), []byte(Marker+"\nmeasured\n"), 0o644)
	os.WriteFile(filepath.Join(done, "exit"), []byte("0\n"), 0o644)
	if out := run(done); out != "" || read(filepath.Join(done, "comment.md")) != Marker+"\nmeasured\n" || read(filepath.Join(done, "exit")) != "0\n" || read(filepath.Join(done, "pr-number")) != "42\n" {
		t.Errorf("a finished benchmark: said %q, comment %q, exit %q, pr-number %q", out, read(filepath.Join(done, "comment.md")), read(filepath.Join(done, "exit")), read(filepath.Join(done, "pr-number")))
	}
	stopped := filepath.Join(t.TempDir(), "pr-bench")
	out := run(stopped)
	want := Marker + "\n## tfbench: benchmark of this pull request\n\n" +
		"**Check: failed, no verdict**: the benchmark did not finish (job status: cancelled). The job stops after its `timeout-minutes` in .github/workflows/pr-bench.yml, and a newer push cancels an older run.\n\n" +
		"What it measured and its logs are in the run's `pr-bench` artifact: https://github.com/o/r/actions/runs/1\n"
	if got := read(filepath.Join(stopped, "comment.md")); got != want || read(filepath.Join(stopped, "exit")) != "2\n" || read(filepath.Join(stopped, "pr-number")) != "42\n" ||
		out != "pr-bench-finish: pr-bench left no comment.md or exit in "+stopped+": wrote a comment saying the benchmark did not finish, exit 2\n" {
		t.Errorf("a benchmark that did not finish: said %q, exit %q, comment\n%s\nwant\n%s", out, read(filepath.Join(stopped, "exit")), got, want)
	}
}

package main

import (
	"maps"
	"os"
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
		Steps []struct {
			Uses string `yaml:"uses"`
			Run  string `yaml:"run"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// TestWorkflows checks the two pull-request workflows: the bench job runs
// with a read-only token and runs the pr:bench task, the comment job runs on
// workflow_run with pull-requests: write, and every action is pinned by a
// full commit SHA.
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
	}
}

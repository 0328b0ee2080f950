package main

import (
	"reflect"
	"testing"
)

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		name  string
		paths []string
		want  Plan
	}{
		{"docs only", []string{"README.md", "docs/ci.md", ".github/workflows/nightly.yml"},
			Plan{Unmeasured: []string{"README.md", "docs/ci.md", ".github/workflows/nightly.yml"}}},
		{"adapters", []string{"frameworks/node-http/server.js", "frameworks/go-stdlib/main.go", "frameworks/node-http/package.json"},
			Plan{Adapters: []string{"go-stdlib", "node-http"}}},
		{"harness", []string{"harness/load/conn.go"}, Plan{Harness: true}},
		{"cli", []string{"cmd/tfbench/bench.go"}, Plan{Harness: true}},
		{"internal", []string{"internal/cpuset/cpuset_linux.go"}, Plan{Harness: true}},
		{"modules", []string{"go.sum"}, Plan{Harness: true}},
		{"suite", []string{"suites/pr.yaml"}, Plan{Harness: true}},
		{"dataset", []string{"dataset/fortunes.go"}, Plan{Harness: true}},
		{"both", []string{"harness/run/run.go", "frameworks/astro/package.json", "Taskfile.yml"},
			Plan{Adapters: []string{"astro"}, Harness: true, Unmeasured: []string{"Taskfile.yml"}}},
		{"file directly under frameworks", []string{"frameworks/README.md"}, Plan{Unmeasured: []string{"frameworks/README.md"}}},
		{"not a prefix match", []string{"harnessed.go", "go.mod.bak"}, Plan{Unmeasured: []string{"harnessed.go", "go.mod.bak"}}},
		{"nothing", nil, Plan{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Classify(tc.paths)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Classify(%q) = %+v, want %+v", tc.paths, got, tc.want)
			}
			if got.Measures() != (tc.want.Harness || len(tc.want.Adapters) > 0) {
				t.Errorf("Measures() = %v", got.Measures())
			}
		})
	}
}

package framework

import (
	"path/filepath"
	"reflect"
	"testing"
)

func TestValidRuntime(t *testing.T) {
	for spec, want := range map[string]bool{
		"go":                 true,
		"node@24.22.3":       true,
		"node@22.22.0":       true,
		"node@0.10.48":       true,
		"":                   false,
		"node":               false,
		"node@24":            false,
		"node@24.22":         false,
		"node@v24.22.3":      false,
		"node@^24.22.3":      false,
		"node@24.22.3-rc.1":  false,
		"node@024.22.3":      false,
		"node@24.22.x":       false,
		"Node@24.22.3":       false,
		" node@24.22.3":      false,
		"go@1.26":            false,
		"python":             false,
		"node@24.22.3 extra": false,
	} {
		if got := ValidRuntime(spec); got != want {
			t.Errorf("ValidRuntime(%q) = %v, want %v", spec, got, want)
		}
	}
}

func TestLoadRuntimes(t *testing.T) {
	s, err := Load(filepath.Join("testdata", "frameworks", "node-pinned", "framework.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Runtime != "node@24.22.3" {
		t.Errorf("Runtime = %q, want node@24.22.3", s.Runtime)
	}
	got := map[string]string{}
	for _, v := range s.Variants {
		got[v.Name] = v.Runtime + " -> " + s.RuntimeOf(v)
	}
	want := map[string]string{
		"default": " -> node@24.22.3",
		"node22":  "node@22.22.0 -> node@22.22.0",
		"go":      "go -> go",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("variant runtime -> RuntimeOf = %v, want %v", got, want)
	}
	if rs := s.Runtimes(); !reflect.DeepEqual(rs, []string{"node@24.22.3", "node@22.22.0", "go"}) {
		t.Errorf("Runtimes() = %q", rs)
	}
	if rs := (&Spec{Variants: []Variant{{Name: "a"}}}).Runtimes(); rs != nil {
		t.Errorf("Runtimes() without runtime keys = %q, want none", rs)
	}
}

package framework

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestVersionsFromLockfiles(t *testing.T) {
	s, err := Load(filepath.Join("testdata", "versions", FileName))
	if err != nil {
		t.Fatal(err)
	}
	want := []Package{
		{"next", "16.4.6"},
		{"react", "19.3.1"}, // the top-level install, not next's nested copy (18.0.0)
		{"@react-router/serve", "8.4.0"},
		{"modernc.org/sqlite", "v1.62.0"},
	}
	if !reflect.DeepEqual(s.Versions, want) {
		t.Errorf("Versions = %v, want %v", s.Versions, want)
	}
	if got := s.Versions[0].String(); got != "next 16.4.6" {
		t.Errorf("String() = %q", got)
	}
}

func TestCutNodeModules(t *testing.T) {
	for key, want := range map[string]string{
		"node_modules/next":                    "next",
		"node_modules/@react-router/serve":     "@react-router/serve",
		"node_modules/next/node_modules/react": "",
		"node_modules/@scope/a/node_modules/b": "",
		"":                                     "",
		"node_modules/":                        "",
		"packages/app":                         "",
		"node_modules/@scope/a/node_modules/@x/y/z": "",
	} {
		got, ok := cutNodeModules(key)
		if !ok {
			got = ""
		}
		if got != want {
			t.Errorf("cutNodeModules(%q) = %q, %v; want %q", key, got, ok, want)
		}
	}
}

// LockfileHashes hashes the lockfiles an adapter has, none when it has none.
func TestLockfileHashes(t *testing.T) {
	dir := t.TempDir()
	if h, err := LockfileHashes(dir); h != nil || err != nil {
		t.Errorf("no lockfiles: %v, %v; want nil", h, err)
	}
	os.WriteFile(filepath.Join(dir, "go.sum"), []byte("abc"), 0o644)
	h, err := LockfileHashes(dir)
	// sha256("abc")
	if err != nil || len(h) != 1 || h["go.sum"] != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("go.sum: %v, %v", h, err)
	}
}

// A replaced module reads as `go list -m` prints it, so a report never
// names the upstream version alone for a patched copy (the engine's v8go).
func TestGoVersionsReplace(t *testing.T) {
	gomod := []byte(`module example.com/app

require (
	github.com/tommie/v8go v0.34.0
	example.com/a v1.0.0
	example.com/b v1.2.0
	example.com/c v1.3.0
)

replace github.com/tommie/v8go => ./third_party/v8go

replace example.com/a v1.0.0 => example.com/fork v1.0.1

replace example.com/b v1.1.0 => ../b
`)
	got, err := goVersions("go.mod", gomod)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"github.com/tommie/v8go": "v0.34.0 => ./third_party/v8go",
		"example.com/a":          "v1.0.0 => example.com/fork v1.0.1",
		"example.com/b":          "v1.2.0", // the replace is of another version
		"example.com/c":          "v1.3.0",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("goVersions = %v, want %v", got, want)
	}
}

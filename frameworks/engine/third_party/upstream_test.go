// Package thirdparty holds the engine's patched copies of other modules
// (v8go/PATCH.md); this test keeps each copy what its manifest says.
package thirdparty

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// v8goAdded are the files of v8go/ that are not upstream's (PATCH.md).
var v8goAdded = []string{"PATCH.md", "UPSTREAM.sha256", "host_function.cc", "host_function.go", "host_function.h", "value_bytes.cc", "value_bytes.go", "value_bytes.h"}

// TestV8goUpstream: every file of v8go/ is either in UPSTREAM.sha256 (the
// sha256 of upstream v0.34.0's file, written by v8go-upstream.sh copy)
// with that hash, or one of the added files; the licence is upstream's.
// v8go-upstream.sh check compares the manifest with upstream itself.
func TestV8goUpstream(t *testing.T) {
	data, err := os.ReadFile("v8go/UPSTREAM.sha256")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		sum, name, ok := strings.Cut(line, "  ")
		if !ok || len(sum) != 64 {
			t.Fatalf("v8go/UPSTREAM.sha256:%d: %q, want \"<sha256>  <path>\"", i+1, line)
		}
		want[name] = sum
	}
	if want["LICENSE"] == "" {
		t.Error("v8go/UPSTREAM.sha256 has no LICENSE: upstream's BSD-3 licence must be kept")
	}
	added := map[string]bool{}
	for _, f := range v8goAdded {
		added[f] = true
	}
	var seen []string
	err = filepath.WalkDir("v8go", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := filepath.ToSlash(strings.TrimPrefix(path, "v8go"+string(filepath.Separator)))
		seen = append(seen, name)
		if added[name] {
			return nil
		}
		sum, ok := want[name]
		if !ok {
			t.Errorf("v8go/%s is neither upstream's (UPSTREAM.sha256) nor an added file (PATCH.md)", name)
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if got := sha256.Sum256(b); hex.EncodeToString(got[:]) != sum {
			t.Errorf("v8go/%s differs from upstream v0.34.0 (sha256 %x, want %s): changes go in the added files only (PATCH.md)", name, got, sum)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(seen)
	for name := range want {
		if i := sort.SearchStrings(seen, name); i == len(seen) || seen[i] != name {
			t.Errorf("v8go/%s is in UPSTREAM.sha256 but missing", name)
		}
	}
	for _, name := range v8goAdded {
		if i := sort.SearchStrings(seen, name); i == len(seen) || seen[i] != name {
			t.Errorf("added file v8go/%s is missing", name)
		}
	}
}

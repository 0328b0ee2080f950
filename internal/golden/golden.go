// Package golden compares a test's output with a file under the package's
// testdata/ folder; `go test -update` rewrites the files instead (one flag
// for every test package that imports this one).
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ from the current output")

// Updating reports whether the test binary was given -update.
func Updating() bool { return *update }

// Check compares got with testdata/name, first rewriting that file (its
// folders made) under -update; a difference fails t and prints got.
func Check(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (rerun with -update if the change is intended):\n%s", path, got)
	}
}

package testenv

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// CopyRepo copies the work tree at root as git lists it, tracked files and
// untracked ones not ignored (uncommitted changes included: the code under
// test), into a temporary folder, keeping file modes and symbolic links;
// it skips t without git or outside a git work tree. The README and
// publish tests run go tool task in such a copy, as on a fresh clone.
func CopyRepo(t testing.TB, root string) string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	list, err := cmd.Output()
	if err != nil {
		t.Skipf("no git work tree to copy at %s: %v", root, err)
	}
	dst := t.TempDir()
	for _, name := range strings.Split(strings.TrimSuffix(string(list), "\x00"), "\x00") {
		src := filepath.Join(root, name)
		info, err := os.Lstat(src)
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted in the work tree, not yet in the index
		}
		if err != nil {
			t.Fatal(err)
		}
		to := filepath.Join(dst, name)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(src)
			if err == nil {
				err = os.Symlink(target, to)
			}
			if err != nil {
				t.Fatal(err)
			}
			continue
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, data, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

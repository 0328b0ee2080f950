package run

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/harness/results"
)

// TestSourceOf reads scratch folders: none outside a checkout, the commit
// of a clean one, dirty with an untracked or a changed file, and an error
// naming the command for a checkout without a commit; as root, a checkout
// owned by another user, which git refuses to read, is an error too.
func TestSourceOf(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	ctx := context.Background()
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}

	outside := t.TempDir()
	if src, err := sourceOf(ctx, outside); src != nil || err != nil {
		t.Errorf("outside a checkout: %+v, %v; want none", src, err)
	}
	repo := t.TempDir()
	git(repo, "init", "-q")
	if src, err := sourceOf(ctx, repo); src != nil || err == nil || !strings.Contains(err.Error(), "git rev-parse --verify HEAD^{commit} in "+repo+": exit status 128") {
		t.Errorf("a checkout without a commit: %+v, %v; want an error naming git rev-parse", src, err)
	}
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("a\n"), 0o644)
	git(repo, "add", "a.txt")
	git(repo, "commit", "-qm", "a")
	head := git(repo, "rev-parse", "HEAD")
	if src, err := sourceOf(ctx, filepath.Join(repo)); err != nil || src == nil || *src != (results.Source{Commit: head}) {
		t.Errorf("a clean checkout: %+v, %v; want commit %s, clean", src, err, head)
	}
	os.MkdirAll(filepath.Join(repo, "sub"), 0o755)
	os.WriteFile(filepath.Join(repo, "sub", "new.txt"), []byte("new\n"), 0o644)
	// No tracked change: the hash is of the untracked file's name, size and content.
	untracked := sha256.Sum256([]byte("\x00sub/new.txt\x004\x00new\n"))
	if src, err := sourceOf(ctx, filepath.Join(repo, "sub")); err != nil || src == nil || *src != (results.Source{Commit: head, Dirty: true, DiffSHA256: hex.EncodeToString(untracked[:])}) {
		t.Errorf("an untracked file, read from a subfolder: %+v, %v; want commit %s, dirty, diff %x", src, err, head, untracked)
	}
	os.WriteFile(filepath.Join(repo, "sub", "new.txt"), []byte("NEW\n"), 0o644)
	if src, err := sourceOf(ctx, repo); err != nil || src == nil || src.DiffSHA256 == hex.EncodeToString(untracked[:]) {
		t.Errorf("the untracked file changed: %+v, %v; want another diff hash", src, err)
	}
	os.Remove(filepath.Join(repo, "sub", "new.txt"))
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("b\n"), 0o644)
	diff, err := exec.Command("git", "-C", repo, "diff", "HEAD", "--binary").Output()
	if err != nil || !strings.Contains(string(diff), "+b") {
		t.Fatalf("git diff: %q, %v", diff, err)
	}
	changed := sha256.Sum256(diff)
	if src, err := sourceOf(ctx, repo); err != nil || src == nil || *src != (results.Source{Commit: head, Dirty: true, DiffSHA256: hex.EncodeToString(changed[:])}) {
		t.Errorf("a changed file: %+v, %v; want commit %s, dirty, diff %x", src, err, head, changed)
	}

	t.Run("another user's checkout", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("needs root to give the checkout to another user")
		}
		if err := filepath.Walk(repo, func(p string, _ os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, 65534, 65534)
		}); err != nil {
			t.Fatal(err)
		}
		t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null") // no safe.directory of this machine's
		if src, err := sourceOf(ctx, repo); src != nil || err == nil || !strings.Contains(err.Error(), "dubious ownership") {
			t.Errorf("a checkout owned by uid 65534: %+v, %v; want git's refusal", src, err)
		}
	})
}

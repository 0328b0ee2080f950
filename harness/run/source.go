package run

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/tfbench/tfbench/harness/results"
)

// gitTimeout bounds each git command sourceOf runs.
const gitTimeout = 30 * time.Second

// sourceOf is the checkout at dir as results.json records it
// (results.Source): HEAD's commit from `git rev-parse HEAD`, dirty when
// `git status --porcelain` lists anything, then with the hash of the diff and the
// untracked files (Source.DiffSHA256). Nil and no error outside a git
// checkout or without git; any other git failure (a checkout git refuses to
// read, e.g. another user's: "dubious ownership") is nil and an error that
// names the command, for the run's log: the run goes on without a source.
func sourceOf(ctx context.Context, dir string) (*results.Source, error) {
	gitOut := func(args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(ctx, gitTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir, "--no-optional-locks"}, args...)...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("git %s in %s: %w: %s", strings.Join(args, " "), dir, err, strings.TrimSpace(stderr.String()))
		}
		return stdout.String(), nil
	}
	top, err := gitOut("rev-parse", "--is-inside-work-tree")
	if errors.Is(err, exec.ErrNotFound) || (err != nil && strings.Contains(err.Error(), "not a git repository")) || (err == nil && strings.TrimSpace(top) != "true") {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	head, err := gitOut("rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return nil, err
	}
	status, err := gitOut("status", "--porcelain")
	if err != nil {
		return nil, err
	}
	src := &results.Source{Commit: strings.TrimSpace(head), Dirty: strings.TrimSpace(status) != ""}
	if src.Dirty {
		diff, err := gitOut("diff", "HEAD", "--binary")
		if err != nil {
			return nil, err
		}
		untracked, err := gitOut("ls-files", "--others", "--exclude-standard", "-z", "--full-name")
		if err != nil {
			return nil, err
		}
		root, err := gitOut("rev-parse", "--show-toplevel")
		if err != nil {
			return nil, err
		}
		h := sha256.New()
		io.WriteString(h, diff)
		for _, name := range strings.Split(strings.TrimSuffix(untracked, "\x00"), "\x00") {
			if name == "" {
				continue
			}
			b, err := os.ReadFile(filepath.Join(strings.TrimSpace(root), name))
			if err != nil {
				return nil, fmt.Errorf("the untracked file %s: %w", name, err)
			}
			fmt.Fprintf(h, "\x00%s\x00%d\x00", name, len(b))
			h.Write(b)
		}
		src.DiffSHA256 = hex.EncodeToString(h.Sum(nil))
	}
	return src, nil
}

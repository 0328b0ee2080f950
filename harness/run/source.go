package run

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/tfbench/tfbench/harness/results"
)

// gitTimeout bounds each git command sourceOf runs.
const gitTimeout = 30 * time.Second

// sourceOf is the checkout at dir as results.json records it
// (results.Source): HEAD's commit from `git rev-parse HEAD`, dirty when
// `git status --porcelain` lists anything. Nil and no error outside a git
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
	return &results.Source{Commit: strings.TrimSpace(head), Dirty: strings.TrimSpace(status) != ""}, nil
}

package bisect

// The commit range: git's rev-list over GOOD..BAD, each commit's tree key
// (the hashes of the adapter's paths), the collapse to candidates, and the
// extraction of one commit's adapter by git archive.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/tfbench/tfbench/internal/untar"
)

// Commit is one commit of the range. Key is its tree key: `git ls-tree`'s
// entries of the adapter's paths (frameworks/NAME), empty when none exists
// at that commit; Files are the adapter files that differ from the previous
// commit of the range (GOOD's for the first).
type Commit struct {
	SHA     string    `json:"sha"`
	Short   string    `json:"short"`
	Subject string    `json:"subject"`
	Date    time.Time `json:"author_date"`
	Key     string    `json:"tree_key"`
	Files   []string  `json:"files,omitempty"`
}

// Label is "short subject".
func (c Commit) Label() string { return c.Short + " " + c.Subject }

// Git runs git in a repository with the system and global configuration
// left out, so that a user's settings (pagers, hooks, signing) never change
// its output.
type Git struct {
	Dir string
}

// run runs git args in g.Dir with stdin (nil: none) and returns its
// standard output; an error carries git's standard error.
func (g Git) run(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = g.Dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0")
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

func (g Git) text(ctx context.Context, args ...string) (string, error) {
	out, err := g.run(ctx, nil, args...)
	return strings.TrimSpace(string(out)), err
}

// Resolve returns the full SHA of the commit rev names; the error names rev.
func (g Git) Resolve(ctx context.Context, rev string) (string, error) {
	sha, err := g.text(ctx, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil || sha == "" {
		return "", fmt.Errorf("%s is not a commit of the repository %s", rev, g.Dir)
	}
	return sha, nil
}

// logFormat is one commit a line: SHA, short SHA, author date (strict
// ISO 8601), subject, separated by NUL bytes.
const logFormat = "--format=%H%x00%h%x00%aI%x00%s"

// commit describes sha (no key, no files).
func (g Git) commit(ctx context.Context, sha string) (Commit, error) {
	out, err := g.text(ctx, "log", "-1", logFormat, sha)
	if err != nil {
		return Commit{}, err
	}
	return parseLogLine(out)
}

func parseLogLine(line string) (Commit, error) {
	f := strings.SplitN(line, "\x00", 4)
	if len(f) != 4 {
		return Commit{}, fmt.Errorf("git log: unexpected line %q", line)
	}
	d, err := time.Parse(time.RFC3339, f[2])
	if err != nil {
		return Commit{}, fmt.Errorf("git log: author date of %s: %v", f[0], err)
	}
	return Commit{SHA: f[0], Short: f[1], Date: d, Subject: f[3]}, nil
}

// Key is sha's tree key over paths: git ls-tree's lines for them ("040000
// tree HASH\tframeworks/NAME"), empty when none exists at sha.
func (g Git) Key(ctx context.Context, sha string, paths []string) (string, error) {
	return g.text(ctx, append([]string{"ls-tree", "--full-tree", sha, "--"}, paths...)...)
}

// changed lists the files under paths that differ between two commits.
func (g Git) changed(ctx context.Context, from, to string, paths []string) ([]string, error) {
	out, err := g.text(ctx, append([]string{"diff", "--no-renames", "--name-only", from, to, "--"}, paths...)...)
	if err != nil || out == "" {
		return nil, err
	}
	return strings.Split(out, "\n"), nil
}

// Show returns path's content at sha, and false when sha has no such file.
func (g Git) Show(ctx context.Context, sha, path string) ([]byte, bool, error) {
	if _, err := g.text(ctx, "cat-file", "-e", sha+":"+path); err != nil {
		return nil, false, nil
	}
	out, err := g.run(ctx, nil, "cat-file", "blob", sha+":"+path)
	return out, err == nil, err
}

// Range lists GOOD..BAD: good and bad resolved and described, and every
// commit on the ancestry path from good (excluded) to bad (included), oldest
// first (git rev-list --ancestry-path --reverse), each with its tree key
// over paths and its changed files. GOOD must be an ancestor of BAD.
func (g Git) Range(ctx context.Context, good, bad string, paths []string) (Commit, []Commit, error) {
	gs, err := g.Resolve(ctx, good)
	if err != nil {
		return Commit{}, nil, fmt.Errorf("--good: %w", err)
	}
	bs, err := g.Resolve(ctx, bad)
	if err != nil {
		return Commit{}, nil, fmt.Errorf("--bad: %w", err)
	}
	if gs == bs {
		return Commit{}, nil, fmt.Errorf("--good %s and --bad %s are the same commit %.7s: nothing to bisect", good, bad, gs)
	}
	if _, err := g.run(ctx, nil, "merge-base", "--is-ancestor", gs, bs); err != nil {
		return Commit{}, nil, fmt.Errorf("--good %s (%.7s) is not an ancestor of --bad %s (%.7s): bisect needs GOOD older than BAD on one line of history", good, gs, bad, bs)
	}
	gc, err := g.commit(ctx, gs)
	if err != nil {
		return Commit{}, nil, err
	}
	if gc.Key, err = g.Key(ctx, gs, paths); err != nil {
		return Commit{}, nil, err
	}
	out, err := g.text(ctx, "log", "--ancestry-path", "--reverse", "--topo-order", logFormat, gs+".."+bs)
	if err != nil {
		return Commit{}, nil, err
	}
	var list []Commit
	prev := gc
	for _, line := range strings.Split(out, "\n") {
		c, err := parseLogLine(line)
		if err != nil {
			return Commit{}, nil, err
		}
		if c.Key, err = g.Key(ctx, c.SHA, paths); err != nil {
			return Commit{}, nil, err
		}
		if c.Key != prev.Key {
			if c.Files, err = g.changed(ctx, prev.SHA, c.SHA, paths); err != nil {
				return Commit{}, nil, err
			}
		}
		list = append(list, c)
		prev = c
	}
	return gc, list, nil
}

// Candidates collapses list (a Range after good) to the commits whose tree
// key differs from the commit before them (good's for the first): the
// commits that change what is built (stage hashes the adapter's folder),
// oldest first. Commits with the tree of the one before build the same.
func Candidates(good Commit, list []Commit) []Commit {
	var out []Commit
	key := good.Key
	for _, c := range list {
		if c.Key != key {
			out = append(out, c)
			key = c.Key
		}
	}
	return out
}

// Extract writes the paths of commit sha into dst (git archive, read by
// internal/untar: no worktree, nothing left in the repository). A dst already
// extracted (its ".complete" marker) is reused; a partial one is replaced.
func (g Git) Extract(ctx context.Context, sha string, paths []string, dst string) error {
	marker := filepath.Join(dst, ".complete")
	if b, err := os.ReadFile(marker); err == nil && strings.TrimSpace(string(b)) == sha {
		return nil
	}
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	tmp := dst + ".partial"
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	out, err := g.run(ctx, nil, append([]string{"archive", "--format=tar.gz", sha, "--"}, paths...)...)
	if err != nil {
		return err
	}
	if err := untar.Extract(bytes.NewReader(out), tmp, false, "archive"); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("git archive %.7s into %s: %w", sha, dst, err)
	}
	if err := os.WriteFile(filepath.Join(tmp, ".complete"), []byte(sha+"\n"), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}

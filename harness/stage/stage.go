// Package stage builds adapters outside their source tree: a copy in
// .tfbench/build/NAME/RUNTIME, built once per SourceHash (hex SHA-256 of build
// command, runtime and sources) and stamped in build.json (docs/adapters.md).
package stage

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tfbench/tfbench/harness/framework"
	"github.com/tfbench/tfbench/harness/runtimes"
	"github.com/tfbench/tfbench/internal/untar"
)

// BuildFormat versions the inputs SourceHash covers; a change to what is
// hashed bumps it, so older stamps never match.
const BuildFormat = 1

// skipDirs are directories never hashed or copied into a stage: installed
// packages (npm ci makes them from the committed lockfile) and version
// control.
var skipDirs = map[string]bool{"node_modules": true, ".git": true}

// stampFile is the file in a stage root recording a finished build.
const stampFile = "build.json"

// Build is an adapter staged and built for one runtime (Stage).
type Build struct {
	// Spec is a copy of the adapter's Spec whose Dir is the staged copy of
	// its sources (Root/src): build ran there, and supervise.Start given
	// this Spec runs the server there too.
	Spec *framework.Spec
	// Root is the stage directory: src/ (the copy, with whatever the build
	// made in it, e.g. node_modules and .next), out/ (TFBENCH_BUILD_DIR)
	// and build.json (the stamp of a finished build).
	Root string
	// OutDir is Root/out, given to the build and the servers as
	// TFBENCH_BUILD_DIR: pass it as supervise.StartOptions.BuildDir.
	OutDir string
	// Hash is the hex SHA-256 of the build's inputs (SourceHash).
	Hash string
	// Cached reports that a finished build with the same Hash was found in
	// Root and reused: nothing was copied, installed or built.
	Cached bool
	// Took is how long copying and building took (zero when Cached).
	Took time.Duration
}

// stamp is build.json: what a finished build was made from.
type stamp struct {
	Format  int       `json:"format"`
	Hash    string    `json:"hash"`
	Runtime string    `json:"runtime"`
	Built   time.Time `json:"built"`
	Seconds float64   `json:"seconds"`
}

// SourceHash returns the hex SHA-256 of all a build of the adapter on rt depends
// on: BuildFormat, the build command, rt.String() and every file under Dir except
// node_modules and .git (path, executable bit, bytes or link target, lockfiles too).
func SourceHash(s *framework.Spec, rt runtimes.Runtime) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "tfbench build %d\nbuild %q\nruntime %q\n", BuildFormat, s.Build, rt.String())
	if err := hashTree(h, s.Dir); err != nil {
		return "", fmt.Errorf("framework %s: hash sources: %w", s.Name, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// TreeHash is the hex SHA-256 of the files SourceHash covers under dir
// alone (no build command, no runtime): the same on every host that has
// the same sources, so a copy is checked against its original.
func TreeHash(dir string) (string, error) {
	h := sha256.New()
	if err := hashTree(h, dir); err != nil {
		return "", fmt.Errorf("hash sources in %s: %w", dir, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashTree writes what SourceHash covers of dir's files to h.
func hashTree(h io.Writer, dir string) error {
	return walkSource(dir, func(rel string, d fs.DirEntry, path string) error {
		switch {
		case d.IsDir():
			fmt.Fprintf(h, "dir %q\n", rel)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "link %q %q\n", rel, target)
		default:
			info, err := d.Info()
			if err != nil {
				return err
			}
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			fmt.Fprintf(h, "file %q %t %d\n", rel, info.Mode()&0o111 != 0, info.Size())
			if _, err := io.Copy(h, f); err != nil {
				return err
			}
		}
		return nil
	})
}

// walkSource calls fn for every directory (except dir itself), regular file
// and symbolic link under dir, in lexical order, skipping skipDirs. rel is
// the slash-separated path relative to dir.
func walkSource(dir string, fn func(rel string, d fs.DirEntry, path string) error) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path == dir {
			return nil
		}
		if d.IsDir() && skipDirs[d.Name()] {
			return filepath.SkipDir
		}
		if !d.IsDir() && !d.Type().IsRegular() && d.Type()&fs.ModeSymlink == 0 {
			return fmt.Errorf("%s: not a file, directory or symbolic link (%s)", path, d.Type())
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		return fn(filepath.ToSlash(rel), d, path)
	})
}

// RuntimeSlug names a runtime spec in paths: "node-24.22.3" for
// "node@24.22.3", "go" for "go", "default" for "" (no `runtime:`).
func RuntimeSlug(spec string) string {
	if spec == "" {
		return "default"
	}
	return strings.ReplaceAll(spec, "@", "-")
}

// StageRoot is where the build of adapter s for variant v is staged in workDir
// (.tfbench): build/NAME/RUNTIME (RuntimeSlug), +VARIANT for a variant with its
// own `build:`; one place for every command, so builds are shared.
func StageRoot(workDir string, s *framework.Spec, v framework.Variant) string {
	dir := RuntimeSlug(s.RuntimeOf(v))
	if v.Build != "" {
		dir += "+" + v.Name
	}
	return filepath.Join(workDir, "build", s.Name, dir)
}

// Stage builds the adapter for rt in root (StageRoot), outside the source tree.
// If root/build.json records SourceHash(s, rt) it returns that Build, Cached;
// else it empties root, copies the sources to root/src (without node_modules or
// .git), builds there (BuildCmdWith) and stamps build.json only on success.
func Stage(ctx context.Context, s *framework.Spec, root string, rt runtimes.Runtime, log io.Writer) (*Build, error) {
	if log == nil {
		log = io.Discard
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("framework %s: stage: %w", s.Name, err)
	}
	hash, err := SourceHash(s, rt)
	if err != nil {
		return nil, err
	}
	staged := *s
	staged.Dir = filepath.Join(root, "src")
	b := &Build{Spec: &staged, Root: root, OutDir: filepath.Join(root, "out"), Hash: hash}
	if st, err := readStamp(root); err == nil && st.Format == BuildFormat && st.Hash == hash {
		if _, err := os.Stat(staged.Dir); err == nil {
			b.Cached = true
			fmt.Fprintf(log, "framework %s: build %s is cached (%s, built %s)\n", s.Name, hash[:12], root, st.Built.Format(time.RFC3339))
			return b, nil
		}
	}
	start := time.Now()
	if err := os.RemoveAll(root); err != nil {
		return nil, fmt.Errorf("framework %s: stage: empty %s: %w", s.Name, root, err)
	}
	if err := copySource(s.Dir, staged.Dir); err != nil {
		return nil, fmt.Errorf("framework %s: stage: copy %s to %s: %w", s.Name, s.Dir, staged.Dir, err)
	}
	fmt.Fprintf(log, "framework %s: building %s in %s\n", s.Name, hash[:12], staged.Dir)
	if err := BuildCmdWith(ctx, &staged, b.OutDir, rt, log); err != nil {
		return nil, err
	}
	b.Took = time.Since(start)
	st := stamp{Format: BuildFormat, Hash: hash, Runtime: rt.String(), Built: time.Now().UTC(), Seconds: b.Took.Seconds()}
	if err := writeStamp(root, st); err != nil {
		return nil, fmt.Errorf("framework %s: stage: %w", s.Name, err)
	}
	return b, nil
}

func readStamp(root string) (stamp, error) {
	var st stamp
	data, err := os.ReadFile(filepath.Join(root, stampFile))
	if err != nil {
		return st, err
	}
	err = json.Unmarshal(data, &st)
	return st, err
}

// writeStamp writes root/build.json through a temporary file and a rename.
func writeStamp(root string, st stamp) error {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(root, ".build-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(root, stampFile))
}

// copySource copies the files SourceHash covers from src to dst (created),
// keeping permission bits and symbolic links.
func copySource(src, dst string) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	return walkSource(src, func(rel string, d fs.DirEntry, path string) error {
		to := filepath.Join(dst, filepath.FromSlash(rel))
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		default:
			info, err := d.Info()
			if err != nil {
				return err
			}
			return copyFile(path, to, info.Mode().Perm())
		}
	})
}

func copyFile(from, to string, perm fs.FileMode) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	return untar.WriteFile(in, to, perm)
}

// String describes the build for logs: "built in 12.3s" or "cached".
func (b *Build) String() string {
	if b.Cached {
		return "cached build " + b.Hash[:12]
	}
	return "built " + b.Hash[:12] + " in " + strconv.FormatFloat(b.Took.Seconds(), 'f', 1, 64) + " s"
}

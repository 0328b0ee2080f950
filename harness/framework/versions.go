package framework

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
)

// Lockfiles an adapter's `versions:` are read from, in the adapter's
// directory.
const (
	// NPMLockfile is npm's lockfile (lockfileVersion 2 or 3: the
	// "packages" map keyed by "node_modules/NAME").
	NPMLockfile = "package-lock.json"
	// GoModFile is a Go module's go.mod (its require lines).
	GoModFile = "go.mod"
)

// Package is one dependency's exact version, read from the adapter's
// lockfile, as reports show it ("next 16.4.6").
type Package struct {
	// Name is the package or module path as `versions:` lists it, e.g.
	// "next", "@react-router/serve", "modernc.org/sqlite".
	Name string `json:"name"`
	// Version is the locked version: "16.4.6" for npm, "v1.62.0" for Go.
	Version string `json:"version"`
}

// String is "NAME VERSION".
func (p Package) String() string { return p.Name + " " + p.Version }

// lockfiles are the files versions are read from, in lookup order, each
// with its parser (package or module name to version).
var lockfiles = []struct {
	name  string
	parse func(path string, data []byte) (map[string]string, error)
}{
	{NPMLockfile, npmVersions},
	{GoModFile, goVersions},
}

// LockfileHashes is the sha256 (hex) of each lockfile dir has, by file name:
// package-lock.json and go.sum (the files that pin an adapter's packages).
// Nil when it has none.
func LockfileHashes(dir string) (map[string]string, error) {
	var out map[string]string
	for _, name := range []string{NPMLockfile, "go.sum"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = map[string]string{}
		}
		sum := sha256.Sum256(data)
		out[name] = hex.EncodeToString(sum[:])
	}
	return out, nil
}

// lockedVersions returns the locked version of each name from dir's lockfiles:
// package-lock.json (node_modules/NAME) first, then go.mod (any require line).
// A missing lockfile is skipped; a name found in neither is an error.
func lockedVersions(dir string, names []string) ([]Package, error) {
	if len(names) == 0 {
		return nil, nil
	}
	var found []map[string]string
	for _, lf := range lockfiles {
		path := filepath.Join(dir, lf.name)
		data, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		m, err := lf.parse(path, data)
		if err != nil {
			return nil, err
		}
		found = append(found, m)
	}
	out := make([]Package, 0, len(names))
	for _, n := range names {
		i := slices.IndexFunc(found, func(m map[string]string) bool { _, ok := m[n]; return ok })
		if i < 0 {
			return nil, fmt.Errorf("%q is in neither %s nor %s of %s", n, NPMLockfile, GoModFile, dir)
		}
		out = append(out, Package{Name: n, Version: found[i][n]})
	}
	return out, nil
}

// npmVersions maps package name to version from npm lockfile data.
func npmVersions(path string, data []byte) (map[string]string, error) {
	var lock struct {
		LockfileVersion int `json:"lockfileVersion"`
		Packages        map[string]struct {
			Version string `json:"version"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(data, &lock); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if lock.LockfileVersion < 2 {
		return nil, fmt.Errorf("%s: lockfileVersion %d has no \"packages\" map (npm 7 or later writes 2 or 3)", path, lock.LockfileVersion)
	}
	out := map[string]string{}
	for key, p := range lock.Packages {
		// Top-level installs only: "node_modules/next", not nested copies.
		if name, ok := cutNodeModules(key); ok && p.Version != "" {
			out[name] = p.Version
		}
	}
	return out, nil
}

// cutNodeModules returns NAME for "node_modules/NAME" (NAME may be
// "@scope/pkg"), false for nested paths.
func cutNodeModules(key string) (string, bool) {
	name, ok := strings.CutPrefix(key, "node_modules/")
	if !ok || name == "" {
		return "", false
	}
	slashes := strings.Count(name, "/")
	if strings.HasPrefix(name, "@") {
		return name, slashes == 1
	}
	return name, slashes == 0
}

// goVersions maps module path to version from go.mod data. A replaced
// module reads as `go list -m` prints it: "v0.34.0 => ./third_party/v8go"
// (a local copy) or "v1.0.0 => example.com/fork v1.0.1".
func goVersions(path string, data []byte) (map[string]string, error) {
	f, err := modfile.Parse(path, data, nil)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, r := range f.Require {
		out[r.Mod.Path] = r.Mod.Version
	}
	for _, r := range f.Replace {
		v, ok := out[r.Old.Path]
		if !ok || (r.Old.Version != "" && r.Old.Version != v) {
			continue
		}
		out[r.Old.Path] = strings.TrimSpace(v + " => " + r.New.Path + " " + r.New.Version)
	}
	return out, nil
}

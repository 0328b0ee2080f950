package bisect

// Dependency bumps: a culprit whose adapter changes are all lockfiles or
// manifests, and the package versions it moved.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
)

// Bump is a commit that only moved dependencies: Files are the lockfiles
// and manifests it changed, Moves the packages whose versions moved, sorted
// by file then package.
type Bump struct {
	Files []string `json:"files"`
	Moves []Move   `json:"moves"`
}

// Move is one package's version before and after the commit in one file;
// Before or After is empty when the package was added or removed.
type Move struct {
	File    string `json:"file"`
	Package string `json:"package"`
	Before  string `json:"before"`
	After   string `json:"after"`
}

// depMaps are package.json's dependency maps: a package.json whose other
// keys are unchanged only moved dependencies.
var depMaps = []string{"dependencies", "devDependencies", "optionalDependencies", "peerDependencies", "overrides"}

// DependencyBump reads files (changed between parent and c) at both
// commits and returns the Bump when every one is a package-lock.json,
// go.sum, go.mod, or a package.json that changed only in its dependency
// maps; nil when one is anything else.
func DependencyBump(ctx context.Context, g Git, parent, c string, files []string) (*Bump, error) {
	if len(files) == 0 {
		return nil, nil
	}
	b := &Bump{Files: files}
	for _, f := range files {
		switch path.Base(f) {
		case "package-lock.json", "package.json", "go.mod", "go.sum":
		default:
			return nil, nil
		}
	}
	for _, f := range files {
		before, _, err := g.Show(ctx, parent, f)
		if err != nil {
			return nil, err
		}
		after, _, err := g.Show(ctx, c, f)
		if err != nil {
			return nil, err
		}
		var moves []Move
		switch path.Base(f) {
		case "package-lock.json":
			moves, err = lockMoves(f, before, after)
		case "package.json":
			var only bool
			moves, only, err = manifestMoves(f, before, after)
			if err == nil && !only {
				return nil, nil
			}
		case "go.mod":
			moves, err = goModMoves(f, before, after)
		}
		if err != nil {
			return nil, err
		}
		b.Moves = append(b.Moves, moves...)
	}
	return b, nil
}

// lockMoves compares package-lock.json's packages["node_modules/X"].version
// (lockfile versions 2 and 3); Package is the key without its first
// "node_modules/".
func lockMoves(file string, before, after []byte) ([]Move, error) {
	type lock struct {
		Packages map[string]struct {
			Version string `json:"version"`
		} `json:"packages"`
	}
	return versionMoves(file, before, after, func(data []byte) (map[string]string, error) {
		out := map[string]string{}
		if len(data) == 0 {
			return out, nil
		}
		var l lock
		if err := json.Unmarshal(data, &l); err != nil {
			return nil, err
		}
		for k, p := range l.Packages {
			if name, ok := strings.CutPrefix(k, "node_modules/"); ok {
				out[name] = p.Version
			}
		}
		return out, nil
	})
}

// manifestMoves compares package.json's dependency maps; only is false
// when anything else in the file changed.
func manifestMoves(file string, before, after []byte) ([]Move, bool, error) {
	read := func(data []byte, which string) (map[string]json.RawMessage, error) {
		out := map[string]json.RawMessage{}
		if len(data) == 0 {
			return out, nil
		}
		if err := json.Unmarshal(data, &out); err != nil {
			return nil, fmt.Errorf("%s (%s): %v", file, which, err)
		}
		return out, nil
	}
	b, err := read(before, "before")
	if err != nil {
		return nil, false, err
	}
	a, err := read(after, "after")
	if err != nil {
		return nil, false, err
	}
	bv, av := map[string]string{}, map[string]string{}
	for _, k := range depMaps {
		for _, s := range []struct {
			raw map[string]json.RawMessage
			out map[string]string
		}{{b, bv}, {a, av}} {
			var m map[string]any
			if raw, ok := s.raw[k]; ok {
				if err := json.Unmarshal(raw, &m); err != nil {
					return nil, false, fmt.Errorf("%s: %s: %v", file, k, err)
				}
			}
			for name, v := range m {
				if str, ok := v.(string); ok {
					s.out[name] = str
				} else {
					s.out[name] = fmt.Sprint(v)
				}
			}
			delete(s.raw, k)
		}
	}
	if len(a) != len(b) {
		return nil, false, nil
	}
	for k, v := range b {
		var x, y any
		if json.Unmarshal(v, &x) != nil || json.Unmarshal(a[k], &y) != nil || !reflect.DeepEqual(x, y) {
			return nil, false, nil
		}
	}
	return diffVersions(file, bv, av), true, nil
}

// goModMoves compares go.mod's require versions (modfile).
func goModMoves(file string, before, after []byte) ([]Move, error) {
	return versionMoves(file, before, after, func(data []byte) (map[string]string, error) {
		out := map[string]string{}
		if len(bytes.TrimSpace(data)) == 0 {
			return out, nil
		}
		f, err := modfile.ParseLax(file, data, nil)
		if err != nil {
			return nil, err
		}
		for _, r := range f.Require {
			out[r.Mod.Path] = r.Mod.Version
		}
		return out, nil
	})
}

// versionMoves reads a package → version map from file before and after
// (an error names the file and the side) and lists what moved.
func versionMoves(file string, before, after []byte, read func([]byte) (map[string]string, error)) ([]Move, error) {
	b, err := read(before)
	if err != nil {
		return nil, fmt.Errorf("%s (before): %v", file, err)
	}
	a, err := read(after)
	if err != nil {
		return nil, fmt.Errorf("%s (after): %v", file, err)
	}
	return diffVersions(file, b, a), nil
}

// diffVersions lists the packages whose version differs, by name.
func diffVersions(file string, before, after map[string]string) []Move {
	names := map[string]bool{}
	for k := range before {
		names[k] = true
	}
	for k := range after {
		names[k] = true
	}
	var out []Move
	for _, n := range slices.Sorted(maps.Keys(names)) {
		if before[n] != after[n] {
			out = append(out, Move{File: file, Package: n, Before: before[n], After: after[n]})
		}
	}
	return out
}

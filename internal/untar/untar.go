// Package untar writes gzipped tar archives into folders (npm tarballs,
// Node.js releases, an adapter's packed sources). It refuses an entry named
// outside the folder, one written through a symbolic link, a symbolic link
// that is absolute, climbs above the folder or has ".." after a name, a
// hard link, and any kind but file, folder and symbolic link.
package untar

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Extract writes a gzipped tar into dir (created) through an os.Root of it,
// dropping each entry's first path element when strip is set, keeping
// permissions (plus owner rw). Refused, with an error naming the entry and
// within ("package", "folder"): see the package comment.
func Extract(r io.Reader, dir string, strip bool, within string) error {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	x := &extraction{root: root, within: within, dirs: map[string]bool{".": true}}
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := path.Clean(strings.TrimPrefix(hdr.Name, "./"))
		if !filepath.IsLocal(name) {
			return fmt.Errorf("entry %q lies outside the %s", hdr.Name, within)
		}
		rel := name
		x.top = ""
		if strip {
			var ok bool
			if x.top, rel, ok = strings.Cut(name, "/"); !ok || rel == "" {
				continue // the top-level folder itself
			}
			if !filepath.IsLocal(rel) {
				return fmt.Errorf("entry %q lies outside the %s", hdr.Name, within)
			}
		}
		if err := x.entry(hdr, rel, tr); err != nil {
			return err
		}
	}
}

// extraction is one Extract's state: the root, and the folders (slash
// paths relative to it) known to be real folders, not symbolic links.
type extraction struct {
	root   *os.Root
	within string
	top    string // the entry's dropped first element, "" without strip
	dirs   map[string]bool
}

// entry writes one tar entry at rel (a clean, local slash path).
func (x *extraction) entry(hdr *tar.Header, rel string, r io.Reader) error {
	switch hdr.Typeflag {
	case tar.TypeDir, tar.TypeReg, tar.TypeSymlink:
	case tar.TypeXGlobalHeader:
		return nil // pax metadata for the whole archive (git archive's commit ID): no file
	case tar.TypeLink:
		return fmt.Errorf("hard link %q -> %q refused: only files, folders and symbolic links are unpacked", hdr.Name, hdr.Linkname)
	default:
		return fmt.Errorf("entry %q: unsupported type %q", hdr.Name, hdr.Typeflag)
	}
	if err := x.realDirs(hdr, path.Dir(rel)); err != nil {
		return err
	}
	var err error
	switch hdr.Typeflag {
	case tar.TypeDir:
		if err := x.notLink(hdr, rel); err != nil {
			return err
		}
		err = x.root.MkdirAll(filepath.FromSlash(rel), 0o755)
		x.dirs[rel] = err == nil
	case tar.TypeReg:
		if err := x.notLink(hdr, rel); err != nil {
			return err
		}
		err = x.writeFile(rel, r, hdr.FileInfo().Mode().Perm()|0o600)
	case tar.TypeSymlink:
		if err := x.checkLink(hdr, rel); err != nil {
			return err
		}
		err = x.root.Symlink(hdr.Linkname, filepath.FromSlash(rel))
	}
	if err != nil {
		return fmt.Errorf("entry %q: %w", hdr.Name, err)
	}
	return nil
}

// notLink refuses a file or folder entry at rel where a symbolic link is:
// it would be written where the link points.
func (x *extraction) notLink(hdr *tar.Header, rel string) error {
	if info, err := x.root.Lstat(filepath.FromSlash(rel)); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("entry %q passes through the symbolic link %q", hdr.Name, x.named(rel))
	}
	return nil
}

// realDirs creates dir and its parents in the root, refusing any of them
// that exists as a symbolic link (the entry would be written where it points).
func (x *extraction) realDirs(hdr *tar.Header, dir string) error {
	if x.dirs[dir] {
		return nil
	}
	p := ""
	for _, elem := range strings.Split(dir, "/") {
		p = path.Join(p, elem)
		if x.dirs[p] {
			continue
		}
		info, err := x.root.Lstat(filepath.FromSlash(p))
		if errors.Is(err, fs.ErrNotExist) {
			break // MkdirAll makes it and what follows real folders
		}
		if err != nil {
			return fmt.Errorf("entry %q: %w", hdr.Name, err)
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("entry %q passes through the symbolic link %q", hdr.Name, x.named(p))
		}
		if !info.IsDir() {
			return fmt.Errorf("entry %q: %q is not a folder", hdr.Name, x.named(p))
		}
		x.dirs[p] = true
	}
	if err := x.root.MkdirAll(filepath.FromSlash(dir), 0o755); err != nil {
		return fmt.Errorf("entry %q: %w", hdr.Name, err)
	}
	for p := dir; p != "."; p = path.Dir(p) {
		x.dirs[p] = true
	}
	return nil
}

// named is rel as the archive names it (with the dropped first element).
func (x *extraction) named(rel string) string {
	if x.top == "" {
		return rel
	}
	return x.top + "/" + rel
}

// checkLink refuses a symbolic link entry at rel that could lead outside
// the root: an absolute target, one climbing above the root from rel's
// folder, or one with ".." after a name (resolved through what that name is,
// maybe a link, not lexically). rel's folders are real (realDirs), so the
// rest leads into the root, through links checked the same way.
func (x *extraction) checkLink(hdr *tar.Header, rel string) error {
	if path.IsAbs(hdr.Linkname) || !filepath.IsLocal(path.Join(path.Dir(rel), hdr.Linkname)) {
		return fmt.Errorf("symbolic link %q -> %q points outside the %s", hdr.Name, hdr.Linkname, x.within)
	}
	named := false
	for _, elem := range strings.Split(hdr.Linkname, "/") {
		switch elem {
		case "", ".":
		case "..":
			if named {
				return fmt.Errorf("symbolic link %q -> %q refused: \"..\" after a name can lead outside the %s", hdr.Name, hdr.Linkname, x.within)
			}
		default:
			named = true
		}
	}
	return nil
}

// writeFile writes r to rel in the root, its parents already made real.
func (x *extraction) writeFile(rel string, r io.Reader, perm os.FileMode) error {
	f, err := x.root.OpenFile(filepath.FromSlash(rel), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	return copyClose(f, r)
}

// WriteFile writes r to the file to (its parent folders created, an
// existing file truncated) with permission bits perm.
func WriteFile(r io.Reader, to string, perm os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	return copyClose(f, r)
}

// copyClose copies r into f and closes it; the first error wins.
func copyClose(f *os.File, r io.Reader) error {
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

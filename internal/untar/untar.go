// Package untar writes gzipped tar archives into folders (npm tarballs,
// Node.js releases, an adapter's packed sources), refusing any entry or
// symbolic link that leads outside the folder.
package untar

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Extract writes a gzipped tar into dir (created), dropping each entry's
// first path element when strip is set, keeping permissions (plus owner
// rw); entries leading outside dir or of another kind are errors naming within.
func Extract(r io.Reader, dir string, strip bool, within string) error {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
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
		if strip {
			var ok bool
			if _, rel, ok = strings.Cut(name, "/"); !ok || rel == "" {
				continue // the top-level folder itself
			}
			if !filepath.IsLocal(rel) {
				return fmt.Errorf("entry %q lies outside the %s", hdr.Name, within)
			}
		}
		to := filepath.Join(dir, filepath.FromSlash(rel))
		switch hdr.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(to, 0o755)
		case tar.TypeReg:
			err = WriteFile(tr, to, hdr.FileInfo().Mode().Perm()|0o600)
		case tar.TypeSymlink:
			if target := path.Join(path.Dir(rel), hdr.Linkname); path.IsAbs(hdr.Linkname) || !filepath.IsLocal(target) {
				return fmt.Errorf("symbolic link %q -> %q points outside the %s", hdr.Name, hdr.Linkname, within)
			}
			if err = os.MkdirAll(filepath.Dir(to), 0o755); err == nil {
				err = os.Symlink(hdr.Linkname, to)
			}
		default:
			return fmt.Errorf("entry %q: unsupported type %q", hdr.Name, hdr.Typeflag)
		}
		if err != nil {
			return err
		}
	}
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
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

package framework

import (
	"archive/tar"
	"bytes"
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

// maxSources bounds an adapter's packed sources (PackSources), bytes: the
// largest here is about 100 kB gzipped.
const maxSources = 64 << 20

// PackSources is a gzipped tar of the files SourceHash covers under dir
// (node_modules and .git left out), in lexical order, with their
// executable bits and symbolic links: what a server host on another
// machine builds from (harness/agent). Errors name the file.
func PackSources(dir string) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	err := walkSource(dir, func(rel string, d fs.DirEntry, p string) error {
		info, err := d.Info()
		if err != nil {
			return err
		}
		link := ""
		if d.Type()&fs.ModeSymlink != 0 {
			if link, err = os.Readlink(p); err != nil {
				return err
			}
		}
		hdr, err := tar.FileInfoHeader(info, link)
		if err != nil {
			return err
		}
		hdr.Name, hdr.Uname, hdr.Gname, hdr.Uid, hdr.Gid = rel, "", "", 0, 0
		if d.IsDir() {
			hdr.Name += "/"
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(tw, f)
		return err
	})
	if err == nil {
		err = tw.Close()
	}
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("pack sources of %s: %w", dir, err)
	}
	if buf.Len() > maxSources {
		return nil, fmt.Errorf("pack sources of %s: %d bytes, more than %d (is a build output folder inside it?)", dir, buf.Len(), maxSources)
	}
	return buf.Bytes(), nil
}

// UnpackSources writes PackSources' bytes into dir (created). An entry
// naming a path outside dir, or of another kind than file, folder or
// symbolic link, is an error.
func UnpackSources(data []byte, dir string) error {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("unpack sources: %w", err)
	}
	tr := tar.NewReader(zr)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("unpack sources: %w", err)
		}
		name := path.Clean(strings.TrimSuffix(hdr.Name, "/"))
		if name == "." || name == ".." || strings.HasPrefix(name, "../") || path.IsAbs(name) {
			return fmt.Errorf("unpack sources: entry %q is outside the folder", hdr.Name)
		}
		to := filepath.Join(dir, filepath.FromSlash(name))
		switch hdr.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(to, 0o755)
		case tar.TypeSymlink:
			err = os.Symlink(hdr.Linkname, to)
		case tar.TypeReg:
			err = writeEntry(tr, to, hdr.FileInfo().Mode().Perm())
		default:
			err = fmt.Errorf("entry %q: type %q is not a file, folder or link", hdr.Name, hdr.Typeflag)
		}
		if err != nil {
			return fmt.Errorf("unpack sources: %w", err)
		}
	}
}

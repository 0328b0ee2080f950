package stage

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/tfbench/tfbench/internal/untar"
)

// maxSources bounds an adapter's packed sources (PackSources), bytes: the
// largest here is about 100 kB gzipped.
const maxSources = 64 << 20

// PackSources is a gzipped tar of the files SourceHash covers under dir, in
// lexical order with executable bits and symbolic links: what a server host on
// another machine builds from (harness/agent). Errors name the file.
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

// UnpackSources writes PackSources' bytes into dir (created). An entry or
// symbolic link that could lead outside dir, an entry written through a
// symbolic link, or another kind than file, folder or symbolic link, is an
// error (untar.Extract).
func UnpackSources(data []byte, dir string) error {
	if err := untar.Extract(bytes.NewReader(data), dir, false, "folder"); err != nil {
		return fmt.Errorf("unpack sources: %w", err)
	}
	return nil
}

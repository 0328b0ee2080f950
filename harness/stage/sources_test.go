package stage

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

// TestPackSources: the packed sources unpack to a tree of the same
// TreeHash (files, executable bits, links, folders; node_modules left
// out), and an entry leaving the folder is refused.
func TestPackSources(t *testing.T) {
	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, "app", "routes"), 0o755)
	os.MkdirAll(filepath.Join(src, "node_modules", "x"), 0o755)
	os.WriteFile(filepath.Join(src, "framework.yaml"), []byte("name: x\n"), 0o644)
	os.WriteFile(filepath.Join(src, "run.sh"), []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(src, "app", "routes", "a.tsx"), []byte("export default 1\n"), 0o644)
	os.WriteFile(filepath.Join(src, "node_modules", "x", "big.js"), []byte("left out"), 0o644)
	os.Symlink("run.sh", filepath.Join(src, "start"))
	data, err := PackSources(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "x")
	if err := UnpackSources(data, dst); err != nil {
		t.Fatal(err)
	}
	want, _ := TreeHash(src)
	got, err := TreeHash(dst)
	if err != nil || got != want {
		t.Errorf("tree hash %s (%v), want %s", got, err, want)
	}
	if st, err := os.Stat(filepath.Join(dst, "run.sh")); err != nil || st.Mode().Perm()&0o100 == 0 {
		t.Errorf("run.sh lost its executable bit: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dst, "node_modules")); err == nil {
		t.Error("node_modules was packed")
	}

	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	tw.WriteHeader(&tar.Header{Name: "../escape", Typeflag: tar.TypeReg, Mode: 0o644})
	tw.Close()
	zw.Close()
	if err := UnpackSources(buf.Bytes(), t.TempDir()); err == nil || err.Error() != `unpack sources: entry "../escape" lies outside the folder` {
		t.Errorf("escape: %v", err)
	}
}

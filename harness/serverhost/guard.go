package serverhost

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

// sourceGuard is the source dataset as the run found it: the SHA-256 of
// its bytes and which SQLite side files (-wal, -shm, -journal) lay beside
// it. Servers get copies (dataset.Copy); the source must not change.
type sourceGuard struct {
	path     string
	sum      [sha256.Size]byte
	sidecars map[string]bool
}

// sidecarSuffixes are the files SQLite keeps beside a database it has open
// for writing (or left after a crash).
var sidecarSuffixes = []string{"-wal", "-shm", "-journal"}

// guardSource reads the source dataset at path. Errors name the file.
func guardSource(path string) (sourceGuard, error) {
	g := sourceGuard{path: path, sidecars: map[string]bool{}}
	var err error
	if g.sum, err = fileSum(path); err != nil {
		return g, fmt.Errorf("dataset source %s: %w", path, err)
	}
	for _, s := range sidecarSuffixes {
		g.sidecars[s] = exists(path + s)
	}
	return g, nil
}

// check reads the source dataset again and returns an error when its bytes
// changed, a SQLite side file appeared beside it, or it can no longer be read.
func (g sourceGuard) check() error {
	sum, err := fileSum(g.path)
	if err != nil {
		return fmt.Errorf("dataset source %s at the end of the run: %w", g.path, err)
	}
	if sum != g.sum {
		return fmt.Errorf("dataset source %s changed during the run (sha256 %s… → %s…)", g.path, shortSum(g.sum), shortSum(sum))
	}
	for _, s := range sidecarSuffixes {
		if !g.sidecars[s] && exists(g.path+s) {
			return fmt.Errorf("dataset source %s changed during the run (%s appeared beside it)", g.path, g.path+s)
		}
	}
	return nil
}

// shortSum is the first 12 hex digits of a SHA-256.
func shortSum(sum [sha256.Size]byte) string { return hex.EncodeToString(sum[:6]) }

// fileSum is the SHA-256 of the bytes of the file at path.
func fileSum(path string) ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	f, err := os.Open(path)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return sum, err
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

// exists reports whether a file is at path.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

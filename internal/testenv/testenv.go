// Package testenv holds what tests of several packages share about the
// machine they run on.
package testenv

import (
	"os"
	"path/filepath"
)

// RuntimesDir is the folder of installed runtimes (the pinned Node.js)
// shared by test runs, so that each machine downloads them once:
// $TFBENCH_TEST_RUNTIMES, else the user cache's tfbench/runtimes.
func RuntimesDir() (string, error) {
	if dir := os.Getenv("TFBENCH_TEST_RUNTIMES"); dir != "" {
		return dir, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, "tfbench", "runtimes"), nil
}

package main

import (
	"errors"
	"io/fs"
	"os"
)

// swap puts the folder stage in place of out: at once where the system can
// exchange two paths (exchange), else by two renames in one folder's parent
// (out moved aside, stage moved in, out moved back if that failed; out is
// missing between the two). Either way out holds the old files or the new
// ones, never a mix; stage ends up holding the old ones (the caller removes
// it).
func swap(stage, out string) error {
	if _, err := os.Lstat(out); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(stage, out)
	}
	if err := exchange(stage, out); err == nil {
		return nil
	}
	return swapByRenames(stage, out)
}

// swapByRenames is swap's fallback: out moved aside, stage moved in (out
// moved back if that failed), then the old files moved to stage.
func swapByRenames(stage, out string) error {
	aside := stage + "-old"
	if err := os.Rename(out, aside); err != nil {
		return err
	}
	if err := os.Rename(stage, out); err != nil {
		return errors.Join(err, os.Rename(aside, out))
	}
	return os.Rename(aside, stage)
}

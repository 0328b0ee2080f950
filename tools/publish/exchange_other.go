//go:build !linux

package main

import "errors"

// exchange has no atomic form here (Linux's renameat2 RENAME_EXCHANGE):
// swap falls back to two renames.
func exchange(a, b string) error { return errors.New("no atomic exchange on this system") }

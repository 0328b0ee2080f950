package main

import "golang.org/x/sys/unix"

// exchange swaps the paths a and b atomically (renameat2 RENAME_EXCHANGE,
// Linux 3.15; an error on a file system without it, and swap falls back).
func exchange(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}

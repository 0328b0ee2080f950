//go:build !linux && !darwin

package procs

// Only Linux (/proc, pidfd) and darwin (sysctl kern.proc, kill(2)) are
// supported: on any other system the package must not build silently
// wrong, so this declaration fails to compile there.
var _ = procs_supports_only_linux_and_darwin

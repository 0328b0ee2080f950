//go:build !linux && !darwin

package cpuset

// Only Linux (sched_setaffinity) and darwin (no affinity, no pinning) are
// supported: on any other system the package must not build silently
// wrong, so this declaration fails to compile there.
var _ = cpuset_supports_only_linux_and_darwin

//go:build !linux && !darwin

package faultserver

// The escape mode reads process sessions (readStat) from Linux's /proc or
// darwin's sysctl only: on any other system the package must not build
// silently wrong.
var _ = faultserver_supports_only_linux_and_darwin

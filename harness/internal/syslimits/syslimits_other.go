//go:build !linux && !darwin

package syslimits

// Only Linux (/proc/sys) and darwin (sysctl) are supported: on any other
// system the package must not build silently wrong.
var _ = syslimits_supports_only_linux_and_darwin

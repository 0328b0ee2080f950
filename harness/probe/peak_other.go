//go:build !linux && !darwin

package probe

// peakRSS has a Linux (VmHWM) and a darwin (sampled RSS) source only: on
// any other system the package must not build silently wrong.
var _ = probe_peak_rss_supports_only_linux_and_darwin

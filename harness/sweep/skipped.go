package sweep

import "github.com/tfbench/tfbench/harness/model"

// Skipped returns the sample with key k that the harness did not measure (e.g.
// the server exited earlier in the round): Window 0, no responses, and a failed
// gate with reason NotMeasured + reason, so its level is never a peak.
func Skipped(k model.Key, reason string) model.Sample {
	return model.Sample{Key: k, Gate: model.GateResult{Reason: NotMeasured + reason}}
}

// LinkSaturated reports whether bodyBytes over a window of window seconds
// came at 90% or more of a link of linkBytes bytes/s (0: not measured,
// never saturated); the rule of Sample.LinkSaturated.
func LinkSaturated(bodyBytes int64, window, linkBytes float64) bool {
	if window <= 0 || linkBytes <= 0 {
		return false
	}
	return float64(bodyBytes)/window >= 0.9*linkBytes
}

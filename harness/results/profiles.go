package results

import "github.com/tfbench/tfbench/harness/model"

// Profile records the CPU profiles of one framework variant on one test
// from a --profile run's extra round, whose load is never a sample
// (docs/profiles.md).
type Profile struct {
	model.ID
	Test string `json:"test"`
	// N is the test's headline N (0 when it has none); Connections the
	// level profiled: the variant's peak level at N when it has one, else
	// the test's highest; Seconds how long the load ran (warmup + duration).
	N           int     `json:"n,omitempty"`
	Connections int     `json:"connections"`
	Seconds     float64 `json:"seconds"`
	// Requests counts the responses completed during that load, warmup
	// included as the profile covers it (load.Result.Responses of one window
	// of Seconds); 0 in files written before it was recorded.
	Requests int64 `json:"requests,omitempty"`
	// Files are the profile files, relative to the run folder
	// (profiles/FRAMEWORK/VARIANT/TEST.cpuprofile, TEST.PID.cpuprofile
	// for one of several Node processes, TEST.pprof for Go), in name order.
	Files []string `json:"files,omitempty"`
	// Error says why there is no profile (the server did not start, the
	// adapter wrote none).
	Error string `json:"error,omitempty"`
}

// Profile records a profiled test and rewrites the file.
func (r *Recorder) Profile(p Profile) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.f.Profiles = append(r.f.Profiles, p)
	return r.write()
}

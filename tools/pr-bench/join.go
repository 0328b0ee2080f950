package main

import (
	"fmt"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
)

// JoinRounds makes one run of one side's rounds measured as separate runs
// (`bench --rounds 1`, one process per round, so the other side's rounds
// can sit in between): compare draws its samples from the rounds within one
// results file, and merge keeps runs apart. Round k of the i-th file becomes
// round (rounds of the files before it) + k; the run is labelled runID.
// Files must agree on method version, suite hash, tests and host. The first
// file's frameworks are kept; a verification that did not pass in any file
// replaces a passing one.
func JoinRounds(runID string, files []*results.File) (*results.File, error) {
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no rounds to join", runID)
	}
	first := files[0]
	out := *first
	out.RunID = runID
	out.Samples = nil
	out.Verifications = nil
	out.Equivalence, out.Profiles = nil, nil
	idx := map[[2]string]int{} // "framework/variant", test → index in out.Verifications
	offset := 0
	for i, f := range files {
		switch {
		case f.MethodVersion != first.MethodVersion:
			return nil, fmt.Errorf("%s: round file %d (run %s) has method version %d, the first (run %s) %d", runID, i+1, f.RunID, f.MethodVersion, first.RunID, first.MethodVersion)
		case f.Suite.Hash != first.Suite.Hash:
			return nil, fmt.Errorf("%s: round file %d (run %s) followed suite sha256 %s, the first (run %s) %s", runID, i+1, f.RunID, f.Suite.Hash, first.RunID, first.Suite.Hash)
		case len(f.Suite.Tests) != len(first.Suite.Tests):
			return nil, fmt.Errorf("%s: round file %d (run %s) ran %d tests, the first (run %s) %d", runID, i+1, f.RunID, len(f.Suite.Tests), first.RunID, len(first.Suite.Tests))
		case f.Host.Hostname != first.Host.Hostname:
			return nil, fmt.Errorf("%s: round file %d ran on %s, the first on %s: rounds of one side must share a machine", runID, i+1, f.Host.Hostname, first.Host.Hostname)
		}
		for _, s := range f.Samples {
			s.Round += offset
			out.Samples = append(out.Samples, s)
		}
		for _, v := range f.Verifications {
			k := [2]string{v.ID.String(), v.Test}
			j, ok := idx[k]
			switch {
			case !ok:
				idx[k] = len(out.Verifications)
				out.Verifications = append(out.Verifications, v)
			case out.Verifications[j].Status == model.Pass && v.Status != model.Pass:
				out.Verifications[j] = v
			}
		}
		rounds := f.Suite.Rounds
		if rounds < 1 {
			rounds = 1
		}
		offset += rounds
		if f.Status != results.Complete {
			out.Status = f.Status
		}
		if f.Finished.After(out.Finished) {
			out.Finished = f.Finished
		}
	}
	out.Suite.Rounds = offset
	out.Command = nil
	return &out, nil
}

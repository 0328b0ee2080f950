package results

import (
	"fmt"

	"github.com/tfbench/tfbench/harness/model"
)

// Unmeasured is an expected framework variant without a measured figure in
// a Set, and why as far as the results tell.
type Unmeasured struct {
	ID     model.ID
	Reason string
}

func (u Unmeasured) String() string {
	return fmt.Sprintf("%s: no measured figures in the merged results (%s)", u.ID, u.Reason)
}

// Unmeasured returns the variants of expected, in its order, that no run of
// s gives a figure for: no sample of theirs passed the success gate. The
// reason is the framework record's error (build or start failed), else the
// first failed sample's gate reason, else that no run holds the variant.
func (s *Set) Unmeasured(expected []model.ID) []Unmeasured {
	type seen struct {
		passed     bool
		err, gate  string
		anySamples bool
	}
	by := map[model.ID]*seen{}
	get := func(id model.ID) *seen {
		if by[id] == nil {
			by[id] = &seen{}
		}
		return by[id]
	}
	for _, r := range s.Runs {
		for _, fw := range r.File.Frameworks {
			if v := get(fw.ID()); fw.Error != "" && v.err == "" {
				v.err = fw.Error
			}
		}
		for _, smp := range r.File.Samples {
			v := get(smp.ID)
			v.anySamples = true
			if smp.Gate.Passed {
				v.passed = true
			} else if v.gate == "" {
				v.gate = smp.Gate.Reason
			}
		}
	}
	var out []Unmeasured
	for _, id := range expected {
		v := by[id]
		var reason string
		switch {
		case v != nil && v.passed:
			continue
		case v == nil:
			reason = "no run holds it: its shard did not run, or it was not in the plan"
		case v.err != "":
			reason = v.err
		case v.anySamples && v.gate != "":
			reason = "every sample failed the gate; the first: " + v.gate
		case v.anySamples:
			reason = "every sample failed the gate"
		default:
			reason = "recorded without samples: the run stopped before measuring it"
		}
		out = append(out, Unmeasured{ID: id, Reason: reason})
	}
	return out
}

package profile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/results"
)

// Selector picks a run's profile record: Run is a run folder or its
// results.json; Framework and Variant (either may be empty: any) pick the
// variant when the run profiled several, as RUN[#FRAMEWORK[/VARIANT]] says.
type Selector struct {
	Run                string
	Framework, Variant string
}

// RunSelector picks variant id's profile in run (a run folder or its
// results.json): ab's sides are id's Variant "VARIANT@base" and "@new".
func RunSelector(run string, id model.ID) Selector {
	return Selector{Run: run, Framework: id.Framework, Variant: id.Variant}
}

// ParseSelector reads RUN[#FRAMEWORK[/VARIANT]], e.g.
// .tfbench/runs/20261202-143443#node-http/default@new.
func ParseSelector(s string) (Selector, error) {
	run, pick, ok := strings.Cut(s, "#")
	if run == "" {
		return Selector{}, fmt.Errorf("%q: want RUN[#FRAMEWORK/VARIANT], RUN a run folder or its results.json", s)
	}
	sel := Selector{Run: run}
	if ok {
		fw, v, _ := strings.Cut(pick, "/")
		if fw == "" {
			return Selector{}, fmt.Errorf("%q: no framework after #: want RUN#FRAMEWORK/VARIANT", s)
		}
		sel.Framework, sel.Variant = fw, v
	}
	return sel, nil
}

// String is the selector as ParseSelector reads it.
func (s Selector) String() string {
	switch {
	case s.Variant != "":
		return s.Run + "#" + s.Framework + "/" + s.Variant
	case s.Framework != "":
		return s.Run + "#" + s.Framework
	}
	return s.Run
}

func (s Selector) matches(id model.ID) bool {
	return (s.Framework == "" || s.Framework == id.Framework) && (s.Variant == "" || s.Variant == id.Variant)
}

// RunProfile is the profile of one test of one variant in a run: its
// results.json record and its files read and summed.
type RunProfile struct {
	Selector Selector
	// Results is the run's results.json path; Record the profile record.
	Results string
	Record  results.Profile
	Profile *Profile
}

// ReadRun reads the profile sel picks of test ("" when the run profiled
// one test for that variant) from the run's results.json: its files,
// relative to the run folder, summed. Errors name the run and what is
// missing: no profiles, several variants or tests to pick from, a record
// with an error, one without requests (an older run: no per-request figures).
func ReadRun(sel Selector, test string) (*RunProfile, error) {
	path := sel.Run
	if st, err := os.Stat(path); err != nil {
		return nil, err
	} else if st.IsDir() {
		path = filepath.Join(path, "results.json")
	}
	f, err := results.Read(path)
	if err != nil {
		return nil, err
	}
	if len(f.Profiles) == 0 {
		return nil, fmt.Errorf("%s: no profiles (a run made without --profile)", path)
	}
	var recs []results.Profile
	var ids, tests []string
	for _, p := range f.Profiles {
		if !sel.matches(p.ID) {
			continue
		}
		if !slices.Contains(ids, p.ID.String()) {
			ids = append(ids, p.ID.String())
		}
		if test != "" && p.Test != test {
			continue
		}
		recs = append(recs, p)
		if !slices.Contains(tests, p.Test) {
			tests = append(tests, p.Test)
		}
	}
	var all []string
	for _, p := range f.Profiles {
		if !slices.Contains(all, p.ID.String()) {
			all = append(all, p.ID.String())
		}
	}
	switch {
	case len(ids) == 0:
		return nil, fmt.Errorf("%s: no profile of %s: it profiled %s", path, pickText(sel), strings.Join(all, ", "))
	case len(ids) > 1:
		return nil, fmt.Errorf("%s: profiled %s: pick one with %s#FRAMEWORK/VARIANT", path, strings.Join(ids, ", "), sel.Run)
	case len(recs) == 0:
		var have []string
		for _, p := range f.Profiles {
			if sel.matches(p.ID) && !slices.Contains(have, p.Test) {
				have = append(have, p.Test)
			}
		}
		return nil, fmt.Errorf("%s: %s has no profile of test %s: it has %s", path, ids[0], test, strings.Join(have, ", "))
	case len(tests) > 1:
		return nil, fmt.Errorf("%s: %s profiled tests %s: pick one with --test", path, ids[0], strings.Join(tests, ", "))
	case len(recs) > 1:
		return nil, fmt.Errorf("%s: %s %s has %d profile records, want one", path, ids[0], tests[0], len(recs))
	}
	rec := recs[0]
	what := fmt.Sprintf("%s: %s %s", path, rec.ID, rec.Test)
	switch {
	case rec.Error != "":
		return nil, fmt.Errorf("%s: no profile: %s", what, rec.Error)
	case len(rec.Files) == 0:
		return nil, fmt.Errorf("%s: no profile files", what)
	case rec.Requests <= 0:
		return nil, fmt.Errorf("%s: no requests recorded (a run made before tfbench recorded them): no per-request figures", what)
	}
	dir := filepath.Dir(path)
	var ps []*Profile
	for _, file := range rec.Files {
		p, err := Read(filepath.Join(dir, filepath.FromSlash(file)))
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("%s: %w", what, err)
			}
			return nil, err
		}
		ps = append(ps, p)
	}
	p := ps[0]
	if len(ps) > 1 {
		p = Sum(ps...)
	}
	return &RunProfile{Selector: sel, Results: path, Record: rec, Profile: p}, nil
}

// label is r's selector, variant and test: "RUN#FW/V (FW/V TEST)".
func (r *RunProfile) label() string {
	return fmt.Sprintf("%s (%s %s)", r.Selector, r.Record.ID, r.Record.Test)
}

// pickText is what sel picks, for an error.
func pickText(sel Selector) string {
	if sel.Variant == "" {
		return sel.Framework
	}
	return sel.Framework + "/" + sel.Variant
}

// DiffRuns reads the profiles a and b pick (ReadRun, test "" when each
// run profiled one test) and diffs them per request; the sides are
// labelled with the selectors.
func DiffRuns(a, b Selector, test string) (*DiffResult, error) {
	ra, err := ReadRun(a, test)
	if err != nil {
		return nil, err
	}
	rb, err := ReadRun(b, test)
	if err != nil {
		return nil, err
	}
	d := Diff(ra.Profile, rb.Profile, ra.Record.Requests, rb.Record.Requests)
	d.A.Label, d.B.Label = ra.label(), rb.label()
	return d, nil
}

// WriteFolded writes d's two sides as differential folded stacks
// (WriteFoldedDiff) to the file path, atomically.
func (d *DiffResult) WriteFolded(path string) error {
	var buf bytes.Buffer
	if err := WriteFoldedDiff(&buf, d.A.Profile, d.B.Profile, d.A.Requests, d.B.Requests); err != nil {
		return err
	}
	return results.WriteFileAtomic(path, buf.Bytes())
}

package results

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/internal/words"
)

// KindMerged is the "kind" of a merged results file.
const KindMerged = "merged"

// Run is one results file inside a Set, with the label that names it in
// reports and comparisons (a CI job or a machine, e.g. "nextjs").
type Run struct {
	Label string `json:"label"`
	File  *File  `json:"results"`
}

// Set is one or more runs read together: a plain results.json is a Set of
// one run, a merged file of several. Its runs share method version and suite
// hash, and only the reference is measured in more than one (Merge).
type Set struct {
	Runs []Run
}

// merged is a merged file on disk:
// {"schema_version":1,"kind":"merged","runs":[{"label":…,"results":{…}},…]}.
type merged struct {
	SchemaVersion int    `json:"schema_version"`
	Kind          string `json:"kind"`
	Runs          []Run  `json:"runs"`
}

// ReadSet reads a results.json (a Set of one run, labelled with its run ID)
// or a merged file written by WriteSet. Errors name the path: unreadable,
// not JSON, another schema version, a merged file without runs.
func ReadSet(path string) (*Set, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var head struct {
		SchemaVersion int    `json:"schema_version"`
		Kind          string `json:"kind"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("%s: not a tfbench results file: %w", path, err)
	}
	if head.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("%s: results schema version %d, this tfbench reads version %d", path, head.SchemaVersion, SchemaVersion)
	}
	if head.Kind != KindMerged {
		f, err := decode(path, data)
		if err != nil {
			return nil, err
		}
		return &Set{Runs: []Run{{Label: f.RunID, File: f}}}, nil
	}
	var m merged
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: not a tfbench merged results file: %w", path, err)
	}
	if len(m.Runs) == 0 {
		return nil, fmt.Errorf("%s: merged results file has no runs", path)
	}
	for i, r := range m.Runs {
		if r.File == nil {
			return nil, fmt.Errorf("%s: run %d (%q) has no results", path, i+1, r.Label)
		}
		if r.File.SchemaVersion != SchemaVersion {
			return nil, fmt.Errorf("%s: run %q: results schema version %d, this tfbench reads version %d", path, r.Label, r.File.SchemaVersion, SchemaVersion)
		}
	}
	// Check what Merge guarantees, so a hand-edited file cannot mix methods.
	if _, err := Merge(m.Runs); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &Set{Runs: m.Runs}, nil
}

func decode(path string, data []byte) (*File, error) {
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: not a tfbench results file: %w", path, err)
	}
	return &f, nil
}

// Merge combines runs into one Set in the order given, each keeping its
// label. It refuses an empty or duplicate label, differing method versions
// or suite hashes, and a variant other than model.Reference in two runs.
func Merge(runs []Run) (*Set, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("nothing to merge")
	}
	labels := map[string]bool{}
	owner := map[model.ID]string{} // variant → label
	first := runs[0]
	for _, r := range runs {
		if r.Label == "" {
			return nil, fmt.Errorf("a run (run ID %q) has no label", r.File.RunID)
		}
		if labels[r.Label] {
			return nil, fmt.Errorf("two runs are labelled %q; labels name runs in reports and must differ", r.Label)
		}
		labels[r.Label] = true
		if r.File.MethodVersion != first.File.MethodVersion {
			return nil, fmt.Errorf("%s: method version %d, %s: method version %d: results measured by different methods never merge",
				first.Label, first.File.MethodVersion, r.Label, r.File.MethodVersion)
		}
		if r.File.Suite.Hash != first.File.Suite.Hash {
			return nil, fmt.Errorf("%s: suite %s (sha256 %s), %s: suite %s (sha256 %s): results of different suites never merge",
				first.Label, first.File.Suite.Name, words.Commit(first.File.Suite.Hash), r.Label, r.File.Suite.Name, words.Commit(r.File.Suite.Hash))
		}
		for _, v := range r.File.Measured() {
			if v == model.Reference {
				continue
			}
			if other, ok := owner[v]; ok {
				return nil, fmt.Errorf("%s is measured in both %s and %s; merge one run of each framework variant (the reference %s may be in every run)",
					v, other, r.Label, model.Reference)
			}
			owner[v] = r.Label
		}
	}
	return &Set{Runs: append([]Run(nil), runs...)}, nil
}

// Measured returns the variants that have samples or a framework record
// in f, by first appearance.
func (f *File) Measured() []model.ID {
	seen := map[model.ID]bool{}
	var out []model.ID
	add := func(k model.ID) {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for _, fw := range f.Frameworks {
		add(fw.ID())
	}
	for _, s := range f.Samples {
		add(s.ID)
	}
	return out
}

// WriteSet writes s to path atomically (WriteFileAtomic): a Set of one run
// as a plain results.json, otherwise as a merged file.
func WriteSet(path string, s *Set) error {
	if f, ok := s.Single(); ok {
		return Write(path, f)
	}
	data, err := json.MarshalIndent(merged{SchemaVersion: SchemaVersion, Kind: KindMerged, Runs: s.Runs}, "", " ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, append(data, '\n'))
}

// Single returns the only run's file when s has exactly one run.
func (s *Set) Single() (*File, bool) {
	if len(s.Runs) != 1 {
		return nil, false
	}
	return s.Runs[0].File, true
}

// MethodVersion is the runs' method version (equal in every run).
func (s *Set) MethodVersion() int { return s.Runs[0].File.MethodVersion }

// SuiteHash is the runs' suite hash, hex SHA-256 (equal in every run).
func (s *Set) SuiteHash() string { return s.Runs[0].File.Suite.Hash }

// Owner returns the run that measured variant id, and whether one did; for
// the reference variant it is the first run that measured it.
func (s *Set) Owner(id model.ID) (Run, bool) {
	for _, r := range s.Runs {
		for _, v := range r.File.Measured() {
			if v == id {
				return r, true
			}
		}
	}
	return Run{}, false
}

// Source is the source every run of s records (File.Source): nil when no
// run records one. When the runs differ (another commit, a dirty tree, or
// some without one) each keeps its own and s has none: the error lists
// every run's, e.g. "runs from different sources: a 1a2b3c4d5e6f, b none".
func (s *Set) Source() (*Source, error) {
	first := s.Runs[0].File.Source
	same := true
	for _, r := range s.Runs[1:] {
		if src := r.File.Source; (src == nil) != (first == nil) || (src != nil && *src != *first) {
			same = false
		}
	}
	if same {
		return first, nil
	}
	parts := make([]string, len(s.Runs))
	for i, r := range s.Runs {
		text := "none"
		if src := r.File.Source; src != nil {
			text = words.Commit(src.Commit)
			if src.Dirty {
				text += " (dirty)"
			}
		}
		parts[i] = r.Label + " " + text
	}
	return nil, fmt.Errorf("runs from different sources: %s", strings.Join(parts, ", "))
}

// LabelOf is the label merge gives a file by default: its base name without
// the directory and a ".json" suffix ("ci/nextjs.json" → "nextjs").
func LabelOf(path string) string {
	base := path[strings.LastIndexAny(path, `/\`)+1:]
	return strings.TrimSuffix(base, ".json")
}

// Package history is the nightly history: history.json, kept with the
// docs site, holds one night per UTC date with each row's peak RPS, median
// ratio to go-stdlib and median p99 (model.Row); the trend pages are drawn
// from it.
package history

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/ratio"
	"github.com/tfbench/tfbench/harness/results"
)

// SchemaVersion is the version of history.json's layout; Load refuses
// another.
const SchemaVersion = 1

// DateLayout is a night's date: the UTC day, YYYY-MM-DD.
const DateLayout = "2006-01-02"

// History is history.json: {"schema": 1, "nights": [...]}, nights in date
// order, one per date.
type History struct {
	Schema int     `json:"schema"`
	Nights []Night `json:"nights"`
}

// Night is one nightly run (a merged set of CI jobs, or one results file):
// what it ran, where, and its rows in suite order.
type Night struct {
	Date string `json:"date"` // UTC, DateLayout
	// Commit is the commit the night measured, as the caller names it
	// (git rev-parse HEAD); empty when not given.
	Commit        string `json:"commit,omitempty"`
	MethodVersion int    `json:"method_version"`
	Suite         Suite  `json:"suite"`
	// Runs are the night's runs (one per CI job or shard), in merge order.
	Runs []Run `json:"runs"`
	Rows []Row `json:"rows"`
}

// Suite names the suite a night followed; Hash is its file's hex SHA-256.
type Suite struct {
	Name string `json:"name"`
	Hash string `json:"hash"`
}

// Run is one run of a night: its label in the merged file, run ID, shard
// ("I/N", empty for the whole plan) and host.
type Run struct {
	Label string `json:"label"`
	RunID string `json:"run_id"`
	Shard string `json:"shard,omitempty"`
	Host  Host   `json:"host"`
}

// Host is a run's machine in brief; Hostname is a CI runner's name.
type Host struct {
	CPUModel    string `json:"cpu_model"`
	LogicalCPUs int    `json:"logical_cpus"`
	Hostname    string `json:"hostname,omitempty"`
	Runner      string `json:"runner,omitempty"` // probe.Host.Runner: the CI runner's label
}

// Row is one night's stored record of a row (model.Row: a framework variant
// on one test at one N, a page test at every size, ratio.Rows) at its peak
// level (connections, pipeline as model.Key spells them). Figures are
// model.Row's, rounded: RPS to 0.1, ratio to 1e-4, p99 to 0.001 ms.
type Row struct {
	model.ID
	Test        string `json:"test"`
	N           int    `json:"n,omitempty"`
	Connections int    `json:"connections"`
	Pipeline    int    `json:"pipeline"`
	// Run is the label of the run that measured the row.
	Run string `json:"run"`
	// PeakRPS is the peak: the best eligible level's median RPS over rounds.
	PeakRPS float64 `json:"peak_rps"`
	// MedianRatio is model.Row.MedianRatio to go-stdlib of the same run:
	// the median over rounds of the per-round ratio, not the report's ratio
	// of peaks; nil for go-stdlib itself and when no round has both.
	MedianRatio *float64 `json:"ratio,omitempty"`
	// MedianP99 is model.Row.MedianP99: the median over rounds of each
	// round's p99 at the peak level, ms (the report's p99 merges them).
	MedianP99 float64 `json:"p99_ms"`
}

// Key is the row's key.
func (r Row) Key() model.RowKey { return model.RowKey{ID: r.ID, Test: r.Test, N: r.N} }

// Load reads a history file; a missing file is an empty history. Errors
// name the file: not JSON, another schema, a date not YYYY-MM-DD, two
// nights of one date.
func Load(path string) (*History, error) {
	var h History
	if found, err := readVersioned(path, "history", &h, &h.Schema); err != nil || !found {
		return &History{Schema: SchemaVersion}, err
	}
	seen := map[string]bool{}
	for i, n := range h.Nights {
		if err := checkDate(n.Date); err != nil {
			return nil, fmt.Errorf("%s: night %d: %w", path, i+1, err)
		}
		if seen[n.Date] {
			return nil, fmt.Errorf("%s: two nights dated %s", path, n.Date)
		}
		seen[n.Date] = true
	}
	slices.SortStableFunc(h.Nights, func(a, b Night) int { return cmp.Compare(a.Date, b.Date) })
	return &h, nil
}

// readVersioned reads the JSON file path of kind ("history", "changes")
// into v, whose schema field is schema; found is false for a missing file.
// Errors name the file: not JSON, another schema than SchemaVersion.
func readVersioned(path, kind string, v any, schema *int) (found bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return true, fmt.Errorf("%s: not a tfbench %s file: %w", path, kind, err)
	}
	if *schema != SchemaVersion {
		return true, fmt.Errorf("%s: %s schema %d, this tfbench reads schema %d", path, kind, *schema, SchemaVersion)
	}
	return true, nil
}

// Write writes h to path as indented JSON, atomically
// (results.WriteFileAtomic).
func Write(path string, h *History) error {
	data, err := json.MarshalIndent(h, "", " ")
	if err != nil {
		return err
	}
	return results.WriteFileAtomic(path, append(data, '\n'))
}

// Append returns h with n added: a night of the same date is replaced (a
// re-run does not add a second), nights sorted by date. h is not changed.
func Append(h *History, n Night) *History {
	out := &History{Schema: SchemaVersion}
	for _, x := range h.Nights {
		if x.Date != n.Date {
			out.Nights = append(out.Nights, x)
		}
	}
	out.Nights = append(out.Nights, n)
	slices.SortStableFunc(out.Nights, func(a, b Night) int { return cmp.Compare(a.Date, b.Date) })
	return out
}

// From makes the night dated date (UTC, YYYY-MM-DD) from results files
// (plain or merged; several are merged as tfbench merge does, so they must
// share method and suite). commit may be empty. go-stdlib's rows come from
// the first run that measured it; every other row's ratio is to the
// go-stdlib of its own run.
func From(paths []string, date, commit string) (Night, error) {
	if err := checkDate(date); err != nil {
		return Night{}, err
	}
	if len(paths) == 0 {
		return Night{}, errors.New("no results file")
	}
	var runs []results.Run
	for _, p := range paths {
		s, err := results.ReadSet(p)
		if err != nil {
			return Night{}, err
		}
		runs = append(runs, s.Runs...)
	}
	set, err := results.Merge(runs)
	if err != nil {
		return Night{}, err
	}
	first := set.Runs[0].File
	n := Night{Date: date, Commit: commit, MethodVersion: set.MethodVersion(),
		Suite: Suite{Name: first.Suite.Name, Hash: set.SuiteHash()}}
	refRun, _ := set.Owner(model.Reference)
	for _, r := range set.Runs {
		f := r.File
		n.Runs = append(n.Runs, Run{Label: r.Label, RunID: f.RunID, Shard: f.Shard,
			Host: Host{CPUModel: f.Host.CPUModel, LogicalCPUs: f.Host.LogicalCPUs, Hostname: f.Host.Hostname, Runner: f.Host.Runner}})
		rows := ratio.Rows(f)
		for k, x := range rows {
			if !x.OK || (k.ID == model.Reference && r.Label != refRun.Label) {
				continue
			}
			row := Row{ID: k.ID, Test: k.Test, N: k.N, Connections: x.Connections, Pipeline: x.Pipeline, Run: r.Label,
				PeakRPS: roundTo(x.Peak, 1e1), MedianP99: roundTo(x.MedianP99(), 1e3)}
			if k.ID != model.Reference {
				if m, ok := x.MedianRatio(rows[k.Reference()]); ok {
					m = roundTo(m, 1e4)
					row.MedianRatio = &m
				}
			}
			n.Rows = append(n.Rows, row)
		}
	}
	order := map[string]int{}
	for i, t := range first.Suite.Tests {
		order[t.Name] = i
	}
	slices.SortFunc(n.Rows, func(a, b Row) int {
		return cmp.Or(cmp.Compare(order[a.Test], order[b.Test]), cmp.Compare(a.N, b.N),
			cmp.Compare(rank(a.ID), rank(b.ID)), cmp.Compare(a.ID.String(), b.ID.String()))
	})
	return n, nil
}

// rank puts the reference first.
func rank(id model.ID) int {
	if id == model.Reference {
		return 0
	}
	return 1
}

func checkDate(d string) error {
	if t, err := time.Parse(DateLayout, d); err != nil || t.Format(DateLayout) != d {
		return fmt.Errorf("date %q is not YYYY-MM-DD", d)
	}
	return nil
}

// roundTo rounds v to 1/per: per 1e3 keeps three decimals.
func roundTo(v, per float64) float64 { return math.Round(v*per) / per }

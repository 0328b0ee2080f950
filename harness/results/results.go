// Package results is the results model of a run and its JSON encoding
// (results.json): suite, method, host, frameworks, verification verdicts and
// every sample with its latency histogram. The file is rewritten atomically
// after every sample, so an interrupted run keeps what it measured.
package results

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/serverhost"
	"github.com/tfbench/tfbench/harness/suite"
)

// SchemaVersion is the version of the results.json layout; a reader
// refuses a file with another version. An additive field (profiles,
// source) keeps it: a reader that does not know the field ignores it.
const SchemaVersion = 1

// MethodVersion is the version of the measurement method (docs/design.md,
// Measurement method); results of different versions never compare. 2 gated
// on render counts, 3 on harness faults, 4 made the generator nap before it
// blocks, 5 added the page workloads (docs/ssr.md), 6 checks every
// response under load and fails a cached Date or an unrequested response
// (docs/verification.md, Under load), 7 ends windows on a response count, measures after round 1
// only the levels that can still be the peak, makes a level measured in
// fewer rounds than its series ineligible and opens a window on running load
// with sample_warmup (each opt-in by suite key, docs/suites.md).
const MethodVersion = 7

// Suite records the suite a run followed.
type Suite struct {
	Name   string `json:"name"`
	File   string `json:"file"`
	Hash   string `json:"hash"` // hex SHA-256 of the suite file
	Rounds int    `json:"rounds"`
	Tests  []Test `json:"tests"`
}

// Test records one test's resolved settings. Durations are in seconds,
// Gate is a share 0..1.
type Test struct {
	Name         string         `json:"name"`
	Type         model.TestType `json:"type"`
	Path         string         `json:"path"`
	Queries      []int          `json:"queries,omitempty"`
	Concurrency  []int          `json:"concurrency"`
	Pipeline     int            `json:"pipeline"`
	Duration     float64        `json:"duration_s"`
	Warmup       float64        `json:"warmup_s"`
	Timeout      float64        `json:"timeout_s"`
	Gate         float64        `json:"gate"`
	MinResponses int            `json:"min_responses"`
	Engine       string         `json:"engine"`
	// Rate is the constant-rate sample's rate in requests/s (0 = none) and
	// RateConnections its connection count.
	Rate            float64 `json:"rate,omitempty"`
	RateConnections int     `json:"rate_connections,omitempty"`
	// Responses ends a window on that response count after MinDuration
	// seconds (0 = fixed windows); KeepWithin is the share below round 1's
	// best within which a level is measured again; RateRounds the rounds
	// 1..RateRounds that run the rate sample (0 = all); suite.Settings.
	Responses int `json:"responses,omitempty"`
	// WarmupResponses ends the warmup on that response count (0 = off).
	WarmupResponses int `json:"warmup_responses,omitempty"`
	// SampleWarmup is each closed-loop sample's own warmup, seconds, run on its
	// connections just before its window (0 = the window opens cold).
	SampleWarmup float64 `json:"sample_warmup_s,omitempty"`
	MinDuration  float64 `json:"min_duration_s,omitempty"`
	KeepWithin   float64 `json:"keep_within,omitempty"`
	RateRounds   int     `json:"rate_rounds,omitempty"`
	// Probe is the interference probe's interval in seconds (0 = none);
	// Cache the cache state measured ("hit", or "" for a render per request).
	Probe float64 `json:"probe_s,omitempty"`
	Cache string  `json:"cache,omitempty"`
	// Parts is a stream test's K, the parts of each page (0 for the other
	// types).
	Parts int `json:"parts,omitempty"`
	// ColdStart holds a coldstart test's own settings; nil for the others.
	ColdStart *ColdStartTest `json:"coldstart,omitempty"`
}

// Framework records one framework variant as it ran.
type Framework struct {
	Name        string `json:"name"`
	Variant     string `json:"variant"`
	Runtime     string `json:"runtime"`     // e.g. "go1.26.8", "node 24.22.3"
	Language    string `json:"language"`    // from framework.yaml
	Rendering   string `json:"rendering"`   // rendering model shown in reports
	Description string `json:"description"` // from framework.yaml
	Start       string `json:"start"`       // the start command
	// Versions are the locked versions of the packages framework.yaml's
	// `versions:` names (e.g. next 16.4.6, react 19.3.1), in its order.
	Versions []Package `json:"versions,omitempty"`
	// Build is the hex SHA-256 of the build's inputs (sources, lockfile,
	// build command, runtime version): two runs with the same Build ran
	// the same code.
	Build string `json:"build,omitempty"`
	// Lockfiles are the sha256 (hex) of the adapter's lockfiles, by file name
	// (package-lock.json, go.sum), those it has.
	Lockfiles map[string]string `json:"lockfiles,omitempty"`
	Error     string            `json:"error,omitempty"` // why it could not be built or started
}

// Package is one locked dependency version of a framework.
type Package struct {
	Name    string `json:"name"`    // npm package or Go module path
	Version string `json:"version"` // as locked: "16.4.6", "v1.62.0"
}

// ID is the variant's identity.
func (f Framework) ID() model.ID { return model.ID{Framework: f.Name, Variant: f.Variant} }

// VersionText is the framework's versions as reports show them:
// "next 16.4.6, react 19.3.1"; empty when none are recorded.
func (f Framework) VersionText() string {
	parts := make([]string, len(f.Versions))
	for i, p := range f.Versions {
		parts[i] = p.Name + " " + p.Version
	}
	return strings.Join(parts, ", ")
}

// Verification is one framework variant's verdict on one test.
type Verification struct {
	model.ID
	Test      string        `json:"test"`
	Status    model.Verdict `json:"status"`
	Reasons   []string      `json:"reasons,omitempty"`
	PageBytes int           `json:"page_bytes,omitempty"` // fortunes and page: the page's size in bytes (page: at the headline N)
}

// Status values of a run.
const (
	Running     = "running"
	Complete    = "complete"
	Interrupted = "interrupted"
)

// File is the content of results.json.
type File struct {
	SchemaVersion int    `json:"schema_version"`
	MethodVersion int    `json:"method_version"`
	RunID         string `json:"run_id"`
	// Command is the command line that started the run, e.g.
	// ["tfbench", "bench", "--tests", "json"].
	Command []string `json:"command,omitempty"`
	// Shard is the slice of the plan this run measured, "I/N" (e.g. "2/8":
	// the 2nd of 8, by framework variant, with the reference in each;
	// `tfbench bench --shard`, model.Shard); empty for the whole plan.
	Shard string `json:"shard,omitempty"`
	// Source is the repository commit tfbench ran from (harness/run reads
	// it with git at the run's start); nil outside a git checkout.
	Source *Source `json:"source,omitempty"`
	// Tfbench is the tfbench binary's own version as Go stamped it: its VCS
	// revision ("+dirty" when modified) or module version; empty when unstamped.
	Tfbench  string    `json:"tfbench,omitempty"`
	Status   string    `json:"status"` // running, complete or interrupted
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished,omitzero"`
	// Seed is the seed of the per-round shuffles of framework order.
	Seed  int64      `json:"seed"`
	Suite Suite      `json:"suite"`
	Host  probe.Host `json:"host"`
	// ServerHost is the server's machine in a two-host run
	// (--server-host): Host is then the generator's alone. Nil: one host.
	ServerHost *probe.Host `json:"server_host,omitempty"`
	// Network is the path between the two hosts, measured before the
	// first sample; nil on one host.
	Network       *serverhost.Network `json:"network,omitempty"`
	Frameworks    []Framework         `json:"frameworks"`
	Verifications []Verification      `json:"verifications"`
	Samples       []model.Sample      `json:"samples"`
	// Equivalence holds tfbench ab's byte-equivalence verdicts, one per
	// suite test in suite order (fetched before measuring); empty for a
	// plain bench run.
	Equivalence []Equivalence `json:"equivalence,omitempty"`
	// Profiles lists the CPU profiles of the profiled round (bench or ab
	// --profile), one per framework variant and test; empty without it.
	// Nothing of that round is a sample.
	Profiles []Profile `json:"profiles,omitempty"`
	// ColdStarts are the coldstart tests' fresh starts, as made; empty
	// without one.
	ColdStarts []ColdStart `json:"coldstarts,omitempty"`
	// Time says where the run's wall time went (docs/suites.md), rewritten with
	// every sample; nil in files from before it.
	Time *Time `json:"time,omitempty"`
}

// Time is where a run's wall time went, in seconds: the phases add up to
// Total (Finished − Started, then the report). Pauses are the rest: set-up,
// opening connections, reading CPU, memory and render counts, gaps.
type Time struct {
	Builds          float64 `json:"builds_s"`
	RuntimeInstalls float64 `json:"runtime_installs_s"`
	ServerStarts    float64 `json:"server_starts_s"` // starts and stops
	Verification    float64 `json:"verification_s"`
	Warmups         float64 `json:"warmups_s"`
	Windows         float64 `json:"windows_s"` // the measured windows
	Pauses          float64 `json:"pauses_s"`
	Report          float64 `json:"report_s"`
	Total           float64 `json:"total_s"`
	// MeasuringStarted is when the first target's first round began
	// (after the builds); zero until then.
	MeasuringStarted time.Time `json:"measuring_started,omitzero"`
}

// Source is the checkout a run measured: `git rev-parse HEAD` and whether
// `git status --porcelain` listed anything (uncommitted or untracked files:
// the figures then belong to no commit). nightly:ab builds its baseline
// side at the Commit recorded in baselines/nightly.json (docs/ci.md).
type Source struct {
	Commit string `json:"commit"` // full hex SHA
	Dirty  bool   `json:"dirty"`
	// DiffSHA256, when Dirty, is the sha256 (hex) of `git diff HEAD --binary`
	// and each untracked file's name and content: two dirty runs with the same
	// value ran the same tree (docs/comparing.md).
	DiffSHA256 string `json:"diff_sha256,omitempty"`
}

// TfbenchVersion is this binary's version as Go stamped it at build time: the
// VCS revision, "+dirty" when the tree was modified, else the module version
// ("(devel)" for a plain build without VCS stamps); empty without build info.
func TfbenchVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var rev string
	var dirty bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return bi.Main.Version
	}
	if dirty {
		rev += "+dirty"
	}
	return rev
}

// String is "COMMIT" or "COMMIT (dirty)".
func (s Source) String() string {
	if s.Dirty {
		return s.Commit + " (dirty)"
	}
	return s.Commit
}

// TwoHosts reports whether the servers ran on a machine of their own.
func (f *File) TwoHosts() bool { return f.ServerHost != nil }

// Peaks is the index of f's peaks (model.PeaksOf over its samples).
func (f *File) Peaks() *model.Peaks { return model.PeaksOf(f.Samples) }

// Verification returns variant id's verdict on test, and whether there is
// one.
func (f *File) Verification(id model.ID, test string) (Verification, bool) {
	for _, v := range f.Verifications {
		if v.ID == id && v.Test == test {
			return v, true
		}
	}
	return Verification{}, false
}

// Read loads a results file. A file with another schema version is an
// error naming both versions.
func Read(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := decode(path, data)
	if err != nil {
		return nil, err
	}
	if f.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("%s: results schema version %d, this tfbench reads version %d", path, f.SchemaVersion, SchemaVersion)
	}
	return f, nil
}

// Write encodes f to path atomically: it writes a temporary file in the
// same directory, syncs it and renames it over path, so a reader (or a
// crash) never sees a half-written file.
func Write(path string, f *File) error {
	data, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, append(data, '\n'))
}

// WriteFileAtomic writes data to path through a synced temporary file in
// the same directory and a rename.
func WriteFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Recorder holds a run's File and rewrites it at Path after every change.
// Its methods are safe for concurrent use.
type Recorder struct {
	Path string
	mu   sync.Mutex
	f    *File
}

// NewRecorder starts recording f at path and writes it once.
func NewRecorder(path string, f *File) (*Recorder, error) {
	if f.SchemaVersion == 0 {
		f.SchemaVersion = SchemaVersion
	}
	if f.MethodVersion == 0 {
		f.MethodVersion = MethodVersion
	}
	if f.Status == "" {
		f.Status = Running
	}
	r := &Recorder{Path: path, f: f}
	return r, r.write()
}

// Framework records a framework variant (or replaces the record with the
// same name and variant) and rewrites the file.
func (r *Recorder) Framework(fw Framework) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, x := range r.f.Frameworks {
		if x.ID() == fw.ID() {
			r.f.Frameworks[i] = fw
			return r.write()
		}
	}
	r.f.Frameworks = append(r.f.Frameworks, fw)
	return r.write()
}

// Verified records verification verdicts and rewrites the file.
func (r *Recorder) Verified(vs ...Verification) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.f.Verifications = append(r.f.Verifications, vs...)
	return r.write()
}

// Network records the path between the two hosts of a two-host run and
// rewrites the file.
func (r *Recorder) Network(n *serverhost.Network) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.f.Network = n
	return r.write()
}

// Sample records one sample and rewrites the file.
func (r *Recorder) Sample(s model.Sample) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.f.Samples = append(r.f.Samples, s)
	return r.write()
}

// SetTime records where the run's time went so far (a copy of t); the next
// write (Sample, Finish) saves it.
func (r *Recorder) SetTime(t Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.f.Time = &t
}

// Finish sets the run's final status (Complete or Interrupted) and end
// time and rewrites the file.
func (r *Recorder) Finish(status string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.f.Status = status
	r.f.Finished = time.Now().UTC()
	return r.write()
}

// File returns the recorded file. The caller must not modify it while the
// recorder is in use.
func (r *Recorder) File() *File {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.f
}

func (r *Recorder) write() error { return Write(r.Path, r.f) }

// SuiteOf is the record of suite s run with tests over rounds rounds:
// durations in seconds.
func SuiteOf(s *suite.Suite, tests []suite.Test, rounds int) Suite {
	out := Suite{Name: s.Name, File: s.File, Hash: s.Hash, Rounds: rounds}
	for _, t := range tests {
		out.Tests = append(out.Tests, Test{
			Name: t.Name, Type: t.Type, Path: t.Path, Queries: t.Queries, Concurrency: t.Concurrency,
			Pipeline: t.Pipeline, Duration: t.Duration.Seconds(), Warmup: t.Warmup.Seconds(), Timeout: t.Timeout.Seconds(),
			Gate: t.Gate, MinResponses: t.MinResponses, Engine: t.Engine, Rate: t.Rate, RateConnections: t.RateConnections,
			Probe: t.Probe.Seconds(), Cache: t.Cache, Parts: t.Parts, ColdStart: coldStartTest(t.ColdStart),
			Responses: t.Responses, WarmupResponses: t.WarmupResponses, SampleWarmup: t.SampleWarmup.Seconds(), MinDuration: t.MinDuration.Seconds(), KeepWithin: t.KeepWithin, RateRounds: t.RateRounds,
		})
	}
	return out
}

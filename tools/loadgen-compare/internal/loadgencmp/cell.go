package loadgencmp

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/tfbench/tfbench/harness/model"
)

// Setting is one load shape both generators run: concurrency (open
// connections) and pipeline depth (requests in flight per connection).
type Setting struct {
	Connections, Pipeline int
}

// String names the setting as the table does: "c=64 depth 1".
func (s Setting) String() string {
	return fmt.Sprintf("c=%d depth %d", s.Connections, s.Pipeline)
}

// Settings are the settings the targets are set at: 64 connections
// without pipelining, and 256 connections at depth 16 (TFB's plaintext
// depth).
var Settings = []Setting{{Connections: 64, Pipeline: 1}, {Connections: 256, Pipeline: 16}}

// Target is what a cell's tfbench/wrk ratios of medians must reach: RPS
// ratio >= RPS and CPU per response ratio <= CPU.
type Target struct {
	RPS, CPU float64
}

var (
	// FixedTarget is the fixed-response servers' target
	// (docs/load-generator.md, Measured against wrk).
	FixedTarget = Target{RPS: 0.95, CPU: 1.00}
	// AdapterTarget is the real adapters' target (the same section).
	AdapterTarget = Target{RPS: 0.98, CPU: 1.00}
)

// Test is one test type measured on a real adapter, at its setting.
type Test struct {
	Type    model.TestType
	Setting Setting
}

// AdapterTests are the tests run on every real adapter: json, db
// and fortunes at c=64 depth 1, plaintext at c=256 depth 16.
var AdapterTests = []Test{
	{model.JSON, Settings[0]}, {model.DB, Settings[0]}, {model.Fortunes, Settings[0]}, {model.Plaintext, Settings[1]},
}

// DefaultServers are the servers a comparison runs unless told otherwise:
// both fixed-response servers, then the adapters go-stdlib and node-http.
var DefaultServers = []string{Length, Chunked, "go-stdlib", "node-http"}

// Generator names, as the table prints them.
const (
	Tfbench = "tfbench"
	Wrk     = "wrk"
)

// Run is one measured run of one generator.
type Run struct {
	Report
	// CPU is the generator process's user + system CPU time (rusage at
	// exit).
	CPU time.Duration
	// Wall is the time from the generator's start to its exit.
	Wall time.Duration
	// ServerCPU is the server process tree's CPU time during the run
	// (probe.Tree's reading after minus before).
	ServerCPU time.Duration
	// Served is how many responses the server wrote during the run by its
	// own count (its count after minus before), when Counted: the
	// fixed-response servers count, the adapters do not.
	Served  int64
	Counted bool
}

// Gap is how many more responses the server wrote during r than r's
// generator counted (negative: the generator counted more).
func (r Run) Gap() int64 { return r.Served - r.Responses }

// InFlight is the most requests a generator has in flight at once, its
// connections × pipeline depth: the most responses the server may have
// written in a run's window that its generator did not count by the
// window's end.
func (s Setting) InFlight() int64 { return int64(s.Connections) * int64(s.Pipeline) }

// CountRule judges tfbench run r of a setting with inFlight requests in
// flight against its server's count: tfbench must count no more responses
// than the server wrote (0 <= Gap), and at most inFlight fewer (Gap <=
// inFlight: only the requests in flight at the window's end may go
// uncounted, as tfbench sends nothing outside its window). It returns ""
// when r keeps the rule or its server does not count, else why not.
func CountRule(r Run, inFlight int64) string {
	switch {
	case !r.Counted:
		return ""
	case r.Gap() < 0:
		return fmt.Sprintf("counted %s responses, %s more than the server wrote (%s)",
			thousands(float64(r.Responses)), thousands(float64(-r.Gap())), thousands(float64(r.Served)))
	case r.Gap() > inFlight:
		return fmt.Sprintf("counted %s responses, %s fewer than the server wrote (%s): more than the %s in flight",
			thousands(float64(r.Responses)), thousands(float64(r.Gap())), thousands(float64(r.Served)), thousands(float64(inFlight)))
	}
	return ""
}

// CPUPer100k is the generator's CPU seconds per 100,000 responses; 0 for a
// run without responses.
func (r Run) CPUPer100k() float64 {
	if r.Responses <= 0 {
		return 0
	}
	return r.CPU.Seconds() / float64(r.Responses) * 1e5
}

// Cell is one load against one server, with its target and every round's
// run of each generator.
type Cell struct {
	// Server is a fixed-response kind (Length, Chunked) or an adapter's
	// name (frameworks/NAME, its default variant).
	Server string
	// Type is the adapter test's type, whose Accept header both generators
	// send; "" for a fixed-response server (no Accept header).
	Type model.TestType
	// Path is the request path: the adapter's `endpoints:` entry for Type,
	// "/" for a fixed-response server.
	Path    string
	Setting Setting
	Target  Target
	Tfbench []Run
	Wrk     []Run
}

// Test is the cell's test column: its Type, "-" for a fixed-response
// server.
func (c *Cell) Test() string {
	if c.Type == "" {
		return "-"
	}
	return string(c.Type)
}

// String names the cell in messages: "go-stdlib json c=64 depth 1".
func (c *Cell) String() string {
	if c.Type == "" {
		return c.Server + " " + c.Setting.String()
	}
	return c.Server + " " + string(c.Type) + " " + c.Setting.String()
}

// FixedCells are a fixed-response server's cells: every Setting, path "/",
// FixedTarget.
func FixedCells(kind string) []*Cell {
	var cells []*Cell
	for _, st := range Settings {
		cells = append(cells, &Cell{Server: kind, Path: "/", Setting: st, Target: FixedTarget})
	}
	return cells
}

// AdapterCells are adapter name's cells: one per AdapterTests entry, its
// path from endpoints (framework.yaml `endpoints:`), AdapterTarget. A test
// type without an endpoint is an error naming it.
func AdapterCells(name string, endpoints map[model.TestType]string) ([]*Cell, error) {
	var cells []*Cell
	for _, t := range AdapterTests {
		path, ok := endpoints[t.Type]
		if !ok {
			return nil, fmt.Errorf("adapter %s has no %s path under endpoints: in its framework.yaml", name, t.Type)
		}
		cells = append(cells, &Cell{Server: name, Type: t.Type, Path: path, Setting: t.Setting, Target: AdapterTarget})
	}
	return cells, nil
}

// Verdict is one cell's comparison: tfbench/wrk ratios of the medians,
// whether each meets the cell's target, and the runs that had errors.
type Verdict struct {
	RPSRatio float64 // median RPS, tfbench / wrk
	CPURatio float64 // median CPU s per response, tfbench / wrk
	RPSMet   bool    // RPSRatio >= Target.RPS
	CPUMet   bool    // CPURatio <= Target.CPU
	// Errors has one line per measured run with errors, e.g. "tfbench
	// round 2: 3 errors (read 3)": a figure with failed requests is not a
	// figure, so any fails the cell.
	Errors []string
	// Counts has one line per tfbench run that breaks CountRule, e.g.
	// "tfbench round 2: counted 1,000 responses, 10 more than the server
	// wrote (990)": any fails the cell.
	Counts []string
	// WrkCounts has one line per wrk run that counted more responses than
	// the server wrote: said, but no target.
	WrkCounts []string
}

// Pass reports whether the cell meets both targets without errors and
// keeps the count rule.
func (v Verdict) Pass() bool {
	return v.RPSMet && v.CPUMet && len(v.Errors) == 0 && len(v.Counts) == 0
}

// Verdict compares c's medians against c.Target and judges each tfbench
// run by CountRule. A cell without runs of either generator has NaN ratios
// and meets neither target.
func (c *Cell) Verdict() Verdict {
	v := Verdict{RPSRatio: math.NaN(), CPURatio: math.NaN()}
	for _, g := range []struct {
		name string
		runs []Run
	}{{Tfbench, c.Tfbench}, {Wrk, c.Wrk}} {
		for i, r := range g.runs {
			if r.Errors > 0 {
				e := fmt.Sprintf("%s round %d: %d errors", g.name, i+1, r.Errors)
				if r.ErrorDetail != "" {
					e += " (" + r.ErrorDetail + ")"
				}
				v.Errors = append(v.Errors, e)
			}
		}
	}
	for i, r := range c.Tfbench {
		if why := CountRule(r, c.Setting.InFlight()); why != "" {
			v.Counts = append(v.Counts, fmt.Sprintf("%s round %d: %s", Tfbench, i+1, why))
		}
	}
	for i, r := range c.Wrk {
		if r.Counted && r.Gap() < 0 {
			v.WrkCounts = append(v.WrkCounts, fmt.Sprintf("%s round %d: counted %s responses, %s more than the server wrote (%s)",
				Wrk, i+1, thousands(float64(r.Responses)), thousands(float64(-r.Gap())), thousands(float64(r.Served))))
		}
	}
	ours, theirs := summaries(c.Tfbench), summaries(c.Wrk)
	if ours.rps.N == 0 || theirs.rps.N == 0 {
		return v
	}
	v.RPSRatio = ours.rps.Median / theirs.rps.Median
	v.CPURatio = ours.cpu.Median / theirs.cpu.Median
	v.RPSMet = v.RPSRatio >= c.Target.RPS
	v.CPUMet = v.CPURatio <= c.Target.CPU
	return v
}

// IsFixed reports whether name is a fixed-response server kind (Kinds).
func IsFixed(name string) bool { return slices.Contains(Kinds, name) }

// checkServers checks a --servers list: not empty, no name twice, and each
// a fixed kind or one of adapters (the adapter names found). Errors name
// the offending entry and what is known.
func checkServers(servers, adapters []string, dir string) error {
	if len(servers) == 0 {
		return fmt.Errorf("no servers given (known: %s, and the adapters in %s)", strings.Join(Kinds, ", "), dir)
	}
	seen := map[string]bool{}
	for _, s := range servers {
		switch {
		case seen[s]:
			return fmt.Errorf("server %q is given twice", s)
		case !IsFixed(s) && !slices.Contains(adapters, s):
			return fmt.Errorf("unknown server %q: not a fixed-response server (%s) nor an adapter in %s (%s)",
				s, strings.Join(Kinds, ", "), dir, strings.Join(adapters, ", "))
		}
		seen[s] = true
	}
	return nil
}

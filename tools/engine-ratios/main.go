// Command engine-ratios prints the render engine's ratio table and judges
// its targets (harness/target) from one run's results.json holding
// engine, go-stdlib and node-http (go tool task bench:engine). Exit status 0
// when every target is met, 1 when one is not or the run was not pinned
// (targets are per core), 2 on bad usage or an unreadable results file.
//
// With --markdown it writes the same as a markdown page from one or more
// runs (go tool task publish: the main and SSR suites' runs, markdown.go);
// the page says how the targets stand, and the exit status is 0 once it is
// written, 2 on bad usage or an unreadable file.
//
//	go run ./tools/engine-ratios RESULTS.json
//	go run ./tools/engine-ratios --markdown RESULTS.json [RESULTS.json...]
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/ratio"
	"github.com/tfbench/tfbench/harness/results"
	"github.com/tfbench/tfbench/harness/target"
)

// columns are the ratio table's variants: engine/pool's ratios are taken
// to each of the others.
var columns = []model.ID{enginePool, {Framework: "engine", Variant: "serialized"}, model.Reference, nodeHTTP}

var (
	enginePool = model.ID{Framework: "engine", Variant: "pool"}
	nodeHTTP   = model.ID{Framework: "node-http", Variant: "default"}
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

const usage = "usage: engine-ratios RESULTS.json | engine-ratios --markdown RESULTS.json..."

// run is the command on args (without the program name); it returns the
// exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 1 && args[0] == "--markdown" {
		return markdown(args[1:], stdout, stderr)
	}
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	f, err := results.Read(args[0])
	if err != nil {
		fmt.Fprintln(stderr, "engine-ratios:", err)
		return 2
	}
	o := compare.DefaultOptions()
	rs, err := target.Judge(f, target.EngineTargets, o)
	if err != nil {
		fmt.Fprintln(stderr, "engine-ratios:", err)
		return 2
	}
	fmt.Fprintf(stdout, "Run %s, suite %s, %d rounds: peak RPS (median over rounds at each variant's own peak level), engine/pool's ratios and CPU time per request.\n\n",
		f.RunID, f.Suite.Name, f.Suite.Rounds)
	if !f.Host.Pinned() {
		fmt.Fprintf(stdout, "CPU sets: %s. The targets are per core: not met on this run, whatever its rows say.\n\n", probe.NotPinned)
	}
	if err := ratio.Write(stdout, ratio.Table(f), columns); err != nil {
		fmt.Fprintln(stderr, "engine-ratios:", err)
		return 2
	}
	fmt.Fprintln(stdout)
	ok, err := target.Write(stdout, rs, o)
	if err != nil {
		fmt.Fprintln(stderr, "engine-ratios:", err)
		return 2
	}
	// The p99 target compares each variant at its own peak level; beside
	// it, the two at the same concurrency on every test (a closed loop's
	// latency grows with its connections); json's and fortunes' levels are
	// the p99 at each level target's.
	fmt.Fprintf(stdout, "\np99 at the same concurrency, engine/pool and node-http/default (closed loop; medians over rounds; * marks a variant's peak level; json's and fortunes' levels are judged above, the others are not a target):\n")
	if err := ratio.WriteLevels(stdout, ratio.SameLevelP99(f, enginePool, nodeHTTP), enginePool, nodeHTTP); err != nil {
		fmt.Fprintln(stderr, "engine-ratios:", err)
		return 2
	}
	if !f.Host.Pinned() {
		fmt.Fprintf(stderr, "engine-ratios: the targets are per core and run %s was not pinned (no CPU affinity on %s)\n", f.RunID, f.Host.OS)
		return 1
	}
	if !ok {
		var missed []string
		for _, r := range rs {
			if !r.Met() {
				missed = append(missed, r.Name)
			}
		}
		fmt.Fprintf(stderr, "engine-ratios: %d of %d targets not met: %s\n", len(missed), len(rs), strings.Join(missed, "; "))
		return 1
	}
	return 0
}

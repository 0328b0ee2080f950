// Command tfbench runs TechEmpower-style benchmarks of web frameworks:
// verified responses, a 100% success gate, peak RPS over concurrency levels,
// results JSON and markdown reports.
//
// Usage:
//
//	tfbench bench      [--suite FILE] [--frameworks LIST] [--tests LIST] [--report FILE]
//	tfbench verify     [--suite FILE] [--frameworks LIST] [--tests LIST]
//	tfbench dataset    [--out FILE] [--force]
//	tfbench report     [--results FILE] [--out FILE]
//	tfbench ab         [--suite FILE] [--tests LIST] [--rounds N] [--new-dir DIR] [--min-change 5%] [--json FILE] [--out FILE.md] BASE [NEW]
//	tfbench merge      --out FILE [--labels LIST] FILE...
//	tfbench compare    [--basis rps|ratio] [--alpha 0.05] [--min-change 5%] [--json FILE] [--out FILE.md] BASE NEW
//	tfbench load       URL [-c N] [-d DURATION] [--pipeline N] [--rate R] [--engine raw|hey] [--json]
//	tfbench frameworks [--dir DIR]
//
// This file only parses flags and calls the harness packages.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // a second Ctrl-C now kills the process at once
	}()
	os.Exit(cli(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// commands maps each subcommand to its function and one-line summary.
var commands = []struct {
	name, summary string
	fn            func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}{
	{"bench", "build, start, verify and measure frameworks; write results.json and a markdown report", benchCmd},
	{"verify", "start frameworks and check their responses against the TFB rules, measuring nothing", verifyCmd},
	{"dataset", "generate the SQLite World/Fortune dataset", datasetCmd},
	{"report", "render a results.json as markdown", reportCmd},
	{"ab", "A/B: two variants or two builds of one framework, interleaved rounds, then compare (exit 1 when NEW is slower)", abCmd},
	{"merge", "combine results files from several machines or CI jobs into one merged file", mergeCmd},
	{"compare", "compare two results files per framework variant and test: faster, slower, same or unknown (exit 1 when slower)", compareCmd},
	{"load", "drive load at any URL, like wrk or hey, and print the summary a sample gets", loadCmd},
	{"frameworks", "list the framework adapters and their variants", frameworksCmd},
}

// verdicts are the commands whose exit status 1 means only "a row is
// slower": any other error of theirs (unreadable or refused inputs, a run
// that failed) exits 2, so CI tells a regression from a broken input.
var verdicts = map[string]bool{"compare": true, "ab": true}

// cli executes one subcommand and returns the process exit status.
func cli(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			err := c.fn(ctx, args[1:], stdout, stderr)
			switch {
			case err == nil:
				return 0
			case errors.Is(err, flag.ErrHelp):
				return 0
			case errors.Is(err, errUsage):
				return 2
			}
			fmt.Fprintf(stderr, "tfbench %s: %v\n", c.name, err)
			if verdicts[c.name] && !errors.Is(err, errRegression) {
				return 2 // no verdict: 1 is kept for "slower"
			}
			return 1
		}
	}
	fmt.Fprintf(stderr, "tfbench: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "tfbench: TechEmpower-style benchmarks of web frameworks.")
	fmt.Fprintln(w, "\nUsage: tfbench COMMAND [flags]   (tfbench COMMAND --help for its flags)")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
	}
}

// errUsage marks a flag error already printed by the flag set.
var errUsage = errors.New("usage")

// newFlags makes a flag set that prints its usage to stderr and returns
// errors instead of exiting.
func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: tfbench %s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "unexpected arguments: %s\n", strings.Join(fs.Args(), " "))
		fs.Usage()
		return errUsage
	}
	return nil
}

// list splits a comma-separated flag value, dropping empty items.
func list(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

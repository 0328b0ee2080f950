// Command tfbench runs TechEmpower-style benchmarks of web frameworks:
// verified responses, a 100% success gate, peak RPS over concurrency levels,
// results JSON and markdown reports. "tfbench help" lists the commands and
// "tfbench COMMAND --help" their flags (testdata/help holds both).
//
// Ctrl-C or SIGTERM stops a run: results.json keeps the samples so far
// (status "interrupted"), the report is written, exit status 1. A second
// signal kills every server and build at once: exit 130 or 143.
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
	"sync"
	"syscall"

	"github.com/tfbench/tfbench/harness/ab"
	"github.com/tfbench/tfbench/harness/compare"
	"github.com/tfbench/tfbench/harness/supervise"
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go interrupts(sigs, cancel, os.Stderr, func(code int) {
		exitMu.Lock() // held for good: the main goroutine exits no more
		supervise.KillAll()
		os.Exit(code)
	})
	code := cli(ctx, os.Args[1:], os.Stdout, os.Stderr)
	exitMu.Lock()
	os.Exit(code)
}

// exitMu decides which exit status wins when the run ends just as a second
// signal arrives: whoever locks it first exits, the other never does.
var exitMu sync.Mutex

// interruptLine is what the first SIGINT ("interrupt") or SIGTERM
// ("terminated") prints on stderr.
func interruptLine(sig os.Signal) string {
	return "tfbench: " + sig.String() + ": stopping the servers and writing the results so far (again to quit at once)"
}

// interrupts handles SIGINT and SIGTERM from sigs: the first prints
// interruptLine and calls cancel; the second calls quit with 128 + the
// signal's number (130, 143), which main makes supervise.KillAll and exit.
func interrupts(sigs <-chan os.Signal, cancel func(), stderr io.Writer, quit func(code int)) {
	first := true
	for sig := range sigs {
		if first {
			first = false
			fmt.Fprintln(stderr, interruptLine(sig))
			cancel()
			continue
		}
		code := 128 + int(syscall.SIGINT)
		if s, ok := sig.(syscall.Signal); ok {
			code = 128 + int(s)
		}
		fmt.Fprintf(stderr, "tfbench: second signal (%s): killing every server and build at once, exit status %d\n", sig, code)
		quit(code)
		return
	}
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
	{"ab", "A/B: two variants or two builds of one framework, their responses compared byte for byte, interleaved rounds, then compare (exit 1 when NEW is slower)", abCmd},
	{"bisect", "find the first commit of GOOD..BAD whose build of an adapter is slower on a test: ab steps over the commits that change it, then a profile diff (exit 2 when none is named)", bisectCmd},
	{"merge", "combine results files from several machines or CI jobs into one merged file", mergeCmd},
	{"source", "print the repository commit a results file was measured at (and whether its tree was dirty)", sourceCmd},
	{"history", "append a night's results to the nightly history file and draw the trend pages: ratio to go-stdlib and p99 per test over the nights", historyCmd},
	{"compare", "compare two results files per framework variant and test: faster, slower, same or unknown (exit 1 when slower)", compareCmd},
	{"profile", "where a CPU profile's time went (Node .cpuprofile or pprof): top functions by self time, time by area; --diff: what changed per request between two runs", profileCmd},
	{"load", "drive load at any URL, like wrk or hey, and print the summary a sample gets", loadCmd},
	{"frameworks", "list the framework adapters and their variants", frameworksCmd},
	{"agent", "serve a controller's requests on stdin/stdout: the server side of bench --server-host or --server-cmd (started by them; docs/remote.md)", agentCmd},
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
			if errors.Is(err, errNoCulprit) {
				return 2 // bisect: nothing to bisect, or no verdict
			}
			if errors.Is(err, ab.ErrDiffers) {
				return 3 // ab --require-identical: the two sides' pages differ
			}
			if verdicts[c.name] && !errors.Is(err, compare.ErrRegression) {
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

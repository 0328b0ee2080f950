// Command loadgen-compare measures tfbench's load generator (`tfbench load`)
// against wrk side by side: fixed-response servers and the generators
// pinned to separate CPUs, interleaved rounds at c=64 depth 1 and c=256
// depth 16, medians and ranges of RPS and of generator CPU seconds per
// 100,000 requests, and the tfbench/wrk ratios against issue 3's targets.
// With --memory it instead runs `tfbench load` for 60 s and reports whether
// its resident memory stayed flat. See package harness/loadgencmp for the
// method.
//
// Usage:
//
//	loadgen-compare [--tfbench PATH] [--wrk PATH] [--rounds N] [--duration D] [--warmup D]
//	loadgen-compare --memory [--tfbench PATH] [--duration D]
//
// It exits 0 whether or not the targets are met (it is a benchmark; the
// output says PASS or MISS per target), 2 for bad flags or a missing wrk, 1
// when a measurement fails. Run it through `go tool task bench:loadgen` and
// `go tool task bench:loadgen-memory`.
//
// This file only parses flags and calls harness/loadgencmp.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/tfbench/tfbench/harness/loadgencmp"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(cli(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// errUsage marks a usage error (exit status 2).
var errUsage = errors.New("usage")

// cli runs the command with args and returns its exit status.
func cli(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadgen-compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	tfbench := fs.String("tfbench", ".tfbench/bin/tfbench", "the tfbench binary whose `load` command is measured (go tool task build makes it)")
	wrk := fs.String("wrk", "wrk", "the wrk binary, a path or a name looked up in PATH")
	rounds := fs.Int("rounds", 5, "measured runs per generator, setting and server, interleaved")
	duration := fs.Duration("duration", 0, "each run's window, whole seconds (default 10s; with --memory 60s)")
	warmup := fs.Duration("warmup", 2*time.Second, "one unmeasured run of each generator per setting and server before the rounds (0s: none)")
	memory := fs.Bool("memory", false, "instead of comparing, run tfbench load for --duration at c=256 depth 16 and sample its VmRSS every second")
	serve := fs.String("serve", "", "internal: run a fixed-response server of this kind (length, chunked) until standard input closes")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: loadgen-compare [flags]   (measures tfbench load against wrk; see go doc ./cmd/loadgen-compare)")
		fs.VisitAll(func(f *flag.Flag) {
			if f.Name != "serve" {
				fmt.Fprintf(stderr, "  --%s %s\n    \t%s\n", f.Name, f.DefValue, f.Usage)
			}
		})
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "loadgen-compare: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if *serve != "" {
		if err := loadgencmp.ServeMain(*serve, int(os.Stdin.Fd()), stdout); err != nil {
			fmt.Fprintf(stderr, "loadgen-compare --serve %s: %v\n", *serve, err)
			return 1
		}
		return 0
	}

	if *duration == 0 {
		*duration = 10 * time.Second
		if *memory {
			*duration = 60 * time.Second
		}
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "loadgen-compare: own executable: %v\n", err)
		return 1
	}
	if _, err := os.Stat(*tfbench); err != nil {
		fmt.Fprintf(stderr, "loadgen-compare: tfbench binary: %v (build it with `go tool task build`)\n", err)
		return 2
	}
	gen, srv := loadgencmp.Pinning()
	cfg := loadgencmp.Config{
		Tfbench: *tfbench, Self: self, Rounds: *rounds, Duration: *duration, Warmup: *warmup,
		Generator: gen, Server: srv, Log: stderr,
	}
	if *memory {
		m, err := loadgencmp.MeasureMemory(ctx, cfg)
		if err != nil {
			fmt.Fprintf(stderr, "loadgen-compare --memory: %v\n", err)
			return 1
		}
		loadgencmp.WriteMemory(stdout, cfg, m)
		return 0
	}
	if cfg.Wrk, err = exec.LookPath(*wrk); err != nil {
		fmt.Fprintln(stderr, "wrk not found: install it with `apt-get install -y wrk` (Debian/Ubuntu)")
		return 2
	}
	cells, err := loadgencmp.Compare(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "loadgen-compare: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout)
	loadgencmp.Write(stdout, cfg, cells)
	return 0
}

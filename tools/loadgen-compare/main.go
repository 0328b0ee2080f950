// Command loadgen-compare measures tfbench's load generator against wrk side
// by side (the method: internal/loadgencmp), or with --memory
// whether its resident memory stays flat over 60 s. Exit status: 0 every
// target met (--memory: flat or not judged), 1 a target missed (a ratio,
// a failed request, or tfbench's count against a fixed-response server's:
// loadgencmp.CountRule), 2 bad flags or no wrk or tfbench, 3 a measurement
// failed or was interrupted.
//
//	loadgen-compare [--servers LIST] [--rounds N] [--duration D] [--warmup D] [--tfbench PATH] [--wrk PATH] [--frameworks-dir DIR] [--work DIR]
//	loadgen-compare --memory [--tfbench PATH] [--duration D]
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
	"strings"
	"syscall"
	"time"

	"github.com/tfbench/tfbench/tools/loadgen-compare/internal/loadgencmp"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(cli(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// Exit statuses (see the package doc).
const (
	exitMet      = 0
	exitMissed   = 1
	exitUsage    = 2
	exitMeasured = 3 // a measurement failed or was interrupted
)

// cli runs the command with args and returns its exit status.
func cli(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadgen-compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	tfbench := fs.String("tfbench", ".tfbench/bin/tfbench", "the tfbench binary whose `load` command is measured (go tool task build makes it)")
	wrk := fs.String("wrk", "wrk", "the wrk binary, a path or a name looked up in PATH")
	servers := fs.String("servers", strings.Join(loadgencmp.DefaultServers, ","), "comma-separated servers to measure: fixed-response kinds (length, chunked) and adapters (folders of --frameworks-dir)")
	frameworks := fs.String("frameworks-dir", "frameworks", "folder holding one adapter per subfolder")
	work := fs.String("work", ".tfbench", "scratch folder: dataset, runtimes and builds shared with tfbench bench; server logs under loadgen/")
	rounds := fs.Int("rounds", 5, "measured runs per generator and cell, interleaved")
	duration := fs.Duration("duration", 0, "each run's window, whole seconds (default 10s; with --memory 60s)")
	warmup := fs.Duration("warmup", 2*time.Second, "one unmeasured run of each generator per cell before the rounds (0s: none)")
	memory := fs.Bool("memory", false, "instead of comparing, run tfbench load for --duration at c=256 depth 16 and sample its resident memory every second")
	serve := fs.String("serve", "", "internal: run a fixed-response server of this kind (length, chunked) until standard input closes")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: loadgen-compare [flags]   (measures tfbench load against wrk; see go doc ./tools/loadgen-compare)")
		fs.VisitAll(func(f *flag.Flag) {
			if f.Name != "serve" {
				fmt.Fprintf(stderr, "  --%s %s\n    \t%s\n", f.Name, f.DefValue, f.Usage)
			}
		})
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitMet
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "loadgen-compare: unexpected arguments %q\n", fs.Args())
		return exitUsage
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
	gen, srv := loadgencmp.Pinning()
	cfg := loadgencmp.Config{
		Tfbench: *tfbench, Frameworks: *frameworks, WorkDir: *work,
		Rounds: *rounds, Duration: *duration, Warmup: *warmup,
		Generator: gen, Server: srv, Log: stderr,
	}
	for _, s := range strings.Split(*servers, ",") {
		if s = strings.TrimSpace(s); s != "" {
			cfg.Servers = append(cfg.Servers, s)
		}
	}
	if !*memory {
		if len(cfg.Servers) == 0 {
			fmt.Fprintln(stderr, "loadgen-compare: --servers: none given")
			return exitUsage
		}
		if err := cfg.Validate(); err != nil {
			fmt.Fprintf(stderr, "loadgen-compare: %v\n", err)
			return exitUsage
		}
	}
	if _, err := os.Stat(*tfbench); err != nil {
		fmt.Fprintf(stderr, "loadgen-compare: tfbench binary: %v (build it with `go tool task build`)\n", err)
		return exitUsage
	}
	var err error
	if cfg.Self, err = os.Executable(); err != nil {
		fmt.Fprintf(stderr, "loadgen-compare: own executable: %v\n", err)
		return exitMeasured
	}
	if *memory {
		m, err := loadgencmp.MeasureMemory(ctx, cfg)
		if err != nil {
			fmt.Fprintf(stderr, "loadgen-compare --memory: %v\n", err)
			return exitMeasured
		}
		if flat, err := loadgencmp.WriteMemory(stdout, cfg, m); err == nil && !flat {
			if _, _, judged := m.Flat(); judged {
				return exitMissed
			}
		}
		return exitMet
	}
	if cfg.Wrk, err = exec.LookPath(*wrk); err != nil {
		fmt.Fprintln(stderr, "wrk not found: install it with "+loadgencmp.WrkInstall)
		return exitUsage
	}
	cells, err := loadgencmp.Compare(ctx, cfg)
	status := exitMet
	if cells != nil {
		fmt.Fprintln(stdout)
		all, werr := loadgencmp.Write(stdout, cfg, cells)
		switch {
		case werr != nil:
			err = errors.Join(err, werr)
		case !all:
			status = exitMissed
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintf(stderr, "loadgen-compare: interrupted; the servers were stopped: %v\n", err)
		} else {
			fmt.Fprintf(stderr, "loadgen-compare: %v\n", err)
		}
		return exitMeasured
	}
	return status
}

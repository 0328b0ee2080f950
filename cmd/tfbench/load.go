package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"time"

	"github.com/tfbench/tfbench/harness/load"
	"github.com/tfbench/tfbench/harness/model"
	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/report"
	"github.com/tfbench/tfbench/harness/sweep"
	"github.com/tfbench/tfbench/harness/verify"
)

func loadCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("load", "load URL [-c N] [-d DURATION] [--warmup D] [--pipeline N] [--rate R] [--timeout D] [--engine raw|hey] [--http2] [--type TYPE [--world DB]] [--probe PATH [--probe-interval D]] [--json]", stderr)
	var conns int
	var dur time.Duration
	fs.IntVar(&conns, "c", 64, "concurrency: open connections")
	fs.IntVar(&conns, "connections", 64, "same as -c")
	fs.DurationVar(&dur, "d", 10*time.Second, "measured window")
	fs.DurationVar(&dur, "duration", 10*time.Second, "same as -d")
	warmup := fs.Duration("warmup", 0, "closed loop, engine raw: run the load this long on the window's connections first, not counted, so the window opens on a running loop")
	pipeline := fs.Int("pipeline", 1, "HTTP/1.1 pipelining depth (engine raw)")
	rate := fs.Float64("rate", 0, "constant rate in requests/s over all connections, latency corrected for coordinated omission (wrk2's method); 0 = closed loop")
	timeout := fs.Duration("timeout", 8*time.Second, "a slower response is an error of class timeout")
	engine := fs.String("engine", "", "load generator engine: raw (HTTP/1.1) or hey (HTTPS, HTTP/2); default by the URL's scheme")
	http2 := fs.Bool("http2", false, "HTTP/2 over TLS (https URLs, engine hey)")
	typ := fs.String("type", "", "test type (json, plaintext, db, queries, fortunes, updates, page): send its Accept header and check every response against its rule (engine raw; json, plaintext, fortunes: byte for byte against a response fetched and checked first)")
	world := fs.String("world", "", "SQLite database whose World table db, queries and page responses must match (without it: ids and values in range only)")
	probePath := fs.String("probe", "", "interference probe: one more connection asks this path (e.g. /plaintext) once per --probe-interval, counted apart (engine raw)")
	probeEvery := fs.Duration("probe-interval", 20*time.Millisecond, "the probe's interval")
	asJSON := fs.Bool("json", false, "print the sample as JSON instead of text")
	// Flags may come before or after the URL, as with wrk and hey.
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "tfbench load: a URL is required")
		fs.Usage()
		return errUsage
	}
	target := fs.Arg(0)
	if err := parse(fs, fs.Args()[1:]); err != nil {
		return err
	}
	o, err := load.Target(target)
	if err != nil {
		return err
	}
	o.Connections, o.Duration, o.Pipeline, o.Rate, o.Timeout, o.HTTP2 = conns, dur, *pipeline, *rate, *timeout, *http2
	o.Warmup = *warmup
	if *probePath != "" {
		o.Probe = &load.Probe{Path: *probePath, Interval: *probeEvery}
	}
	e, err := load.EngineForScheme(*engine, o.Scheme)
	if err != nil {
		return err
	}
	if *typ != "" {
		t := model.TestType(*typ)
		if !t.Valid() {
			return fmt.Errorf("--type %q: want one of json, plaintext, db, queries, fortunes, updates, page", *typ)
		}
		if t == model.Stream {
			return fmt.Errorf("--type stream: tfbench load does not time a stream page's parts; run a suite with a stream test (docs/ssr.md, The streamed page)")
		}
		o.Accept = t.Accept()
		if t == model.Page {
			o.MaxCheckBytes = 16 << 20 // pages reach 1–3 MB, over the 1 MiB default
		}
		if e.Name() == "raw" {
			ref := verify.LoadRef{Type: t}
			switch t {
			case model.JSON, model.Plaintext, model.Fortunes:
				base := o.Scheme + "://" + o.Host
				if status, body, err := verify.Fetch(ctx, base, t, o.Path, o.Timeout); err == nil && status == http.StatusOK {
					ref.Body = body // LoadChecker drops it unless it passes the full rule
				}
			case model.DB, model.Queries, model.Page:
				if *world != "" {
					if ref.World, err = verify.ReadWorld(ctx, *world); err != nil {
						return fmt.Errorf("--world: %w", err)
					}
				}
			}
			o.Check, o.DateStale = verify.LoadChecker(ref), load.DefaultDateStale
		}
	}
	genBefore, _ := probe.Self(ctx)
	res, err := e.Run(ctx, o)
	if err != nil {
		return err
	}
	genAfter, _ := probe.Self(ctx)
	s, err := sweep.FromResult(model.Key{Type: model.TestType(*typ), Connections: o.Connections, Rate: o.Rate, Pipeline: max(o.Pipeline, 1), Engine: e.Name(), Round: 1}, res)
	if err != nil {
		return err
	}
	s.GeneratorCPU = max(0, genAfter-genBefore)
	s.GeneratorSaturated = probe.Saturated(s.GeneratorCPU, s.Window, runtime.NumCPU())
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", " ")
		return enc.Encode(s)
	}
	return report.Summary(stdout, target, s)
}

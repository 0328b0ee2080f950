// Command engine-ratios prints the render engine's ratios and targets
// (issue 5) from a results.json holding engine (pool, serialized),
// go-stdlib and node-http: `go tool task bench:engine` runs it after the
// benchmark. It exits 1 when a target is missed, 2 on bad usage.
//
//	go run ./cmd/engine-ratios RESULTS.json
package main

import (
	"fmt"
	"os"

	"github.com/tfbench/tfbench/harness/ratio"
	"github.com/tfbench/tfbench/harness/results"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: engine-ratios RESULTS.json")
		os.Exit(2)
	}
	f, err := results.Read(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "engine-ratios:", err)
		os.Exit(2)
	}
	columns := []string{"engine/pool", "engine/serialized", "go-stdlib/default", "node-http/default"}
	ok, err := ratio.Write(os.Stdout, ratio.Table(f), columns, ratio.EngineTargets)
	if err != nil {
		fmt.Fprintln(os.Stderr, "engine-ratios:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/tfbench/tfbench/internal/yamlfile"
	"go.yaml.in/yaml/v3"
)

// Config is .github/pr-bench.yaml: the check's threshold and the rank
// test's settings. Shares are 0..1 (written as percentages in the file).
type Config struct {
	// FailSlower is the check's threshold: the check fails only when a row
	// is "slower" and its median fell by at least this share (0.10 = 10%).
	FailSlower float64
	// Alpha and MinChange are compare's --alpha and --min-change.
	Alpha     float64
	MinChange float64
	// Rounds is how many interleaved rounds each side gets (≥ 5,
	// compare.MinRounds); 0: the suite's.
	Rounds int
	// Adapters are the framework variants the harness mode measures.
	Adapters []string
}

// DefaultConfig is what a missing key means.
func DefaultConfig() Config {
	return Config{FailSlower: 0.10, Alpha: 0.05, MinChange: 0.05, Adapters: []string{"go-stdlib"}}
}

// LoadConfig reads path over DefaultConfig; an unknown key or a bad value
// is an error naming the file, line and key.
func LoadConfig(path string) (Config, error) {
	c := DefaultConfig()
	data, err := os.ReadFile(path)
	if err != nil {
		return c, err
	}
	f := yamlfile.File{Path: path}
	root, err := f.Decode(data, "a mapping of pr-bench settings")
	if err != nil {
		return c, err
	}
	entries, err := f.Entries(root, "")
	if err != nil {
		return c, err
	}
	for _, e := range entries {
		switch e.Path {
		case "fail_slower_than", "min_change":
			s, err := f.Str(e.Value, e.Path)
			if err != nil {
				return c, err
			}
			share, err := parseShare(s)
			if err != nil {
				return c, f.Errorf(e.Value, e.Path, "%v", err)
			}
			if e.Path == "min_change" {
				c.MinChange = share
			} else {
				c.FailSlower = share
			}
		case "alpha":
			s, err := f.Str(e.Value, e.Path)
			if err != nil {
				return c, err
			}
			a, err := strconv.ParseFloat(s, 64)
			if err != nil || !(a > 0 && a < 1) {
				return c, f.Errorf(e.Value, e.Path, "%q: want a number 0 < α < 1", s)
			}
			c.Alpha = a
		case "rounds":
			n, err := f.Int(e.Value, e.Path)
			if err != nil {
				return c, err
			}
			if n < minRounds {
				return c, f.Errorf(e.Value, e.Path, "%d: compare needs at least %d rounds per side", n, minRounds)
			}
			c.Rounds = n
		case "adapters":
			if e.Value.Kind != yaml.SequenceNode {
				return c, f.Errorf(e.Value, e.Path, "must be a list such as [go-stdlib, node-http], found %s", yamlfile.Describe(e.Value))
			}
			c.Adapters = nil
			for _, n := range e.Value.Content {
				s, err := f.Str(n, e.Path)
				if err != nil {
					return c, err
				}
				c.Adapters = append(c.Adapters, s)
			}
			if len(c.Adapters) == 0 {
				return c, f.Errorf(e.Value, e.Path, "names no adapter")
			}
		default:
			return c, f.Errorf(e.Key, e.Path, "unknown key (want fail_slower_than, alpha, min_change, rounds, adapters)")
		}
	}
	return c, nil
}

// parseShare reads a percentage ("10%", "2.5%") as a share 0 ≤ x < 1.
func parseShare(s string) (float64, error) {
	num, ok := strings.CutSuffix(strings.TrimSpace(s), "%")
	if !ok {
		return 0, fmt.Errorf("%q: write it as a percentage such as 10%%", s)
	}
	x, err := strconv.ParseFloat(num, 64)
	if err != nil || x < 0 || x >= 100 {
		return 0, fmt.Errorf("%q: want a percentage from 0%% to below 100%%", s)
	}
	return x / 100, nil
}

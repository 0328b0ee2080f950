package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestConfigErrorsStartNothing runs the CLI as a process on bad suites,
// framework selections and adapters: each must exit 1 with one stderr line
// naming file, line and key (or the unknown name), or 2 with the flag
// error for a usage error, before anything is started or written: the
// --work folder is not even created (no dataset, builds, runs/).
//
// The CLI takes no port (servers get a kernel-chosen one), so there is no
// "port in use" case: --port itself is a usage error.
func TestConfigErrorsStartNothing(t *testing.T) {
	const (
		fault = "testdata/frameworks-fault"
		bad   = "testdata/frameworks-bad"
		ok    = "testdata/suites/signal.yaml"
	)
	suiteKeys := "unknown key (want duration, responses, min_duration, warmup, warmup_responses, sample_warmup, timeout, concurrency, keep_within, pipeline, gate, min_responses, engine, rate, rate_connections, rate_rounds, probe; under defaults also rounds; in a test also name, type, path, queries, rows, parts, cache, and for coldstart starts, routes, warmup_limit)"
	cases := []struct {
		name         string
		command      string
		suite, dir   string
		extra        []string
		code         int
		want         string // the whole of stderr (exit 1), or its first line (exit 2)
		wantMultiple bool
	}{
		{"malformed YAML", "bench", "testdata/suites/malformed.yaml", fault, nil, 1,
			"tfbench bench: testdata/suites/malformed.yaml:3: malformed YAML: did not find expected ',' or ']'", false},
		{"unknown key", "bench", "testdata/suites/unknown-key.yaml", fault, nil, 1,
			`tfbench bench: testdata/suites/unknown-key.yaml:4: key "durration": ` + suiteKeys, false},
		{"unknown test type", "bench", "testdata/suites/unknown-type.yaml", fault, nil, 1,
			`tfbench bench: testdata/suites/unknown-type.yaml:3: key "type": unknown test type "jsonn" (want one of json, plaintext, db, queries, fortunes, updates, page, stream, coldstart)`, false},
		{"empty levels", "bench", "testdata/suites/empty-levels.yaml", fault, nil, 1,
			`tfbench bench: testdata/suites/empty-levels.yaml:3: key "concurrency": the list is empty: give at least one level`, false},
		{"negative level", "bench", "testdata/suites/negative-level.yaml", fault, nil, 1,
			`tfbench bench: testdata/suites/negative-level.yaml:3: key "concurrency": -4: levels must be positive`, false},
		{"negative level, verify", "verify", "testdata/suites/negative-level.yaml", fault, nil, 1,
			`tfbench verify: testdata/suites/negative-level.yaml:3: key "concurrency": -4: levels must be positive`, false},
		{"unknown framework", "bench", ok, fault, []string{"--frameworks", "nosuch"}, 1,
			`tfbench bench: no framework "nosuch" in testdata/frameworks-fault (have fault)`, false},
		{"unknown variant", "bench", ok, fault, []string{"--frameworks", "fault:nosuch"}, 1,
			`tfbench bench: framework fault: no variant "nosuch" (have: ok, stubborn, unbuilt)`, false},
		{"framework.yaml without start", "bench", ok, bad, nil, 1,
			`tfbench bench: testdata/frameworks-bad/nostart/framework.yaml:1: key "start": missing (required: the shell command that starts the server)`, false},
		{"port flag", "bench", ok, fault, []string{"--port", "8080"}, 2,
			"flag provided but not defined: -port", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			work := filepath.Join(t.TempDir(), "work")
			args := append([]string{tc.command, "--suite", tc.suite, "--frameworks-dir", tc.dir, "--work", work}, tc.extra...)
			c := startCLI(t, args...)
			code := c.wait(t, 10*time.Second)
			stderr := c.stderr.String()
			got := strings.TrimSuffix(stderr, "\n")
			if tc.wantMultiple {
				got, _, _ = strings.Cut(stderr, "\n")
			}
			if code != tc.code || got != tc.want || (!tc.wantMultiple && strings.Contains(got, "\n")) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and:\n%s", code, stderr, tc.code, tc.want)
			}
			if !tc.wantMultiple && c.stdout.Len() > 0 {
				t.Errorf("stdout (the run's log) is not empty:\n%s", c.stdout.String())
			}
			if _, err := os.Stat(work); !os.IsNotExist(err) {
				entries, _ := os.ReadDir(work)
				t.Errorf("the work folder was created (%v): %v", err, entries)
			}
			if left := owned(t, c.cmd.Process.Pid); len(left) > 0 {
				t.Errorf("processes started: %v", left)
			}
		})
	}
}

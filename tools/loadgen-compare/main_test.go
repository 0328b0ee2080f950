package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets the test binary serve as its own fixed-response server
// (Compare runs Self --serve KIND), as the command does.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == "--serve" {
		os.Exit(cli(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// script writes an executable shell script body to dir/name.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// The exit status of a whole comparison on the Content-Length server with
// stand-in generators (no wrk needed): a missed target exits 1 after the
// report, a generator that fails exits 3 with its error.
func TestExitStatus(t *testing.T) {
	dir := t.TempDir()
	wrkOut, err := filepath.Abs(filepath.Join("internal", "loadgencmp", "testdata", "wrk-depth1.txt"))
	if err != nil {
		t.Fatal(err)
	}
	wrk := script(t, dir, "wrk", "cat "+wrkOut)
	slow := script(t, dir, "tfbench-slow", `echo '{"rps": 100, "responses": 100}'`)
	broken := script(t, dir, "tfbench-broken", "echo 'cannot connect' >&2; exit 1")
	base := []string{"--servers", "length", "--rounds", "1", "--duration", "1s", "--warmup", "0s", "--wrk", wrk}

	var stdout, stderr bytes.Buffer
	code := cli(context.Background(), append(base, "--tfbench", slow), &stdout, &stderr)
	if code != 1 || !strings.Contains(stdout.String(), "\ntargets: MISS (0 of 2 cells pass;") {
		t.Errorf("missed targets: exit %d, stdout\n%s\nstderr\n%s", code, stdout.String(), stderr.String())
	}
	// The stand-ins send nothing: the server wrote 0 responses, which both
	// counts exceed, read from the server's side.
	for _, want := range []string{
		"\n  length c=64 depth 1: tfbench round 1: counted 100 responses, 100 more than the server wrote (0)\n",
		"\n  length c=256 depth 16: wrk round 1: counted 59,194 responses, 59,194 more than the server wrote (0)\n",
		", count rule broken in 2)\n",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout\n%s\nholds no %q", stdout.String(), want)
		}
	}
	stdout.Reset()
	stderr.Reset()
	code = cli(context.Background(), append(base, "--tfbench", broken), &stdout, &stderr)
	if want := "loadgen-compare: round 1, length c=64 depth 1: " + broken + " load http://"; code != 3 || stdout.Len() != 0 ||
		!strings.Contains(stderr.String(), want) || !strings.HasSuffix(stderr.String(), ": exit status 1: cannot connect\n") {
		t.Errorf("failed generator: exit %d, stdout %q, stderr\n%s\nwant it to hold %q", code, stdout.String(), stderr.String(), want)
	}
}

// Bad flags, servers and missing binaries exit 2 with one line saying
// what is wrong, before anything starts.
func TestUsageErrors(t *testing.T) {
	self, err := os.Executable() // any existing file passes as the tfbench binary
	if err != nil {
		t.Fatal(err)
	}
	fw := filepath.Join("..", "..", "frameworks")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--rounds", "0", "--frameworks-dir", fw}, "loadgen-compare: rounds is 0, want >= 1\n"},
		{[]string{"--duration", "1500ms", "--servers", "length"}, "loadgen-compare: duration is 1.5s, want whole seconds >= 1s (wrk's -d unit)\n"},
		{[]string{"--servers", " , "}, "loadgen-compare: --servers: none given\n"},
		{[]string{"--servers", "length,nginx", "--frameworks-dir", filepath.Join("internal", "loadgencmp", "testdata", "frameworks")},
			"loadgen-compare: unknown server \"nginx\": not a fixed-response server (length, chunked) nor an adapter in internal/loadgencmp/testdata/frameworks (tiny)\n"},
		{[]string{"--servers", "node-http,length,node-http", "--frameworks-dir", fw}, "loadgen-compare: server \"node-http\" is given twice\n"},
		{[]string{"--servers", "go-stdlib"}, "loadgen-compare: framework: discover: stat frameworks: no such file or directory\n"},
		{[]string{"--servers", "length", "--tfbench", "no-such-tfbench"},
			"loadgen-compare: tfbench binary: stat no-such-tfbench: no such file or directory (build it with `go tool task build`)\n"},
		{[]string{"--servers", "length", "--tfbench", self, "--wrk", "no-such-wrk"}, wantNoWrk},
		{[]string{"--servers", "length", "extra"}, "loadgen-compare: unexpected arguments [\"extra\"]\n"},
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		if code := cli(context.Background(), c.args, &stdout, &stderr); code != 2 || stderr.String() != c.want || stdout.Len() != 0 {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want 2, %q", c.args, code, stderr.String(), stdout.String(), c.want)
		}
	}

	var stdout, stderr bytes.Buffer
	if code := cli(context.Background(), []string{"--no-such-flag"}, &stdout, &stderr); code != 2 ||
		!strings.HasPrefix(stderr.String(), "flag provided but not defined: -no-such-flag\nUsage: loadgen-compare [flags]") {
		t.Errorf("unknown flag: exit %d, stderr %q", code, stderr.String())
	}
	stderr.Reset()
	if code := cli(context.Background(), []string{"--help"}, &stdout, &stderr); code != 0 ||
		!strings.Contains(stderr.String(), "  --servers length,chunked,go-stdlib,node-http\n") || strings.Contains(stderr.String(), "--serve ") {
		t.Errorf("--help: exit %d, stderr %q", code, stderr.String())
	}
}

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfbench/tfbench/internal/golden"
)

// machineFree replaces what could differ between machines (the working
// folder, the home folder) with placeholders, so the goldens hold only
// what the CLI itself says.
func machineFree(s string) string {
	if wd, err := os.Getwd(); err == nil && wd != "/" {
		s = strings.ReplaceAll(s, wd, "$PWD")
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" && home != "/" {
		s = strings.ReplaceAll(s, home, "$HOME")
	}
	return s
}

// TestHelpGolden pins what `tfbench help` (the command list, on stdout)
// and `tfbench CMD --help` for every command in commands (the synopsis and
// flags with their defaults, on stderr) print: testdata/help/CMD.golden.
func TestHelpGolden(t *testing.T) {
	type helpCase struct{ name, file, stream string }
	cases := []helpCase{{"help", "help.golden", "stdout"}}
	for _, c := range commands {
		cases = append(cases, helpCase{c.name, c.name + ".golden", "stderr"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := []string{c.name, "--help"}
			if c.name == "help" {
				args = []string{"help"}
			}
			var stdout, stderr bytes.Buffer
			if code := cli(context.Background(), args, &stdout, &stderr); code != 0 {
				t.Errorf("tfbench %s: exit status %d, want 0", strings.Join(args, " "), code)
			}
			got, other := stderr.String(), stdout.String()
			if c.stream == "stdout" {
				got, other = other, got
			}
			if other != "" {
				t.Errorf("tfbench %s: the help belongs on %s alone, the other stream has:\n%s", strings.Join(args, " "), c.stream, other)
			}
			golden.Check(t, filepath.Join("help", c.file), machineFree(got))
		})
	}
}

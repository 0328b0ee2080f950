package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// processesUnder lists the live processes whose executable lies under dir
// or whose command line mentions it.
func processesUnder(dir string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		cmd, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || len(cmd) == 0 {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if i := bytes.LastIndexByte(stat, ')'); i > 0 && len(stat) > i+2 && stat[i+2] == 'Z' {
			continue // a zombie holds nothing
		}
		exe, _ := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if strings.Contains(string(cmd), dir) || strings.HasPrefix(exe, dir) {
			out = append(out, e.Name()+": "+strings.ReplaceAll(string(cmd), "\x00", " "))
		}
	}
	return out
}

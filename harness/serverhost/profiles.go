package serverhost

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/tfbench/tfbench/harness/supervise"
)

// nodeProfileRE matches the name Node gives a --cpu-prof profile:
// CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile.
var nodeProfileRE = regexp.MustCompile(`^CPU\.\d+\.\d+\.(\d+)\.(\d+)\.(\d+)\.cpuprofile$`)

// CollectProfiles moves the non-empty profiles a server wrote into dir to
// dest as TEST.pprof (Go), TEST.cpuprofile (one Node profile) or
// TEST.PID[.THREAD][.SEQ].cpuprofile, and returns the new paths in name order.
func CollectProfiles(dir, dest, test string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	moves := map[string]string{} // from → to
	var nodes []string
	for _, e := range entries {
		if info, err := e.Info(); err != nil || !info.Mode().IsRegular() || info.Size() == 0 {
			continue
		}
		switch name := e.Name(); {
		case name == supervise.CPUProfileName:
			moves[name] = test + ".pprof"
		case strings.HasSuffix(name, ".cpuprofile"):
			nodes = append(nodes, name)
		}
	}
	for _, name := range nodes {
		to := test + ".cpuprofile"
		if len(nodes) > 1 {
			to = test + "." + strings.TrimSuffix(name, ".cpuprofile") + ".cpuprofile"
			if m := nodeProfileRE.FindStringSubmatch(name); m != nil {
				to = test + "." + m[1]
				if m[2] != "0" {
					to += "." + m[2]
				}
				if m[3] != "001" {
					to += "." + strings.TrimLeft(m[3], "0")
				}
				to += ".cpuprofile"
			}
		}
		moves[name] = to
	}
	var out []string
	for from, to := range moves {
		target := filepath.Join(dest, to)
		if err := os.Rename(filepath.Join(dir, from), target); err != nil {
			return out, err
		}
		out = append(out, target)
	}
	slices.Sort(out)
	return out, nil
}

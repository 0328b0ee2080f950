package probe

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tfbench/tfbench/internal/cpuset"
)

// CPU is one pinned CPU as sysfs describes it (Linux): its SMT
// siblings (the logical CPUs of its core, itself included, as
// thread_siblings_list writes them: "0-1", "0,4") and its frequency governor;
// empty where unreadable (many VMs expose no cpufreq).
type CPU struct {
	ID       int    `json:"id"`
	Role     string `json:"role"` // "generator" or "server"
	Siblings string `json:"smt_siblings,omitempty"`
	Governor string `json:"governor,omitempty"`
}

// Topology is what a run records of its pinned CPUs: each CPU, the boost
// state ("on", "off"; "" unreadable) and whether a generator CPU and a
// server CPU are SMT siblings of one core, in which case a figure is per SMT
// thread, not per core.
type Topology struct {
	CPUs        []CPU
	Boost       string
	SharedCores bool
}

// topologyAt reads the facts of the generator's and the servers' CPUs from the
// sysfs tree at root ("/sys" on Linux).
func topologyAt(root string, generator, server cpuset.Set) Topology {
	var t Topology
	read := func(rel string) string {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(b))
	}
	cpuDir := func(id int) string { return filepath.Join("devices/system/cpu", "cpu"+strconv.Itoa(id)) }
	siblings := map[int]cpuset.Set{}
	for _, g := range []struct {
		role string
		set  cpuset.Set
	}{{"generator", generator}, {"server", server}} {
		for _, id := range g.set {
			c := CPU{ID: id, Role: g.role,
				Siblings: read(filepath.Join(cpuDir(id), "topology/thread_siblings_list")),
				Governor: read(filepath.Join(cpuDir(id), "cpufreq/scaling_governor"))}
			if s, err := cpuset.Parse(c.Siblings); err == nil && c.Siblings != "" {
				siblings[id] = s
			}
			t.CPUs = append(t.CPUs, c)
		}
	}
	for _, g := range generator {
		for _, s := range server {
			if g != s && siblings[g].Contains(s) {
				t.SharedCores = true
			}
		}
	}
	switch {
	case read("devices/system/cpu/cpufreq/boost") == "1":
		t.Boost = "on"
	case read("devices/system/cpu/cpufreq/boost") == "0":
		t.Boost = "off"
	case read("devices/system/cpu/intel_pstate/no_turbo") == "0":
		t.Boost = "on"
	case read("devices/system/cpu/intel_pstate/no_turbo") == "1":
		t.Boost = "off"
	}
	return t
}

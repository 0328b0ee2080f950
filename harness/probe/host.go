// Package probe reads host facts and samples the CPU time (seconds, user +
// system) and memory (bytes) of a server's process tree and of the load
// generator itself, through gopsutil.
package probe

import (
	"context"
	"os"
	"runtime"

	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/host"
	"github.com/shirou/gopsutil/v4/mem"
)

// Host describes the machine a run measured on. A fact gopsutil could not
// read is left empty.
type Host struct {
	Hostname    string `json:"hostname"`
	CPUModel    string `json:"cpu_model"`
	LogicalCPUs int    `json:"logical_cpus"`
	MemoryBytes uint64 `json:"memory_bytes"`
	OS          string `json:"os"`      // e.g. "debian 12.8"
	Kernel      string `json:"kernel"`  // kernel version
	Arch        string `json:"arch"`    // e.g. "x86_64"
	Virtual     string `json:"virtual"` // virtualization system and role, if any
	GoVersion   string `json:"go"`      // the harness's Go version
	// Runner is the CI runner's label: $TFBENCH_RUNNER, else GitHub's
	// $ImageOS ("ubuntu24"); empty outside CI. Runs on different runner
	// labels never compare (harness/compare).
	Runner string `json:"runner,omitempty"`
	// GeneratorCPUs and ServerCPUs are the CPU sets ("0", "1-3") the
	// generator and servers were pinned to, empty without CPU affinity
	// (macOS, Pinned); Disjoint is false when too few CPUs kept them apart.
	GeneratorCPUs string `json:"generator_cpus"`
	ServerCPUs    string `json:"server_cpus"`
	Disjoint      bool   `json:"disjoint"`
	// CPUs are the pinned CPUs' SMT siblings and governors, Boost the boost
	// state ("on", "off"; empty: unreadable) and SharedCores whether a generator
	// CPU and a server CPU share a core (ReadTopology; Linux only).
	CPUs        []CPU  `json:"cpus,omitempty"`
	Boost       string `json:"boost,omitempty"`
	SharedCores bool   `json:"shared_cores,omitempty"`
}

// NotPinned is what a run and its report say of a host without CPU
// affinity (macOS): nothing keeps the generator and server apart.
const NotPinned = "not pinned: generator and server share the machine's cores"

// Pinned reports whether the generator and the servers were pinned to CPU
// sets at all (false: no affinity on the host's OS).
func (h Host) Pinned() bool { return h.GeneratorCPUs != "" || h.ServerCPUs != "" }

// HostInfo reads the host facts. It never fails: unreadable facts stay
// empty.
func HostInfo(ctx context.Context) Host {
	h := Host{GoVersion: runtime.Version(), LogicalCPUs: runtime.NumCPU(), Runner: RunnerLabel()}
	if hi, err := host.InfoWithContext(ctx); err == nil {
		h.Hostname = hi.Hostname
		h.OS = joinNonEmpty(hi.Platform, hi.PlatformVersion)
		if h.OS == "" {
			h.OS = hi.OS
		}
		h.Kernel = hi.KernelVersion
		h.Arch = hi.KernelArch
		h.Virtual = joinNonEmpty(hi.VirtualizationSystem, hi.VirtualizationRole)
	}
	if ci, err := cpu.InfoWithContext(ctx); err == nil && len(ci) > 0 {
		h.CPUModel = ci[0].ModelName
	}
	if n, err := cpu.CountsWithContext(ctx, true); err == nil && n > 0 {
		h.LogicalCPUs = n
	}
	if vm, err := mem.VirtualMemoryWithContext(ctx); err == nil {
		h.MemoryBytes = vm.Total
	}
	return h
}

// RunnerLabel is the CI runner's label a run records: $TFBENCH_RUNNER (a
// workflow sets it to its runs-on label), else $ImageOS (GitHub-hosted
// runners' image, "ubuntu24"), else "".
func RunnerLabel() string {
	if r := os.Getenv("TFBENCH_RUNNER"); r != "" {
		return r
	}
	return os.Getenv("ImageOS")
}

func joinNonEmpty(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " " + b
}

package compare

import (
	"testing"

	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/results"
)

// Two runs' provenance: each fact that differs is named with both values;
// equal files, or a missing side, give nothing.
func TestProvenanceDiff(t *testing.T) {
	base := &results.File{Tfbench: "aaaa", Source: &results.Source{Commit: "1111111111111111"},
		Host: probe.Host{GoVersion: "go1.26.8", OS: "debian 12", Kernel: "6.1.0", Virtual: "kvm guest",
			CPUs: []probe.CPU{{ID: 0, Role: "generator", Siblings: "0"}, {ID: 1, Role: "server", Siblings: "1"}}}}
	same := *base
	if d := provenanceDiff(base, &same); d != "" {
		t.Errorf("same provenance: %q, want none", d)
	}
	if d := provenanceDiff(base, nil); d != "" {
		t.Errorf("one side missing: %q, want none", d)
	}
	next := *base
	next.Source = &results.Source{Commit: "2222222222222222", Dirty: true, DiffSHA256: "abcdefabcdefabcdef"}
	next.Host.Kernel, next.Host.Boost, next.Host.SharedCores = "6.18.0", "on", true
	want := `commit "111111111111" vs "222222222222 +dirty abcdefabcdef"; kernel "6.1.0" vs "6.18.0"; ` +
		`cpus "CPU 0 (generator) siblings 0, CPU 1 (server) siblings 1" vs "CPU 0 (generator) siblings 0, CPU 1 (server) siblings 1, shared cores"; boost "" vs "on"`
	if d := provenanceDiff(base, &next); d != want {
		t.Errorf("differing provenance:\n got %s\nwant %s", d, want)
	}
}

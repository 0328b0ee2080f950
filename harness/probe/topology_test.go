package probe

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tfbench/tfbench/internal/cpuset"
)

// testdata/sys is a 4-thread, 2-core machine: CPUs 0 and 2 share a core, 1
// and 3 the other; governors on CPUs 0 and 1 only; boost on.
func TestTopologyAt(t *testing.T) {
	root := filepath.Join("testdata", "sys")
	got := topologyAt(root, cpuset.Set{0}, cpuset.Set{1})
	want := Topology{CPUs: []CPU{
		{ID: 0, Role: "generator", Siblings: "0,2", Governor: "performance"},
		{ID: 1, Role: "server", Siblings: "1,3", Governor: "powersave"},
	}, Boost: "on"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("generator 0, server 1:\ngot  %+v\nwant %+v", got, want)
	}
	// Generator and server on the two threads of one core: per SMT thread.
	got = topologyAt(root, cpuset.Set{0}, cpuset.Set{2, 3})
	if !got.SharedCores || len(got.CPUs) != 3 || got.CPUs[1] != (CPU{ID: 2, Role: "server", Siblings: "0,2"}) {
		t.Errorf("generator 0, servers 2-3: %+v, want shared cores and CPU 2 without a governor", got)
	}
	// Nothing readable: facts empty, no shared core claimed.
	got = topologyAt(filepath.Join("testdata", "none"), cpuset.Set{0}, cpuset.Set{1})
	if got.Boost != "" || got.SharedCores || got.CPUs[0] != (CPU{ID: 0, Role: "generator"}) {
		t.Errorf("no sysfs: %+v, want CPU ids and roles only", got)
	}
}

package cpuset

import (
	"os/exec"
	"testing"
)

// On darwin nothing is pinned: Online is nil, Split of it two empty Sets
// that are not disjoint, the empty Set starts and pins as "no pinning" and
// any other Set is the one error.
func TestDarwinNoAffinity(t *testing.T) {
	if on := Online(); on != nil {
		t.Errorf("Online() = %v, want nil", on)
	}
	g, s := Split(Online())
	if g != nil || s != nil || Disjoint(g, s) {
		t.Errorf("Split(Online()) = %v, %v (disjoint %v); want two empty sets, not disjoint", g, s, Disjoint(g, s))
	}
	if err := PinProcess(nil); err != nil {
		t.Errorf("PinProcess(nil) = %v, want nil", err)
	}
	cmd := exec.Command("true")
	if err := StartIn(nil, cmd); err != nil {
		t.Fatalf("StartIn(nil) = %v", err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("true: %v", err)
	}
	const want = "cpuset: CPU affinity is not available on darwin"
	if err := PinProcess(Set{0}); err == nil || err.Error() != want {
		t.Errorf("PinProcess({0}) = %v, want %q", err, want)
	}
	cmd = exec.Command("true")
	if err := StartIn(Set{0}, cmd); err == nil || err.Error() != want {
		t.Errorf("StartIn({0}) = %v, want %q", err, want)
	}
	if cmd.Process != nil {
		t.Error("StartIn({0}) started the command")
	}
}

//go:build darwin

package cpuset

import (
	"errors"
	"os/exec"
)

// errNoAffinity is the error for a non-empty Set on darwin: the kernel has
// no CPU affinity (thread_policy_set affinity tags are hints that Apple
// silicon ignores, and they do not pin).
var errNoAffinity = errors.New("cpuset: CPU affinity is not available on darwin")

// Online is nil on darwin: there is no affinity mask to read, so Split
// gives two empty Sets and nothing is pinned (Disjoint reports false).
func Online() Set { return nil }

// PinProcess accepts only the empty Set on darwin, as "no pinning", and
// does nothing; a non-empty s is errNoAffinity. (On Linux an empty s is an
// error; here empty is the only Set Online and Split can produce.)
func PinProcess(s Set) error {
	if len(s) != 0 {
		return errNoAffinity
	}
	return nil
}

// StartIn starts cmd (cmd.Start, not Wait) without pinning when s is
// empty; a non-empty s is errNoAffinity and cmd is not started.
func StartIn(s Set, cmd *exec.Cmd) error {
	if len(s) != 0 {
		return errNoAffinity
	}
	return cmd.Start()
}

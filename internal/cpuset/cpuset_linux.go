//go:build linux

package cpuset

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// maxCPU must match the size of unix.CPUSet (compile-time check).
var _ [len(unix.CPUSet{})*64 - maxCPU]struct{}
var _ [maxCPU - len(unix.CPUSet{})*64]struct{}

// mask converts s to the kernel's bitmask. Ids outside 0..1023 are an error.
func (s Set) mask() (*unix.CPUSet, error) {
	var m unix.CPUSet
	for _, c := range s {
		if c < 0 || c >= maxCPU {
			return nil, fmt.Errorf("cpuset %v: CPU id %d outside 0..%d", s, c, maxCPU-1)
		}
		m.Set(c)
	}
	return &m, nil
}

func fromMask(m *unix.CPUSet) Set {
	var s Set
	for c := 0; c < maxCPU; c++ {
		if m.IsSet(c) {
			s = append(s, c)
		}
	}
	return s
}

// Online returns the CPUs this process may run on (its main thread's
// affinity: taskset, cgroups, containers), nil if the kernel refuses; call
// it before PinProcess narrows that mask.
func Online() Set {
	var m unix.CPUSet
	if err := unix.SchedGetaffinity(os.Getpid(), &m); err != nil {
		return nil
	}
	return fromMask(&m)
}

// PinProcess sets the affinity of every thread of this process, the load
// generator, to s (later threads inherit it), re-reading /proc/self/task
// until no thread is new. An empty s is an error.
func PinProcess(s Set) error {
	if len(s) == 0 {
		return errors.New("cpuset: PinProcess: empty CPU set")
	}
	m, err := s.mask()
	if err != nil {
		return err
	}
	done := map[int]bool{}
	for {
		entries, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return fmt.Errorf("cpuset: PinProcess: %w", err)
		}
		fresh := 0
		for _, e := range entries {
			tid, err := strconv.Atoi(e.Name())
			if err != nil || done[tid] {
				continue
			}
			fresh++
			done[tid] = true
			if err := unix.SchedSetaffinity(tid, m); err != nil && !errors.Is(err, syscall.ESRCH) {
				return fmt.Errorf("cpuset: pin thread %d to CPUs %s: %w", tid, s, err)
			}
		}
		if fresh == 0 {
			return nil
		}
	}
}

// StartIn starts cmd (not Wait) on the CPUs in s from its first instruction,
// descendants included, forking from a locked OS thread narrowed to s and
// then restored; an empty s starts cmd unpinned.
func StartIn(s Set, cmd *exec.Cmd) error {
	if len(s) == 0 {
		return cmd.Start()
	}
	m, err := s.mask()
	if err != nil {
		return err
	}
	runtime.LockOSThread()
	var saved unix.CPUSet
	if err := unix.SchedGetaffinity(0, &saved); err != nil {
		runtime.UnlockOSThread()
		return fmt.Errorf("cpuset: read this thread's CPU mask: %w", err)
	}
	if err := unix.SchedSetaffinity(0, m); err != nil {
		runtime.UnlockOSThread()
		return fmt.Errorf("cpuset: set CPUs %s to start %s: %w", s, cmd.Path, err)
	}
	startErr := cmd.Start()
	if err := unix.SchedSetaffinity(0, &saved); err != nil {
		// Leave the thread locked: see the doc comment.
		return errors.Join(startErr, fmt.Errorf("cpuset: restore CPU mask %s after starting %s: %w", fromMask(&saved), cmd.Path, err))
	}
	runtime.UnlockOSThread()
	return startErr
}

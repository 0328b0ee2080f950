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

// Online returns the CPUs this process may run on: the affinity mask of the
// process's main thread (sched_getaffinity(getpid)), which honours taskset,
// cgroup cpusets and container limits. Call it before PinProcess, which
// narrows that mask. It returns nil only if the kernel refuses the call.
func Online() Set {
	var m unix.CPUSet
	if err := unix.SchedGetaffinity(os.Getpid(), &m); err != nil {
		return nil
	}
	return fromMask(&m)
}

// PinProcess sets the affinity of every thread of the current process (each
// entry of /proc/self/task) to s, so the harness, which is the load
// generator, runs only on s. Threads created later inherit the mask of the
// thread that creates them, so they stay on s too. The task list is re-read
// until a pass finds no thread it has not pinned, which covers threads the
// Go runtime starts meanwhile; a thread that exits mid-way is skipped. An
// empty s is an error (it would mean "no CPU").
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

// StartIn starts cmd (cmd.Start, not Wait) so that the child runs on the
// CPUs in s from its first instruction, and so do all its descendants.
//
// Linux gives a new process the affinity mask of the thread that forked it,
// and Go forks (clone) on the thread that runs the calling goroutine. So
// StartIn locks the goroutine to its OS thread, saves that thread's mask,
// narrows it to s, calls cmd.Start, and restores the saved mask before
// unlocking. No other goroutine runs on the thread meanwhile, and the rest
// of the process keeps its own affinity. This avoids pinning the child
// after it started (taskset -p), which would leave its first threads and
// children on the wrong CPUs.
//
// An empty s starts cmd without pinning. Errors: s holds an invalid id, the
// kernel refuses the mask (e.g. CPUs outside this cgroup), cmd.Start's own
// error. If restoring the mask fails (not expected: it was valid a moment
// before) the thread stays locked to the calling goroutine, so that no
// other goroutine ever runs on the mis-pinned thread; it ends with the
// goroutine.
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

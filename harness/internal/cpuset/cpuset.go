// Package cpuset pins the load generator and the server under test to
// disjoint sets of CPUs (DESIGN.md, Measurement method: "The server and the
// generator run on disjoint CPU sets (sched_setaffinity, inherited by
// children)"). Linux only.
package cpuset

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// maxCPU is one more than the highest CPU id a Set may hold: the size of the
// kernel's fixed cpu_set_t (1024 CPUs) that unix.CPUSet mirrors.
const maxCPU = len(unix.CPUSet{}) * 64

// Set is a set of CPU ids (as in /proc/cpuinfo and taskset), sorted
// ascending without duplicates when it comes from Parse, Online or Split.
// An empty Set means "no pinning".
type Set []int

// Parse reads a CPU list in the kernel's list format (as in
// Cpus_allowed_list and taskset -c): comma-separated ids and inclusive
// ranges, e.g. "0,2-3" = {0, 2, 3}. Spaces around items are ignored; an
// empty string is the empty Set. The result is sorted and de-duplicated.
// Errors name the offending item: not a number, a negative id, a range
// whose end is below its start, an id of 1024 or more.
func Parse(s string) (Set, error) {
	var out Set
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		lo, hi, isRange := strings.Cut(item, "-")
		a, err := parseID(lo)
		if err != nil {
			return nil, fmt.Errorf("cpu list %q: item %q: %w", s, item, err)
		}
		b := a
		if isRange {
			if b, err = parseID(hi); err != nil {
				return nil, fmt.Errorf("cpu list %q: item %q: %w", s, item, err)
			}
			if b < a {
				return nil, fmt.Errorf("cpu list %q: item %q: range end below its start", s, item)
			}
		}
		for c := a; c <= b; c++ {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

func parseID(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("not a CPU id")
	}
	if n < 0 || n >= maxCPU {
		return 0, fmt.Errorf("CPU id %d outside 0..%d", n, maxCPU-1)
	}
	return n, nil
}

// String formats s in the list format Parse reads, with runs of consecutive
// ids as ranges: {0, 2, 3} is "0,2-3"; the empty Set is "". s should be
// sorted (as Parse, Online and Split return it).
func (s Set) String() string {
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j+1 < len(s) && s[j+1] == s[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(s[i]))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(s[j]))
		}
		i = j + 1
	}
	return b.String()
}

// Contains reports whether CPU c is in s.
func (s Set) Contains(c int) bool { return slices.Contains(s, c) }

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

// Split divides the available CPUs between the load generator and the
// server (DESIGN.md, Measurement method). With two CPUs the generator gets
// the first and the server the second, so reports compare frameworks per
// core. With more, the generator gets the first half rounded down (at least
// one CPU) and the server the rest: 3 CPUs split 1+2, 4 split 2+2. With one
// CPU both get that same CPU and the sets are not disjoint (see Disjoint;
// results must record it). An empty all gives two empty Sets (no pinning).
func Split(all Set) (generator, server Set) {
	all = slices.Clone(all)
	slices.Sort(all)
	all = slices.Compact(all)
	switch len(all) {
	case 0:
		return nil, nil
	case 1:
		return Set{all[0]}, Set{all[0]}
	}
	n := max(len(all)/2, 1)
	return all[:n:n], all[n:]
}

// Disjoint reports whether a and b share no CPU. Two empty sets (no
// pinning) are not disjoint: nothing keeps the two processes apart.
func Disjoint(a, b Set) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	for _, c := range a {
		if b.Contains(c) {
			return false
		}
	}
	return true
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

// Package cpuset pins the load generator and the server under test to
// disjoint sets of CPUs (docs/design.md, Measurement method). Pinning is
// Linux's; darwin has no CPU affinity, so there Online is nil and only the
// empty Set (no pinning) is accepted. Other systems do not build.
package cpuset

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// maxCPU is one more than the highest CPU id a Set may hold: the size of
// Linux's fixed cpu_set_t (1024 CPUs) that unix.CPUSet mirrors; the same
// bound on every system, so Parse accepts the same lists everywhere.
const maxCPU = 1024

// Set is a set of CPU ids (as in /proc/cpuinfo and taskset), sorted
// ascending without duplicates when it comes from Parse, Online or Split.
// An empty Set means "no pinning".
type Set []int

// Parse reads a CPU list in the kernel's list format (taskset -c): ids and
// inclusive ranges, "0,2-3" = {0, 2, 3}; "" is the empty Set. The result is
// sorted and de-duplicated; errors name the offending item.
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

// Usable is how many CPUs a process placed on s may run on: len(s), or
// every logical CPU when s is empty (no pinning, as on macOS).
func (s Set) Usable() int {
	if len(s) == 0 {
		return runtime.NumCPU()
	}
	return len(s)
}

// Contains reports whether CPU c is in s.
func (s Set) Contains(c int) bool { return slices.Contains(s, c) }

// Split divides all between the load generator (the first half, rounded
// down, at least one) and the server (docs/design.md, Measurement method);
// one CPU goes to both (not Disjoint), and an empty all gives two empty Sets.
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

package cpuset

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestOnline(t *testing.T) {
	on := Online()
	if len(on) == 0 {
		t.Fatal("Online() is empty")
	}
	// runtime.NumCPU is the affinity mask's size at start-up.
	if len(on) != runtime.NumCPU() {
		t.Errorf("Online() = %v (%d CPUs), runtime.NumCPU() = %d", on, len(on), runtime.NumCPU())
	}
	if want := statusList(t, "/proc/self/status"); on.String() != want {
		t.Errorf("Online() = %q, /proc/self/status Cpus_allowed_list %q", on, want)
	}
}

// statusList returns the Cpus_allowed_list value of a /proc status file,
// parsed and re-formatted.
func statusList(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return cpusAllowed(t, b)
}

func cpusAllowed(t *testing.T, status []byte) string {
	t.Helper()
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			s, err := Parse(strings.TrimSpace(v))
			if err != nil {
				t.Fatal(err)
			}
			return s.String()
		}
	}
	t.Fatalf("no Cpus_allowed_list in %q", status)
	return ""
}

func threadMask(t *testing.T) Set {
	t.Helper()
	var m unix.CPUSet
	if err := unix.SchedGetaffinity(0, &m); err != nil {
		t.Fatal(err)
	}
	return fromMask(&m)
}

func TestStartIn(t *testing.T) {
	on := Online()
	target := Set{on[len(on)-1]} // the last CPU: not the whole set when there are two or more

	// Lock here so that StartIn (which nests the lock) runs on this thread,
	// and the mask read afterwards is the mask StartIn changed and restored.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before := threadMask(t)

	var out bytes.Buffer
	cmd := exec.Command("/bin/sh", "-c", "cat /proc/self/status; sh -c 'cat /proc/self/status'")
	cmd.Stdout = &out
	if err := StartIn(target, cmd); err != nil {
		t.Fatal(err)
	}
	if after := threadMask(t); !slices.Equal(after, before) {
		t.Errorf("caller's thread mask after StartIn = %v, was %v", after, before)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	// Two status files: the child's `cat` and a grandchild's `cat`.
	if n := strings.Count(out.String(), "Cpus_allowed_list:"); n != 2 {
		t.Fatalf("want 2 status files, got %d: %q", n, out.String())
	}
	for _, p := range strings.Split(out.String(), "Name:")[1:] {
		if got := cpusAllowed(t, []byte(p)); got != target.String() {
			t.Errorf("child Cpus_allowed_list = %q, want %q", got, target)
		}
	}
}

func TestStartInLongRunning(t *testing.T) {
	on := Online()
	target := Set{on[0]}
	cmd := exec.Command("sleep", "5")
	if err := StartIn(target, cmd); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	got := statusList(t, filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "status"))
	if got != target.String() {
		t.Errorf("sleep Cpus_allowed_list = %q, want %q", got, target)
	}
}

func TestStartInEmptyAndInvalid(t *testing.T) {
	cmd := exec.Command("/bin/sh", "-c", "cat /proc/self/status")
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := StartIn(nil, cmd); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if got, want := cpusAllowed(t, out.Bytes()), statusList(t, "/proc/self/status"); got != want {
		t.Errorf("unpinned child Cpus_allowed_list = %q, want the parent's %q", got, want)
	}
	if err := StartIn(Set{2000}, exec.Command("true")); err == nil || !strings.Contains(err.Error(), "CPU id 2000") {
		t.Errorf("StartIn(Set{2000}) error = %v, want one naming CPU id 2000", err)
	}
}

func TestPinProcess(t *testing.T) {
	orig := Online()
	defer func() {
		if err := PinProcess(orig); err != nil {
			t.Errorf("restore: %v", err)
		}
	}()
	target := Set{orig[0]}
	if err := PinProcess(target); err != nil {
		t.Fatal(err)
	}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) < 2 {
		t.Fatalf("only %d threads; the test needs the Go runtime's several", len(tasks))
	}
	for _, e := range tasks {
		b, err := os.ReadFile(filepath.Join("/proc/self/task", e.Name(), "status"))
		if err != nil {
			continue // thread exited
		}
		if got := cpusAllowed(t, b); got != target.String() {
			t.Errorf("thread %s Cpus_allowed_list = %q, want %q", e.Name(), got, target)
		}
	}
	if err := PinProcess(nil); err == nil {
		t.Error("PinProcess(nil): no error")
	}
}

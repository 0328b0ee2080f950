package probe

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"
)

func TestHostInfo(t *testing.T) {
	h := HostInfo(context.Background())
	if h.GoVersion != runtime.Version() || h.LogicalCPUs < 1 || h.MemoryBytes == 0 || h.Kernel == "" {
		t.Errorf("host %+v", h)
	}
}

// TestTreeCountsChildrenCPU burns CPU in a grandchild and checks that the
// tree reading sees it.
func TestTreeCountsChildrenCPU(t *testing.T) {
	cmd := exec.Command("sh", "-c", `sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; sleep 30' & wait`)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	deadline := time.Now().Add(20 * time.Second)
	var u Usage
	for time.Now().Before(deadline) {
		var err error
		u, err = Tree(context.Background(), cmd.Process.Pid)
		if err != nil {
			t.Fatal(err)
		}
		if u.Processes == 3 && u.CPU > 0.05 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if u.Processes != 3 {
		t.Errorf("%d processes in the tree, want 3 (sh, sh, sleep)", u.Processes)
	}
	if u.CPU <= 0.05 {
		t.Errorf("tree CPU %.3fs, want the busy loop's time (> 0.05 s)", u.CPU)
	}
	if u.PeakRSS == 0 {
		t.Error("no peak RSS")
	}
}

func TestTreeOfMissingProcess(t *testing.T) {
	if _, err := Tree(context.Background(), 1<<30); err == nil {
		t.Error("no error for a missing pid")
	}
}

func TestSaturated(t *testing.T) {
	cases := []struct {
		cpu, window float64
		cpus        int
		want        bool
	}{{0.95, 1, 1, true}, {0.89, 1, 1, false}, {1.8, 1, 2, true}, {1.0, 1, 2, false}, {1, 0, 1, false}}
	for _, c := range cases {
		if got := Saturated(c.cpu, c.window, c.cpus); got != c.want {
			t.Errorf("Saturated(%v, %v, %v) = %v", c.cpu, c.window, c.cpus, got)
		}
	}
}

func TestSelf(t *testing.T) {
	a, err := Self(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	x := 0
	for i := 0; i < 200_000_000; i++ {
		x += i
	}
	_ = x
	b, _ := Self(context.Background())
	if b <= a {
		t.Errorf("self CPU did not grow: %v -> %v", a, b)
	}
}

func TestPeakRSSOfSelf(t *testing.T) {
	before, err := peakRSS(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64<<20)
	for i := range buf {
		buf[i] = 1
	}
	after, err := peakRSS(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(buf)
	if after < before+60<<20 {
		t.Errorf("peak RSS (VmHWM on Linux, the highest sampled RSS on darwin) grew from %d to %d bytes after touching 64 MiB", before, after)
	}
}

// TestRunnerLabel: $TFBENCH_RUNNER wins over GitHub's $ImageOS; neither
// set is "" (a run outside CI).
func TestRunnerLabel(t *testing.T) {
	t.Setenv("TFBENCH_RUNNER", "")
	t.Setenv("ImageOS", "")
	if got := RunnerLabel(); got != "" {
		t.Errorf("no CI: %q, want empty", got)
	}
	t.Setenv("ImageOS", "ubuntu24")
	if got := RunnerLabel(); got != "ubuntu24" {
		t.Errorf("ImageOS: %q, want ubuntu24", got)
	}
	t.Setenv("TFBENCH_RUNNER", "ubuntu-24.04")
	if got := RunnerLabel(); got != "ubuntu-24.04" {
		t.Errorf("TFBENCH_RUNNER: %q, want ubuntu-24.04", got)
	}
	if h := HostInfo(context.Background()); h.Runner != "ubuntu-24.04" {
		t.Errorf("HostInfo runner %q, want ubuntu-24.04", h.Runner)
	}
}

package probe

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestTreeCPUBelowATick reads a process that used far less than /proc's
// 10 ms tick (sleep, once it has exec'd and gone to sleep: the kernel has
// then charged its run): the reading is its time, not 0.
func TestTreeCPUBelowATick(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	stat := fmt.Sprintf("/proc/%d/stat", cmd.Process.Pid)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		b, err := os.ReadFile(stat)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), " (sleep) S ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sleep not asleep within a minute: %s", b)
		}
	}
	u, err := Tree(context.Background(), cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if u.Processes != 1 || u.CPU <= 0 || u.CPU >= 5 {
		t.Errorf("%d processes, CPU %g s; want 1 process with its exec's CPU time (> 0 s)", u.Processes, u.CPU)
	}
}

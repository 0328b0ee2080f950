package syslimits

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestPortRange: darwin's range is what sysctl(8) prints for
// net.inet.ip.portrange.first and .last.
func TestPortRange(t *testing.T) {
	lo, hi, err := PortRange()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("/usr/sbin/sysctl", "-n", "net.inet.ip.portrange.first", "net.inet.ip.portrange.last").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprintf("%d %d", lo, hi), strings.Join(strings.Fields(string(out)), " "); got != want {
		t.Errorf("PortRange() = %s, sysctl says %s", got, want)
	}
	if lo < 1 || lo > hi || hi > 65535 {
		t.Errorf("PortRange() = %d, %d: not a range of ports", lo, hi)
	}
}

// TestOpenFiles: as on Linux, except that the cap above which SetOpenFiles
// refuses is the lower of the hard limit and kern.maxfilesperproc (the
// hard limit is usually unlimited on macOS).
func TestOpenFiles(t *testing.T) {
	cur, hard, err := OpenFiles()
	if err != nil {
		t.Fatal(err)
	}
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &rl); err != nil {
		t.Fatal(err)
	}
	if cur != rl.Cur || hard != rl.Max {
		t.Errorf("OpenFiles() = %d, %d; getrlimit %d, %d", cur, hard, rl.Cur, rl.Max)
	}
	defer func() {
		if err := SetOpenFiles(cur); err != nil {
			t.Errorf("restore: %v", err)
		}
	}()
	if err := SetOpenFiles(cur - 1); err != nil {
		t.Fatal(err)
	}
	if now, _, _ := OpenFiles(); now != cur-1 {
		t.Errorf("after SetOpenFiles(%d): soft limit %d", cur-1, now)
	}
	perProc, err := unix.SysctlUint32("kern.maxfilesperproc")
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("open-file limit %d: above kern.maxfilesperproc %d (sudo sysctl kern.maxfilesperproc=N)", uint64(perProc)+1, perProc)
	if hard <= uint64(perProc) {
		if hard == unix.RLIM_INFINITY {
			return
		}
		want = fmt.Sprintf("open-file limit %d: above the hard limit %d (ulimit -Hn)", hard+1, hard)
	}
	limit := min(hard, uint64(perProc))
	if err := SetOpenFiles(limit + 1); err == nil || err.Error() != want {
		t.Errorf("SetOpenFiles(%d) error %v, want %q", limit+1, err, want)
	}
}

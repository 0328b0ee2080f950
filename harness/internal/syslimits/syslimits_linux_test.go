package syslimits

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestPortRange(t *testing.T) {
	lo, hi, err := PortRange()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprintf("%d %d", lo, hi), strings.Join(strings.Fields(string(b)), " "); got != want {
		t.Errorf("PortRange() = %s, /proc says %s", got, want)
	}
	if lo, hi, err := parseRange("f", []string{"1024", "65535"}); lo != 1024 || hi != 65535 || err != nil {
		t.Errorf("parseRange(1024 65535) = %d, %d, %v", lo, hi, err)
	}
	const want = `local port range: f holds "1024 x", not two port numbers`
	if _, _, err := parseRange("f", []string{"1024", "x"}); err == nil || err.Error() != want {
		t.Errorf("parseRange(1024 x) error %v, want %q", err, want)
	}
}

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
	if hard == unix.RLIM_INFINITY {
		return
	}
	want := fmt.Sprintf("open-file limit %d: above the hard limit %d (ulimit -Hn)", hard+1, hard)
	if err := SetOpenFiles(hard + 1); err == nil || err.Error() != want {
		t.Errorf("SetOpenFiles(hard+1) error %v, want %q", err, want)
	}
}

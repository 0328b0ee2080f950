package loadgencmp

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestParseVmRSS(t *testing.T) {
	// A real /proc/PID/status: "VmRSS:	    1740 kB".
	data, err := os.ReadFile(filepath.Join("testdata", "proc-status.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ParseVmRSS(data); err != nil || got != 1740<<10 {
		t.Errorf("ParseVmRSS: %d, %v; want %d", got, err, 1740<<10)
	}
	if _, err := ParseVmRSS([]byte("Name:\tx\nVmRSS:\t12 MB\n")); err == nil || err.Error() != `unexpected VmRSS line "VmRSS:\t12 MB", want "VmRSS: N kB"` {
		t.Errorf("MB unit: %v", err)
	}
	if _, err := ParseVmRSS([]byte("Name:\tkthreadd\nState:\tS (sleeping)\n")); err == nil || err.Error() != "no VmRSS line (a kernel thread or a zombie)" {
		t.Errorf("no VmRSS: %v", err)
	}
}

const mb = 1 << 20

func TestFlat(t *testing.T) {
	ramp := []int64{10 * mb, 20 * mb, 30 * mb, 30 * mb, 31 * mb, 30 * mb, 30 * mb, 30 * mb, 30 * mb, 30 * mb} // max 31 MiB
	base := int64(31 * mb)
	lim := int64(float64(base) * 1.1)
	cases := []struct {
		name   string
		tail   []int64
		flat   bool
		limit  int64
		judged bool
	}{
		{"flat", []int64{32 * mb, 34 * mb}, true, lim, true},
		{"exactly the limit", []int64{lim}, true, lim, true},
		{"grew", []int64{40 * mb, 50 * mb}, false, lim, true},
		{"too short", nil, false, 0, false},
	}
	for _, c := range cases {
		m := &Memory{RSS: append(append([]int64{}, ramp...), c.tail...)}
		flat, limit, judged := m.Flat()
		if flat != c.flat || limit != c.limit || judged != c.judged {
			t.Errorf("%s: flat %v, limit %d, judged %v; want %v, %d, %v", c.name, flat, limit, judged, c.flat, c.limit, c.judged)
		}
	}
}

func TestWriteMemory(t *testing.T) {
	rss := []int64{10 * mb, 20 * mb, 30 * mb, 30 * mb, 31 * mb, 30 * mb, 30 * mb, 30 * mb, 30 * mb, 30 * mb, 32 * mb, 30 * mb}
	m := &Memory{RSS: rss, Run: Run{Report: Report{RPS: 1234567.4, Responses: 74074044}}}
	cfg := Config{Duration: 60e9, Generator: []int{0}, Server: []int{1}}
	var b bytes.Buffer
	flat, err := WriteMemory(&b, cfg, m)
	want := `tfbench load memory: c=256 depth 16 for 1m0s against the length server, generator CPUs 0, server CPUs 1
1,234,567 req/s, 74074044 responses, 0 errors
` + rssName + ` over 12 samples 1 s apart: first 10.0 MiB, last 30.0 MiB, max 32.0 MiB
flat: yes (last 30.0 <= 1.10 × max of the first 10 s = 34.1 MiB)
`
	if err != nil || !flat || b.String() != want {
		t.Errorf("WriteMemory: flat %v, %v, wrote\n%s\nwant\n%s", flat, err, b.String(), want)
	}
}

// The sampler reads a live process's resident memory and reports none for
// one that has exited and been reaped.
func TestRSSSampler(t *testing.T) {
	if v, ok := rssSampler(os.Getpid())(); !ok || v < 1<<20 {
		t.Errorf("own process: %d bytes, ok %v; want ok and at least 1 MiB", v, ok)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if v, ok := rssSampler(cmd.Process.Pid)(); ok {
		t.Errorf("exited process %d: %d bytes, ok; want not ok", cmd.Process.Pid, v)
	}
}

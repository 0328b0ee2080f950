//go:build linux

package probe

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// peakRSS reads VmHWM, a process's peak resident set size, in bytes, from
// /proc/PID/status. gopsutil's MemoryInfo reads /proc/PID/statm, which
// has no peak, and its status parser keeps the value private.
func peakRSS(pid int) (uint64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.HasPrefix(line, []byte("VmHWM:")) {
			continue
		}
		f := bytes.Fields(line[len("VmHWM:"):])
		if len(f) != 2 || string(f[1]) != "kB" {
			return 0, fmt.Errorf("/proc/%d/status: unexpected VmHWM line %q", pid, line)
		}
		kb, err := strconv.ParseUint(string(f[0]), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/status: VmHWM: %w", pid, err)
		}
		return kb * 1024, nil
	}
	return 0, fmt.Errorf("/proc/%d/status: no VmHWM (a kernel thread or a zombie)", pid)
}

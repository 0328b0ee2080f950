package loadgencmp

import (
	"fmt"
	"os"
)

// rssName names the memory samples in WriteMemory's report: on Linux the
// /proc/PID/status line they are read from.
const rssName = "VmRSS"

// rssSampler returns a reader of process pid's resident memory, bytes, from
// its /proc/PID/status (ParseVmRSS); ok is false when the file cannot be read
// or has no VmRSS (the process exited: a zombie has none).
func rssSampler(pid int) func() (rss int64, ok bool) {
	status := fmt.Sprintf("/proc/%d/status", pid)
	return func() (int64, bool) {
		data, err := os.ReadFile(status)
		if err != nil {
			return 0, false
		}
		rss, err := ParseVmRSS(data)
		return rss, err == nil
	}
}

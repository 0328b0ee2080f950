package loadgencmp

import "github.com/shirou/gopsutil/v4/process"

// rssName names the memory samples in WriteMemory's report: on macOS the
// resident size of proc_pidinfo(PROC_PIDTASKINFO), as gopsutil reads it.
const rssName = "RSS"

// rssSampler returns a reader of process pid's resident memory, bytes
// (gopsutil's MemoryInfo RSS); ok is false on an error or a 0 (gopsutil
// reports 0, not an error, for a process that has exited).
func rssSampler(pid int) func() (rss int64, ok bool) {
	p, perr := process.NewProcess(int32(pid))
	return func() (int64, bool) {
		if perr != nil {
			return 0, false
		}
		m, err := p.MemoryInfo()
		if err != nil || m.RSS == 0 {
			return 0, false
		}
		return int64(m.RSS), true
	}
}

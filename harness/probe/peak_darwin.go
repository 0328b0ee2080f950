//go:build darwin

package probe

import "github.com/shirou/gopsutil/v4/process"

// peakRSS on darwin is the highest RSS in bytes (gopsutil MemoryInfo:
// proc_pidinfo pti_resident_size) any reading has seen of pid: darwin has no
// readable high-water mark, and rusage's ru_maxrss (bytes on darwin, KiB on
// Linux) covers only children already waited for, not a live server's tree.
// A peak between two readings is missed, so it can read below the true peak.
func peakRSS(pid int) (uint64, error) {
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		return 0, err
	}
	mi, err := p.MemoryInfo()
	if err != nil {
		return 0, err
	}
	created, err := p.CreateTime()
	if err != nil {
		return 0, err
	}
	return seen.max(rssKey{pid, created}, mi.RSS), nil
}

// seen is the highest RSS read per process (darwin's peakRSS).
var seen = rssMarks{m: map[rssKey]uint64{}}

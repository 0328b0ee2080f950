//go:build darwin

package probe

import "github.com/shirou/gopsutil/v4/process"

// peakRSS on darwin is the highest RSS in bytes any reading has seen of
// pid, since darwin has no readable high-water mark for a live process: a
// peak between two readings is missed, so it can read below the true peak.
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

package main

import (
	"strconv"
	"strings"

	"github.com/shirou/gopsutil/v4/process"
	"golang.org/x/sys/unix"
)

// processesUnder lists the live processes whose executable lies under dir
// or whose command line mentions it: darwin's counterpart of the /proc
// walk, with the process table and state from sysctl kern.proc.all, the
// command line from kern.procargs2 and the executable from proc_pidpath
// (gopsutil). Processes of other users, whose arguments are not readable,
// are skipped as on Linux.
func processesUnder(dir string) []string {
	var out []string
	kps, _ := unix.SysctlKinfoProcSlice("kern.proc.all")
	for _, k := range kps {
		pid := k.Proc.P_pid
		if pid <= 0 || k.Proc.P_stat == 5 { // SZOMB: a zombie holds nothing
			continue
		}
		p, err := process.NewProcess(pid)
		if err != nil {
			continue
		}
		args, err := p.CmdlineSlice()
		if err != nil || len(args) == 0 {
			continue
		}
		cmd := strings.Join(args, " ")
		exe, _ := p.Exe()
		if strings.Contains(cmd, dir) || strings.HasPrefix(exe, dir) {
			out = append(out, strconv.Itoa(int(pid))+": "+cmd)
		}
	}
	return out
}

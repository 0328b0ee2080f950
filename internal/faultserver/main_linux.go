//go:build linux

package faultserver

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// daemonScript is escapees' double fork: setsid(1) makes the background
// job (not a group leader) lead a new session and execs sleep in place, so
// $! is the daemon's pid.
const daemonScript = "setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $!"

// readStat reads comm, ppid, pgrp and session from /proc/PID/stat. The
// command name in parentheses may hold spaces and parentheses, so fields
// are counted from the last ')'.
func readStat(pid int) (comm string, ppid, pgrp, sid int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0, 0, 0, false
	}
	i, j := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if i < 0 || j < i {
		return "", 0, 0, 0, false
	}
	f := strings.Fields(string(b[j+1:])) // state ppid pgrp session …
	if len(f) < 4 {
		return "", 0, 0, 0, false
	}
	var errs [3]error
	ppid, errs[0] = strconv.Atoi(f[1])
	pgrp, errs[1] = strconv.Atoi(f[2])
	sid, errs[2] = strconv.Atoi(f[3])
	return string(b[i+1 : j]), ppid, pgrp, sid, errs[0] == nil && errs[1] == nil && errs[2] == nil
}

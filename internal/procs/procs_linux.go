//go:build linux

package procs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// Get reads one process's /proc/PID/stat. Errors: the process does not
// exist (an error wrapping fs.ErrNotExist, or ESRCH while reading) or its
// stat line cannot be parsed.
func Get(pid int) (Proc, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Proc{}, err
	}
	return ParseStat(b)
}

// Table reads every process in /proc (zombies included, see Live), in
// /proc's order (ascending pid). A process that exits during the walk is
// left out. Errors: /proc cannot be listed (not Linux, or not mounted).
func Table() ([]Proc, error) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, fmt.Errorf("process table: %w", err)
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil, fmt.Errorf("process table: %w", err)
	}
	out := make([]Proc, 0, len(names))
	for _, name := range names {
		if name == "" || name[0] < '0' || name[0] > '9' {
			continue
		}
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		if p, err := Get(pid); err == nil {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b Proc) int { return a.Pid - b.Pid })
	return out, nil
}

// environ is the environment of pid as exec gave it (/proc/PID/environ),
// one "NAME=value" entry per element. Errors: the file cannot be read
// (the process is gone, another user's, or not dumpable).
func environ(pid int) ([][]byte, error) {
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return nil, err
	}
	return bytes.Split(env, []byte{0}), nil
}

func killOne(p Proc, sig syscall.Signal) (bool, error) {
	fd, err := unix.PidfdOpen(p.Pid, 0)
	switch {
	case errors.Is(err, unix.ESRCH):
		return false, nil
	case errors.Is(err, unix.ENOSYS):
		if !same(p) {
			return false, nil
		}
		return signalled(syscall.Kill(p.Pid, sig))
	case err != nil:
		return false, err
	}
	defer unix.Close(fd)
	// The pidfd pins the process that had the pid at open time; if stat
	// still shows the same start time, that is the process we mean.
	if !same(p) {
		return false, nil
	}
	return signalled(unix.PidfdSendSignal(fd, sig, nil, 0))
}

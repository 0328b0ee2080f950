package faultserver

import (
	"os"
	"slices"
	"strconv"
	"strings"
)

// environHas reports whether pid's environment (/proc/PID/environ) holds
// the entry "NAME=value" whole.
func environHas(pid int, entry string) (bool, error) {
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false, err
	}
	return slices.Contains(strings.Split(string(env), "\x00"), entry), nil
}

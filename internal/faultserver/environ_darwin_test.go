package faultserver

import (
	"os/exec"
	"slices"
	"strconv"
	"strings"
)

// environHas reports whether pid's environment holds the entry
// "NAME=value" whole, as ps -E prints it after the command (space
// separated, so entries holding spaces are not told apart).
func environHas(pid int, entry string) (bool, error) {
	out, err := exec.Command("ps", "-E", "-ww", "-o", "command=", "-p", strconv.Itoa(pid)).Output()
	if err != nil {
		return false, err
	}
	return slices.Contains(strings.Fields(string(out)), entry), nil
}

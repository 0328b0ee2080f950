package agent

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestConnectSSHOptions: ssh gets BatchMode, ConnectTimeout, the
// ServerAlive pair and LogLevel after the user's own options, which ssh
// keeps (the first value of each wins: ssh -G shows it).
func TestConnectSSHOptions(t *testing.T) {
	dir := t.TempDir()
	args := filepath.Join(dir, "args")
	fake := filepath.Join(dir, "ssh")
	os.WriteFile(fake, []byte("#!/bin/sh\nprintf '%s\\n' \"$@\" > "+args+"\necho 'ssh: connect to host h port 22: Connection refused' >&2\nexit 255\n"), 0o755)
	_, err := Connect(context.Background(), Options{ServerHost: "bench@h:2222", SSH: fake + " -o ServerAliveInterval=60"})
	if want := "server host ssh bench@h:2222: unreachable: ssh: connect to host h port 22: Connection refused"; err == nil || err.Error() != want {
		t.Errorf("Connect: %v; want %s", err, want)
	}
	b, _ := os.ReadFile(args)
	got := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	want := []string{"-o", "ServerAliveInterval=60", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10",
		"-o", "ServerAliveInterval=10", "-o", "ServerAliveCountMax=3", "-o", "LogLevel=ERROR", "-p", "2222", "bench@h"}
	if len(got) != len(want)+1 || !slices.Equal(got[:len(want)], want) {
		t.Fatalf("ssh's arguments %q; want %q and the script", got, want)
	}
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skip("no ssh to ask which value wins")
	}
	out, err := exec.Command("ssh", append([]string{"-G", "-F", "/dev/null"}, want...)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"serveraliveinterval 60", "serveralivecountmax 3", "connecttimeout 10", "batchmode yes"} {
		if !slices.Contains(strings.Split(string(out), "\n"), line) {
			t.Errorf("ssh -G with those options lacks %q", line)
		}
	}
}

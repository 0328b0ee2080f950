package agent

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestParseDestRefusesOptions: a user or host beginning with "-" would be
// read by ssh as an option; one with a "-" inside is a name.
func TestParseDestRefusesOptions(t *testing.T) {
	for in, want := range map[string]string{
		"-oProxyCommand=/path/x@h": `--server-host "-oProxyCommand=/path/x@h": user "-oProxyCommand=/path/x" begins with "-", which ssh would read as an option`,
		"-oProxyCommand=/path/x":   `--server-host "-oProxyCommand=/path/x": want [user@]host[:port]`,
		"-oProxyCommand=x":         `--server-host "-oProxyCommand=x": host "-oProxyCommand=x" begins with "-", which ssh would read as an option`,
		"u@-oProxyCommand=x":       `--server-host "u@-oProxyCommand=x": host "-oProxyCommand=x" begins with "-", which ssh would read as an option`,
		"[-F]:22":                  `--server-host "[-F]:22": host "-F" begins with "-", which ssh would read as an option`,
		"-l@h:2222":                `--server-host "-l@h:2222": user "-l" begins with "-", which ssh would read as an option`,
	} {
		if _, _, _, err := parseDest(in); err == nil || err.Error() != want {
			t.Errorf("%q: %v\nwant %q", in, err, want)
		}
	}
	if dest, port, host, err := parseDest("bench-1@host-2:22"); err != nil || dest != "bench-1@host-2" || port != "22" || host != "host-2" {
		t.Errorf("bench-1@host-2:22: %q %q %q %v", dest, port, host, err)
	}
}

// TestMachinesRefuseOptions: the machines file's server_host, server_cmd,
// ssh and agent_dir are refused as their flags are, naming file, line, key.
func TestMachinesRefuseOptions(t *testing.T) {
	dir := t.TempDir()
	for body, want := range map[string]string{
		"server_addr: 10.0.0.2\nserver_host: \"-oProxyCommand=/x@h\"\n": `:2: key "server_host": user "-oProxyCommand=/x" begins with "-", which ssh would read as an option`,
		"server_host: \"u@-oProxyCommand=x\"\n":                         `:1: key "server_host": host "-oProxyCommand=x" begins with "-", which ssh would read as an option`,
		"server_host: \"h:x\"\n":                                        `:1: key "server_host": port "x" is not a number`,
		"server_cmd: \"-c id\"\n":                                       `:1: key "server_cmd": begins with "-", which sh -c would read as an option`,
		"server_host: h\nagent_dir: \"-rf\"\n":                          `:2: key "agent_dir": begins with "-", which mkdir, chmod and mv on the server host would read as an option`,
		"server_host: h\nssh: \"-F cfg\"\n":                             `:2: key "ssh": first word "-F" begins with "-": the ssh program comes first, then its options`,
	} {
		path := filepath.Join(dir, "machines.yaml")
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := LoadMachines(path, &Options{}); err == nil || err.Error() != path+want {
			t.Errorf("%q: %v\nwant %q", body, err, path+want)
		}
	}
}

// standIn writes an executable dir/name that appends its arguments, one a
// line, to dir/name.argv and fails as ssh does when it cannot connect.
func standIn(t *testing.T, dir, name string) (argvFile string) {
	t.Helper()
	argvFile = filepath.Join(dir, name+".argv")
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" >> '" + argvFile + "'\necho 'ssh: connect to host h port 22: Connection refused' >&2\nexit 255\n"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return argvFile
}

// TestConnectRefusesOptions: through a stand-in ssh (TFBENCH_SSH) and a
// stand-in sh on PATH that record their arguments, a host, user, command,
// ssh or agent folder beginning with "-" is refused before anything runs;
// a plain host reaches the stand-in (so the record would show a leak).
func TestConnectRefusesOptions(t *testing.T) {
	dir := t.TempDir()
	sshArgv := standIn(t, dir, "ssh")
	shArgv := standIn(t, dir, "sh")
	t.Setenv("TFBENCH_SSH", filepath.Join(dir, "ssh"))
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{ServerHost: "-oProxyCommand=/path/x@h"}, `--server-host "-oProxyCommand=/path/x@h": user "-oProxyCommand=/path/x" begins with "-", which ssh would read as an option`},
		{Options{ServerHost: "-oProxyCommand=x"}, `--server-host "-oProxyCommand=x": host "-oProxyCommand=x" begins with "-", which ssh would read as an option`},
		{Options{ServerCmd: "-c id"}, `--server-cmd "-c id": begins with "-", which sh -c would read as an option`},
		{Options{ServerHost: "h", AgentDir: "-rf"}, `agent_dir "-rf": begins with "-", which mkdir, chmod and mv on the server host would read as an option`},
		{Options{ServerHost: "h", SSH: "-oProxyCommand=x h"}, `ssh "-oProxyCommand=x h": first word "-oProxyCommand=x" begins with "-": the ssh program comes first, then its options`},
	} {
		if _, err := Connect(context.Background(), c.o); err == nil || err.Error() != c.want {
			t.Errorf("%+v: %v\nwant %q", c.o, err, c.want)
		}
	}
	for _, f := range []string{sshArgv, shArgv} {
		if b, err := os.ReadFile(f); err == nil {
			t.Errorf("%s ran with:\n%s", filepath.Base(f), b)
		}
	}

	_, err := Connect(context.Background(), Options{ServerHost: "bench@h"})
	if want := "server host ssh bench@h: unreachable: ssh: connect to host h port 22: Connection refused"; err == nil || err.Error() != want {
		t.Errorf("bench@h: %v, want %q", err, want)
	}
	b, _ := os.ReadFile(sshArgv)
	if argv := strings.Split(string(b), "\n"); !slices.Contains(argv, "bench@h") {
		t.Errorf("the stand-in ssh got %q, want bench@h among its arguments", argv)
	}
	_, err = Connect(context.Background(), Options{ServerCmd: "tfbench agent"})
	if b, _ := os.ReadFile(shArgv); string(b) != "-c\ntfbench agent\n" || err == nil {
		t.Errorf("the stand-in sh got %q (%v), want -c and the command", b, err)
	}
}

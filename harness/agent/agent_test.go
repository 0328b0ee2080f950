package agent

import (
	"context"
	"debug/elf"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tfbench/tfbench/harness/serverhost"
)

// envAgent makes this test binary an agent speaking the protocol version
// it holds (TestMain), so a Client can Dial it as it would a real one.
const envAgent = "TFBENCH_TEST_AGENT_PROTOCOL"

func TestMain(m *testing.M) {
	if v := os.Getenv(envAgent); v != "" {
		n := 0
		for _, c := range v {
			n = n*10 + int(c-'0')
		}
		// The heartbeat's bounds, shortened by a test (alive_test.go).
		for name, d := range map[string]*time.Duration{"TFBENCH_TEST_AGENT_BEAT": &heartbeat, "TFBENCH_TEST_AGENT_SILENCE": &controllerSilence} {
			if v, err := time.ParseDuration(os.Getenv(name)); err == nil {
				*d = v
			}
		}
		if err := Serve(context.Background(), os.Stdin, os.Stdout, Config{WorkDir: os.Getenv("TFBENCH_TEST_AGENT_WORK"), Protocol: n}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// testTransport runs this test binary as an agent of protocol version.
func testTransport(t *testing.T, version string) Transport {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	return Transport{Argv: []string{"env", envAgent + "=" + version, "TFBENCH_TEST_AGENT_WORK=" + work, exe}, Name: "test agent", Addr: "127.0.0.1"}
}

// TestProtocolMismatch: an agent of another protocol version is refused at
// hello with both versions named.
func TestProtocolMismatch(t *testing.T) {
	_, err := Dial(context.Background(), testTransport(t, "99"))
	want := "server host test agent: protocol version mismatch: the controller speaks tfbench agent protocol 1, this agent 99; use the same tfbench on both hosts"
	if err == nil || err.Error() != want {
		t.Fatalf("err %v, want %q", err, want)
	}
}

// TestSessionAndGone: hello, info and a request before begin answered by
// a real agent; once the agent is killed every call fails with ErrGone
// naming it, and Close reaps (nothing was left).
func TestSessionAndGone(t *testing.T) {
	c, err := Dial(context.Background(), testTransport(t, "1"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Pid() <= 0 || c.Platform() == "/" {
		t.Errorf("hello: pid %d, platform %q", c.Pid(), c.Platform())
	}
	info, err := c.Info(context.Background())
	if err != nil || info.LogicalCPUs < 1 || info.ServerCPUs == "" && info.OS != "darwin" {
		t.Errorf("info %+v, %v", info, err)
	}
	if _, err := c.Start(context.Background(), serverhost.StartRequest{Build: "x", Tag: "t"}); err == nil || err.Error() != `agent: "start" before begin` {
		t.Errorf("start before begin: %v", err)
	}
	c.kill()
	<-c.done
	err = c.Finish(context.Background())
	if !errors.Is(err, serverhost.ErrGone) || !strings.HasPrefix(err.Error(), "server host gone: the agent on test agent ended (signal: killed)") {
		t.Errorf("after the kill: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("close after the kill: %v", err)
	}
}

// TestClassify words what ssh prints when it cannot reach the agent.
func TestClassify(t *testing.T) {
	for _, c := range []struct {
		code   int
		stderr string
		want   string
	}{
		{255, "ssh: connect to host 10.9.0.2 port 22: Connection refused\r\n", "server host ssh h: unreachable: ssh: connect to host 10.9.0.2 port 22: Connection refused"},
		{255, "Warning: Permanently added '10.9.0.2' (ED25519) to the list of known hosts.\nroot@10.9.0.2: Permission denied (publickey).\n", "server host ssh h: authentication refused: root@10.9.0.2: Permission denied (publickey)."},
		{255, "ssh: Could not resolve hostname nohost: Name or service not known\n", "server host ssh h: unreachable: ssh: Could not resolve hostname nohost: Name or service not known"},
		{127, "sh: 1: .tfbench-agent/tfbench: not found\n", "server host ssh h: no tfbench agent there: sh: 1: .tfbench-agent/tfbench: not found"},
		{1, "boom\n", "server host ssh h: exit status 1; stderr: boom"},
	} {
		if got := classify("ssh h", true, c.code, c.stderr, errors.New("exit status "+strconv.Itoa(c.code))).Error(); got != c.want {
			t.Errorf("%d %q:\n got %q\nwant %q", c.code, c.stderr, got, c.want)
		}
	}
}

// TestParseDest splits --server-host values.
func TestParseDest(t *testing.T) {
	for _, c := range []struct{ in, dest, port, host, err string }{
		{"bench@10.0.0.2", "bench@10.0.0.2", "", "10.0.0.2", ""},
		{"bench@10.0.0.2:2222", "bench@10.0.0.2", "2222", "10.0.0.2", ""},
		{"srv", "srv", "", "srv", ""},
		{"[fd00::2]:22", "fd00::2", "22", "fd00::2", ""},
		{"u@h:x", "", "", "", `--server-host "u@h:x": port "x" is not a number`},
		{"u@", "", "", "", `--server-host "u@": want [user@]host[:port]`},
	} {
		dest, port, host, err := parseDest(c.in)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: err %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || dest != c.dest || port != c.port || host != c.host {
			t.Errorf("%q: %q %q %q %v", c.in, dest, port, host, err)
		}
	}
}

// TestLoadMachines reads a machines file; flags given win; an unknown key
// is named with its file and line.
func TestLoadMachines(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "machines.yaml")
	os.WriteFile(good, []byte("server_host: bench@10.0.0.2\nserver_addr: 10.0.1.2\nssh: ssh -F cfg\n"), 0o644)
	o := Options{ServerAddr: "10.0.0.9"}
	if err := LoadMachines(good, &o); err != nil {
		t.Fatal(err)
	}
	if o.ServerHost != "bench@10.0.0.2" || o.ServerAddr != "10.0.0.9" || o.SSH != "ssh -F cfg" {
		t.Errorf("options %+v", o)
	}
	both := filepath.Join(dir, "both.yaml")
	os.WriteFile(both, []byte("server_host: bench@10.0.0.2\nserver_cmd: kubectl exec -i srv -- tfbench agent\n"), 0o644)
	o = Options{ServerCmd: "ssh-less"}
	if err := LoadMachines(both, &o); err != nil || o.ServerHost != "" || o.ServerCmd != "ssh-less" {
		t.Errorf("a --server-cmd flag over the file's server_host and server_cmd: %+v, %v", o, err)
	}
	number := filepath.Join(dir, "number.yaml")
	os.WriteFile(number, []byte("server_host: 5\n"), 0o644)
	if err, want := LoadMachines(number, &Options{}), number+`:1: key "server_host": must be a string, found 5 (quote it)`; err == nil || err.Error() != want {
		t.Errorf("a number: %v, want %q", err, want)
	}
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("server_host: h\nserver_hots: x\n"), 0o644)
	err := LoadMachines(bad, &Options{})
	if want := bad + `:2: key "server_hots": unknown key (want server_host, server_cmd, server_addr, ssh or agent_dir)`; err == nil || err.Error() != want {
		t.Errorf("err %v, want %q", err, want)
	}
}

// TestBinaryFor: this platform gets this binary; another is built from the
// checkout (CGO_ENABLED=0), an ELF or Mach-O of that architecture.
func TestBinaryFor(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-builds tfbench")
	}
	self, _ := os.Executable()
	if got, err := binaryFor(context.Background(), runtime.GOOS, runtime.GOARCH); err != nil || got != self {
		t.Errorf("this platform: %q, %v; want %q", got, err, self)
	}
	other := map[string]string{"amd64": "arm64", "arm64": "amd64"}[runtime.GOARCH]
	got, err := binaryFor(context.Background(), "linux", other)
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(got)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[other]; f.Machine != want {
		t.Errorf("%s: machine %v, want %v", got, f.Machine, want)
	}
}

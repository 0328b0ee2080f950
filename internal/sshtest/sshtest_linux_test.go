//go:build linux

package sshtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestSkipReason(t *testing.T) {
	found := func(string) (string, error) { return "/usr/bin/x", nil }
	missing := func(name string) func(string) (string, error) {
		return func(cmd string) (string, error) {
			if cmd == name {
				return "", exec.ErrNotFound
			}
			return "/usr/bin/" + cmd, nil
		}
	}
	yes := func(string) bool { return true }
	shadow := func(pw string) func() (string, error) { return func() (string, error) { return pw, nil } }
	unreadable := func() (string, error) { return "", os.ErrNotExist }
	for _, c := range []struct {
		name   string
		euid   int
		look   func(string) (string, error)
		exists func(string) bool
		shadow func() (string, error)
		want   string
	}{
		{"runs", 0, found, yes, shadow("*"), ""},
		{"shadow unreadable", 0, found, yes, unreadable, ""},
		{"not root", 1000, found, yes, shadow("*"), "needs root for ip netns and a veth pair (running as uid 1000)"},
		{"no ip", 0, missing("ip"), yes, shadow("*"), "no ip command (iproute2) on PATH"},
		{"no sshd", 0, found, func(string) bool { return false }, shadow("*"), "no /usr/sbin/sshd (Debian: apt-get install -y openssh-server)"},
		{"no ssh", 0, missing("ssh"), yes, shadow("*"), "no ssh on PATH (Debian: apt-get install -y openssh-client)"},
		{"no ssh-keygen", 0, missing("ssh-keygen"), yes, shadow("*"), "no ssh-keygen on PATH (Debian: apt-get install -y openssh-client)"},
		{"root locked", 0, found, yes, shadow("!$y$j9T$abc"), `root's account is locked (its /etc/shadow password starts with "!"), and sshd without PAM refuses a locked account`},
	} {
		if got := skipReason(c.euid, c.look, c.exists, c.shadow); got != c.want {
			t.Errorf("%s: skipReason = %q; want %q", c.name, got, c.want)
		}
	}
}

func TestPenaltiesIn(t *testing.T) {
	for v, want := range map[string]bool{
		"OpenSSH_9.2p1 Debian-2+deb12u6, OpenSSL 3.0.19 27 Jan 2026": false,
		"OpenSSH_9.7p1":                          false,
		"OpenSSH_9.8p1":                          true,
		"OpenSSH_10.0p2 Debian-7, OpenSSL 3.5.1": true,
		"sshd: unknown option":                   false,
	} {
		if got := penaltiesIn(v); got != want {
			t.Errorf("penaltiesIn(%q) = %v; want %v", v, got, want)
		}
	}
}

func TestNamedIn(t *testing.T) {
	h := &Host{Addr: "10.213.0.74", Namespace: "tfbtest-12-1", Config: "/tmp/T/001/ssh_config"}
	h.key = "/tmp/T/001/client_key"
	for cmd, want := range map[string]bool{
		"ssh -p 2222 root@10.213.0.74 tfbench agent":  true,
		"curl http://10.213.0.74:8080/json":           true,
		"ssh root@10.213.0.741 true":                  false,
		"ssh root@110.213.0.74 true":                  false,
		"ssh -F /tmp/T/001/ssh_config tfbtest-12-1 x": true,
		"ssh -F /tmp/T/002/ssh_config tfbtest-12-10":  false,
		"ssh -i /tmp/T/001/client_key root@10.0.0.1":  true,
		"sleep 300": false,
	} {
		if got := h.namedIn(cmd); got != want {
			t.Errorf("namedIn(%q) = %v; want %v", cmd, got, want)
		}
	}
	if (&Host{}).namedIn("anything") {
		t.Error("a Host with no names yet names every command")
	}
}

func run(t *testing.T, cmd *exec.Cmd) (stdout, stderr string, err error) {
	t.Helper()
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

func TestSSHStart(t *testing.T) {
	t.Parallel()
	start := time.Now()
	h := Start(t)
	t.Logf("Start took %v: %s at %s:%d (here %s)", time.Since(start).Round(time.Millisecond), h.Namespace, h.Addr, h.Port, h.LocalAddr)

	if !regexp.MustCompile(fmt.Sprintf(`^tfbtest-%d-\d+$`, os.Getpid())).MatchString(h.Namespace) {
		t.Errorf("Namespace = %q; want tfbtest-%d-<n>", h.Namespace, os.Getpid())
	}
	_, block, _ := net.ParseCIDR(h.LocalAddr + "/29")
	if !block.Contains(net.ParseIP(h.Addr)) || !strings.HasPrefix(h.Addr, "10.213.") {
		t.Errorf("Addr %s and LocalAddr %s: want one /29 of 10.213.0.0/16", h.Addr, h.LocalAddr)
	}
	if h.Port != 2222 || h.User != "root" || h.Dest != "root@"+h.Addr {
		t.Errorf("Port, User, Dest = %d, %q, %q; want 2222, root, root@%s", h.Port, h.User, h.Dest, h.Addr)
	}
	if pids, err := h.Processes(); err != nil || !slices.Equal(pids, []int{h.SSHDPid}) {
		t.Errorf("Processes() = %v, %v; want [%d] (sshd alone)", pids, err, h.SSHDPid)
	}

	ctx := context.Background()
	for name, cmd := range map[string]*exec.Cmd{
		"SSHArgs":              h.Command(ctx, "echo", "hi"),
		"Config, the alias":    exec.Command("ssh", "-F", h.Config, h.Namespace, "echo hi"),
		"Config, Dest":         exec.Command("ssh", "-F", h.Config, h.Dest, "echo hi"),
		"Config, user@address": exec.Command("ssh", "-F", h.Config, "root@"+h.Addr, "echo hi"),
	} {
		if out, errOut, err := run(t, cmd); err != nil || out != "hi\n" || errOut != "" {
			t.Errorf("%s: ssh echo hi: stdout %q, stderr %q, %v; want \"hi\\n\" alone", name, out, errOut, err)
		}
	}
	// The remote reaches this end of the veth: a listener here, dialled from there.
	ln, err := net.Listen("tcp", h.LocalAddr+":0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Write([]byte("from here\n"))
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	if out, errOut, err := run(t, h.Command(ctx, fmt.Sprintf("exec 3<>/dev/tcp/%s/%d && cat <&3", h.LocalAddr, port))); err != nil || out != "from here\n" {
		t.Errorf("remote dial of %s:%d: %q, %q, %v; want \"from here\\n\"", h.LocalAddr, port, out, errOut, err)
	}
	h.CheckClean(t)

	// A second host at once: another namespace, another subnet.
	h2 := Start(t)
	if h2.Namespace == h.Namespace || h2.Addr == h.Addr || h2.hostVeth == h.hostVeth {
		t.Errorf("two hosts share a name: %s %s %s and %s %s %s", h.Namespace, h.Addr, h.hostVeth, h2.Namespace, h2.Addr, h2.hostVeth)
	}
	if out, _, err := run(t, h2.Command(ctx, "echo", "two")); err != nil || out != "two\n" {
		t.Errorf("second host: %q, %v", out, err)
	}
}

func TestSSHRemoteEnvironment(t *testing.T) {
	t.Parallel()
	h := Start(t)
	out, errOut, err := run(t, h.Command(context.Background(), "env; echo PWD=$(pwd); echo GO=$(command -v go)"))
	if err != nil {
		t.Fatalf("ssh env: %v: %s", err, errOut)
	}
	env := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			env[k] = v
		}
	}
	root, err := user.Lookup("root")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"USER": "root",
		"HOME": h.Home,
		"PATH": os.Getenv("PATH"),
		"PWD":  root.HomeDir,
	}
	// SSH_CONNECTION: client address and port, server address and port.
	if f := strings.Fields(env["SSH_CONNECTION"]); len(f) != 4 || f[0] != h.LocalAddr || f[2] != h.Addr || f[3] != strconv.Itoa(h.Port) {
		t.Errorf("remote SSH_CONNECTION = %q; want \"%s PORT %s %d\"", env["SSH_CONNECTION"], h.LocalAddr, h.Addr, h.Port)
	}
	if goBin, err := exec.LookPath("go"); err == nil {
		want["GO"] = goBin
		for _, name := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
			v, err := exec.Command(goBin, "env", name).Output()
			if err != nil {
				t.Fatal(err)
			}
			want[name] = strings.TrimSpace(string(v))
		}
	}
	for k, v := range want {
		if env[k] != v {
			t.Errorf("remote %s = %q; want %q", k, env[k], v)
		}
	}
	// Nothing else of this process's environment: what sshd and bash set, and SetEnv's.
	documented := []string{"HOME", "PATH", "GOCACHE", "GOMODCACHE", "GOPATH", // SetEnv
		"USER", "LOGNAME", "SHELL", "MAIL", "SSH_CLIENT", "SSH_CONNECTION", // sshd
		"PWD", "SHLVL", "_", "GO"} // bash, and the echo above
	for k := range env {
		if !slices.Contains(documented, k) {
			t.Errorf("remote %s=%q: not among the variables the package documents", k, env[k])
		}
	}
	if entries, err := os.ReadDir(h.Home); err != nil || len(entries) != 0 {
		t.Errorf("HOME %s: %v, %v; want an empty directory", h.Home, entries, err)
	}
}

// TestSSHCleanReportsStrays leaves a process in the namespace and an ssh client
// here, checks Clean's report, and that the cleanup then removes them and
// the namespace without failing the test (Clean reported them already).
func TestSSHCleanReportsStrays(t *testing.T) {
	t.Parallel()
	cleanReportsStrays(t, Start)
}

// TestCleanReportsStraysSkips runs TestSSHCleanReportsStrays's body with a
// Start that skips, as Start does for a user other than root or without
// sshd: the test must skip, not reach its checks with no Host.
func TestCleanReportsStraysSkips(t *testing.T) {
	var sub *testing.T
	t.Run("body", func(t *testing.T) {
		sub = t
		cleanReportsStrays(t, func(tb testing.TB) *Host {
			tb.Skip("sshtest: a stand-in Start that skips")
			return nil
		})
	})
	if !sub.Skipped() || sub.Failed() {
		t.Errorf("with Start skipping: skipped %v, failed %v; want skipped alone", sub.Skipped(), sub.Failed())
	}
}

// skipNoter is a test whose skip reason is kept in *reason, for the parent
// of a subtest in which Start skipped to skip with it.
type skipNoter struct {
	testing.TB
	reason *string
}

func (s skipNoter) Skip(args ...any) {
	*s.reason = fmt.Sprint(args...)
	s.TB.Skip(args...)
}

func (s skipNoter) Skipf(format string, args ...any) {
	*s.reason = fmt.Sprintf(format, args...)
	s.TB.Skipf(format, args...)
}

// cleanReportsStrays is TestSSHCleanReportsStrays with start for Start: the
// host is made in the subtest "leave", whose end runs its cleanup, and
// checked gone after it; when start skips there, t skips with its reason.
func cleanReportsStrays(t *testing.T, start func(testing.TB) *Host) {
	var h *Host
	var sleeper int
	var client *exec.Cmd
	var skipped string
	t.Run("leave", func(t *testing.T) {
		h = start(skipNoter{t, &skipped})
		out, errOut, err := run(t, h.Command(context.Background(), "setsid sleep 300 >/dev/null 2>&1 </dev/null & echo $!"))
		if err != nil {
			t.Fatalf("ssh: %v: %s", err, errOut)
		}
		if sleeper, err = strconv.Atoi(strings.TrimSpace(out)); err != nil {
			t.Fatalf("pid of sleep: %q", out)
		}
		want := fmt.Sprintf("sshtest: left running in namespace %s: pid %d (sleep 300)", h.Namespace, sleeper)
		if err := h.Clean(); err == nil || err.Error() != want {
			t.Errorf("Clean() = %v; want %s", err, want)
		}

		// An ssh client still connected: it here, its session there.
		client = h.Command(context.Background(), "sleep", "301")
		if err := client.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { client.Process.Kill(); client.Wait() })
		deadline := time.Now().Add(10 * time.Second)
		for !sessionUp(t, h, "sleep 301") {
			if time.Now().After(deadline) {
				t.Fatal("the session's sleep 301 never started")
			}
			time.Sleep(20 * time.Millisecond)
		}
		err = h.Clean()
		if err == nil {
			t.Fatal("Clean() = nil with an ssh client connected")
		}
		local := fmt.Sprintf("sshtest: left running here, naming the host %s: pid %d (%s)", h.Namespace, client.Process.Pid, strings.Join(client.Args, " "))
		lines := strings.Split(err.Error(), "\n")
		if len(lines) != 2 || !strings.Contains(lines[0], fmt.Sprintf("pid %d (sleep 300)", sleeper)) ||
			!strings.Contains(lines[0], "(sleep 301)") || !strings.Contains(lines[0], "(sshd: root@notty)") || lines[1] != local {
			t.Errorf("Clean() =\n%v\nwant the sleeps and the session's sshd in %s, then\n%s", err, h.Namespace, local)
		}
	})
	switch {
	case t.Failed():
		return
	case skipped != "":
		t.Skip(skipped)
	}
	assertGone(t, h, sleeper)
}

// sessionUp tells whether a process of the namespace runs cmd.
func sessionUp(t *testing.T, h *Host, cmd string) bool {
	pids, err := h.Processes()
	if err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if c, _ := cmdline(pid); c == cmd {
			return true
		}
	}
	return false
}

// assertGone checks that h's namespace, veth and the processes pids are gone.
func assertGone(t *testing.T, h *Host, pids ...int) {
	t.Helper()
	if _, err := os.Stat("/run/netns/" + h.Namespace); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("namespace %s after the cleanup: %v; want it deleted", h.Namespace, err)
	}
	if _, err := net.InterfaceByName(h.hostVeth); err == nil {
		t.Errorf("veth %s after the cleanup: still there", h.hostVeth)
	}
	for _, pid := range append(pids, h.SSHDPid) {
		// Gone, or a zombie its new parent (init) has yet to reap.
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err == nil && !strings.Contains(string(stat), ") Z ") {
			t.Errorf("pid %d after the cleanup: still running: %s", pid, stat)
		}
	}
}

// recorder is a testing.TB whose errors and cleanups are kept, to check what
// Start's cleanup reports.
type recorder struct {
	testing.TB
	errs     []string
	cleanups []func()
}

// newRecorder returns a recorder of t whose cleanups not run by then run at
// t's cleanup: Start may skip or fail after making the namespace, and its
// cleanup must delete it (what it reports is logged).
func newRecorder(t *testing.T) *recorder {
	r := &recorder{TB: t}
	t.Cleanup(func() {
		if len(r.cleanups) == 0 {
			return
		}
		r.cleanup()
		for _, e := range r.errs {
			t.Log(e)
		}
	})
	return r
}

// TestRecorderCleansUp: cleanups kept by a recorder whose test stops first
// (a skip or a fatal error in Start after the namespace exists) run at the
// test's end, once.
func TestRecorderCleansUp(t *testing.T) {
	var ran []string
	t.Run("skips", func(t *testing.T) {
		r := newRecorder(t)
		r.Cleanup(func() { ran = append(ran, "first") })
		r.Cleanup(func() { ran = append(ran, "second") })
		r.Skip("stops before running them")
	})
	t.Run("runs them itself", func(t *testing.T) {
		r := newRecorder(t)
		r.Cleanup(func() { ran = append(ran, "own") })
		r.cleanup()
	})
	if want := []string{"second", "first", "own"}; !slices.Equal(ran, want) {
		t.Errorf("cleanups ran %q; want %q", ran, want)
	}
}

// cleanup runs the cleanups kept, last first, once.
func (r *recorder) cleanup() {
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
	r.cleanups = nil
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Error(args ...any) { r.errs = append(r.errs, fmt.Sprint(args...)) }
func (r *recorder) Cleanup(f func())  { r.cleanups = append(r.cleanups, f) }

func TestSSHCleanupFailsOnStray(t *testing.T) {
	t.Parallel()
	r := newRecorder(t)
	h := Start(r)
	out, errOut, err := run(t, h.Command(context.Background(), "nohup sleep 300 >/dev/null 2>&1 </dev/null & echo $!"))
	if err != nil {
		t.Fatalf("ssh: %v: %s", err, errOut)
	}
	sleeper, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil {
		t.Fatalf("pid of sleep: %q", out)
	}
	start := time.Now()
	r.cleanup()
	t.Logf("cleanup with a stray took %v", time.Since(start).Round(time.Millisecond))
	want := []string{fmt.Sprintf("sshtest: left running in namespace %s: pid %d (sleep 300)", h.Namespace, sleeper)}
	if !slices.Equal(r.errs, want) {
		t.Errorf("the cleanup reported %q; want %q", r.errs, want)
	}
	assertGone(t, h, sleeper)
}

// TestSSHCleanupKillsClient: an ssh client left connected to the host, the
// link down (so that it never hears of sshd's end), is reported by the
// cleanup and killed, not left waiting on a deleted host.
func TestSSHCleanupKillsClient(t *testing.T) {
	t.Parallel()
	r := newRecorder(t)
	h := Start(r)
	client := h.Command(context.Background(), "sleep", "302")
	if err := client.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- client.Wait() }()
	t.Cleanup(func() { client.Process.Kill() })
	for deadline := time.Now().Add(10 * time.Second); !sessionUp(t, h, "sleep 302"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the session's sleep 302 never started")
		}
	}
	if err := h.LinkDown(); err != nil {
		t.Fatal(err)
	}
	r.cleanup()
	local := fmt.Sprintf("sshtest: left running here, naming the host %s: pid %d (%s)", h.Namespace, client.Process.Pid, strings.Join(client.Args, " "))
	if len(r.errs) != 1 || !strings.HasSuffix(r.errs[0], "\n"+local) {
		t.Errorf("the cleanup reported %q; want the session in %s, then %q", r.errs, h.Namespace, local)
	}
	select {
	case err := <-exited:
		if fmt.Sprint(err) != "signal: killed" {
			t.Errorf("the client ended with %v; want it killed", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("the client still runs 10 s after the cleanup")
	}
	assertGone(t, h)
}

func TestSSHCleanupWhenClean(t *testing.T) {
	t.Parallel()
	r := newRecorder(t)
	h := Start(r)
	if out, _, err := run(t, h.Command(context.Background(), "echo", "ok")); err != nil || out != "ok\n" {
		t.Fatalf("ssh echo ok: %q, %v", out, err)
	}
	start := time.Now()
	r.cleanup()
	t.Logf("cleanup took %v", time.Since(start).Round(time.Millisecond))
	if len(r.errs) != 0 {
		t.Errorf("the cleanup reported %q; want nothing", r.errs)
	}
	assertGone(t, h)
}

// TestSSHErrors records what ssh prints when the host cannot be reached or
// refuses the key: the texts a caller's error messages build on.
func TestSSHErrors(t *testing.T) {
	t.Parallel()
	h := Start(t)
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		args   []string
		dest   string
		stderr string
		within time.Duration
	}{
		{"port closed", h.RefusedArgs(), h.Dest,
			fmt.Sprintf("ssh: connect to host %s port 2223: Connection refused\r\n", h.Addr), 2 * time.Second},
		{"no host at the address", h.SSHArgs, h.UnreachableDest(),
			fmt.Sprintf("ssh: connect to host %s port 2222: No route to host\r\n", h.noHostAddr), (ConnectTimeout + 3) * time.Second},
		{"host silent", h.SSHArgs, h.SilentDest(),
			fmt.Sprintf("ssh: connect to host %s port 2222: Connection timed out\r\n", h.silentAddr), (ConnectTimeout + 3) * time.Second},
		{"key refused", h.WrongKeyArgs(), h.Dest,
			fmt.Sprintf("root@%s: Permission denied (publickey).\r\n", h.Addr), 2 * time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			_, errOut, err := run(t, exec.CommandContext(ctx, "ssh", append(slices.Clone(c.args), c.dest, "true")...))
			took := time.Since(start)
			t.Logf("%s: %q after %v", c.name, errOut, took.Round(time.Millisecond))
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 255 {
				t.Errorf("ssh: %v; want exit status 255", err)
			}
			if errOut != c.stderr {
				t.Errorf("stderr %q; want %q", errOut, c.stderr)
			}
			if took > c.within {
				t.Errorf("took %v; want within %v", took, c.within)
			}
		})
	}
}

// TestSSHLinkDown: with the link down, ssh to the host fails (no answer
// within ConnectTimeout, or no route once ARP gives up); back up, it works.
func TestSSHLinkDown(t *testing.T) {
	t.Parallel()
	h := Start(t)
	if err := h.LinkDown(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, errOut, err := run(t, h.Command(context.Background(), "true"))
	took := time.Since(start)
	t.Logf("ssh with the link down: %q after %v", errOut, took.Round(time.Millisecond))
	var exit *exec.ExitError
	timedOut := fmt.Sprintf("ssh: connect to host %s port 2222: Connection timed out\r\n", h.Addr)
	noRoute := fmt.Sprintf("ssh: connect to host %s port 2222: No route to host\r\n", h.Addr)
	if !errors.As(err, &exit) || exit.ExitCode() != 255 || errOut != timedOut && errOut != noRoute {
		t.Errorf("ssh with the link down: %v, stderr %q; want exit status 255 and %q or %q", err, errOut, timedOut, noRoute)
	}
	if within := (ConnectTimeout + 3) * time.Second; took > within {
		t.Errorf("ssh with the link down took %v; want within %v", took, within)
	}
	if err := h.LinkUp(); err != nil {
		t.Fatal(err)
	}
	if out, errOut, err := run(t, h.Command(context.Background(), "echo", "back")); err != nil || out != "back\n" {
		t.Errorf("ssh with the link up again: %q, %q, %v; want \"back\\n\"", out, errOut, err)
	}
}

//go:build linux

package sshtest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

const (
	sshdPath   = "/usr/sbin/sshd"
	sshPort    = 2222
	netnsDir   = "/run/netns"
	privsepDir = "/run/sshd" // sshd refuses to start without it; Debian's init script makes it
	// The stand-in hosts take /29 blocks of 10.213.0.0/16 (8192 of them): a
	// range no Docker, Kubernetes or cloud default uses.
	subnetBase  = 10<<24 | 213<<16
	subnetBits  = 29
	blocks      = 1 << (32 - 16 - (32 - subnetBits))
	readyWithin = 10 * time.Second // Start's bound on sshd accepting a session
	cleanGrace  = 3 * time.Second  // how long Clean waits for strays to exit
	killWithin  = 10 * time.Second // cleanup's bound on the namespace emptying
	ipTimeout   = 10 * time.Second // each ip(8) command
)

// platform is what the Linux half of a Host keeps.
type platform struct {
	hostVeth string        // this end of the veth pair, "tfbt<block>h"
	peerVeth string        // the namespace's end, "tfbt<block>r"
	log      string        // sshd's log (-E)
	key      string        // the authorized client key
	sshdDone chan struct{} // closed when sshd has exited and been reaped
	sshdErr  error         // sshd's exit, once sshdDone is closed

	mu       sync.Mutex
	reported map[int]bool // strays Clean has returned, not reported again at cleanup
}

var started atomic.Int64 // Starts in this process, for unique namespace names

// Start makes a stand-in remote host for t (namespace, /29 veth pair, keys,
// sshd on Addr:2222), or skips t saying why; its cleanup fails t on a stray
// process (Clean), then kills everything in the namespace and deletes it.
func Start(t testing.TB) *Host {
	t.Helper()
	if reason := skipReason(os.Geteuid(), exec.LookPath, fileExists, readShadowRoot); reason != "" {
		t.Skip("sshtest: " + reason)
	}
	reclaimStale(t)
	dir := t.TempDir() // before the cleanup below, so that it is removed after it
	if strings.ContainsAny(dir, " \t\n\"'\\%") {
		t.Fatalf("sshtest: the temporary directory %q holds a space, quote, backslash or %%, which ssh and sshd options cannot carry", dir)
	}
	h := &Host{
		Namespace: fmt.Sprintf("tfbtest-%d-%d", os.Getpid(), started.Add(1)),
		Port:      sshPort,
		User:      "root",
		Home:      filepath.Join(dir, "home"),
	}
	h.reported = map[int]bool{}
	if out, err := ip("netns", "add", h.Namespace); err != nil {
		if notPermitted(out) {
			t.Skipf("sshtest: network namespaces are not permitted here: ip netns add %s: %s", h.Namespace, strings.TrimSpace(out))
		}
		t.Fatalf("sshtest: ip netns add %s: %v: %s", h.Namespace, err, strings.TrimSpace(out))
	}
	t.Cleanup(func() { h.stop(t) })
	if out, err := ip("-n", h.Namespace, "link", "set", "lo", "up"); err != nil {
		t.Fatalf("sshtest: loopback up in %s: %v: %s", h.Namespace, err, out)
	}
	if err := h.link(); err != nil {
		if errors.Is(err, errNoVeth) {
			t.Skipf("sshtest: %v", err)
		}
		t.Fatalf("sshtest: %v", err)
	}
	if err := h.writeFiles(dir); err != nil {
		t.Fatalf("sshtest: %v", err)
	}
	h.startSSHD(t, dir)
	return h
}

// skipReason says why Start cannot run here ("" when it can), from the
// effective uid, PATH lookups, a file check and root's /etc/shadow password
// field (readShadow's error: unknown, not locked).
func skipReason(euid int, lookPath func(string) (string, error), exists func(string) bool, readShadow func() (string, error)) string {
	if euid != 0 {
		return fmt.Sprintf("needs root for ip netns and a veth pair (running as uid %d)", euid)
	}
	if _, err := lookPath("ip"); err != nil {
		return "no ip command (iproute2) on PATH"
	}
	if !exists(sshdPath) {
		return "no " + sshdPath + " (Debian: apt-get install -y openssh-server)"
	}
	for _, cmd := range []string{"ssh", "ssh-keygen"} {
		if _, err := lookPath(cmd); err != nil {
			return "no " + cmd + " on PATH (Debian: apt-get install -y openssh-client)"
		}
	}
	if pw, err := readShadow(); err == nil && strings.HasPrefix(pw, "!") {
		return `root's account is locked (its /etc/shadow password starts with "!"), and sshd without PAM refuses a locked account`
	}
	return ""
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// readShadowRoot returns root's password field in /etc/shadow.
func readShadowRoot() (string, error) {
	f, err := os.Open("/etc/shadow")
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "root:"); ok {
			pw, _, _ := strings.Cut(rest, ":")
			return pw, nil
		}
	}
	return "", errors.New("no root in /etc/shadow")
}

// notPermitted tells whether ip's output says the kernel refused.
func notPermitted(out string) bool {
	return strings.Contains(out, "Operation not permitted") || strings.Contains(out, "Permission denied")
}

var errNoVeth = errors.New("no veth support")

// link takes a free /29 block: the veth end named after it is the lock, as
// `ip link add` fails with "File exists" when another Host holds the block.
// Blocks overlapping an address of this machine are passed over.
func (h *Host) link() error {
	local, err := net.InterfaceAddrs()
	if err != nil {
		return fmt.Errorf("addresses of this machine: %w", err)
	}
	first := int((uint64(os.Getpid())*2654435761 + uint64(started.Load())) % blocks)
	for i := range blocks {
		b := (first + i) % blocks
		network := uint32(subnetBase + b<<(32-subnetBits))
		if overlaps(local, network) {
			continue
		}
		hostVeth, peer := fmt.Sprintf("tfbt%dh", b), fmt.Sprintf("tfbt%dr", b)
		out, err := ip("link", "add", hostVeth, "type", "veth", "peer", "name", peer, "netns", h.Namespace)
		if strings.Contains(out, "File exists") {
			continue
		}
		if err != nil {
			if strings.Contains(out, "not supported") || strings.Contains(out, "Unknown device type") {
				return fmt.Errorf("%w: ip link add %s type veth: %s", errNoVeth, hostVeth, strings.TrimSpace(out))
			}
			return fmt.Errorf("ip link add %s type veth: %v: %s", hostVeth, err, strings.TrimSpace(out))
		}
		h.hostVeth, h.peerVeth = hostVeth, peer
		h.LocalAddr = ipv4(network + 1)
		h.Addr = ipv4(network + 2)
		h.silentAddr = ipv4(network + 5)
		h.noHostAddr = ipv4(network + 6)
		h.Dest = h.User + "@" + h.Addr
		prefix := "/" + strconv.Itoa(subnetBits)
		// A permanent neighbour entry with a MAC nobody has: frames to
		// silentAddr leave the veth and the namespace drops them.
		for _, args := range [][]string{
			{"addr", "add", h.LocalAddr + prefix, "dev", hostVeth},
			{"link", "set", hostVeth, "up"},
			{"neigh", "replace", h.silentAddr, "lladdr", "02:00:00:00:00:01", "dev", hostVeth, "nud", "permanent"},
			{"-n", h.Namespace, "addr", "add", h.Addr + prefix, "dev", peer},
			{"-n", h.Namespace, "link", "set", peer, "up"},
		} {
			if out, err := ip(args...); err != nil {
				return fmt.Errorf("ip %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(out))
			}
		}
		return nil
	}
	return fmt.Errorf("no free /%d left in %s/16", subnetBits, ipv4(subnetBase))
}

// overlaps tells whether the /29 at network overlaps any of addrs.
func overlaps(addrs []net.Addr, network uint32) bool {
	block := &net.IPNet{IP: net.ParseIP(ipv4(network)), Mask: net.CIDRMask(subnetBits, 32)}
	for _, a := range addrs {
		n, ok := a.(*net.IPNet)
		if !ok || n.IP.To4() == nil {
			continue
		}
		if n.Contains(block.IP) || block.Contains(n.IP) {
			return true
		}
	}
	return false
}

func ipv4(a uint32) string {
	return net.IPv4(byte(a>>24), byte(a>>16), byte(a>>8), byte(a)).String()
}

// writeFiles makes the keys, authorized_keys, known_hosts, sshd_config and
// the client's ssh_config in dir, and sets SSHArgs and Config.
func (h *Host) writeFiles(dir string) error {
	if err := os.MkdirAll(h.Home, 0o700); err != nil {
		return err
	}
	h.key = filepath.Join(dir, "client_key")
	h.wrongKey = filepath.Join(dir, "wrong_key")
	hostKey := filepath.Join(dir, "host_key")
	for _, k := range []string{h.key, h.wrongKey, hostKey} {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "sshtest "+h.Namespace, "-f", k).CombinedOutput(); err != nil {
			return fmt.Errorf("ssh-keygen -f %s: %v: %s", k, err, out)
		}
	}
	clientPub, err := os.ReadFile(h.key + ".pub")
	if err != nil {
		return err
	}
	hostPub, err := os.ReadFile(hostKey + ".pub")
	if err != nil {
		return err
	}
	authorized := filepath.Join(dir, "authorized_keys")
	knownHosts := filepath.Join(dir, "known_hosts")
	typ, blob, _ := strings.Cut(strings.TrimSpace(string(hostPub)), " ")
	blob, _, _ = strings.Cut(blob, " ")
	files := map[string]string{
		authorized: string(clientPub),
		knownHosts: fmt.Sprintf("[%s]:%d %s %s\n", h.Addr, h.Port, typ, blob),
	}

	env, err := remoteEnv(h.Home)
	if err != nil {
		return err
	}
	sshdConfig := filepath.Join(dir, "sshd_config")
	var c strings.Builder
	fmt.Fprintf(&c, "# sshtest: sshd of the stand-in host %s\n", h.Namespace)
	fmt.Fprintf(&c, "ListenAddress %s:%d\n", h.Addr, h.Port)
	fmt.Fprintf(&c, "HostKey %s\n", hostKey)
	fmt.Fprintf(&c, "AuthorizedKeysFile %s\n", authorized)
	fmt.Fprintf(&c, "PidFile %s\n", filepath.Join(dir, "sshd.pid"))
	c.WriteString("StrictModes no\n") // the keys live under t.TempDir()
	c.WriteString("PubkeyAuthentication yes\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n")
	c.WriteString("UsePAM no\nPermitRootLogin prohibit-password\n")
	c.WriteString("PrintMotd no\nPrintLastLog no\nUseDNS no\nLogLevel VERBOSE\n")
	c.WriteString("MaxStartups 100\n") // parallel tests' sessions are not an attack
	if sshdPenalties() {
		c.WriteString("PerSourcePenalties no\n") // OpenSSH ≥ 9.8 would block LocalAddr after the wrong-key tests
	}
	c.WriteString("SetEnv")
	for _, kv := range env {
		fmt.Fprintf(&c, " \"%s\"", kv)
	}
	c.WriteString("\n")
	files[sshdConfig] = c.String()

	h.SSHArgs = []string{
		"-F", "/dev/null", // none of this machine's ssh_config
		"-i", h.key,
		"-p", strconv.Itoa(h.Port),
		"-o", "IdentitiesOnly=yes",
		"-o", "UserKnownHostsFile=" + knownHosts,
		"-o", "GlobalKnownHostsFile=/dev/null",
		"-o", "StrictHostKeyChecking=yes",
		"-o", "BatchMode=yes",
		"-o", "ConnectTimeout=" + strconv.Itoa(ConnectTimeout),
	}
	h.Config = filepath.Join(dir, "ssh_config")
	files[h.Config] = fmt.Sprintf(`# sshtest: the stand-in host %[1]s, sshd on %[2]s port %[3]d.
# ssh -F this-file %[1]s CMD, or ssh -F this-file root@%[2]s CMD
Host %[1]s
    HostName %[2]s
Host *
    User %[4]s
    Port %[3]d
    IdentityFile %[5]s
    IdentitiesOnly yes
    UserKnownHostsFile %[6]s
    GlobalKnownHostsFile /dev/null
    StrictHostKeyChecking yes
    BatchMode yes
    ConnectTimeout %[7]d
`, h.Namespace, h.Addr, h.Port, h.User, h.key, knownHosts, ConnectTimeout)

	for path, content := range files {
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			return err
		}
	}
	return nil
}

// remoteEnv returns the NAME=VALUE pairs sshd sets in every session: HOME,
// this process's PATH, and Go's cache locations as `go env` gives them here.
func remoteEnv(home string) ([]string, error) {
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	if goBin, err := exec.LookPath("go"); err == nil {
		cmd := exec.Command(goBin, "env", "GOCACHE", "GOMODCACHE", "GOPATH")
		cmd.Dir = os.TempDir() // no go.mod to switch toolchains
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("go env: %w", err)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		for i, name := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
			if i < len(lines) && lines[i] != "" {
				env = append(env, name+"="+lines[i])
			}
		}
	}
	for _, kv := range env {
		if strings.ContainsAny(kv, "\"\\\n") {
			return nil, fmt.Errorf("%q holds a quote, backslash or newline, which sshd_config's SetEnv cannot carry", kv)
		}
	}
	return env, nil
}

var sshdVersion = regexp.MustCompile(`OpenSSH_(\d+)\.(\d+)`)

// sshdPenalties tells whether sshd knows PerSourcePenalties (OpenSSH 9.8 and
// later), from `sshd -V`.
func sshdPenalties() bool {
	out, _ := exec.Command(sshdPath, "-V").CombinedOutput()
	return penaltiesIn(string(out))
}

func penaltiesIn(version string) bool {
	m := sshdVersion.FindStringSubmatch(version)
	if m == nil {
		return false
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	return major > 9 || major == 9 && minor >= 8
}

// startSSHD runs sshd in the namespace as a child of this process (killed
// with it: Pdeathsig), waits until a session has run `true`, then until that
// session's processes are gone.
func (h *Host) startSSHD(t testing.TB, dir string) {
	t.Helper()
	if err := os.MkdirAll(privsepDir, 0o755); err != nil {
		t.Fatalf("sshtest: %v", err)
	}
	h.log = filepath.Join(dir, "sshd.log")
	logFile, err := os.OpenFile(h.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatalf("sshtest: %v", err)
	}
	defer logFile.Close()
	// ip netns exec execs sshd (no fork): the child's pid is sshd's.
	cmd := exec.Command("ip", "netns", "exec", h.Namespace, sshdPath, "-D", "-f", filepath.Join(dir, "sshd_config"), "-E", h.log)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatalf("sshtest: start sshd: %v", err)
	}
	h.SSHDPid = cmd.Process.Pid
	h.sshdDone = make(chan struct{})
	go func() {
		h.sshdErr = cmd.Wait()
		close(h.sshdDone)
	}()

	deadline := time.Now().Add(readyWithin)
	var last string
	for {
		select {
		case <-h.sshdDone:
			t.Fatalf("sshtest: sshd exited at start (%v); its log:\n%s", h.sshdErr, h.readLog())
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), readyWithin)
		out, err := h.Command(ctx, "true").CombinedOutput()
		cancel()
		if err == nil {
			break
		}
		last = fmt.Sprintf("%v: %s", err, strings.TrimSpace(string(out)))
		if time.Now().After(deadline) {
			t.Fatalf("sshtest: sshd on %s:%d took no session within %v (last ssh: %s); its log:\n%s", h.Addr, h.Port, readyWithin, last, h.readLog())
		}
		time.Sleep(50 * time.Millisecond)
	}
	// That session's sshd processes exit just after it: Start returns with
	// sshd's listener alone in the namespace.
	for {
		pids, err := h.Processes()
		if err != nil {
			t.Fatalf("sshtest: %v", err)
		}
		if slices.Equal(pids, []int{h.SSHDPid}) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("sshtest: namespace %s holds %v, not sshd (%d) alone, %v after its start", h.Namespace, pids, h.SSHDPid, readyWithin)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// LinkDown takes the namespace's end of the veth down, as when the host's
// network dies: what is sent to Addr is lost and nothing comes back, so
// sessions stall and new connections fail, until LinkUp.
func (h *Host) LinkDown() error { return h.setLink("down") }

// LinkUp brings the namespace's end of the veth back up after LinkDown.
func (h *Host) LinkUp() error { return h.setLink("up") }

func (h *Host) setLink(state string) error {
	if out, err := ip("-n", h.Namespace, "link", "set", h.peerVeth, state); err != nil {
		return fmt.Errorf("sshtest: ip -n %s link set %s %s: %v: %s", h.Namespace, h.peerVeth, state, err, strings.TrimSpace(out))
	}
	return nil
}

func (h *Host) readLog() string {
	b, err := os.ReadFile(h.log)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// Processes returns the pids running in the namespace (ip netns pids),
// sshd's listener (SSHDPid) among them.
func (h *Host) Processes() ([]int, error) { return nsPids(h.Namespace) }

func nsPids(ns string) ([]int, error) {
	out, err := ip("netns", "pids", ns)
	if err != nil {
		return nil, fmt.Errorf("ip netns pids %s: %v: %s", ns, err, strings.TrimSpace(out))
	}
	var pids []int
	for _, f := range strings.Fields(out) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("ip netns pids %s: %q is no pid", ns, f)
		}
		pids = append(pids, pid)
	}
	return pids, nil
}

// proc is a process and its command line.
type proc struct {
	pid int
	cmd string
}

// Clean waits up to 3 s for the namespace to hold only sshd's listener and
// for no process here to name the host in its command line; else its error
// names each stray, which the test's cleanup then does not report again.
func (h *Host) Clean() error {
	remote, local, err := h.waitStrays(false)
	if err != nil {
		return err
	}
	h.mu.Lock()
	for _, p := range append(remote, local...) {
		h.reported[p.pid] = true
	}
	h.mu.Unlock()
	return h.straysError(remote, local)
}

func (h *Host) straysError(remote, local []proc) error {
	var errs []error
	if len(remote) > 0 {
		errs = append(errs, fmt.Errorf("sshtest: left running in namespace %s: %s", h.Namespace, describe(remote)))
	}
	if len(local) > 0 {
		errs = append(errs, fmt.Errorf("sshtest: left running here, naming the host %s: %s", h.Namespace, describe(local)))
	}
	return errors.Join(errs...)
}

func describe(ps []proc) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = fmt.Sprintf("pid %d (%s)", p.pid, p.cmd)
	}
	return strings.Join(s, ", ")
}

// waitStrays polls strays until there are none (none not yet reported, with
// unreported) or cleanGrace has passed.
func (h *Host) waitStrays(unreported bool) (remote, local []proc, err error) {
	deadline := time.Now().Add(cleanGrace)
	for {
		remote, local, err = h.strays()
		if err != nil {
			return nil, nil, err
		}
		if unreported {
			h.mu.Lock()
			seen := func(p proc) bool { return h.reported[p.pid] }
			remote, local = slices.DeleteFunc(remote, seen), slices.DeleteFunc(local, seen)
			h.mu.Unlock()
		}
		if len(remote)+len(local) == 0 || time.Now().After(deadline) {
			return remote, local, nil
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// strays lists the processes in the namespace other than sshd's listener,
// and those outside it whose command line names the host.
func (h *Host) strays() (remote, local []proc, err error) {
	pids, err := h.Processes()
	if err != nil {
		return nil, nil, err
	}
	inside := map[int]bool{}
	for _, pid := range pids {
		inside[pid] = true
		if pid == h.SSHDPid {
			continue
		}
		if cmd, ok := cmdline(pid); ok {
			remote = append(remote, proc{pid, cmd})
		}
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, nil, err
	}
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self || inside[pid] || pid == h.SSHDPid {
			continue
		}
		raw, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || len(raw) == 0 {
			continue // gone, or a kernel thread or zombie
		}
		cmd := strings.TrimSpace(strings.ReplaceAll(string(raw), "\x00", " "))
		if h.namedIn(cmd) {
			local = append(local, proc{pid, cmd})
		}
	}
	return remote, local, nil
}

// namedIn tells whether cmd names the host: its address (not as the prefix
// of a longer one), namespace, Config or client key.
func (h *Host) namedIn(cmd string) bool {
	for _, name := range []string{h.Addr, h.Namespace, h.Config, h.key} {
		for i := 0; name != ""; {
			j := strings.Index(cmd[i:], name)
			if j < 0 {
				break
			}
			start, end := i+j, i+j+len(name)
			before := start == 0 || !strings.ContainsRune("0123456789.", rune(cmd[start-1]))
			after := end == len(cmd) || !strings.ContainsRune("0123456789.", rune(cmd[end]))
			if before && after {
				return true
			}
			i = start + 1
		}
	}
	return false
}

// cmdline returns pid's command line, spaces for NULs; [comm] when it has
// none; false when the process is gone.
func cmdline(pid int) (string, bool) {
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	raw, err := os.ReadFile(filepath.Join(dir, "cmdline"))
	if err != nil {
		return "", false
	}
	if cmd := strings.TrimSpace(strings.ReplaceAll(string(raw), "\x00", " ")); cmd != "" {
		return cmd, true
	}
	comm, err := os.ReadFile(filepath.Join(dir, "comm"))
	if err != nil {
		return "", false
	}
	return "[" + strings.TrimSpace(string(comm)) + "]", true
}

// stop is the cleanup: it fails t for strays Clean has not reported, kills
// them here and everything in the namespace, waits for that to be gone and
// deletes the veth pair and the namespace. sshd's log goes to t's output when t has failed.
func (h *Host) stop(t testing.TB) {
	t.Helper()
	if h.sshdDone != nil {
		select {
		case <-h.sshdDone:
			t.Errorf("sshtest: sshd of %s exited before the cleanup: %v", h.Namespace, h.sshdErr)
		default:
		}
	}
	if remote, local, err := h.waitStrays(true); err != nil {
		t.Errorf("sshtest: %v", err)
	} else if err := h.straysError(remote, local); err != nil {
		t.Error(err)
	}
	// Clients here naming the host (reported now or by Clean) would
	// outlive it: an ssh with no ServerAlive waits on TCP for hours.
	if _, local, err := h.strays(); err == nil {
		for _, p := range local {
			_ = syscall.Kill(p.pid, syscall.SIGKILL) // ESRCH: gone since
		}
	}
	if err := killAll(h.Namespace); err != nil {
		t.Errorf("sshtest: %v", err)
	}
	if h.sshdDone != nil {
		select {
		case <-h.sshdDone:
		case <-time.After(killWithin):
			t.Errorf("sshtest: sshd (pid %d) not reaped %v after SIGKILL", h.SSHDPid, killWithin)
		}
	}
	if h.hostVeth != "" {
		if out, err := ip("link", "del", h.hostVeth); err != nil && !strings.Contains(out, "Cannot find device") {
			t.Errorf("sshtest: ip link del %s: %v: %s", h.hostVeth, err, strings.TrimSpace(out))
		}
	}
	if out, err := ip("netns", "del", h.Namespace); err != nil {
		t.Errorf("sshtest: ip netns del %s: %v: %s", h.Namespace, err, strings.TrimSpace(out))
	}
	if t.Failed() && h.log != "" {
		t.Logf("sshtest: sshd's log for %s:\n%s", h.Namespace, h.readLog())
	}
}

// killAll sends SIGKILL to every process in ns until none is left (a
// process may fork meanwhile), within killWithin.
func killAll(ns string) error {
	deadline := time.Now().Add(killWithin)
	for {
		pids, err := nsPids(ns)
		if err != nil {
			return err
		}
		if len(pids) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("still running in namespace %s %v after SIGKILL: pids %v", ns, killWithin, pids)
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL) // ESRCH: already gone
		}
		time.Sleep(20 * time.Millisecond)
	}
}

var staleName = regexp.MustCompile(`^tfbtest-(\d+)-\d+$`)

// reclaimStale deletes the namespaces of test processes that died without
// their cleanup (a go test timeout, a kill): sshd itself died with them
// (Pdeathsig), but its sessions' processes may live on in the namespace.
func reclaimStale(t testing.TB) {
	entries, err := os.ReadDir(netnsDir)
	if err != nil {
		return // no namespace yet
	}
	for _, e := range entries {
		m := staleName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		pid, _ := strconv.Atoi(m[1])
		if pid == os.Getpid() || !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
			continue // ours, or its test process still runs
		}
		if err := killAll(e.Name()); err != nil {
			t.Logf("sshtest: stale namespace %s: %v", e.Name(), err)
			continue
		}
		if out, err := ip("netns", "del", e.Name()); err != nil {
			t.Logf("sshtest: stale namespace %s: ip netns del: %v: %s", e.Name(), err, strings.TrimSpace(out))
		} else {
			t.Logf("sshtest: deleted the stale namespace %s (its test process %d is gone)", e.Name(), pid)
		}
	}
}

// ip runs ip(8) and returns its combined output.
func ip(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), ipTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, "ip", args...).CombinedOutput()
	return string(out), err
}

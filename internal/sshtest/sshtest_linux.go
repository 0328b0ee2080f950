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

// ip runs ip(8) and returns its combined output.
func ip(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), ipTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, "ip", args...).CombinedOutput()
	return string(out), err
}

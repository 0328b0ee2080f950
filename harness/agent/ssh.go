package agent

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/tfbench/tfbench/internal/yamlfile"
)

// Options say where the servers run: over SSH (ServerHost) or through any
// stdio command (ServerCmd); the flags --server-host, --server-cmd and
// --server-addr, or a machines file's keys of the same names.
type Options struct {
	// ServerHost is "[user@]host[:port]": ssh runs `tfbench agent` there,
	// copying this tfbench (built for the host's OS and architecture)
	// into AgentDir first when it is missing or another build.
	ServerHost string
	// ServerCmd is a command whose stdio reaches `tfbench agent` (run with
	// sh -c), e.g. "kubectl exec -i POD -- tfbench agent".
	ServerCmd string
	// ServerAddr is the address the generator targets; "" is ServerHost's
	// host, or 127.0.0.1 for ServerCmd.
	ServerAddr string
	// SSH is the ssh command (split on spaces); "" is $TFBENCH_SSH, else
	// "ssh" (as rsync -e and GIT_SSH_COMMAND).
	SSH string
	// AgentDir is the agent's folder on the server host, relative to the
	// login's home: its binary and work folder; "" is ".tfbench-agent".
	AgentDir string
	// Log receives progress lines (the binary copied).
	Log io.Writer
}

// Remote reports whether o names another host at all (or only an
// address, which Connect refuses).
func (o Options) Remote() bool { return o.ServerHost != "" || o.ServerCmd != "" || o.ServerAddr != "" }

// LoadMachines reads a machines file (YAML strings server_host, server_cmd,
// server_addr, ssh, agent_dir) into o's empty fields; a way to the host in
// o (a flag) wins over the file's. Errors name the file, line and key.
func LoadMachines(path string, o *Options) error {
	flagWay := o.ServerHost != "" || o.ServerCmd != ""
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	f := yamlfile.File{Path: path}
	root, err := f.Decode(data, "a mapping of keys (server_host, server_cmd, server_addr, ssh, agent_dir)")
	if err != nil {
		return err
	}
	entries, err := f.Entries(root, "")
	if err != nil {
		return err
	}
	for _, e := range entries {
		var dst *string
		switch e.Path {
		case "server_host":
			dst = &o.ServerHost
		case "server_cmd":
			dst = &o.ServerCmd
		case "server_addr":
			dst = &o.ServerAddr
		case "ssh":
			dst = &o.SSH
		case "agent_dir":
			dst = &o.AgentDir
		default:
			return f.Errorf(e.Key, e.Path, "unknown key (want server_host, server_cmd, server_addr, ssh or agent_dir)")
		}
		v, err := f.Str(e.Value, e.Path)
		if err != nil {
			return err
		}
		if e.Value.Tag != "!!str" {
			return f.Errorf(e.Value, e.Path, "must be a string, found %s (quote it)", e.Value.Value)
		}
		if e.Path == "server_host" {
			if _, _, _, err := splitDest(v); err != nil {
				return f.Errorf(e.Value, e.Path, "%v", err)
			}
		}
		if why := optionLike(e.Path, v); why != "" {
			return f.Errorf(e.Value, e.Path, "%s", why)
		}
		if flagWay && (e.Path == "server_host" || e.Path == "server_cmd") {
			continue
		}
		if *dst == "" {
			*dst = v
		}
	}
	return nil
}

// connectTimeout is ssh's ConnectTimeout, seconds, unless the ssh command
// sets its own: a host that drops packets fails in that time, not ssh's
// minutes.
const connectTimeout = 10

// ServerAliveInterval and ServerAliveCountMax for ssh unless the ssh command
// (the ssh option, or $TFBENCH_SSH) sets them: ssh ends 30 to 40 s after the
// host last answered, not after TCP's 2 hours. They win over ~/.ssh/config,
// as every -o does.
const (
	serverAliveInterval = 10
	serverAliveCountMax = 3
)

// Connect reaches the agent o names and says hello: over ssh, after
// putting this tfbench there when needed (sshBootstrap); or through
// ServerCmd as given.
func Connect(ctx context.Context, o Options) (*Client, error) {
	if o.Log == nil {
		o.Log = io.Discard
	}
	for _, c := range []struct{ name, key, v string }{{"--server-cmd", "server_cmd", o.ServerCmd}, {"ssh", "ssh", o.SSH}, {"agent_dir", "agent_dir", o.AgentDir}} {
		if why := optionLike(c.key, c.v); why != "" {
			return nil, fmt.Errorf("%s %q: %s", c.name, c.v, why)
		}
	}
	switch {
	case o.ServerHost == "" && o.ServerCmd == "" && o.ServerAddr != "":
		return nil, errors.New("--server-addr names where the generator reaches a server host: give --server-host or --server-cmd too")
	case o.ServerHost != "" && o.ServerCmd != "":
		return nil, errors.New("--server-host and --server-cmd both given: name one way to the server host")
	case o.ServerCmd != "":
		addr := o.ServerAddr
		if addr == "" {
			addr = "127.0.0.1"
		}
		return Dial(ctx, Transport{Argv: []string{"sh", "-c", o.ServerCmd}, Name: "command " + o.ServerCmd, Addr: addr})
	case o.ServerHost == "":
		return nil, errors.New("no server host given")
	}
	dest, port, host, err := parseDest(o.ServerHost)
	if err != nil {
		return nil, err
	}
	ssh := strings.Fields(o.SSH)
	if len(ssh) == 0 {
		ssh = strings.Fields(os.Getenv("TFBENCH_SSH"))
	}
	if len(ssh) == 0 {
		ssh = []string{"ssh"}
	}
	// After the user's own options (ssh keeps the first value of each): no
	// prompts, a bound on connecting and on a host that stops answering, no
	// chatter on stderr.
	ssh = append(ssh, "-o", "BatchMode=yes", "-o", "ConnectTimeout="+strconv.Itoa(connectTimeout),
		"-o", "ServerAliveInterval="+strconv.Itoa(serverAliveInterval), "-o", "ServerAliveCountMax="+strconv.Itoa(serverAliveCountMax),
		"-o", "LogLevel=ERROR")
	if port != "" {
		ssh = append(ssh, "-p", port)
	}
	ssh = append(ssh, dest)
	dir := o.AgentDir
	if dir == "" {
		dir = ".tfbench-agent"
	}
	addr := o.ServerAddr
	if addr == "" {
		addr = host
	}
	t := Transport{Name: "ssh " + o.ServerHost, Addr: addr, SSH: true}
	bin, err := sshBootstrap(ctx, ssh, dir, t.Name, o.Log)
	if err != nil {
		return nil, err
	}
	t.Argv = append(slicesClone(ssh), shellQuote(bin)+" agent --work "+shellQuote(dir+"/work"))
	return Dial(ctx, t)
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

// parseDest splits "[user@]host[:port]" (host may be [v6]) into ssh's
// destination, the port ("" for ssh's default) and the host; errors name
// --server-host (a machines file's are checked by LoadMachines).
func parseDest(s string) (dest, port, host string, err error) {
	if dest, port, host, err = splitDest(s); err != nil {
		return "", "", "", fmt.Errorf("--server-host %q: %w", s, err)
	}
	return dest, port, host, nil
}

// splitDest is parseDest with errors that say only what is wrong. A user
// or host beginning with "-" is refused: ssh would read it as an option
// (-oProxyCommand=... runs a command on this host).
func splitDest(s string) (dest, port, host string, err error) {
	user, hp, hasUser := strings.Cut(s, "@")
	if !hasUser {
		user, hp = "", s
	}
	host = hp
	if h, p, err := net.SplitHostPort(hp); err == nil {
		host, port = h, p
		if _, err := strconv.ParseUint(p, 10, 16); err != nil {
			return "", "", "", fmt.Errorf("port %q is not a number", p)
		}
	}
	host = strings.Trim(host, "[]")
	if host == "" || strings.ContainsAny(host, " /") {
		return "", "", "", errors.New("want [user@]host[:port]")
	}
	if strings.HasPrefix(user, "-") {
		return "", "", "", fmt.Errorf("user %q begins with \"-\", which ssh would read as an option", user)
	}
	if strings.HasPrefix(host, "-") {
		return "", "", "", fmt.Errorf("host %q begins with \"-\", which ssh would read as an option", host)
	}
	dest = host
	if user != "" {
		dest = user + "@" + host
	}
	return dest, port, host, nil
}

// optionLike says why value v of a machines file key may not begin with
// "-", or "": the command it is handed to would read it as an option (sh -c
// for server_cmd; mkdir, chmod and mv for agent_dir).
func optionLike(key, v string) string {
	switch key {
	case "server_cmd":
		if strings.HasPrefix(v, "-") {
			return `begins with "-", which sh -c would read as an option`
		}
	case "agent_dir":
		if strings.HasPrefix(v, "-") {
			return `begins with "-", which mkdir, chmod and mv on the server host would read as an option`
		}
	case "ssh":
		if f := strings.Fields(v); len(f) > 0 && strings.HasPrefix(f[0], "-") {
			return fmt.Sprintf("first word %q begins with \"-\": the ssh program comes first, then its options", f[0])
		}
	}
	return ""
}

// shellQuote quotes s for the remote shell ssh runs commands with.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// sshBootstrap copies this tfbench (built for the remote's platform when it
// differs) to dir on the remote unless the same bytes are there, and
// returns the remote binary's path, relative to the login's home.
func sshBootstrap(ctx context.Context, ssh []string, dir, name string, log io.Writer) (string, error) {
	bin := dir + "/tfbench"
	script := `uname -s; uname -m; f=` + shellQuote(bin) + `; if [ -f "$f" ]; then (sha256sum "$f" 2>/dev/null || shasum -a 256 "$f") | cut -d' ' -f1; else echo none; fi`
	out, err := sshRun(ctx, ssh, script, nil, name)
	if err != nil {
		return "", err
	}
	f := strings.Fields(out)
	if len(f) != 3 {
		return "", fmt.Errorf("server host %s: cannot tell its platform: uname and sha256sum printed %q", name, out)
	}
	goos, goarch := platform(f[0], f[1])
	if goos == "" || goarch == "" {
		return "", fmt.Errorf("server host %s: %s %s is not a platform tfbench runs on (linux or darwin, amd64 or arm64)", name, f[0], f[1])
	}
	local, err := binaryFor(ctx, goos, goarch)
	if err != nil {
		return "", fmt.Errorf("server host %s is %s/%s: %w", name, goos, goarch, err)
	}
	data, err := os.ReadFile(local)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) == f[2] {
		return bin, nil
	}
	copyCmd := `mkdir -p ` + shellQuote(dir) + ` && cat > ` + shellQuote(bin+".new") + ` && chmod 755 ` + shellQuote(bin+".new") + ` && mv -f ` + shellQuote(bin+".new") + ` ` + shellQuote(bin)
	if _, err := sshRun(ctx, ssh, copyCmd, bytes.NewReader(data), name); err != nil {
		return "", err
	}
	fmt.Fprintf(log, "server host %s: copied tfbench (%s/%s, %.1f MB) to %s\n", name, goos, goarch, float64(len(data))/1e6, bin)
	return bin, nil
}

// platform maps uname -s and -m to GOOS and GOARCH ("" when unknown).
func platform(sys, machine string) (goos, goarch string) {
	switch sys {
	case "Linux":
		goos = "linux"
	case "Darwin":
		goos = "darwin"
	}
	switch machine {
	case "x86_64", "amd64":
		goarch = "amd64"
	case "aarch64", "arm64":
		goarch = "arm64"
	}
	return goos, goarch
}

// binaryFor is a tfbench binary for goos/goarch: this one when they match
// this process's, else a CGO_ENABLED=0 build of the working directory's
// checkout, cached in the user cache directory.
func binaryFor(ctx context.Context, goos, goarch string) (string, error) {
	if goos == runtime.GOOS && goarch == runtime.GOARCH {
		return os.Executable()
	}
	root, err := checkout()
	if err != nil {
		return "", err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	out := filepath.Join(cache, "tfbench", "agent-"+goos+"-"+goarch)
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, "./cmd/tfbench")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build tfbench for it (go build ./cmd/tfbench in %s): %v: %s", root, err, strings.TrimSpace(string(msg)))
	}
	return out, nil
}

// modulePath is tfbench's Go module, whose checkout binaryFor builds in.
const modulePath = "github.com/tfbench/tfbench"

// checkout is the tfbench checkout holding the working directory: the
// nearest folder upwards whose go.mod declares modulePath.
func checkout() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.HasPrefix(strings.TrimSpace(string(b)), "module "+modulePath+"\n") {
			return dir, nil
		}
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("building tfbench for another platform needs its checkout: run from inside it (%s is not), or put a tfbench built for that host in its agent_dir", wd)
		}
	}
}

// sshRun runs script on the remote through ssh and returns its stdout;
// failures are worded as Dial's are (unreachable, authentication refused).
func sshRun(ctx context.Context, ssh []string, script string, stdin io.Reader, name string) (string, error) {
	cmd := exec.CommandContext(ctx, ssh[0], append(slicesClone(ssh[1:]), script)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &stdout, &stderr
	err := cmd.Run()
	if err == nil {
		return stdout.String(), nil
	}
	code := -1
	if cmd.ProcessState != nil {
		code = cmd.ProcessState.ExitCode()
	}
	return "", classify(name, true, code, stderr.String(), err)
}

// classify words a transport that ended before the agent answered:
// authentication refused, unreachable (ssh's exit status 255 with its
// message), no agent there (status 127), or the status and stderr.
func classify(name string, ssh bool, code int, stderr string, err error) error {
	msg := strings.TrimSpace(stderr)
	last := lastLine(msg)
	switch {
	case ssh && strings.Contains(msg, "Permission denied"):
		return fmt.Errorf("server host %s: authentication refused: %s", name, last)
	case ssh && code == 255 && containsAny(msg, "Connection refused", "No route to host", "Could not resolve", "timed out", "Network is unreachable", "Connection closed by", "Connection reset"):
		return fmt.Errorf("server host %s: unreachable: %s", name, last)
	case code == 127 || containsAny(msg, "not found", "No such file"):
		return fmt.Errorf("server host %s: no tfbench agent there: %s", name, last)
	}
	if msg != "" {
		return fmt.Errorf("server host %s: %v; stderr: %s", name, err, strings.ReplaceAll(msg, "\n", " | "))
	}
	return fmt.Errorf("server host %s: %v", name, err)
}

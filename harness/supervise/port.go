package supervise

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"syscall"

	gnet "github.com/shirou/gopsutil/v4/net"

	"github.com/tfbench/tfbench/internal/procs"
)

// freePort is FreePort; tests replace it to lose the race for a port.
var freePort = FreePort

// portInUse reports whether 127.0.0.1:port cannot be bound because some
// socket holds it, and if so names the holder (see holderOf). Other bind
// errors (a privileged port) are returned as err.
func portInUse(ctx context.Context, port int) (holder string, inUse bool, err error) {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err == nil {
		ln.Close()
		return "", false, nil
	}
	if !errors.Is(err, syscall.EADDRINUSE) {
		return "", false, err
	}
	_, holder = holderOf(ctx, port, false)
	return holder, true, nil
}

// conflicts reports whether a socket bound to ip keeps 127.0.0.1 from
// being bound on the same port: 127.0.0.1 itself or a wildcard ("*" is
// how lsof, the source on darwin, writes it).
func conflicts(ip string) bool {
	switch ip {
	case "127.0.0.1", "0.0.0.0", "::", "::ffff:127.0.0.1", "", "*":
		return true
	}
	return false
}

// holderOf finds the process holding TCP port on 127.0.0.1 in the kernel's
// socket tables (a listener, else, unless listenOnly, any socket bound there).
// It returns its pid, 0 when unknown, and a text for errors: "pid 987 (nginx)",
// "a process of another user" or "an unknown process".
func holderOf(ctx context.Context, port int, listenOnly bool) (int, string) {
	conns, err := tcpSockets(ctx, 0)
	if err != nil {
		return 0, "an unknown process (" + err.Error() + ")"
	}
	var found *gnet.ConnectionStat
	for i, c := range conns {
		if c.Laddr.Port != uint32(port) || !conflicts(c.Laddr.IP) {
			continue
		}
		if c.Status == "LISTEN" {
			found = &conns[i]
			if c.Pid > 0 {
				break
			}
		} else if found == nil && !listenOnly {
			found = &conns[i]
		}
	}
	switch {
	case found == nil:
		return 0, "an unknown process"
	case found.Pid <= 0:
		return 0, "a process of another user"
	}
	comm := "?"
	if p, err := procs.Get(int(found.Pid)); err == nil {
		comm = p.Comm
	}
	return int(found.Pid), fmt.Sprintf("pid %d (%s)", found.Pid, comm)
}

// checkListener makes sure the listener that answered the ready check on port
// is one of the server's processes, not another program holding the port. It
// errs only on evidence: a listener it cannot find at all passes.
func (s *Server) checkListener(ctx context.Context, port int) error {
	mine, err := s.Processes()
	if err != nil {
		return nil // cannot tell; the ready answer stands
	}
	for _, p := range mine {
		conns, err := tcpSockets(ctx, int32(p.Pid))
		if err != nil {
			continue
		}
		for _, c := range conns {
			if c.Status == "LISTEN" && c.Laddr.Port == uint32(port) && conflicts(c.Laddr.IP) {
				return nil
			}
		}
	}
	pid, holder := holderOf(ctx, port, true)
	if pid == 0 && holder != "a process of another user" {
		return nil
	}
	return fmt.Errorf("port %d answered, but its listener is %s, not the server", port, holder)
}

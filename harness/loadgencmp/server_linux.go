package loadgencmp

import (
	"bytes"
	"fmt"
	"runtime"

	"golang.org/x/sys/unix"
)

// tcpSocket opens an IPv4 TCP socket, non-blocking and close-on-exec in the
// one socket(2) call; the error names the call.
func tcpSocket() (int, error) {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("socket: %w", err)
	}
	return fd, nil
}

// Serve answers every request on the listening socket lfd (from Listen) with
// resp, until stop (a file descriptor, e.g. a pipe's read end; -1 for none)
// becomes readable or a system call fails; it returns nil after stop, else
// the error naming the call.
//
// It is as cheap per request as a server can be, so that a load generator
// against it measures itself, not the server: one thread (the calling
// goroutine, locked to its OS thread), a level-triggered epoll loop, one
// read(2) of up to 256 KiB per readiness event, the requests in it counted
// by their "\r\n\r\n" (so a pipelined batch costs one read and one write),
// and the canned responses written with one write(2) from a prebuilt buffer.
// It never allocates per request. A response the socket does not take at
// once is kept, and the connection is not read again until it is written
// (EPOLLOUT), so a client that does not read cannot grow the server's
// memory. Requests are not parsed: any bytes up to "\r\n\r\n" are one
// request.
func Serve(lfd, stop int, resp []byte) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ep, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return fmt.Errorf("epoll_create1: %w", err)
	}
	defer unix.Close(ep)
	add := func(fd int, events uint32) error {
		return unix.EpollCtl(ep, unix.EPOLL_CTL_ADD, fd, &unix.EpollEvent{Events: events, Fd: int32(fd)})
	}
	if err := add(lfd, unix.EPOLLIN); err != nil {
		return fmt.Errorf("epoll_ctl add listener: %w", err)
	}
	if stop >= 0 {
		if err := add(stop, unix.EPOLLIN); err != nil {
			return fmt.Errorf("epoll_ctl add stop: %w", err)
		}
	}

	const batch = 256 // responses per prebuilt block
	out := bytes.Repeat(resp, batch)
	in := make([]byte, 256<<10)
	events := make([]unix.EpollEvent, 512)
	conns := map[int]*serverConn{}
	defer func() {
		for fd := range conns {
			unix.Close(fd)
		}
	}()
	closeConn := func(fd int) {
		unix.Close(fd) // also removes it from the epoll set
		delete(conns, fd)
	}
	// send writes b to fd; what the socket does not take goes to pending.
	// It reports false if the connection failed and was closed.
	send := func(fd int, c *serverConn, b []byte) bool {
		for len(b) > 0 {
			n, err := unix.Write(fd, b)
			if err == unix.EINTR {
				continue
			}
			if err == unix.EAGAIN {
				c.pending = append(c.pending, b...)
				return unix.EpollCtl(ep, unix.EPOLL_CTL_MOD, fd, &unix.EpollEvent{Events: unix.EPOLLOUT, Fd: int32(fd)}) == nil
			}
			if err != nil {
				closeConn(fd)
				return false
			}
			b = b[n:]
		}
		return true
	}
	for {
		n, err := unix.EpollWait(ep, events, -1)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fmt.Errorf("epoll_wait: %w", err)
		}
		for _, ev := range events[:n] {
			fd := int(ev.Fd)
			switch fd {
			case stop:
				return nil
			case lfd:
				for {
					cfd, _, err := unix.Accept4(lfd, unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC)
					if err == unix.EAGAIN || err == unix.ECONNABORTED {
						break
					}
					if err == unix.EINTR {
						continue
					}
					if err != nil {
						return fmt.Errorf("accept4: %w", err)
					}
					unix.SetsockoptInt(cfd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1)
					if err := add(cfd, unix.EPOLLIN); err != nil {
						unix.Close(cfd)
						return fmt.Errorf("epoll_ctl add connection: %w", err)
					}
					conns[cfd] = &serverConn{}
				}
				continue
			}
			c := conns[fd]
			if c == nil {
				continue
			}
			if len(c.pending) > 0 {
				// Waiting for EPOLLOUT: write what is left, then read again.
				p := c.pending
				c.pending = nil
				if !send(fd, c, p) {
					continue
				}
				if len(c.pending) == 0 {
					if unix.EpollCtl(ep, unix.EPOLL_CTL_MOD, fd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(fd)}) != nil {
						closeConn(fd)
					}
				}
				continue
			}
			r, err := unix.Read(fd, in)
			if err == unix.EAGAIN || err == unix.EINTR {
				continue
			}
			if r <= 0 || err != nil {
				closeConn(fd)
				continue
			}
			for todo := c.count.Feed(in[:r]); todo > 0; {
				k := min(todo, batch)
				todo -= k
				if !send(fd, c, out[:k*len(resp)]) {
					break
				}
				if len(c.pending) > 0 {
					// Socket full: keep the rest of the answers too.
					for ; todo > 0; todo -= min(todo, batch) {
						c.pending = append(c.pending, out[:min(todo, batch)*len(resp)]...)
					}
				}
			}
		}
	}
}

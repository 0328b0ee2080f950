package loadgencmp

import (
	"bytes"
	"fmt"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// tcpSocket opens an IPv4 TCP socket, non-blocking and close-on-exec. macOS
// has no SOCK_NONBLOCK or SOCK_CLOEXEC: both are set after socket(2), the
// close-on-exec under syscall.ForkLock as package net does.
func tcpSocket() (int, error) {
	syscall.ForkLock.RLock()
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	if err == nil {
		unix.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return -1, fmt.Errorf("socket: %w", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return -1, fmt.Errorf("fcntl O_NONBLOCK: %w", err)
	}
	return fd, nil
}

// accept takes one connection from lfd as Linux's accept4 with
// SOCK_NONBLOCK|SOCK_CLOEXEC does, plus SO_NOSIGPIPE so that a write to a
// closed peer fails with EPIPE instead of raising SIGPIPE.
func accept(lfd int) (int, error) {
	syscall.ForkLock.RLock()
	cfd, _, err := unix.Accept(lfd)
	if err == nil {
		unix.CloseOnExec(cfd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return -1, err
	}
	if err := unix.SetNonblock(cfd, true); err != nil {
		unix.Close(cfd)
		return -1, fmt.Errorf("fcntl O_NONBLOCK: %w", err)
	}
	unix.SetsockoptInt(cfd, unix.SOL_SOCKET, unix.SO_NOSIGPIPE, 1)
	return cfd, nil
}

// Serve answers every request on the listening socket lfd (from Listen) with
// resp, until stop (a file descriptor, e.g. a pipe's read end; -1 for none)
// becomes readable or a system call fails; it returns nil after stop, else
// the error naming the call.
//
// It is the Linux server (server_linux.go) with kqueue for epoll, so that
// both generators meet the same cheapest server on each OS: one thread, one
// kqueue, EVFILT_READ level-triggered (no EV_CLEAR) on the listener, stop
// and every connection; one read(2) of up to 256 KiB per event, its
// requests counted by "\r\n\r\n", their canned responses written with one
// write(2) from a prebuilt buffer, no allocation per request. A response the
// socket does not take at once is kept, and the connection's EVFILT_READ is
// disabled and its EVFILT_WRITE enabled (one kevent(2) call, as epoll_ctl
// MOD to EPOLLOUT) until it is written, then the other way round. Changes go
// in kevent(2) calls of their own, so a failed change is that call's error,
// never an EV_ERROR event among the ready ones.
func Serve(lfd, stop int, resp []byte) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	kq, err := unix.Kqueue() // not inherited by fork(2): no close-on-exec needed
	if err != nil {
		return fmt.Errorf("kqueue: %w", err)
	}
	defer unix.Close(kq)
	changes := make([]unix.Kevent_t, 2) // reused: a change allocates nothing
	ctl := func(n int) error {
		for {
			_, err := unix.Kevent(kq, changes[:n], nil, nil)
			if err != unix.EINTR {
				return err
			}
		}
	}
	add := func(fd int) error {
		unix.SetKevent(&changes[0], fd, unix.EVFILT_READ, unix.EV_ADD)
		return ctl(1)
	}
	// toWrite waits for fd to take more bytes instead of for requests;
	// toRead the other way round.
	toWrite := func(fd int) error {
		unix.SetKevent(&changes[0], fd, unix.EVFILT_READ, unix.EV_DISABLE)
		unix.SetKevent(&changes[1], fd, unix.EVFILT_WRITE, unix.EV_ADD|unix.EV_ENABLE)
		return ctl(2)
	}
	toRead := func(fd int) error {
		unix.SetKevent(&changes[0], fd, unix.EVFILT_WRITE, unix.EV_DISABLE)
		unix.SetKevent(&changes[1], fd, unix.EVFILT_READ, unix.EV_ENABLE)
		return ctl(2)
	}
	if err := add(lfd); err != nil {
		return fmt.Errorf("kevent add listener: %w", err)
	}
	if stop >= 0 {
		if err := add(stop); err != nil {
			return fmt.Errorf("kevent add stop: %w", err)
		}
	}

	const batch = 256 // responses per prebuilt block
	out := bytes.Repeat(resp, batch)
	in := make([]byte, 256<<10)
	events := make([]unix.Kevent_t, 512)
	conns := map[int]*serverConn{}
	defer func() {
		for fd := range conns {
			unix.Close(fd)
		}
	}()
	closeConn := func(fd int) {
		unix.Close(fd) // also removes its filters from the kqueue
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
				if toWrite(fd) != nil {
					closeConn(fd)
					return false
				}
				return true
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
		n, err := unix.Kevent(kq, nil, events, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fmt.Errorf("kevent: %w", err)
		}
		for i := range events[:n] {
			fd := int(events[i].Ident)
			switch fd {
			case stop:
				return nil
			case lfd:
				for {
					cfd, err := accept(lfd)
					if err == unix.EAGAIN || err == unix.ECONNABORTED {
						break
					}
					if err == unix.EINTR {
						continue
					}
					if err != nil {
						return fmt.Errorf("accept: %w", err)
					}
					unix.SetsockoptInt(cfd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1)
					if err := add(cfd); err != nil {
						unix.Close(cfd)
						return fmt.Errorf("kevent add connection: %w", err)
					}
					conns[cfd] = &serverConn{}
				}
				continue
			}
			c := conns[fd]
			if c == nil {
				continue
			}
			// Whether the connection waits to write decides, not the
			// event's filter, as on Linux: a stray event costs one EAGAIN.
			if len(c.pending) > 0 {
				p := c.pending
				c.pending = nil
				if !send(fd, c, p) {
					continue
				}
				if len(c.pending) == 0 && toRead(fd) != nil {
					closeConn(fd)
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

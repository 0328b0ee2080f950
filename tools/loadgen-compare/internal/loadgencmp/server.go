package loadgencmp

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Body is the body both fixed-response servers send: TFB's plaintext
// answer.
const Body = "Hello, World!"

// ChunkCount is how many chunks the chunked server splits its body into:
// many small chunks, so that chunk parsing costs the generators something.
const ChunkCount = 16

// Server kinds: the framing of the fixed response.
const (
	// Length answers every request with Content-Length: 13 and Body.
	Length = "length"
	// Chunked answers every request with Transfer-Encoding: chunked and
	// ChunkCount chunks of Body (208 body bytes decoded).
	Chunked = "chunked"
)

// Kinds lists the fixed-response server kinds.
var Kinds = []string{Length, Chunked}

// Response returns the canned response of server kind kind (Length or
// Chunked), or an error naming an unknown kind. The headers are what a TFB
// plaintext answer carries (Server, Date, Content-Type); the Date is fixed.
func Response(kind string) ([]byte, error) {
	head := "HTTP/1.1 200 OK\r\nServer: loadgen-compare\r\nDate: Mon, 02 Jan 2006 15:04:05 GMT\r\nContent-Type: text/plain\r\n"
	switch kind {
	case Length:
		return []byte(head + "Content-Length: " + strconv.Itoa(len(Body)) + "\r\n\r\n" + Body), nil
	case Chunked:
		var b strings.Builder
		b.WriteString(head + "Transfer-Encoding: chunked\r\n\r\n")
		for range ChunkCount {
			fmt.Fprintf(&b, "%x\r\n%s\r\n", len(Body), Body)
		}
		b.WriteString("0\r\n\r\n")
		return []byte(b.String()), nil
	}
	return nil, fmt.Errorf("unknown server kind %q (known: %s)", kind, strings.Join(Kinds, ", "))
}

// requestEnd ends every request the servers accept: GET requests without a
// body, so one per header section.
var requestEnd = []byte("\r\n\r\n")

// Counter counts complete requests in a byte stream fed in pieces of any
// size: one per "\r\n\r\n", including one split across two pieces. The zero
// value is ready.
type Counter struct {
	m int // bytes of requestEnd matched at the end of the last piece, 0..3
}

// Feed returns how many request ends b completes.
func (c *Counter) Feed(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		if c.m > 0 {
			// Inside a match carried over from the last piece. On a
			// mismatch no suffix of the matched part can start a new match
			// that b[i] continues ("\r\n\r" + not '\n' leaves "\r" + b[i],
			// and b[i] != '\n'), so b[i] is looked at afresh.
			if b[i] == requestEnd[c.m] {
				i++
				if c.m++; c.m == len(requestEnd) {
					n, c.m = n+1, 0
				}
				continue
			}
			c.m = 0
		}
		j := bytes.Index(b[i:], requestEnd)
		if j < 0 {
			c.m = partial(b[i:])
			return n
		}
		n++
		i += j + len(requestEnd)
	}
	return n
}

// partial returns the length of the longest suffix of b that is a proper
// prefix of requestEnd.
func partial(b []byte) int {
	for k := len(requestEnd) - 1; k > 0; k-- {
		if bytes.HasSuffix(b, requestEnd[:k]) {
			return k
		}
	}
	return 0
}

// Listen opens a non-blocking TCP listening socket on 127.0.0.1 at port
// (0: any free port) and returns its file descriptor and the address it got,
// "127.0.0.1:PORT". Errors name the system call that failed.
func Listen(port int) (fd int, addr string, err error) {
	if fd, err = tcpSocket(); err != nil {
		return -1, "", err
	}
	fail := func(call string, err error) (int, string, error) {
		unix.Close(fd)
		return -1, "", fmt.Errorf("%s 127.0.0.1:%d: %w", call, port, err)
	}
	if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_REUSEADDR, 1); err != nil {
		return fail("setsockopt SO_REUSEADDR", err)
	}
	if err := unix.Bind(fd, &unix.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		return fail("bind", err)
	}
	if err := unix.Listen(fd, 4096); err != nil {
		return fail("listen", err)
	}
	sa, err := unix.Getsockname(fd)
	if err != nil {
		return fail("getsockname", err)
	}
	return fd, fmt.Sprintf("127.0.0.1:%d", sa.(*unix.SockaddrInet4).Port), nil
}

// serverConn is one accepted connection of Serve.
type serverConn struct {
	count   Counter
	pending []byte // response bytes the socket did not take yet
	// part is how many bytes of the response being written the socket has
	// taken, 0..len(resp)-1: the connection's written bytes modulo
	// len(resp), since it only ever writes whole responses in order.
	part int
}

// Serve answers every request on the listening socket lfd with resp, from
// one locked thread with a level-triggered poller, so it costs less per
// request than either generator, and counts the responses it writes: a
// response counts once the socket has taken its last byte.
//
// It reads the control descriptor ctl (-1: none; a pollable one, e.g. a
// stdin pipe) until end of file, then returns nil. Each line read from ctl
// asks for the count: Serve answers it with one line on reply, the number
// of responses written since it started in decimal, once nothing else is
// ready (no connection readable, writable or closing), so that a
// generator that has just exited has had its last requests answered and
// its connections closed before the count is read.
func Serve(lfd, ctl int, reply io.Writer, resp []byte) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var pl poller
	if err := pl.init(512); err != nil {
		return err
	}
	defer pl.close()
	if err := pl.add(lfd); err != nil {
		return fmt.Errorf("%s listener: %w", pollAdd, err)
	}
	if ctl >= 0 {
		if err := pl.add(ctl); err != nil {
			return fmt.Errorf("%s control: %w", pollAdd, err)
		}
	}

	const batch = 256 // responses per prebuilt block
	out := bytes.Repeat(resp, batch)
	in := make([]byte, 256<<10)
	conns := map[int]*serverConn{}
	defer func() {
		for fd := range conns {
			unix.Close(fd)
		}
	}()
	var (
		written int64 // complete responses the sockets took, all connections
		asked   int   // count requests (lines of ctl) not answered yet
	)
	closeConn := func(fd int) {
		unix.Close(fd) // also takes it out of the poller
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
				if pl.want(fd, true) != nil {
					closeConn(fd)
					return false
				}
				return true
			}
			if err != nil {
				closeConn(fd)
				return false
			}
			if c.part += n; c.part >= len(resp) {
				written += int64(c.part / len(resp))
				c.part %= len(resp)
			}
			b = b[n:]
		}
		return true
	}
	for {
		// With a count asked for, poll: the answer waits until a poll finds
		// nothing ready.
		n, err := pl.wait(asked == 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %w", pollWait, err)
		}
		if n == 0 && asked > 0 {
			for ; asked > 0; asked-- {
				if _, err := fmt.Fprintln(reply, written); err != nil {
					return fmt.Errorf("answer the count: %w", err)
				}
			}
			continue
		}
		for i := range n {
			fd := pl.fd(i)
			switch fd {
			case ctl:
				r, err := unix.Read(ctl, in)
				if err == unix.EAGAIN || err == unix.EINTR {
					continue
				}
				if r <= 0 || err != nil {
					return nil // end of file (or a broken ctl): stop
				}
				asked += bytes.Count(in[:r], []byte{'\n'})
				continue
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
						return fmt.Errorf("%s: %w", acceptCall, err)
					}
					unix.SetsockoptInt(cfd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1)
					if err := pl.add(cfd); err != nil {
						unix.Close(cfd)
						return fmt.Errorf("%s connection: %w", pollAdd, err)
					}
					conns[cfd] = &serverConn{}
				}
				continue
			}
			c := conns[fd]
			if c == nil {
				continue
			}
			// Waiting to write: write what is left, then read again. Whether
			// the connection waits decides, not the event: a stray one costs
			// one EAGAIN.
			if len(c.pending) > 0 {
				p := c.pending
				c.pending = nil
				if !send(fd, c, p) {
					continue
				}
				if len(c.pending) == 0 && pl.want(fd, false) != nil {
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

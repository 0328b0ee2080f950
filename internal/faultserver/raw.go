package faultserver

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"
)

// hijack takes w's connection over and tracks it (untrack it when done); false
// when it cannot (answered 500 if w cannot be hijacked) or the server is
// shutting down.
func (h *handler) hijack(w http.ResponseWriter) (net.Conn, *bufio.ReadWriter, bool) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, errNoHijack.Error(), http.StatusInternalServerError)
		return nil, nil, false
	}
	conn, brw, err := hj.Hijack()
	if err != nil || !h.track(conn) {
		return nil, nil, false
	}
	return conn, brw, true
}

// nextRequest reads a taken-over connection's next request and discards its
// body; false when the connection ended or sent no valid request.
func nextRequest(r *bufio.Reader) (*http.Request, bool) {
	req, err := http.ReadRequest(r)
	if err != nil {
		return nil, false
	}
	io.Copy(io.Discard, req.Body)
	req.Body.Close()
	return req, true
}

// serveRaw takes the connection over for the raw modes and writes their
// bytes; length-short and drip answer the connection's next requests the
// same way until one is for another path.
func (h *handler) serveRaw(w http.ResponseWriter, path string) {
	conn, brw, ok := h.hijack(w)
	if !ok {
		return
	}
	defer h.untrack(conn)
	for {
		body, ctype, ok := correct(path)
		if !ok {
			return
		}
		switch h.c.Mode {
		case ModeCrash:
			h.crash.Do(func() {
				if h.c.Crash != nil {
					h.c.Crash()
				}
			})
			return
		case ModeGarbage:
			io.WriteString(conn, Garbage)
			return
		case ModeReset:
			if tc, ok := conn.(interface{ SetLinger(int) error }); ok {
				tc.SetLinger(0)
			}
			return
		case ModeHang:
			hold(brw)
			return
		case ModeLengthLong:
			if _, err := io.WriteString(conn, rawHead(ctype, LongLength)+body); err == nil {
				hold(brw)
			}
			return
		case ModeLengthShort:
			if _, err := io.WriteString(conn, rawHead(ctype, ShortLength)+body); err != nil {
				return
			}
		case ModeDrip:
			if !h.drip(conn, rawHead(ctype, len(body))+body) {
				return
			}
		default:
			return
		}
		req, ok := nextRequest(brw.Reader)
		if !ok {
			return
		}
		h.served.Add(1)
		path = req.URL.Path
	}
}

// rawHead is the status line and headers of a 200 answer written by hand:
// Server, Date (RFC 7231, now), Content-Type and the given Content-Length.
func rawHead(ctype string, length int) string {
	return "HTTP/1.1 200 OK\r\nServer: " + ServerName +
		"\r\nDate: " + time.Now().UTC().Format(http.TimeFormat) +
		"\r\nContent-Type: " + ctype +
		"\r\nContent-Length: " + strconv.Itoa(length) + "\r\n\r\n"
}

// hold reads and drops whatever the client sends until it closes the
// connection (or shutdown closes it).
func hold(r *bufio.ReadWriter) {
	io.Copy(io.Discard, r)
}

// drip writes b one byte every DripInterval; false when a write failed or
// shutdown began.
func (h *handler) drip(c net.Conn, b string) bool {
	t := time.NewTimer(DripInterval)
	defer t.Stop()
	for i := 0; i < len(b); i++ {
		if i > 0 {
			t.Reset(DripInterval)
			select {
			case <-h.done:
				return false
			case <-t.C:
			}
		}
		if _, err := io.WriteString(c, b[i:i+1]); err != nil {
			return false
		}
	}
	return true
}

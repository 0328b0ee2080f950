package faultserver

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// Server is an in-process fault server on 127.0.0.1, started by Start.
type Server struct {
	h    *handler
	ln   net.Listener
	srv  *http.Server
	once sync.Once
}

// Start serves Handler(c) on 127.0.0.1 at a kernel-chosen port until
// Close; a nil c.Crash closes the listener and every connection, so later
// connects are refused as by a crashed process.
func Start(c Config) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{ln: ln}
	if c.Crash == nil {
		c.Crash = func() {
			s.srv.Close()
			s.h.closeRaw()
		}
	}
	s.h = newHandler(c)
	s.srv = &http.Server{Handler: s.h, ReadHeaderTimeout: 10 * time.Second, ConnContext: ConnContext}
	go s.srv.Serve(ln)
	return s, nil
}

// Addr is the address the server listens on, "127.0.0.1:PORT".
func (s *Server) Addr() string { return s.ln.Addr().String() }

// URL is "http://127.0.0.1:PORT", without a trailing slash.
func (s *Server) URL() string { return "http://" + s.Addr() }

// Served is the number of requests to test paths (/json, /plaintext, /db,
// /fortunes, /ssr) the server has read so far, the ones answered correctly
// (Config.After) included.
func (s *Server) Served() int64 { return s.h.served.Load() }

// Close stops the server: it closes the listener and every connection
// (hijacked ones too), ends drips and holds, and returns once every handler
// has returned. Safe to call more than once and after a crash.
func (s *Server) Close() {
	s.once.Do(func() {
		s.h.shutdown()
		s.srv.Close()
		s.h.wait()
		s.h.closeDatabase()
	})
}

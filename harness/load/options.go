package load

import (
	"fmt"
	"net"
	"strings"
	"time"
)

// Options describe one sample's load: where it goes, what it asks for and how
// hard and how long it pushes.
type Options struct {
	// Addr is the server's TCP address, "host:port" (e.g. "127.0.0.1:8080").
	Addr string
	// Host is the Host header's value; empty means Addr.
	Host string
	// Path is the request target, starting with "/" (e.g.
	// "/queries?queries=20"); fill "{n}" with suite.PathFor first.
	Path string
	// Accept is the Accept header's value (suite.Type.Accept()); empty sends
	// no Accept header.
	Accept string
	// Connections is the concurrency: open connections, each a closed loop
	// (>= 1).
	Connections int
	// Pipeline is the HTTP/1.1 pipelining depth, requests in flight per
	// connection (>= 1; 0 means 1; TFB uses 16 for plaintext).
	Pipeline int
	// Duration is the measured window (> 0).
	Duration time.Duration
	// Timeout bounds every response: a response not complete within Timeout
	// of its request's write is an error of class timeout. It also bounds
	// connects and writes, and is the latency histogram's maximum (>= 1 ms).
	Timeout time.Duration
}

// config is a validated Options with its defaults filled in.
type config struct {
	Options
	maxMicros int64 // latency histogram maximum, µs (Timeout)
}

// validate checks o and fills its defaults. The error names the field and the
// rule it breaks.
func (o Options) validate() (config, error) {
	bad := func(format string, a ...any) (config, error) {
		return config{}, fmt.Errorf("load: options: "+format, a...)
	}
	if _, port, err := net.SplitHostPort(o.Addr); err != nil || port == "" {
		return bad("Addr %q is not host:port", o.Addr)
	}
	if o.Host == "" {
		o.Host = o.Addr
	}
	if o.Pipeline == 0 {
		o.Pipeline = 1
	}
	for _, f := range []struct{ name, v string }{
		{"Addr", o.Addr}, {"Host", o.Host}, {"Path", o.Path}, {"Accept", o.Accept},
	} {
		if strings.ContainsAny(f.v, "\r\n") {
			return bad("%s %q contains CR or LF", f.name, f.v)
		}
	}
	switch {
	case !strings.HasPrefix(o.Path, "/"):
		return bad("Path %q does not start with /", o.Path)
	case strings.ContainsAny(o.Path, " \t"):
		return bad("Path %q contains white space", o.Path)
	case o.Connections < 1:
		return bad("Connections is %d, want >= 1", o.Connections)
	case o.Pipeline < 1:
		return bad("Pipeline is %d, want >= 1", o.Pipeline)
	case o.Duration <= 0:
		return bad("Duration is %s, want > 0", o.Duration)
	case o.Timeout < time.Millisecond:
		return bad("Timeout is %s, want >= 1ms", o.Timeout)
	}
	return config{Options: o, maxMicros: o.Timeout.Microseconds()}, nil
}

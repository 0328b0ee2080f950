package sweep

import (
	"context"

	"github.com/tfbench/tfbench/harness/eventloop"
	"github.com/tfbench/tfbench/harness/probe"
	"github.com/tfbench/tfbench/harness/verify"
)

// Server is what measuring a shot needs of a started server, a part of
// serverhost.Server: where to send the load, its database copy (the rows'
// references), its CPU, log faults, event loop and whether it exited.
type Server interface {
	// Addr is "HOST:PORT" as the generator reaches it; BaseURL is
	// "http://" + Addr.
	Addr() string
	BaseURL() string
	// Done is closed once the server's leader has exited; Err then says how.
	Done() <-chan struct{}
	Err() error
	// LogMark is the log's size in bytes now; LogFaults counts its
	// SQLITE_BUSY lines since mark.
	LogMark() int64
	LogFaults(mark int64) int64
	// Usage reads the server's process tree: CPU seconds and peak RSS.
	Usage(ctx context.Context) (probe.Usage, error)
	// Database is the server's own database copy.
	Database() (verify.Database, error)
	// Monitored reports whether the server's runtimes report their event
	// loop and memory; EventLoopReset clears them before a window,
	// EventLoopRead reads them after.
	Monitored() bool
	EventLoopReset(ctx context.Context) error
	EventLoopRead(ctx context.Context) (eventloop.Window, error)
}

// Gone reports whether srv's leader process has exited.
func Gone(srv interface{ Done() <-chan struct{} }) bool {
	select {
	case <-srv.Done():
		return true
	default:
		return false
	}
}

// ExitText is how a server's leader ended, as os/exec says it ("exit
// status 2", "signal: killed"); nil is "exit status 0".
func ExitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

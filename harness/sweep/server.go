package sweep

import (
	"github.com/tfbench/tfbench/dataset"
	"github.com/tfbench/tfbench/harness/serverhost"
)

// Server is what measuring a shot needs of a started server, a part of
// serverhost.Server: where to send the load, its CPU and event loop, its
// database copy (the rows' references), its log faults and whether it exited.
type Server interface {
	serverhost.Endpoint
	serverhost.Meter
	Database() (dataset.Database, error)
	// Done is closed once the server's leader has exited; Err then says how.
	Done() <-chan struct{}
	Err() error
	LogMark() int64
	LogFaults(mark int64) int64
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

package load

import (
	"errors"
	"io"
	"net"
	"os"
)

// Class is an error class, the key of Result.Errors and Result.Examples
// (DESIGN.md, "The load generator": connect, read, write, timeout, status;
// and check, for responses checked under load).
type Class string

// The error classes. Connect, Read, Write and Timeout are socket errors
// (Result.SocketErrors); Status counts non-2xx responses; Check counts
// sampled responses that failed Options.Check. Status and Check errors are
// not socket errors: the gate counts them separately.
const (
	// Connect: a TCP connection could not be opened (refused, dial timeout).
	Connect Class = "connect"
	// Read: reading a response failed: reset, closed by the server before or
	// inside a response, malformed, or over a size cap.
	Read Class = "read"
	// Write: sending a request failed (broken pipe, reset).
	Write Class = "write"
	// Timeout: a response was not complete within Options.Timeout of its
	// request's write, or a write did not finish within Timeout.
	Timeout Class = "timeout"
	// Status: a counted response had a status outside 200..299.
	Status Class = "status"
	// Check: a counted response sampled for checking failed Options.Check
	// (DESIGN.md, "The load generator": the same rules as verification, under
	// load). The response itself still counts in Responses and StatusCounts.
	Check Class = "check"
)

// Classes lists the error classes in report order.
var Classes = []Class{Connect, Read, Write, Timeout, Status, Check}

// numClasses is len(Classes), the size of per-connection arrays.
const numClasses = 6

// classIndex numbers the classes for per-connection arrays.
func classIndex(c Class) int {
	switch c {
	case Connect:
		return 0
	case Read:
		return 1
	case Write:
		return 2
	case Timeout:
		return 3
	case Status:
		return 4
	default: // Check
		return 5
	}
}

// isTimeout reports whether err is a deadline expiring.
func isTimeout(err error) bool {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// cause names what went wrong in err without the address noise of net
// errors: "connection refused", "connection reset by peer", "server closed
// the connection", or a parser message such as `malformed status line "x"`.
func cause(err error) string {
	var se *os.SyscallError
	var pe *parseError
	var oe *net.OpError
	switch {
	case errors.As(err, &pe):
		return pe.msg
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "server closed the connection inside a response"
	case errors.Is(err, io.EOF):
		return "server closed the connection"
	case errors.As(err, &se):
		return se.Err.Error()
	case errors.As(err, &oe) && oe.Err != nil:
		return oe.Err.Error()
	}
	return err.Error()
}

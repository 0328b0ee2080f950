package load

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// Class is an error class, the key of Result.Errors and Result.Examples
// (docs/design.md, "The load generator"); Classes lists them in report order.
type Class string

// The error classes. Connect, Read, Write and Timeout are socket errors
// (Result.SocketErrors); Status, Check and Generator are not, and the gate
// counts them separately.
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
	// (docs/design.md, "The load generator": the same rules as verification, under
	// load). The response itself still counts in Responses and StatusCounts.
	Check Class = "check"
	// Generator: the load generator ran out of its own resources, whatever the
	// server did (EMFILE, ENFILE, ENOBUFS, ENOMEM or EADDRNOTAVAIL from any socket
	// call); the sample measured the harness, and the example names the limit.
	Generator Class = "generator"
)

// Classes lists the error classes in report order.
var Classes = []Class{Connect, Read, Write, Timeout, Status, Check, Generator}

// numClasses is len(Classes), the size of per-connection arrays.
const numClasses = 7

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
	case Check:
		return 5
	default: // Generator
		return 6
	}
}

// generatorErrno returns the errno in err (bare, or wrapped as net and os
// wrap it) when it is the generator's own failure: EMFILE, ENFILE, ENOBUFS,
// ENOMEM or EADDRNOTAVAIL (class Generator).
func generatorErrno(err error) (unix.Errno, bool) {
	var e unix.Errno
	if errors.As(err, &e) {
		switch e {
		case unix.EMFILE, unix.ENFILE, unix.ENOBUFS, unix.ENOMEM, unix.EADDRNOTAVAIL:
			return e, true
		}
	}
	return 0, false
}

// generatorHint is the parenthesis appended to a generator error's example,
// naming the limit errno e hit for connections connections, read at the time,
// e.g. "(generator: RLIMIT_NOFILE 32 for 64 connections)".
func generatorHint(e unix.Errno, connections int) string {
	switch e {
	case unix.EMFILE:
		var rl unix.Rlimit
		if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &rl); err != nil {
			return fmt.Sprintf("(generator: RLIMIT_NOFILE too low for %d connections)", connections)
		}
		return fmt.Sprintf("(generator: RLIMIT_NOFILE %d for %d connections)", rl.Cur, connections)
	case unix.ENFILE:
		return "(generator: the system's open-file table is full; fs.file-max)"
	case unix.EADDRNOTAVAIL:
		return "(generator: no free local port; TIME_WAIT or " + portRangeHint() + ")"
	}
	return "(generator: the kernel is out of memory for sockets)"
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

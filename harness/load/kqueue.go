package load

import "golang.org/x/sys/unix"

// The kqueue event loop's logic that needs no kernel, in tfbench's own types
// so that it builds and is tested on Linux (kqueue_test.go); poll_darwin.go
// converts kevents to unix.Kevent_t and back and makes the system calls.

// kevent is one change or event of a kqueue: struct kevent of darwin's
// <sys/event.h>, with udata as the connection's index (wakeIndex for the
// wake-up, noIndex for none).
type kevent struct {
	ident  uint64 // the socket; 0 for the wake-up (EVFILT_USER)
	filter int16  // kqRead, kqWrite, kqUser
	flags  uint16 // kqAdd, kqEnable, ...; in an event kqError, kqEOF
	fflags uint32 // EVFILT_USER: kqTrigger; a socket event with kqEOF: its socket error
	data   int64  // with kqError: the errno; else the filter's (bytes readable, space writable)
	index  int32  // udata: the connection's index in its worker's conns
}

// The constants of darwin's <sys/event.h> that the loop uses; poll_darwin.go
// checks at compile time that they equal unix's.
const (
	kqRead  int16 = -1  // EVFILT_READ
	kqWrite int16 = -2  // EVFILT_WRITE
	kqUser  int16 = -10 // EVFILT_USER

	kqAdd     uint16 = 0x0001 // EV_ADD
	kqEnable  uint16 = 0x0004 // EV_ENABLE
	kqDisable uint16 = 0x0008 // EV_DISABLE
	kqClear   uint16 = 0x0020 // EV_CLEAR (not used: level-triggered, as the epoll set)
	kqReceipt uint16 = 0x0040 // EV_RECEIPT
	kqError   uint16 = 0x4000 // EV_ERROR
	kqEOF     uint16 = 0x8000 // EV_EOF

	kqTrigger uint32 = 0x01000000 // NOTE_TRIGGER
)

// kqFilter is the filter that watches for in: kqRead or kqWrite.
func kqFilter(in interest) int16 {
	if in == readInterest {
		return kqRead
	}
	return kqWrite
}

// kqChanges appends to dst the changes moving socket fd (connection index) from
// interest from to to: EV_DISABLE of from's filter (never deleted: re-enabling
// allocates nothing), EV_ADD|EV_ENABLE of to's, each EV_RECEIPT (kqReceiptError).
func kqChanges(dst []kevent, fd, index int, from, to interest) []kevent {
	if from == to {
		return dst
	}
	if from != noInterest {
		dst = append(dst, kevent{ident: uint64(fd), filter: kqFilter(from), flags: kqDisable | kqReceipt, index: int32(index)})
	}
	if to != noInterest {
		dst = append(dst, kevent{ident: uint64(fd), filter: kqFilter(to), flags: kqAdd | kqEnable | kqReceipt, index: int32(index)})
	}
	return dst
}

// kqWatchWake is the change that registers the wake-up: EVFILT_USER ident 0,
// without EV_CLEAR, so that once triggered it stays ready for every later
// wait, as the eventfd that nobody reads does on Linux.
func kqWatchWake() kevent {
	return kevent{filter: kqUser, flags: kqAdd | kqEnable | kqReceipt, index: wakeIndex}
}

// kqTriggerWake is the change that triggers the wake-up (NOTE_TRIGGER).
func kqTriggerWake() kevent {
	return kevent{filter: kqUser, fflags: kqTrigger, index: wakeIndex}
}

// kqReceiptError is the first error among the receipts of EV_RECEIPT changes
// (EV_ERROR with a non-zero errno in data), or EINVAL when fewer than want came
// back: every change must be answered.
func kqReceiptError(receipts []kevent, want int) error {
	for _, r := range receipts {
		if r.flags&kqError != 0 && r.data != 0 {
			return unix.Errno(r.data)
		}
	}
	if len(receipts) < want {
		return unix.EINVAL
	}
	return nil
}

// readiness is what one kqueue event means to the loop.
type readiness struct {
	index    int        // the connection's index; wakeIndex; noIndex: nothing to do
	readable bool       // EVFILT_READ: bytes to read (data of them), or the end of the stream
	writable bool       // EVFILT_WRITE: room to write, or a connect that ended
	hangup   bool       // EV_EOF: the peer closed or the connection failed
	cause    unix.Errno // with hangup: the socket error (fflags); with fault: the errno (data)
	fault    bool       // EV_ERROR: the kernel could not apply a change for the connection
}

// kqReady translates event e to the loop's readiness: EVFILT_USER is the wake-up;
// EV_ERROR a fault with data's errno (nothing if data is 0 or names no
// connection); EV_EOF a hang-up with fflags' socket error, as epoll reports one.
func kqReady(e kevent) readiness {
	if e.flags&kqError != 0 {
		if e.data == 0 || e.index < 0 {
			return readiness{index: noIndex}
		}
		return readiness{index: int(e.index), fault: true, cause: unix.Errno(e.data)}
	}
	var r readiness
	switch e.filter {
	case kqUser:
		return readiness{index: wakeIndex}
	case kqRead:
		r = readiness{index: int(e.index), readable: true}
	case kqWrite:
		r = readiness{index: int(e.index), writable: true}
	default:
		return readiness{index: noIndex}
	}
	if e.flags&kqEOF != 0 {
		r.hangup, r.cause = true, unix.Errno(e.fflags)
	}
	return r
}

package load

import (
	"errors"
	"testing"

	"golang.org/x/sys/unix"
)

// The kqueue loop's changes, with darwin's values spelled out: an interest
// change disables the old filter and adds and enables the new one, each with
// EV_RECEIPT and the connection's index as udata, never EV_CLEAR; no change
// for the same interest.
func TestKqChanges(t *testing.T) {
	const (
		read, write             = int16(-1), int16(-2)
		addEnableRcpt, disRcpt  = uint16(0x1 | 0x4 | 0x40), uint16(0x8 | 0x40)
		fd, index               = 9, 3
		ident                   = uint64(fd)
		noneIn, readIn, writeIn = noInterest, readInterest, writeInterest
	)
	for _, c := range []struct {
		name     string
		from, to interest
		want     []kevent
	}{
		{"connect", noneIn, writeIn, []kevent{{ident: ident, filter: write, flags: addEnableRcpt, index: index}}},
		{"idle to read", noneIn, readIn, []kevent{{ident: ident, filter: read, flags: addEnableRcpt, index: index}}},
		{"connected before the window", writeIn, noneIn, []kevent{{ident: ident, filter: write, flags: disRcpt, index: index}}},
		{"idle from reading", readIn, noneIn, []kevent{{ident: ident, filter: read, flags: disRcpt, index: index}}},
		{"batch written", writeIn, readIn, []kevent{
			{ident: ident, filter: write, flags: disRcpt, index: index},
			{ident: ident, filter: read, flags: addEnableRcpt, index: index}}},
		{"partial write", readIn, writeIn, []kevent{
			{ident: ident, filter: read, flags: disRcpt, index: index},
			{ident: ident, filter: write, flags: addEnableRcpt, index: index}}},
		{"same read", readIn, readIn, nil},
		{"same write", writeIn, writeIn, nil},
		{"same none", noneIn, noneIn, nil},
	} {
		var buf [2]kevent
		got := kqChanges(buf[:0], fd, index, c.from, c.to)
		if len(got) != len(c.want) {
			t.Errorf("%s: %d -> %d: changes %+v, want %+v", c.name, c.from, c.to, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: %d -> %d: change %d %+v, want %+v", c.name, c.from, c.to, i, got[i], c.want[i])
			}
			if got[i].flags&kqClear != 0 {
				t.Errorf("%s: change %d has EV_CLEAR: the loop is level-triggered", c.name, i)
			}
		}
		if len(got) > 0 && &got[0] != &buf[0] {
			t.Errorf("%s: changes not appended to dst (an allocation per change)", c.name)
		}
	}
}

// The wake-up: EVFILT_USER ident 0 added and enabled with EV_RECEIPT and no
// EV_CLEAR (it stays ready once triggered, as the unread eventfd), no udata;
// triggered with NOTE_TRIGGER alone.
func TestKqWake(t *testing.T) {
	if got, want := kqWatchWake(), (kevent{filter: -10, flags: 0x1 | 0x4 | 0x40, index: wakeIndex}); got != want {
		t.Errorf("kqWatchWake() = %+v, want %+v", got, want)
	}
	if got, want := kqTriggerWake(), (kevent{filter: -10, fflags: 0x01000000, index: wakeIndex}); got != want {
		t.Errorf("kqTriggerWake() = %+v, want %+v", got, want)
	}
}

// A returned kevent as the loop's readiness: read and write filters with the
// connection's index; EV_EOF a hang-up with fflags' socket error, still
// readable or writable (data is the byte count, not an errno); EV_ERROR a
// fault with data's errno, or nothing for a successful receipt (data 0);
// EVFILT_USER the wake-up whatever its udata; another filter nothing.
func TestKqReady(t *testing.T) {
	const (
		read, write, user, timer = int16(-1), int16(-2), int16(-10), int16(-7)
		eof, evErr               = uint16(0x8000), uint16(0x4000)
		added                    = uint16(0x1 | 0x4) // the flags a registered event comes back with
	)
	for _, c := range []struct {
		name string
		ev   kevent
		want readiness
	}{
		{"readable", kevent{ident: 9, filter: read, flags: added, data: 1460, index: 3},
			readiness{index: 3, readable: true}},
		{"writable", kevent{ident: 9, filter: write, flags: added, data: 131072, index: 0},
			readiness{index: 0, writable: true}},
		{"read EOF, peer closed", kevent{ident: 9, filter: read, flags: added | eof, data: 0, index: 5},
			readiness{index: 5, readable: true, hangup: true}},
		{"read EOF with bytes left and a reset", kevent{ident: 9, filter: read, flags: added | eof, fflags: uint32(unix.ECONNRESET), data: 17, index: 5},
			readiness{index: 5, readable: true, hangup: true, cause: unix.ECONNRESET}},
		{"connect refused", kevent{ident: 9, filter: write, flags: added | eof, fflags: uint32(unix.ECONNREFUSED), data: 0, index: 2},
			readiness{index: 2, writable: true, hangup: true, cause: unix.ECONNREFUSED}},
		{"write EOF, broken pipe", kevent{ident: 9, filter: write, flags: added | eof, fflags: uint32(unix.EPIPE), data: 8192, index: 4},
			readiness{index: 4, writable: true, hangup: true, cause: unix.EPIPE}},
		{"EV_ERROR: bad descriptor", kevent{ident: 9, filter: read, flags: evErr, data: int64(unix.EBADF), index: 6},
			readiness{index: 6, fault: true, cause: unix.EBADF}},
		{"EV_ERROR: no such event", kevent{ident: 9, filter: write, flags: evErr | added, data: int64(unix.ENOENT), index: 1},
			readiness{index: 1, fault: true, cause: unix.ENOENT}},
		{"EV_ERROR with EV_EOF: the error wins", kevent{ident: 9, filter: read, flags: evErr | eof, fflags: uint32(unix.ECONNRESET), data: int64(unix.ENOMEM), index: 1},
			readiness{index: 1, fault: true, cause: unix.ENOMEM}},
		{"receipt of a change that succeeded", kevent{ident: 9, filter: read, flags: evErr | added | 0x40, data: 0, index: 1},
			readiness{index: noIndex}},
		{"EV_ERROR for the wake-up", kevent{filter: user, flags: evErr, data: int64(unix.EINVAL), index: wakeIndex},
			readiness{index: noIndex}},
		{"wake-up", kevent{filter: user, flags: added, fflags: 0x01000000, index: wakeIndex},
			readiness{index: wakeIndex}},
		{"wake-up, whatever its udata", kevent{filter: user, flags: added, index: 7},
			readiness{index: wakeIndex}},
		{"another filter", kevent{ident: 1, filter: timer, flags: added, data: 1, index: 2},
			readiness{index: noIndex}},
	} {
		if got := kqReady(c.ev); got != c.want {
			t.Errorf("%s: kqReady(%+v) = %+v, want %+v", c.name, c.ev, got, c.want)
		}
	}
}

// A batch of receipts (EV_RECEIPT): every change answered with EV_ERROR,
// data 0 for a success; the first non-zero errno is the error; fewer
// receipts than changes is EINVAL.
func TestKqReceiptError(t *testing.T) {
	const evErr, rcpt = uint16(0x4000), uint16(0x40)
	ok := kevent{ident: 9, filter: -2, flags: evErr | rcpt | 0x8, index: 3}
	okAdd := kevent{ident: 9, filter: -1, flags: evErr | rcpt | 0x5, index: 3}
	noent := kevent{ident: 9, filter: -2, flags: evErr | rcpt | 0x8, data: int64(unix.ENOENT), index: 3}
	nomem := kevent{ident: 9, filter: -1, flags: evErr | rcpt | 0x5, data: int64(unix.ENOMEM), index: 3}
	for _, c := range []struct {
		name     string
		receipts []kevent
		changes  int
		want     error
	}{
		{"both succeeded", []kevent{ok, okAdd}, 2, nil},
		{"one succeeded", []kevent{okAdd}, 1, nil},
		{"disable failed", []kevent{noent, okAdd}, 2, unix.ENOENT},
		{"add failed", []kevent{ok, nomem}, 2, unix.ENOMEM},
		{"both failed: the first", []kevent{noent, nomem}, 2, unix.ENOENT},
		{"a change unanswered", []kevent{ok}, 2, unix.EINVAL},
		{"no change", nil, 0, nil},
	} {
		err := kqReceiptError(c.receipts, c.changes)
		if !errors.Is(err, c.want) || (err == nil) != (c.want == nil) {
			t.Errorf("%s: kqReceiptError = %v, want %v", c.name, err, c.want)
		}
	}
	// The receipt's errno is what the loop counts: ENOMEM is a generator error.
	if _, gen := generatorErrno(kqReceiptError([]kevent{nomem}, 1)); !gen {
		t.Error("an ENOMEM receipt is not a generator errno")
	}
}

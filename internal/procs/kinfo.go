package procs

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// darwin's process states (sys/proc.h, kinfo_proc p_stat).
const (
	darwinSIDL   = 1 // being created by fork
	darwinSRUN   = 2 // runnable
	darwinSSLEEP = 3 // sleeping on an address
	darwinSSTOP  = 4 // stopped
	darwinSZOMB  = 5 // exited, waiting for its parent
)

// fromKinfo maps a darwin kinfo_proc's fields to a Proc: p_stat to Linux's
// state letters ('?' when unknown), p_comm to its first NUL, p_starttime to
// µs; plain values, so it is tested on Linux too.
func fromKinfo(pid, ppid, pgid, sid int32, stat int8, comm []byte, startSec int64, startUsec int32) Proc {
	if i := bytes.IndexByte(comm, 0); i >= 0 {
		comm = comm[:i]
	}
	state := byte('?')
	switch stat {
	case darwinSIDL:
		state = 'I'
	case darwinSRUN:
		state = 'R'
	case darwinSSLEEP:
		state = 'S'
	case darwinSSTOP:
		state = 'T'
	case darwinSZOMB:
		state = 'Z'
	}
	return Proc{
		Pid: int(pid), PPid: int(ppid), Pgid: int(pgid), Sid: int(sid),
		Start: uint64(startSec)*1_000_000 + uint64(startUsec),
		State: state, Comm: string(comm),
	}
}

// parseProcargs2 returns the "NAME=value" entries of a darwin
// kern.procargs2 buffer (int32 argc, exec path, argv, then env up to an
// empty string); a buffer cut short is an error.
func parseProcargs2(b []byte) ([][]byte, error) {
	if len(b) < 4 {
		return nil, fmt.Errorf("procargs2: %d bytes, want at least 4 (argc)", len(b))
	}
	argc := int(int32(binary.LittleEndian.Uint32(b)))
	rest := b[4:]
	// The exec path, then the NUL padding after it.
	i := bytes.IndexByte(rest, 0)
	if i < 0 {
		return nil, fmt.Errorf("procargs2: exec path without its NUL")
	}
	rest = rest[i:]
	for len(rest) > 0 && rest[0] == 0 {
		rest = rest[1:]
	}
	for n := 0; n < argc; n++ {
		i := bytes.IndexByte(rest, 0)
		if i < 0 {
			return nil, fmt.Errorf("procargs2: %d of %d arguments before the end", n, argc)
		}
		rest = rest[i+1:]
	}
	var env [][]byte
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, 0)
		if i < 0 {
			i = len(rest) // a last string the buffer cut off
		}
		if i == 0 {
			break
		}
		env = append(env, rest[:i])
		rest = rest[min(i+1, len(rest)):]
	}
	return env, nil
}

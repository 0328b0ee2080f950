package procs

import (
	"encoding/binary"
	"reflect"
	"testing"
)

func TestFromKinfo(t *testing.T) {
	var comm [17]byte
	copy(comm[:], "node-server-name") // 16 bytes, darwin's MAXCOMLEN
	got := fromKinfo(4242, 17, 4200, 4100, darwinSSLEEP, comm[:], 1_700_000_000, 123456)
	want := Proc{Pid: 4242, PPid: 17, Pgid: 4200, Sid: 4100, Start: 1_700_000_000_123456, State: 'S', Comm: "node-server-name"}
	if got != want {
		t.Errorf("fromKinfo = %+v, want %+v", got, want)
	}
	for stat, want := range map[int8]byte{darwinSIDL: 'I', darwinSRUN: 'R', darwinSSLEEP: 'S', darwinSSTOP: 'T', darwinSZOMB: 'Z', 0: '?', 9: '?'} {
		p := fromKinfo(1, 0, 1, 1, stat, []byte("sh\x00junk"), 0, 0)
		if p.State != want || p.Comm != "sh" {
			t.Errorf("fromKinfo(stat %d) = state %q comm %q, want %q \"sh\"", stat, p.State, p.Comm, want)
		}
		if live := stat != darwinSZOMB; p.Live() != live {
			t.Errorf("fromKinfo(stat %d).Live() = %v, want %v", stat, p.Live(), live)
		}
	}
}

// procargs2 builds a kern.procargs2 buffer as darwin lays it out.
func procargs2(argc int32, parts ...string) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(argc))
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

func TestParseProcargs2(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []byte
		want []string
	}{
		{"typical", procargs2(3,
			"/bin/sleep\x00\x00\x00\x00\x00\x00",
			"sleep\x0030\x00\x00", // argv: "sleep", "30", ""
			"PATH=/usr/bin:/bin\x00TFBENCH_OWNER=123-4\x00EMPTY=\x00",
			"\x00",
			"executable_path=/bin/sleep\x00ptr_munge=\x00\x00\x00"),
			[]string{"PATH=/usr/bin:/bin", "TFBENCH_OWNER=123-4", "EMPTY="}},
		{"no env", procargs2(1, "/bin/sh\x00\x00", "sh\x00", "\x00", "executable_path=/bin/sh\x00"), nil},
		{"env cut off", procargs2(1, "/bin/sh\x00", "sh\x00", "A=1\x00B=2"), []string{"A=1", "B=2"}},
		{"argc 0", procargs2(0, "/bin/sh\x00\x00", "A=1\x00\x00"), []string{"A=1"}},
	} {
		got, err := parseProcargs2(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var strs []string
		for _, e := range got {
			strs = append(strs, string(e))
		}
		if !reflect.DeepEqual(strs, tc.want) {
			t.Errorf("%s: env %q, want %q", tc.name, strs, tc.want)
		}
	}
	for _, tc := range []struct {
		in   []byte
		want string
	}{
		{[]byte{1, 0}, "procargs2: 2 bytes, want at least 4 (argc)"},
		{procargs2(1, "/bin/sh"), "procargs2: exec path without its NUL"},
		{procargs2(3, "/bin/sh\x00\x00", "sh\x00-c"), "procargs2: 1 of 3 arguments before the end"},
	} {
		if _, err := parseProcargs2(tc.in); err == nil || err.Error() != tc.want {
			t.Errorf("parseProcargs2(%q) error %v, want %q", tc.in, err, tc.want)
		}
	}
}

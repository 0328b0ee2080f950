package procs

import (
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestParseStat(t *testing.T) {
	// A real line's shape, with a command name holding spaces and
	// parentheses; starttime (field 22) is 987654.
	line := "4242 (we (ird) name) S 17 4200 4100 0 -1 4194560 10 0 0 0 3 1 0 0 20 0 1 0 987654 1000 50 18446744073709551615\n"
	got, err := ParseStat([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	want := Proc{Pid: 4242, PPid: 17, Pgid: 4200, Sid: 4100, Start: 987654, State: 'S', Comm: "we (ird) name"}
	if got != want {
		t.Errorf("ParseStat = %+v, want %+v", got, want)
	}
	if s := got.String(); s != "4242 (we (ird) name)" {
		t.Errorf("String() = %q", s)
	}
	for _, bad := range []string{
		"garbage",
		"4242 (sh) S 1 2 3", // too few fields
		"x (sh) S 1 2 3 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 1 1",    // pid not a number
		"4242 (sh) S 1 2 3 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 y 1 1", // start not a number
	} {
		if p, err := ParseStat([]byte(bad)); err == nil {
			t.Errorf("ParseStat(%q) = %+v, want an error", bad, p)
		}
	}
}

func TestLive(t *testing.T) {
	for state, want := range map[byte]bool{'R': true, 'S': true, 'D': true, 'T': true, 'Z': false, 'X': false} {
		if got := (Proc{State: state}).Live(); got != want {
			t.Errorf("Live() for state %c = %v, want %v", state, got, want)
		}
	}
}

func TestTableHoldsSelf(t *testing.T) {
	ps, err := Table()
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(ps); i++ {
		if ps[i-1].Pid >= ps[i].Pid {
			t.Fatalf("table not in ascending pid order at %d: %d then %d", i, ps[i-1].Pid, ps[i].Pid)
		}
	}
	sid, err := unix.Getsid(0)
	if err != nil {
		t.Fatal(err)
	}
	self, err := Get(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	// The state is the main thread's, which may be running or sleeping.
	want := Proc{Pid: os.Getpid(), PPid: os.Getppid(), Pgid: syscall.Getpgrp(), Sid: sid,
		Start: self.Start, Comm: "procs.test"}
	var got []Proc
	for _, p := range ps {
		if p.Pid == os.Getpid() {
			if !p.Live() {
				t.Errorf("own state %c, want a live one", p.State)
			}
			p.State = 0
			got = append(got, p)
		}
	}
	if len(got) != 1 || got[0] != want {
		t.Errorf("own entry %+v, want [%+v]", got, want)
	}
	if self.Start == 0 {
		t.Error("own start time 0")
	}
}

// table is a synthetic process table:
//
//	1 init ─┬─ 10 sh (group 10) ─┬─ 11 server (group 10) ── 13 worker (zombie)
//	        │                    └─ 12 escapee (group 12, setsid) ── 14 sleep
//	        └─ 20 other (group 20)
var table = []Proc{
	{Pid: 1, PPid: 0, Pgid: 1, Sid: 1, Start: 1, State: 'S', Comm: "init"},
	{Pid: 10, PPid: 1, Pgid: 10, Sid: 1, Start: 100, State: 'S', Comm: "sh"},
	{Pid: 11, PPid: 10, Pgid: 10, Sid: 1, Start: 101, State: 'R', Comm: "server"},
	{Pid: 12, PPid: 10, Pgid: 12, Sid: 12, Start: 102, State: 'S', Comm: "escapee"},
	{Pid: 13, PPid: 11, Pgid: 10, Sid: 1, Start: 103, State: 'Z', Comm: "worker"},
	{Pid: 14, PPid: 12, Pgid: 12, Sid: 12, Start: 104, State: 'S', Comm: "sleep"},
	{Pid: 20, PPid: 1, Pgid: 20, Sid: 1, Start: 200, State: 'S', Comm: "other"},
}

func pids(ps []Proc) []int {
	out := []int{}
	for _, p := range ps {
		out = append(out, p.Pid)
	}
	return out
}

func TestGroup(t *testing.T) {
	for pgid, want := range map[int][]int{10: {10, 11}, 12: {12, 14}, 20: {20}, 99: {}} {
		if got := pids(Group(table, pgid)); !reflect.DeepEqual(got, want) {
			t.Errorf("Group(%d) = %v, want %v (zombie 13 excluded)", pgid, got, want)
		}
	}
}

func TestDescendants(t *testing.T) {
	for _, tc := range []struct {
		roots []int
		want  []int
	}{
		{[]int{10}, []int{11, 12, 14}}, // 13 is a zombie
		{[]int{12}, []int{14}},
		{[]int{11, 12}, []int{14}},
		{[]int{14}, []int{}},
		{[]int{1}, []int{10, 11, 12, 14, 20}},
		{nil, []int{}},
	} {
		if got := pids(Descendants(table, tc.roots...)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Descendants(%v) = %v, want %v", tc.roots, got, tc.want)
		}
	}
}

func TestAlive(t *testing.T) {
	known := []Proc{
		{Pid: 11, Start: 101}, // same process
		{Pid: 12, Start: 999}, // pid reused by another process
		{Pid: 13, Start: 103}, // zombie
		{Pid: 30, Start: 300}, // gone
		{Pid: 20, Start: 200}, // same process
	}
	if got := pids(Alive(table, known)); !reflect.DeepEqual(got, []int{11, 20}) {
		t.Errorf("Alive = %v, want [11 20]", got)
	}
}

// sleeper starts `sleep 30` with extra environment, killed at test end.
// The channel receives how it ended once it has been reaped.
func sleeper(t *testing.T, env ...string) (<-chan string, Proc) {
	t.Helper()
	c := exec.Command("sleep", "30")
	c.Env = append(os.Environ(), env...)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan string, 1)
	waited := make(chan struct{})
	go func() {
		c.Wait()
		ended <- c.ProcessState.String()
		close(waited)
	}()
	t.Cleanup(func() {
		c.Process.Kill()
		<-waited
	})
	p, err := Get(c.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	return ended, p
}

func TestTagged(t *testing.T) {
	tag := "procs-test-" + strconv.Itoa(os.Getpid())
	_, a := sleeper(t, "PROCS_TEST_TAG="+tag+"-a")
	_, b := sleeper(t, "PROCS_TEST_TAG="+tag+"-b")
	sleeper(t, "PROCS_TEST_OTHER="+tag+"-a")
	ps, err := Table()
	if err != nil {
		t.Fatal(err)
	}
	exact := Tagged(ps, "PROCS_TEST_TAG", func(v string) bool { return v == tag+"-a" })
	if len(exact) != 1 || exact[0].Pid != a.Pid || exact[0].Start != a.Start || exact[0].Comm != "sleep" {
		t.Errorf("Tagged(=%s-a) = %v, want [%v]", tag, exact, a)
	}
	prefix := Tagged(ps, "PROCS_TEST_TAG", func(v string) bool { return len(v) > len(tag) && v[:len(tag)] == tag })
	if !reflect.DeepEqual(pids(prefix), pids([]Proc{a, b})) {
		t.Errorf("Tagged(prefix %s) = %v, want [%v %v] (not the PROCS_TEST_OTHER one)", tag, prefix, a, b)
	}
	if got := Tagged(ps, "PROCS_TEST_TAG", func(v string) bool { return v == tag }); len(got) != 0 {
		t.Errorf("Tagged(=%s) = %v, want none (values are matched whole)", tag, got)
	}
}

func TestKill(t *testing.T) {
	ended, p := sleeper(t)
	self, err := Get(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	reused := p
	reused.Start++ // the pid now held by another process
	if n, err := Kill([]Proc{reused, self, {Pid: 1, Start: 1}}, syscall.SIGKILL); n != 0 || err != nil {
		t.Fatalf("Kill(other start time, self, pid 1) = %d, %v; want 0, nil", n, err)
	}
	if q, err := Get(p.Pid); err != nil || !q.Live() {
		t.Fatalf("sleep %v not alive after a Kill naming another start time: %v %v", p, q, err)
	}
	if n, err := Kill([]Proc{p}, syscall.SIGTERM); n != 1 || err != nil {
		t.Fatalf("Kill(sleep) = %d, %v; want 1, nil", n, err)
	}
	select {
	case how := <-ended:
		if how != "signal: terminated" {
			t.Errorf("sleep ended with %q, want signal: terminated", how)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("sleep still running 2s after SIGTERM")
	}
	// Reaped: gone, nothing to signal.
	if n, err := Kill([]Proc{p}, syscall.SIGKILL); n != 0 || err != nil {
		t.Errorf("Kill(reaped process) = %d, %v; want 0, nil", n, err)
	}
}

// BenchmarkTableTagged is one stop poll: the process table and a scan of
// every environment for a tag.
func BenchmarkTableTagged(b *testing.B) {
	for b.Loop() {
		ps, err := Table()
		if err != nil {
			b.Fatal(err)
		}
		Tagged(ps, "PROCS_BENCH_TAG", func(string) bool { return true })
	}
}

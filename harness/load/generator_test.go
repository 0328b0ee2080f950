package load

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/rakyll/hey/requester"
	"golang.org/x/sys/unix"
)

// The generator's own errnos, bare (the event loop's system calls) or
// wrapped as net and os wrap them (the constant-rate dialer), are class
// Generator with the limit named; other errors keep their class.
func TestGeneratorClass(t *testing.T) {
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &rl); err != nil {
		t.Fatal(err)
	}
	p := &plan{config: config{Options: Options{Addr: "127.0.0.1:8080", Connections: 64, Timeout: 500 * time.Millisecond}}}
	emfile := fmt.Sprintf("(generator: RLIMIT_NOFILE %d for 64 connections)", rl.Cur)
	cases := []struct {
		op    Class
		err   error
		class Class
		msg   string
	}{
		{Connect, unix.EMFILE, Generator, "connect 127.0.0.1:8080: too many open files " + emfile},
		{Connect, &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("socket", syscall.EMFILE)}, Generator,
			"connect 127.0.0.1:8080: too many open files " + emfile},
		{Connect, unix.ENFILE, Generator,
			"connect 127.0.0.1:8080: too many open files in system (generator: the system's open-file table is full; fs.file-max)"},
		{Connect, unix.EADDRNOTAVAIL, Generator,
			"connect 127.0.0.1:8080: cannot assign requested address (generator: no free local port; TIME_WAIT or " + wantPortRange(t) + ")"},
		{Connect, fmt.Errorf("epoll_ctl: %w", unix.ENOMEM), Generator,
			"connect 127.0.0.1:8080: epoll_ctl: cannot allocate memory (generator: the kernel is out of memory for sockets)"},
		{Write, unix.ENOBUFS, Generator,
			"write 127.0.0.1:8080: no buffer space available (generator: the kernel is out of memory for sockets)"},
		{Connect, unix.ECONNREFUSED, Connect, "connect 127.0.0.1:8080: connection refused"},
		{Connect, os.ErrDeadlineExceeded, Connect, "connect 127.0.0.1:8080: i/o timeout"},
		{Read, os.ErrDeadlineExceeded, Timeout, "read 127.0.0.1:8080: no complete response within 500ms"},
		{Read, unix.ECONNRESET, Read, "read 127.0.0.1:8080: connection reset by peer"},
	}
	for _, c := range cases {
		class, msg := p.classify(c.op, c.err)
		if class != c.class || msg() != c.msg {
			t.Errorf("classify(%s, %v) = %s %q, want %s %q", c.op, c.err, class, msg(), c.class, c.msg)
		}
	}
}

// Generator errors are not socket errors; GeneratorErrors counts them and
// merge keeps their example.
func TestResultGeneratorErrors(t *testing.T) {
	for i, c := range Classes {
		if classIndex(c) != i {
			t.Errorf("classIndex(%s) = %d, want its place in Classes, %d", c, classIndex(c), i)
		}
	}
	var a, b tally
	a.fail(Generator, time.Unix(2, 0), func() string { return "connect a: too many open files" })
	a.fail(Read, time.Unix(1, 0), func() string { return "read a: reset" })
	b.fail(Generator, time.Unix(1, 0), func() string { return "connect b: cannot assign requested address" })
	b.fail(Generator, time.Unix(3, 0), func() string { return "unused" })
	var r Result
	r.merge([]*tally{&a, &b})
	if r.GeneratorErrors() != 3 || r.SocketErrors() != 1 || r.Examples[Generator] != "connect b: cannot assign requested address" {
		t.Errorf("generator errors %d, socket errors %d, example %q; want 3, 1 (the read), the earliest",
			r.GeneratorErrors(), r.SocketErrors(), r.Examples[Generator])
	}
}

// Engine hey's generator errors (TestHeyClass) are not socket errors, and
// their example gets the same parenthesis as raw's.
func TestHeyGeneratorErrors(t *testing.T) {
	cfg, err := Options{Addr: "127.0.0.1:1", Path: "/q", Connections: 64, Duration: time.Second, Timeout: time.Second}.validate()
	if err != nil {
		t.Fatal(err)
	}
	emfile := `Get "http://127.0.0.1:1/q": dial tcp 127.0.0.1:1: socket: too many open files`
	r := heyResult(cfg, &requester.Report{
		StatusCodes: []int{200}, Lats: []float64{0.001},
		ErrorDist: map[string]int{
			emfile: 5,
			`Get "http://127.0.0.1:1/q": dial tcp 127.0.0.1:1: connect: cannot assign requested address`: 2,
		},
	})
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &rl); err != nil {
		t.Fatal(err)
	}
	if want := map[Class]int64{Generator: 7}; !maps.Equal(r.Errors, want) || r.SocketErrors() != 0 || r.Responses != 1 {
		t.Errorf("Errors %v, socket errors %d, %d responses; want %v, 0, 1", r.Errors, r.SocketErrors(), r.Responses, want)
	}
	if want := emfile + fmt.Sprintf(" (generator: RLIMIT_NOFILE %d for 64 connections)", rl.Cur); r.Examples[Generator] != want {
		t.Errorf("example %q, want %q", r.Examples[Generator], want)
	}
}

// Environment of TestGeneratorFDLimit's child: the server's address and
// where the child writes its results.
const (
	fdLimitAddrEnv = "TFBENCH_LOAD_FDLIMIT_ADDR"
	fdLimitOutEnv  = "TFBENCH_LOAD_FDLIMIT_OUT"
)

// fdLimitRun is one Run of TestGeneratorFDLimit's child, as it reports it.
type fdLimitRun struct {
	Limit        uint64 // RLIMIT_NOFILE during the run
	Err          string
	Window       time.Duration
	Responses    int64
	SocketErrors int64
	Errors       map[Class]int64
	Examples     map[Class]string
}

// An open-file limit too low for the connections is the generator's fault,
// not the server's: a child process (the test binary again, GOMAXPROCS=1)
// lowers RLIMIT_NOFILE to 32 and runs 64 connections against this
// process's server; the connections that get no socket count as generator
// errors, never as socket errors, and the others measure. Then it lowers
// the limit to its lowest free descriptor, so that not even the event
// loop's eventfd can be made: Run returns a Result with one generator error
// instead of failing.
func TestGeneratorFDLimit(t *testing.T) {
	if addr := os.Getenv(fdLimitAddrEnv); addr != "" {
		fdLimitChild(t, addr, os.Getenv(fdLimitOutEnv))
		return
	}
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, helloJSON) })
	out := filepath.Join(t.TempDir(), "runs.json")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestGeneratorFDLimit$", "-test.count=1")
	cmd.Env = append(os.Environ(), fdLimitAddrEnv+"="+s.addr(), fdLimitOutEnv+"="+out, "GOMAXPROCS=1")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var runs []fdLimitRun
	if err := json.Unmarshal(b, &runs); err != nil || len(runs) != 2 {
		t.Fatalf("child's report %s: %v, want 2 runs", b, err)
	}

	t.Logf("child's runs: %+v", runs)
	r := runs[0]
	if r.Limit != 32 || r.Err != "" || r.Window != 300*time.Millisecond {
		t.Errorf("limit %d, error %q, window %s; want 32, none, 300ms", r.Limit, r.Err, r.Window)
	}
	if r.Errors[Generator] == 0 || len(r.Errors) != 1 || r.SocketErrors != 0 || r.Responses == 0 {
		t.Errorf("errors %v (%v), %d socket errors, %d responses; want generator errors only, some responses", r.Errors, r.Examples, r.SocketErrors, r.Responses)
	}
	if want := "connect " + s.addr() + ": too many open files (generator: RLIMIT_NOFILE 32 for 64 connections)"; r.Examples[Generator] != want {
		t.Errorf("example %q, want %q", r.Examples[Generator], want)
	}

	r = runs[1]
	if want := map[Class]int64{Generator: 1}; r.Err != "" || r.Window != 0 || r.Responses != 0 || !maps.Equal(r.Errors, want) {
		t.Errorf("no fd left: error %q, window %s, %d responses, errors %v; want none, 0, 0, %v", r.Err, r.Window, r.Responses, r.Errors, want)
	}
	if want := fmt.Sprintf("eventfd: too many open files (generator: RLIMIT_NOFILE %d for 64 connections)", r.Limit); r.Examples[Generator] != want {
		t.Errorf("no fd left: example %q, want %q", r.Examples[Generator], want)
	}
}

// fdLimitChild is TestGeneratorFDLimit's child: two runs at lowered
// open-file limits, reported as JSON to the file out, opened first.
func fdLimitChild(t *testing.T, addr, out string) {
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	o := Options{Addr: addr, Path: "/json", Connections: 64, Duration: 300 * time.Millisecond, Timeout: time.Second}
	var runs []fdLimitRun
	measure := func(limit uint64) {
		if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &unix.Rlimit{Cur: limit, Max: limit}); err != nil {
			t.Fatalf("setrlimit %d: %v", limit, err)
		}
		r, err := Run(context.Background(), o)
		run := fdLimitRun{Limit: limit}
		if err != nil {
			run.Err = err.Error()
		}
		if r != nil {
			run.Window, run.Responses, run.SocketErrors = r.Window, r.Responses, r.SocketErrors()
			run.Errors, run.Examples = r.Errors, r.Examples
		}
		runs = append(runs, run)
	}
	measure(32)
	// The lowest free descriptor: at that limit no new one can be opened.
	fd, err := unix.Dup(0)
	if err != nil {
		t.Fatal(err)
	}
	unix.Close(fd)
	measure(uint64(fd))
	if err := json.NewEncoder(f).Encode(runs); err != nil {
		t.Fatal(err)
	}
}

// setSockoptHook sets sockoptHook for the test.
func setSockoptHook(t *testing.T, hook func(fd int) error) {
	sockoptHook = hook
	t.Cleanup(func() { sockoptHook = nil })
}

// No free local port (EADDRNOTAVAIL) is the generator's fault: injected on
// every socket, every connect fails as a generator error, in both modes;
// with IP_LOCAL_PORT_RANGE restricting each socket to two local ports
// (Linux >= 6.3), two of four connections measure and the other two fail.
func TestGeneratorPortsExhausted(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, helloJSON) })
	want := "connect " + s.addr() + ": cannot assign requested address (generator: no free local port; TIME_WAIT or " + wantPortRange(t) + ")"
	for _, rate := range []float64{0, 200} {
		t.Run(fmt.Sprintf("injected-rate-%g", rate), func(t *testing.T) {
			setSockoptHook(t, func(int) error { return unix.EADDRNOTAVAIL })
			r := run(t, Options{Addr: s.addr(), Path: "/json", Connections: 2, Rate: rate, Duration: 100 * time.Millisecond, Timeout: time.Second})
			// One try per connection per 10 ms backoff.
			if n := r.Errors[Generator]; n < 2 || n > 2*11 || len(r.Errors) != 1 || r.SocketErrors() != 0 || r.Responses != 0 || r.Connects != 0 {
				t.Errorf("errors %v, %d socket errors, %d responses, %d connects; want 2..22 generator errors only, 0, 0, 0",
					r.Errors, r.SocketErrors(), r.Responses, r.Connects)
			}
			if r.Examples[Generator] != want {
				t.Errorf("example %q, want %q", r.Examples[Generator], want)
			}
		})
	}
	t.Run("ip_local_port_range", func(t *testing.T) {
		rangeHook := twoPortsHook(t) // skips where a socket's local ports cannot be restricted
		before := s.conns.Load()
		setSockoptHook(t, rangeHook)
		r := run(t, Options{Addr: s.addr(), Path: "/json", Connections: 4, Duration: 300 * time.Millisecond, Timeout: time.Second})
		if r.Errors[Generator] < 2 || len(r.Errors) != 1 || r.SocketErrors() != 0 || r.Responses == 0 || r.Success != r.Responses {
			t.Errorf("errors %v (%v), %d socket errors, %d responses (%d successes); want generator errors only, responses all 200",
				r.Errors, r.Examples, r.SocketErrors(), r.Responses, r.Success)
		}
		if got := s.conns.Load() - before; got != 2 || r.Connects != 0 {
			t.Errorf("server accepted %d connections, %d connects in the window; want 2 (one per local port), 0", got, r.Connects)
		}
		if r.Examples[Generator] != want {
			t.Errorf("example %q, want %q", r.Examples[Generator], want)
		}
	})
}

package loadgencmp

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/tfbench/tfbench/internal/cpuset"
)

// MemorySetting is the load of the memory run (bench:loadgen-memory): the
// heavier of Settings, against the Content-Length server.
var MemorySetting = Settings[1]

// FlatBaseline is how many leading 1 s samples of a memory run form its
// baseline, and FlatTolerance how far above the baseline's maximum the last
// sample may be for the run to count as flat: last <= 1.10 × max(first 10 s).
const (
	FlatBaseline  = 10
	FlatTolerance = 0.10
)

// Memory is a memory run: the generator's resident memory sampled once a
// second.
type Memory struct {
	// RSS holds the generator process's resident memory, bytes, one sample
	// per second from its start (the first taken 1 s after it): VmRSS from
	// /proc/PID/status on Linux, proc_pidinfo's resident size on macOS.
	RSS []int64
	// Run is the generator's own report of the run.
	Run Run
}

// Flat reports whether m's last RSS sample is at most limit bytes, (1 +
// FlatTolerance) × the maximum of the first FlatBaseline; with no more
// samples than that, judged is false.
func (m *Memory) Flat() (flat bool, limit int64, judged bool) {
	if len(m.RSS) <= FlatBaseline {
		return false, 0, false
	}
	var base int64
	for _, v := range m.RSS[:FlatBaseline] {
		base = max(base, v)
	}
	limit = int64(float64(base) * (1 + FlatTolerance))
	return m.RSS[len(m.RSS)-1] <= limit, limit, true
}

// MeasureMemory runs tfbench load for cfg.Duration at MemorySetting against
// the Content-Length server, pinned as in Compare, and samples its resident
// memory every second; errors name what failed, with the generator's stderr.
func MeasureMemory(ctx context.Context, cfg Config) (*Memory, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	s, err := startServer(cfg.Self, Length, cfg.Server)
	if err != nil {
		return nil, err
	}
	defer s.stop()
	argv := append([]string{cfg.Tfbench}, TfbenchArgs(Shot{URL: "http://" + s.addr + "/", Setting: MemorySetting, Duration: cfg.Duration})...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cpuset.StartIn(cfg.Generator, cmd); err != nil {
		return nil, fmt.Errorf("start %s: %w", strings.Join(argv, " "), err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	m := &Memory{}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	rss := rssSampler(cmd.Process.Pid)
sample:
	for {
		select {
		case <-tick.C:
			// The process may have exited between the tick and the read:
			// such a sample is skipped.
			if v, ok := rss(); ok {
				m.RSS = append(m.RSS, v)
			}
		case err = <-done:
			break sample
		}
	}
	wall := time.Since(start)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %s", strings.Join(argv, " "), err, clipOut(stderr.Bytes()))
	}
	rep, err := ParseTfbench(stdout.Bytes())
	if err != nil {
		return nil, err
	}
	m.Run = Run{Report: rep, CPU: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), Wall: wall}
	return m, nil
}

// ParseVmRSS reads the VmRSS line ("VmRSS:   12345 kB") of a Linux
// /proc/PID/status file and returns it in bytes. A missing or malformed
// line is an error quoting it.
func ParseVmRSS(status []byte) (int64, error) {
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, "VmRSS:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("unexpected VmRSS line %q, want \"VmRSS: N kB\"", line)
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("VmRSS line %q: %w", line, err)
		}
		return kb << 10, nil
	}
	return 0, fmt.Errorf("no VmRSS line (a kernel thread or a zombie)")
}

// WriteMemory prints the memory run m (RPS, errors, resident memory first,
// last and max in MiB) and returns whether it stayed flat (Memory.Flat) and
// w's first error.
func WriteMemory(w io.Writer, cfg Config, m *Memory) (bool, error) {
	var first, last, peak int64
	if len(m.RSS) > 0 {
		first, last = m.RSS[0], m.RSS[len(m.RSS)-1]
		for _, v := range m.RSS {
			peak = max(peak, v)
		}
	}
	flat, limit, judged := m.Flat()
	verdict := fmt.Sprintf("flat: %s (last %s <= %.2f × max of the first %d s = %s MiB)",
		map[bool]string{true: "yes", false: "NO"}[flat], mib(last), 1+FlatTolerance, FlatBaseline, mib(limit))
	if !judged {
		verdict = fmt.Sprintf("flat: not judged (%d samples; need more than %d)", len(m.RSS), FlatBaseline)
	}
	_, err := fmt.Fprintf(w, "tfbench load memory: %s for %s against the %s server, generator CPUs %s, server CPUs %s\n"+
		"%s req/s, %d responses, %d errors\n"+
		"%s over %d samples 1 s apart: first %s MiB, last %s MiB, max %s MiB\n%s\n",
		MemorySetting, cfg.Duration, Length, cpus(cfg.Generator), cpus(cfg.Server),
		thousands(m.Run.RPS), m.Run.Responses, m.Run.Errors,
		rssName, len(m.RSS), mib(first), mib(last), mib(peak), verdict)
	return flat, err
}

// mib formats bytes as MiB with one decimal.
func mib(b int64) string { return strconv.FormatFloat(float64(b)/(1<<20), 'f', 1, 64) }

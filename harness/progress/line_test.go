package progress

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tfbench/tfbench/harness/model"
)

// step is round 2 of 5 of nextjs/default on fortunes at c=64, 3:05 into
// measuring (4:05 into the run) with an ETA of 7:40: 37 of 129 planned
// seconds done, each planned second taking 5 s of wall time, 92 × 5 s =
// 460 s left.
var step = Step{ID: model.ID{Framework: "nextjs", Variant: "default"}, Test: "fortunes", Connections: 64, Round: 2, Rounds: 5,
	Shot: 5 * time.Second, Done: 37 * time.Second, Total: 129 * time.Second, Elapsed: 245 * time.Second, Measuring: 185 * time.Second}

func TestETA(t *testing.T) {
	cases := []struct {
		s    Step
		want time.Duration
	}{
		{Step{Done: 25 * time.Second, Total: 100 * time.Second, Measuring: 40 * time.Second}, 2 * time.Minute},
		{step, 7*time.Minute + 40*time.Second},
		// Nothing measured yet: the plan × PriorOverhead (1.2).
		{Step{Done: 0, Total: 100 * time.Second, Elapsed: 40 * time.Second}, 2 * time.Minute},
		{Step{Done: 100 * time.Second, Total: 100 * time.Second, Measuring: 40 * time.Second}, 0},
		// 1 s left at 1.4 wall seconds per planned second: rounded to 1 s.
		{Step{Done: 10 * time.Second, Total: 11 * time.Second, Measuring: 14 * time.Second}, time.Second},
		// A build step: 3 builds left at 20 s, then 100 s of plan × 1.2.
		{Step{Build: "nextjs", Builds: 9, BuildsDone: 6, BuildsLeft: 60 * time.Second, Total: 100 * time.Second, Elapsed: 5 * time.Minute}, 3 * time.Minute},
	}
	for _, c := range cases {
		if got := ETA(c.s); got != c.want {
			t.Errorf("ETA(done %v of %v, measuring %v, builds left %v) = %v, want %v", c.s.Done, c.s.Total, c.s.Measuring, c.s.BuildsLeft, got, c.want)
		}
	}
}

func TestClock(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0:00", 185 * time.Second: "3:05", 59*time.Minute + 59*time.Second + 600*time.Millisecond: "1:00:00",
		3723 * time.Second: "1:02:03", -time.Second: "0:00",
	} {
		if got := Clock(d); got != want {
			t.Errorf("Clock(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestStepText(t *testing.T) {
	queries := Step{ID: model.ID{Framework: "go-stdlib", Variant: "default@new"}, Test: "queries", N: 20, Connections: 16, Round: 1, Rounds: 1, Elapsed: 12 * time.Second}
	rate := step
	rate.Rate, rate.Connections = 200, 8
	cases := []struct {
		s    Step
		want string
	}{
		{step, "round 2/5 · nextjs/default · fortunes c=64 · 4:05 elapsed · ETA 7:40"},
		{Step{Build: "nextjs", Builds: 9, BuildsDone: 2, BuildsLeft: 7 * 30 * time.Second, Total: 25 * time.Minute, Elapsed: 41 * time.Second},
			"build 3/9 · nextjs · 0:41 elapsed · ETA 33:30"},
		{queries, "round 1/1 · go-stdlib/default@new · queries N=20 c=16 · 0:12 elapsed"},
		{rate, "round 2/5 · nextjs/default · fortunes 200 requests/s c=8 · 4:05 elapsed · ETA 7:40"},
	}
	for _, c := range cases {
		if got := c.s.Text(); got != c.want {
			t.Errorf("Text() = %q, want %q", got, c.want)
		}
	}
}

// TestLiveLineKeepsETA: on a narrow terminal the framework and test part
// is cut so the elapsed time and ETA stay whole.
func TestLiveLineKeepsETA(t *testing.T) {
	for width, want := range map[int]string{
		60: "round 2/5 · nextjs/default · fort… · 4:05 elapsed · ETA 7:40",
		70: "round 2/5 · nextjs/default · fortunes c=64 · 4:05 elapsed · ETA 7:40",
		35: "round 2/5 · nextjs/default · fortu…", // under 10 runes left for the first part: cut at the end
	} {
		var b bytes.Buffer
		New(&b, true, width).Step(step)
		if got := strings.TrimPrefix(b.String(), "\r\x1b[2K"); got != want || utf8.RuneCountInString(got) > width {
			t.Errorf("width %d: %q, want %q", width, got, want)
		}
	}
}

func TestLiveLine(t *testing.T) {
	var b bytes.Buffer
	l := New(&b, true, 32)
	l.Step(step)
	if got, want := b.String(), "\r\x1b[2Kround 2/5 · nextjs/default · fo…"; got != want {
		t.Fatalf("live line %q, want %q", got, want)
	}
	b.Reset()
	// A log line arriving in two writes is printed above the live line once
	// complete, and the live line is drawn again below it.
	l.Write([]byte("round 2/5: nextjs/default fortunes c=64: "))
	if b.Len() != 0 {
		t.Fatalf("a partial line was written: %q", b.String())
	}
	l.Write([]byte("2066 RPS\nverify x\n"))
	want := "\r\x1b[2Kround 2/5: nextjs/default fortunes c=64: 2066 RPS\n" +
		"\r\x1b[2Kverify x\n" +
		"\r\x1b[2Kround 2/5 · nextjs/default · fo…"
	if got := b.String(); got != want {
		t.Fatalf("log lines in live mode:\n%q\nwant\n%q", got, want)
	}
	b.Reset()
	l.Write([]byte("no newline"))
	l.Done()
	if got, want := b.String(), "\r\x1b[2Kno newline\n"; got != want {
		t.Fatalf("Done wrote %q, want %q", got, want)
	}
	b.Reset()
	l.Write([]byte("summary\n"))
	if got := b.String(); got != "summary\n" {
		t.Errorf("after Done: %q, want the plain line", got)
	}
}

// TestLiveLineBeforeAnyStep: log lines before the first Step (builds) are
// plain; there is no live line to erase or redraw yet.
func TestLiveLineBeforeAnyStep(t *testing.T) {
	var b bytes.Buffer
	l := New(&b, true, 32)
	l.Write([]byte("go-stdlib (go): cached build 0123456789ab\n"))
	if got := b.String(); got != "go-stdlib (go): cached build 0123456789ab\n" {
		t.Errorf("%q", got)
	}
}

func TestPlainLine(t *testing.T) {
	var b bytes.Buffer
	l := New(&b, false, 32)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	l.now = func() time.Time { return at }
	l.Write([]byte("go-stdlib (go): cached build 0123456789ab\n"))
	s := step
	s.Done = 32 * time.Second // the 5 s shot brings it to 37 s
	l.Step(s)
	if b.String() != "go-stdlib (go): cached build 0123456789ab\n" {
		t.Fatalf("plain Step wrote %q", b.String())
	}
	l.Write([]byte("round 2/5: nextjs/default fortunes c=64: 2066 RPS\nnextjs/default: stop: exit status 1\n"))
	l.Step(Step{Test: "json", Shot: time.Second, Total: 10 * time.Second}) // the first shot: no ETA yet…
	at = at.Add(4 * time.Second)                                           // …until it is done, 4 s later
	l.Write([]byte("round 1/1: a/b json c=8: 9 RPS\n"))
	l.Done()
	want := "go-stdlib (go): cached build 0123456789ab\n" +
		"round 2/5: nextjs/default fortunes c=64: 2066 RPS (4:05 elapsed, ETA 7:40)\n" +
		"nextjs/default: stop: exit status 1\n" +
		"round 1/1: a/b json c=8: 9 RPS (0:04 elapsed, ETA 0:36)\n"
	if got := b.String(); got != want {
		t.Errorf("plain mode wrote\n%q\nwant\n%q", got, want)
	}
	if strings.ContainsAny(b.String(), "\r\x1b") {
		t.Errorf("plain mode wrote escape bytes: %q", b.String())
	}
}

func TestForFileOnAFileIsPlain(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l := ForFile(f)
	if l.Live() {
		t.Fatal("a regular file got a live line")
	}
	l.Step(step)
	l.Write([]byte("x\n"))
	l.Done()
	data, _ := os.ReadFile(f.Name())
	if string(data) != "x (4:05 elapsed, ETA 6:23)\n" {
		t.Errorf("file holds %q", data)
	}
}

func TestLiveTerminal(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	cases := []struct {
		terminal bool
		getenv   func(string) string
		want     bool
	}{
		{true, env("TERM", "xterm-256color"), true},
		{false, env("TERM", "xterm-256color"), false},
		{true, env("TERM", "xterm", "CI", "true"), false},
		{true, env("TERM", "dumb"), false},
	}
	for i, c := range cases {
		if got := liveTerminal(c.terminal, c.getenv); got != c.want {
			t.Errorf("case %d: live = %v, want %v", i, got, c.want)
		}
	}
}

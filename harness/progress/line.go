// Package progress shows where a benchmark run is and when it will end: on
// a terminal one live status line below the log lines; elsewhere (a pipe,
// CI) plain log lines, the elapsed time and ETA appended to sample lines.
// run.Config.Progress hands it a Step per shot; run.Config.Log writes to it.
package progress

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/tfbench/tfbench/harness/model"
	"golang.org/x/term"
)

// Step is the shot a run is about to measure and how far the run is.
type Step struct {
	// ID names the target (its variant the recorded name, with
	// run.Target.Label when set); Test is the suite test.
	model.ID
	Test string
	// N is the queries/updates row count (0 for the other test types);
	// Connections the concurrency (open connections) of the shot.
	N, Connections int
	// Rate is the constant-rate shot's rate in requests/s; 0 for a
	// closed-loop shot.
	Rate float64
	// Round is the current round, 1..Rounds.
	Round, Rounds int
	// Shot is this shot's expected measuring window (its earlier rounds'
	// median, else the suite's duration).
	Shot time.Duration
	// Done is the plan's measuring time (warmups and windows) finished
	// before this shot; Total the whole run's as it now stands (measured
	// windows as measured, the rest expected: run's planState).
	Done, Total time.Duration
	// Elapsed is the wall time since the run began; Measuring since its
	// measuring began, after the builds, less verification (paid once per
	// variant, in round 1): 0 during the builds.
	Elapsed, Measuring time.Duration
	// Build, when set, makes this a build step: the adapter about to be
	// built, one of Builds with BuildsDone finished; BuildsLeft is the time
	// the builds not done yet are expected to take, this one included.
	Build              string
	Builds, BuildsDone int
	BuildsLeft         time.Duration
}

// BuildGuess is a build's expected wall time before any build of the run
// has finished (then their mean is used): an npm ci from a warm cache and a
// bundler build on 2 CPUs; a build found unchanged takes a second or two.
const BuildGuess = 30 * time.Second

// PriorOverhead is the ratio of wall time to planned measuring time (warmups
// and windows) assumed before any of it is done: server starts,
// verification and the pauses between samples add to the plan.
const PriorOverhead = 1.2

// ETA is the wall time left, to the second: BuildsLeft, plus the measuring
// left, (Total − Done) × Measuring ÷ Done, so the starts and checks between
// shots count (Total × PriorOverhead while Done = 0); 0 once nothing is left.
func ETA(s Step) time.Duration {
	left := float64(s.BuildsLeft)
	if s.Total > s.Done {
		ratio := PriorOverhead
		if s.Done > 0 {
			ratio = float64(s.Measuring) / float64(s.Done)
		}
		left += float64(s.Total-s.Done) * ratio
	}
	return time.Duration(math.Round(left/float64(time.Second))) * time.Second
}

// Clock formats d as a stopwatch, rounded to the second: "3:05" (m:ss), or
// "1:02:03" (h:mm:ss) from an hour up. Negative durations show as "0:00".
func Clock(d time.Duration) string {
	s := int64(max(d, 0).Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// Text is s as the live line shows it, e.g. "round 2/5 · nextjs/default ·
// fortunes c=64 · 3:05 elapsed · ETA 7:40", with N and the rate where they
// apply; a build step "build 3/9 · nextjs · 0:41 elapsed · ETA 31:10".
func (s Step) Text() string { return s.where() + s.when() }

// where is Text's first part: "round 2/5 · nextjs/default · fortunes c=64",
// or "build 3/9 · nextjs".
func (s Step) where() string {
	var b strings.Builder
	if s.Build != "" {
		fmt.Fprintf(&b, "build %d/%d · %s", s.BuildsDone+1, s.Builds, s.Build)
		return b.String()
	}
	fmt.Fprintf(&b, "round %d/%d · %s · %s", s.Round, s.Rounds, s.ID, s.Test)
	if s.N > 0 {
		fmt.Fprintf(&b, " N=%d", s.N)
	}
	if s.Rate > 0 {
		fmt.Fprintf(&b, " %g requests/s", s.Rate)
	}
	fmt.Fprintf(&b, " c=%d", s.Connections)
	return b.String()
}

// when is Text's last part: " · 3:05 elapsed · ETA 7:40".
func (s Step) when() string {
	t := " · " + Clock(s.Elapsed) + " elapsed"
	if s.Total > 0 || s.BuildsLeft > 0 {
		t += " · ETA " + Clock(ETA(s))
	}
	return t
}

// fit is Text within width runes: the first part is cut (ending in "…") so
// that the elapsed time and ETA stay whole, unless that leaves it fewer than
// 10 runes; then the whole text is cut at the end.
func (s Step) fit(width int) string {
	when := s.when()
	if room := width - utf8.RuneCountInString(when); width > 0 && room >= 10 {
		return truncate(s.where(), room) + when
	}
	return truncate(s.Text(), width)
}

// Escape sequences of the live line: return to column 0 and erase the line.
const clearLine = "\r\x1b[2K"

// Line writes a run's log lines and keeps its progress on one live line:
// live mode draws Step.Text fitted to the width, log lines above it; plain
// mode adds " (3:05 elapsed, ETA 7:40)" to the first line after each Step
// (its sample line), no escape bytes. A Line is safe for concurrent use.
type Line struct {
	mu    sync.Mutex
	w     io.Writer
	live  bool
	width int
	now   func() time.Time // the clock; time.Now (tests set it)

	shown   string    // the live text on screen, "" when none
	partial []byte    // a log line without its newline yet
	step    Step      // the last Step
	stepAt  time.Time // when it came
	pending bool      // plain mode: the next line is the step's sample line
}

// New returns a Line writing to w: live mode when live is true (width is
// the terminal's width in columns; ≤ 0 means no truncation), plain mode
// otherwise.
func New(w io.Writer, live bool, width int) *Line {
	return &Line{w: w, live: live, width: width, now: time.Now}
}

// ForFile returns a Line writing to f, live when f is a terminal, CI is
// unset or empty and TERM is not "dumb" (width from term.GetSize, else 80).
func ForFile(f *os.File) *Line {
	fd := int(f.Fd())
	if !liveTerminal(term.IsTerminal(fd), os.Getenv) {
		return New(f, false, 0)
	}
	width, _, err := term.GetSize(fd)
	if err != nil || width <= 0 {
		width = 80
	}
	return New(f, true, width)
}

// liveTerminal decides live mode: a terminal that is not CI's log and not
// a dumb terminal.
func liveTerminal(isTerminal bool, getenv func(string) string) bool {
	return isTerminal && getenv("CI") == "" && getenv("TERM") != "dumb"
}

// Live reports whether l keeps a live line (a terminal).
func (l *Line) Live() bool { return l.live }

// Step records s as the run's position: live mode draws it.
func (l *Line) Step(s Step) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.step, l.stepAt, l.pending = s, l.now(), true
	if l.live {
		l.shown = s.fit(l.width)
		io.WriteString(l.w, clearLine+l.shown)
	}
}

// Write writes log text: every complete line as described at Line; a final
// line without its newline waits for the rest (or Done). It returns len(p)
// and the underlying writer's error.
func (l *Line) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.partial = append(l.partial, p...)
	var out strings.Builder
	for {
		i := strings.IndexByte(string(l.partial), '\n')
		if i < 0 {
			break
		}
		l.line(&out, string(l.partial[:i]))
		l.partial = l.partial[i+1:]
	}
	if l.live && l.shown != "" && out.Len() > 0 {
		out.WriteString(clearLine + l.shown)
	}
	if out.Len() == 0 {
		return len(p), nil
	}
	if _, err := io.WriteString(l.w, out.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}

// line adds one complete log line (without its newline) to out.
func (l *Line) line(out *strings.Builder, text string) {
	switch {
	case l.live && l.shown != "":
		out.WriteString(clearLine + text + "\n")
	case !l.live && l.pending:
		l.pending = false
		s := l.step
		since := l.now().Sub(l.stepAt)
		s.Elapsed += since
		if s.Build == "" {
			s.Measuring += since
			s.Done += s.Shot
		}
		out.WriteString(text + " (" + Clock(s.Elapsed) + " elapsed")
		if s.Total > 0 || s.BuildsLeft > 0 {
			out.WriteString(", ETA " + Clock(ETA(s)))
		}
		out.WriteString(")\n")
	default:
		out.WriteString(text + "\n")
	}
}

// Done ends the progress display: it ends a pending partial log line and
// erases the live line, so what follows starts on a clean line; later
// writes are plain until the next Step.
func (l *Line) Done() {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out strings.Builder
	if l.live && l.shown != "" {
		out.WriteString(clearLine)
	}
	if len(l.partial) > 0 {
		out.WriteString(string(l.partial) + "\n")
		l.partial = nil
	}
	l.shown, l.pending = "", false
	io.WriteString(l.w, out.String())
}

// truncate cuts s to width runes, the last one "…"; width ≤ 0 keeps s.
func truncate(s string, width int) string {
	if width <= 0 || utf8.RuneCountInString(s) <= width {
		return s
	}
	r := []rune(s)
	return string(r[:width-1]) + "…"
}

package load

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Result is one sample: what came back during the measured window.
type Result struct {
	// Window is the measured window actually used; Options.Duration unless
	// it ended on Options.Responses or the run was cancelled early, and 0 when
	// the generator could not set itself up (Errors[Generator] 1, see Run).
	Window time.Duration
	// Responses counts responses whose request was sent and answered inside
	// the window, whatever their status.
	Responses int64
	// Success counts the counted responses with status 200.
	Success int64
	// StatusCounts counts the counted responses by status code.
	StatusCounts map[int]int64
	// Errors counts errors by class, classes without errors absent: Status the
	// counted non-2xx responses, Check the failed checks, Generator the generator's
	// own failures (GeneratorErrors).
	Errors map[Class]int64
	// Examples holds the first error message of each class in Errors, e.g. "read
	// 127.0.0.1:8080: connection reset by peer"; engine raw's status examples quote
	// the first 200 body bytes.
	Examples map[Class]string
	// Checked counts the counted responses passed to Options.Check (0 when
	// Check is nil): all of them at Options.CheckEvery 1. Errors[Check] of them
	// failed.
	Checked int64
	// CheckSeed is the seed that chose the checked responses at a CheckEvery
	// over 1 (record it to replay the choice); 0 when every response was checked.
	CheckSeed uint64
	// Latency is the counted responses' latency histogram, µs, 3 significant digits:
	// in closed-loop mode from the write, 1 µs .. Options.Timeout; at a Rate corrected
	// for coordinated omission (from the intended send time when behind schedule),
	// 1 µs .. max(Timeout, Duration). Slower values are clamped to the maximum.
	Latency *hdrhistogram.Histogram
	// Uncorrected is, at a Rate, the latency histogram from each request's actual
	// write, µs, 1 µs .. Options.Timeout; nil in closed-loop mode, where Latency is
	// measured that way.
	Uncorrected *hdrhistogram.Histogram
	// TTFB is the counted responses' time-to-first-byte histogram, µs, over Latency's
	// range: from Latency's start to the read that brought the status line's first
	// byte, so TTFB <= Latency. Engine hey leaves it nil.
	TTFB *hdrhistogram.Histogram
	// BodyBytes sums the body bytes (decoded, for chunked) of the counted
	// responses.
	BodyBytes int64
	// Connects counts TCP connections opened during the window: reconnects
	// after errors or Connection: close. Connections opened before the window
	// are not counted.
	Connects int64
	// Series is the window cut into buckets of Options.Series, in order, the
	// last perhaps partial (ceil(Window/Series) of them); nil without it.
	Series []Bucket
	// Probe is the interference probe's own Result when Options.Probe was set: its
	// counts, errors and histograms (µs, from intended send times) over the same
	// window, none of it in this Result's counts.
	Probe *Result
	// ProbeSpec, in a probe's Result, is the Options.Probe it ran (path and
	// interval); nil in a sample's own Result.
	ProbeSpec *Probe
}

// RPS is the throughput in requests/s: counted responses per second of
// window (docs/design.md, "A sample's window"). It is 0 for an empty window.
func (r *Result) RPS() float64 {
	if r.Window <= 0 {
		return 0
	}
	return float64(r.Responses) / r.Window.Seconds()
}

// SocketErrors is the number of connect, read, write and timeout errors; the
// success gate requires 0 and counts status, check and generator errors apart.
func (r *Result) SocketErrors() int64 {
	return r.Errors[Connect] + r.Errors[Read] + r.Errors[Write] + r.Errors[Timeout]
}

// GeneratorErrors is Errors[Generator], the load generator's own failures (open
// files, local ports, kernel memory): any makes a sample invalid, as it measured
// the harness, not the server.
func (r *Result) GeneratorErrors() int64 {
	return r.Errors[Generator]
}

// tally is one connection's counts, merged into a Result at the end.
type tally struct {
	responses, success, bodyBytes, connects, checked int64
	other                                            map[int]int64         // statuses other than 200
	errors                                           [numClasses]int64     // by classIndex
	example                                          [numClasses]string    // first message by classIndex
	exampleAt                                        [numClasses]time.Time // when example was seen
}

// fail counts one error of class c seen at time at; msg builds its message,
// called only for the connection's first error of that class.
func (t *tally) fail(c Class, at time.Time, msg func() string) {
	i := classIndex(c)
	if t.errors[i] == 0 {
		t.example[i], t.exampleAt[i] = msg(), at
	}
	t.errors[i]++
}

// status counts one response's status code.
func (t *tally) status(code int) {
	if code == 200 {
		t.success++
		return
	}
	if t.other == nil {
		t.other = make(map[int]int64)
	}
	t.other[code]++
}

// merge adds the connections' tallies into r, keeping for each class the
// example seen first.
func (r *Result) merge(ts []*tally) {
	r.StatusCounts = make(map[int]int64)
	r.Errors = make(map[Class]int64)
	r.Examples = make(map[Class]string)
	var first [numClasses]time.Time
	for _, t := range ts {
		r.Responses += t.responses
		r.Success += t.success
		r.BodyBytes += t.bodyBytes
		r.Connects += t.connects
		r.Checked += t.checked
		if t.success > 0 {
			r.StatusCounts[200] += t.success
		}
		for code, n := range t.other {
			r.StatusCounts[code] += n
		}
		for i, c := range Classes {
			if t.errors[i] == 0 {
				continue
			}
			r.Errors[c] += t.errors[i]
			if first[i].IsZero() || t.exampleAt[i].Before(first[i]) {
				first[i], r.Examples[c] = t.exampleAt[i], t.example[i]
			}
		}
	}
}

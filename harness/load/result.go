package load

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Result is one sample: what came back during the measured window.
type Result struct {
	// Window is the measured window actually used; Options.Duration unless
	// the run was cancelled early, and 0 when the generator could not set
	// itself up (Errors[Generator] 1, see Run).
	Window time.Duration
	// Responses counts responses whose request was sent and answered inside
	// the window, whatever their status.
	Responses int64
	// Success counts the counted responses with status 200.
	Success int64
	// StatusCounts counts the counted responses by status code.
	StatusCounts map[int]int64
	// Errors counts errors by class; classes without errors are absent.
	// Errors[Status] is the number of counted responses outside 200..299;
	// Errors[Check] the number of checked responses that failed
	// Options.Check; Errors[Generator] the generator's own failures
	// (GeneratorErrors).
	Errors map[Class]int64
	// Examples holds the first error message of each class in Errors, e.g.
	// "read 127.0.0.1:8080: connection reset by peer",
	// `status 500 for GET /db: "database is locked (5) (SQLITE_BUSY)"`
	// (engine raw quotes the first 200 body bytes, white space trimmed; hey
	// keeps no bodies), "check GET /db: <Check's error>" or "connect
	// 127.0.0.1:8080: too many open files (generator: RLIMIT_NOFILE 32 for
	// 64 connections)".
	Examples map[Class]string
	// Checked counts the counted responses passed to Options.Check (0 when
	// Check is nil): the first of every connection, then 1 in
	// Options.CheckEvery. Errors[Check] of them failed.
	Checked int64
	// Latency is the merged per-connection latency histogram of the counted
	// responses, in µs, 3 significant digits. In closed-loop mode each value
	// runs from the request's write to the end of its response, over 1 µs ..
	// Options.Timeout. In constant-rate mode (Options.Rate > 0) it is
	// corrected for coordinated omission (wrk2's method): a request whose
	// connection was behind schedule is measured from its intended send time,
	// others from their write (see the package doc); the range is 1 µs ..
	// max(Options.Timeout, Options.Duration). Slower values are clamped to
	// the maximum.
	Latency *hdrhistogram.Histogram
	// Uncorrected is, in constant-rate mode, the latency histogram measured
	// from each request's actual write instead of its intended send time, in
	// µs, 1 µs .. Options.Timeout, 3 significant digits, one value per counted
	// response. It is nil in closed-loop mode, where Latency is measured that
	// way.
	Uncorrected *hdrhistogram.Histogram
	// TTFB is the merged histogram of the counted responses' time to first
	// byte, in µs, 3 significant digits, over Latency's range: from the same
	// start as each response's Latency value to the return of the read that
	// brought the first byte of its status line (a pipelined response whose
	// first byte came with an earlier read takes that read's time), so TTFB
	// <= Latency for every response. Engine hey leaves it nil.
	TTFB *hdrhistogram.Histogram
	// BodyBytes sums the body bytes (decoded, for chunked) of the counted
	// responses.
	BodyBytes int64
	// Connects counts TCP connections opened during the window: reconnects
	// after errors or Connection: close. Connections opened before the window
	// are not counted.
	Connects int64
	// Probe is the interference probe's own Result when Options.Probe was
	// set (nil otherwise): its responses, statuses, errors with examples,
	// Latency (µs, from each intended send time when the probe was behind
	// schedule, else from its write, as at a Rate), Uncorrected and TTFB,
	// over the same window. None of it is in this Result's counts.
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

// SocketErrors is the number of connect, read, write and timeout errors
// (status, check and generator errors excluded); the success gate requires
// it to be 0 and counts Errors[Status], Errors[Check] and
// Errors[Generator] on their own.
func (r *Result) SocketErrors() int64 {
	return r.Errors[Connect] + r.Errors[Read] + r.Errors[Write] + r.Errors[Timeout]
}

// GeneratorErrors is Errors[Generator]: failures of the load generator's
// own resources (open-file limits, local ports, kernel memory). They are not
// socket errors and say nothing about the server: a sample with any
// measured the harness and is invalid.
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

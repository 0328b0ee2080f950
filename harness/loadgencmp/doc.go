// Package loadgencmp measures tfbench's load generator against wrk side by
// side (issue 3, item 2), for cmd/loadgen-compare and the tasks
// bench:loadgen and bench:loadgen-memory.
//
// # Method
//
// Two fixed-response servers ([Serve]: one answering with Content-Length,
// one with a chunked body in [ChunkCount] small chunks) run as
// subprocesses pinned to the server CPUs; the generators, `tfbench load` and
// wrk, run one at a time as subprocesses pinned to the generator CPUs (on 2
// cores: generator CPU 0, server CPU 1; cpuset.Split), wrk with -t equal to
// the generator CPU count. Every [Setting] (c=64 depth 1, c=256 depth 16;
// wrk pipelines with [WrkScript]) is run against both servers in
// interleaved rounds: each round runs every setting and server once per
// generator, the generator going first alternating from round to round, so
// that background load (other builds on a shared machine) falls on both.
// Figures are medians over rounds with their min–max range.
//
// A generator's RPS is its own report (wrk's "Requests/sec:", tfbench's
// --json "rps"); its CPU cost is the user + system time of its process from
// the kernel's rusage at exit (startup and connection set-up included, the
// same for both), divided by the responses it counted, quoted in CPU
// seconds per 100,000 requests.
//
// # What decides
//
// The servers are built to be cheaper per request than either generator
// (one thread, epoll, one read and one write per pipelined batch, no
// parsing, no allocation), so that the generator is the bottleneck. Where a
// server is still the slower side (it saturates its CPU first), both
// generators reach the same RPS and the RPS ratio says nothing; then the
// CPU per request ratio is the figure that decides (issue 3). The table
// shows each side's CPU use so the reader can tell which case a cell is.
//
// Targets (issue 3): at every setting and server, tfbench's CPU per request
// ≤ wrk's (ratio of medians ≤ 1.00) and its RPS ≥ 0.95 × wrk's (ratio of
// medians).
package loadgencmp

// Package loadgencmp measures tfbench's load generator against wrk side by
// side (issue 3, item 2; issue 13, item 3), for tools/loadgen-compare and the
// tasks bench:loadgen and bench:loadgen-memory.
//
// # Method
//
// The servers run pinned to the server CPUs, the generators, `tfbench load`
// and wrk, one at a time pinned to the generator CPUs (on 2 cores:
// generator CPU 0, server CPU 1; cpuset.Split), wrk with -t equal to the
// generator CPU count. Two kinds of server ([Cell]):
//
//   - Two fixed-response servers ([Serve]: one answering with
//     Content-Length, one with a chunked body in [ChunkCount] small chunks),
//     loaded at every [Setting] (c=64 depth 1, c=256 depth 16) on "/",
//     without an Accept header.
//   - Real adapters (go-stdlib and node-http by default), built and started
//     as tfbench bench does (harness/runtimes, stage and supervise: the
//     pinned runtime, the cached build under .tfbench/build, a fresh copy of
//     the dataset, stopped with their whole process tree at the end), loaded
//     per [AdapterTests] (json, db, fortunes at c=64 depth 1; plaintext at
//     c=256 depth 16) at the paths of their framework.yaml `endpoints:`, both generators
//     sending the test type's Accept header, and tfbench checking 1 in 100
//     responses (`--type`).
//
// wrk is the yardstick on every OS: Debian's package on Linux, Homebrew's
// on macOS ([WrkInstall]). It pipelines with [WrkScript] and gets tfbench's
// headers with -H ([WrkArgs]). Each round runs every cell once per
// generator, the generator going first alternating from round to round and
// cell to cell, after one unmeasured warmup run per cell and generator, so
// that background load (other builds on a shared machine) falls on both.
// Figures are medians over rounds with their min–max range.
//
// A generator's RPS is its own report (wrk's "Requests/sec:", tfbench's
// --json "rps"); its CPU cost is the user + system time of its process from
// the kernel's rusage at exit (startup and connection set-up included, the
// same for both), divided by the responses it counted, quoted in CPU
// seconds per 100,000 responses.
//
// # What decides
//
// The fixed-response servers are built to be cheaper per request than
// either generator (one thread, epoll on Linux and kqueue on macOS, both
// level-triggered, one read and one write per pipelined batch, no parsing,
// no allocation), so that the generator is the bottleneck. Where a server is the slower side (it saturates its CPU
// first, as the real adapters do), both generators reach about the same RPS
// and the RPS ratio says that tfbench takes no more from the server; then
// the CPU per response ratio is the figure that decides. The table shows
// each side's CPU use so the reader can tell which case a cell is.
//
// Targets, tfbench/wrk ratios of the medians per cell ([Target]): RPS ratio
// >= 0.95 and CPU per response ratio <= 1.00 on the fixed-response servers
// (issue 3, [FixedTarget]); RPS ratio >= 0.98 and CPU per response ratio
// <= 1.00 on the adapters (issue 13, [AdapterTarget]). A cell with any
// error in a measured run (tfbench's error classes; wrk's socket errors and
// non-2xx/3xx responses) misses whatever its ratios: a figure with failed
// requests is not a figure.
package loadgencmp

// Package load is tfbench's load generator: it drives one framework endpoint
// with HTTP/1.1 load for one measured window (a sample), closed-loop or at a
// constant rate, and reports what came back.
//
// # Engines
//
// An [Engine] runs one sample: Run(ctx, Options) returns a *[Result] for the
// window given in [Options].Duration; its error is for bad options or a
// cancelled ctx only. Engines differ in how they speak HTTP, never in what a
// Result means (docs/design.md, "The load generator"): the units, the window rule,
// the error classes and the checks below hold for every engine, and an engine
// that cannot honour an option (a constant rate, checks, pipelining) refuses
// it with an error rather than ignore it. Engine "raw" ([Raw], also the
// package function [Run]) is this package's own client:
//
//   - HTTP/1.1 keep-alive over plain TCP (concurrency = open connections);
//   - closed-loop mode runs the connections on event loops, as wrk does: one
//     per CPU the generator may use (GOMAXPROCS, which follows the process's
//     CPU affinity on Linux; NumCPU on darwin), each a goroutine with its own
//     level-triggered poller, an epoll set on Linux (raw read and write
//     system calls) and a kqueue on darwin (poll_darwin.go), over
//     non-blocking sockets, the connections whose batch is complete sending
//     their next batch together after each wait; so a batch costs one write,
//     one read as a rule, and a share of one wait (loop.go says why);
//     with nothing ready a loop naps (1/20 of its batch latency, at most
//     1 ms) before it blocks, so the server does not pay to wake it per
//     response (docs/design.md, "What a sleeping generator costs the server");
//     constant-rate mode runs one goroutine per connection;
//   - the request is serialized once per run, with tfbench's fixed header set
//     (Host, the test type's Accept, Connection: keep-alive, User-Agent
//     suite.UserAgent, no Accept-Encoding; docs/design.md, "Requests");
//   - pipelining depth N (closed-loop mode): N requests go out in one write,
//     their N responses are read back in order (depth 1 is a plain closed
//     loop);
//   - a minimal, resumable response parser (status line, headers,
//     Content-Length, chunked and close-delimited bodies) that takes whatever
//     one read brings and does not allocate per response, except for the
//     responses sampled for a check (at most 1 MiB of body each) and a
//     connection's first non-2xx response's example;
//   - per response, besides its latency, its time to first byte (TTFB; see
//     Units).
//
// Engine "hey" ([Hey]) wraps github.com/rakyll/hey/requester for https://
// and HTTP/2 targets that raw does not speak ([EngineForScheme] picks it for
// https). Its results come from hey's Output template rendered as JSON. It
// refuses pipelining, a constant rate, checks and a probe, and reports no
// TTFB ([Result].TTFB nil); it does not verify TLS
// certificates, its latency includes each connection's dial and handshake,
// over HTTP/2 Connections means concurrent streams, and one run sends at
// most 1,000,000 requests (see [Hey]).
//
// # Modes
//
// Closed loop ([Options].Rate 0): every connection writes its next batch as
// soon as the previous batch's responses are in, so the offered load is
// whatever the server sustains. Latency runs from the write of the request
// (for a pipelined batch: the batch's write) to the end of its response: the
// return of the read that brought its last byte, which a nap can delay by at
// most 1/20 of the loop's average batch latency.
//
// Constant rate ([Options].Rate > 0, requests/s across all connections;
// wrk2's method): every connection sends one request at a time (pipeline
// depth 1) on a fixed schedule, one every Connections/Rate seconds, the
// connections' first sends staggered evenly across one such interval from
// the window's start. A connection behind schedule (its previous response
// came after the next intended send time, or it was reconnecting) sends at
// once, once per missed slot, skipping none; so a server that stalls is still
// offered every request the schedule holds. A closed loop would instead send
// nothing while it waits, and its latencies would leave out the time the
// unsent requests would have waited ("coordinated omission"). So each
// request's latency in [Result].Latency runs from its intended send time when
// its connection was behind schedule, and from its write when the connection
// was free and waited for its timer (the timer's own lateness, typically a few
// hundred µs, is the generator's and is not charged to the server); this is the
// corrected latency. [Result].Uncorrected holds every request's latency from
// its write, as a closed loop measures it. If the server is slower than the
// rate, connections fall behind for good, send back to back, and the
// corrected latency grows through the window.
//
// # Window
//
// Connections are opened before the window starts. Only responses whose
// request was sent (in constant-rate mode: also intended to be sent) and
// answered inside the window count; requests in flight when it ends are
// dropped from both numerator and denominator and their connections closed
// (docs/design.md, "A sample's window"). RPS is counted responses per second of
// window.
//
// # Units
//
// Latency is recorded in HDR histograms (hdrhistogram-go, 3 significant
// digits) in microseconds, one per event loop in closed-loop mode and one per
// connection in constant-rate mode, merged into [Result].Latency (and, in
// constant-rate mode, [Result].Uncorrected) at the end. The range is 1 µs ..
// Options.Timeout, except for the corrected histogram in constant-rate mode:
// 1 µs .. max(Options.Timeout, Options.Duration), since a request can wait
// behind schedule for up to the whole window. Slower values are clamped to
// the maximum. Throughput is in requests/s ([Result.RPS], Options.Rate); body
// sizes in bytes.
//
// TTFB ([Result].TTFB, engine raw) is recorded the same way, µs over
// Latency's range, one value per counted response: from the start of its
// Latency value (the batch's write; at a Rate the intended send time when
// behind schedule, else the write) to the return of the read that brought
// the first byte of its status line. A pipelined response whose first byte
// came with an earlier read (the one that completed the response before it)
// takes that read's time. The event loop stamps a response when its first
// bytes are parsed with the time it already takes after each read: one
// comparison per response, no allocation, no system call. TTFB <= Latency
// for every response.
//
// # Interference probe
//
// With [Options].Probe set, one more connection, opened before the window,
// sends GET Probe.Path (plaintext's Accept) once per Probe.Interval on a
// fixed schedule from the window's start to its end, whatever the earlier
// probes do: pipelined, the server answering them in order, each latency
// (and TTFB) from its intended send time (uncorrected: from its write).
// One request at a time would fall behind for good once a response took
// longer than the interval, and its latency from the schedule would grow
// through the window: the probe's own backlog, not the server's. A
// connect, write or read error closes the connection and drops the
// requests on it; the next one due reconnects. Its responses, statuses,
// errors and histograms go into [Result].Probe, none into the sample's own
// counts: what a cheap request suffers while the load runs (issue 14). The
// generator is pinned to one CPU, so GOMAXPROCS follows to 1, and the
// closed-loop event loop keeps that P through its polls and naps (raw
// system calls): the probe's timer and socket would wait for the loop to
// park, or for sysmon's 10 ms preemption, and the probe would report the
// generator. So while a probe runs, GOMAXPROCS is one higher (the event
// loops are counted before; restored after, to the runtime's default if it
// was that): the probe has a P whose thread sleeps until its timer or
// socket wakes it and preempts the busy loop at once.
//
// # Checks under load
//
// When [Options].Check is set, a sample of the counted responses is checked
// against it (docs/design.md: the same rules as verification, so that a server
// that breaks only under concurrency fails the gate): the first response of
// every connection, after every (re)connect, then 1 in [Options].CheckEvery
// (default [DefaultCheckEvery], 100) of that connection's responses. A
// sampled response's header and whole body (decoded, if chunked) are kept
// and passed to Check on the goroutine that runs the connection (in
// closed-loop mode its event loop's) once its batch is read, before the next
// batch is sent, so a check's time is in no latency. A body over
// [Options].MaxCheckBytes (default 1 MiB: no TFB response comes near it, and
// keeping 50 MB bodies on 256 connections would exhaust memory; page tests,
// 1–3 MB, keep up to 16 MiB) is not kept: the response fails its check
// without calling Check, "check GET /json: body 52428800 bytes, over the 1
// MiB kept for a check". [Result].Checked counts the checked responses; a failed one
// is an error of class check, and still counts as a response with its
// status.
//
// # Errors
//
// Network trouble never aborts a run; it is counted in [Result].Errors by
// [Class], with the first message of each class in [Result].Examples:
//
//   - connect: the TCP connection could not be opened (refused, dial timeout);
//   - read: reading a response failed (reset, server closed the connection,
//     malformed response, body over the 64 MiB cap);
//   - write: sending the request failed (broken pipe, reset);
//   - timeout: a response was not complete within Options.Timeout of its
//     request's write (or a write did not finish within it);
//   - status: a counted response had a non-2xx status; the example quotes
//     the first 200 bytes of the body (white space trimmed) of the first
//     such response, `status 500 for GET /updates?queries=20: "database is
//     locked (5) (SQLITE_BUSY)"` (engine hey: no body);
//   - check: a checked response failed Options.Check; the example is
//     "check GET <path>: <Check's error>";
//   - generator: the generator itself ran out of a resource, whatever the
//     server did: EMFILE or ENFILE (open-file limits), ENOBUFS or ENOMEM
//     (kernel memory) or EADDRNOTAVAIL (no free local port) from a socket,
//     connect, read or write; the example names the limit, e.g.
//     "connect 127.0.0.1:8080: too many open files (generator:
//     RLIMIT_NOFILE 32 for 64 connections)" or "connect 127.0.0.1:8080:
//     cannot assign requested address (generator: no free local port;
//     TIME_WAIT or ip_local_port_range 32768-60999)" (on darwin
//     "net.inet.ip.portrange 49152-65535"). If even the event loops' eventfd,
//     epoll set or kqueue cannot be made, Run returns a Result with Window 0
//     and one generator error instead of failing.
//
// Connect, read, write and timeout are socket errors ([Result.SocketErrors]);
// status, check and generator errors are not, and the gate counts them on
// their own (generator errors, [Result.GeneratorErrors], make a sample
// invalid: it measured the harness, not the server).
// After a connect, read, write, timeout or generator error the connection is
// closed and reopened (a failed connect is retried after 10 ms) until the window ends. A
// response carrying Connection: close is counted, then the connection is
// reopened. Errors are counted only when they happen inside the window;
// checks only for counted responses.
package load

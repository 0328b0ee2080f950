// Package load is tfbench's load generator: it drives one framework endpoint
// with closed-loop HTTP/1.1 load for one measured window (a sample) and
// reports what came back.
//
// # Engines
//
// An [Engine] runs one sample: Run(ctx, Options) returns a *[Result] for the
// window given in [Options].Duration. Engines differ in how they speak HTTP,
// never in what a Result means (DESIGN.md, "The load generator"). This package
// implements engine "raw" ([Raw], also the package function [Run]):
//
//   - HTTP/1.1 keep-alive over plain TCP, one goroutine per connection, each
//     connection a closed loop (concurrency = open connections);
//   - the request is serialized once per run, with tfbench's fixed header set
//     (Host, the test type's Accept, Connection: keep-alive, User-Agent
//     suite.UserAgent, no Accept-Encoding; DESIGN.md, "Requests");
//   - pipelining depth N: N requests go out in one write, their N responses
//     are read back in order (depth 1 is a plain closed loop);
//   - a minimal response parser (status line, headers, Content-Length,
//     chunked and close-delimited bodies) that does not allocate per response.
//
// # Window
//
// Connections are opened before the window starts. Only responses whose
// request was sent and answered inside the window count; requests in flight
// when it ends are dropped from both numerator and denominator and their
// connections closed (DESIGN.md, "A sample's window"). RPS is counted
// responses per second of window.
//
// # Units
//
// Latency is recorded per connection in an HDR histogram (hdrhistogram-go, 3
// significant digits) in microseconds, from the write of the request (for a
// pipelined batch: the batch's write) to the end of its response, over the
// range 1 µs .. Timeout; slower values are clamped to Timeout. The connection
// histograms are merged into [Result].Latency at the end. Throughput is in
// requests/s ([Result.RPS]); body sizes in bytes.
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
//   - status: a counted response had a non-2xx status.
//
// After a connect, read, write or timeout error the connection is closed and
// reopened (a failed connect is retried after 10 ms) until the window ends. A
// response carrying Connection: close is counted, then the connection is
// reopened. Errors are counted only when they happen inside the window.
package load

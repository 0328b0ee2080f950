// Package load is tfbench's load generator: it drives one framework endpoint
// with HTTP/1.1 load for one measured window (a sample), closed-loop or at a
// constant rate (latency corrected as wrk2 does), and reports what came back.
//
// Engine raw (Run) is its own event-loop client; engine hey (Hey) serves https
// and HTTP/2. Every Result means the same (docs/design.md, "The load generator",
// "A sample's window"): latencies in µs, RPS in requests/s, body sizes in bytes,
// only what was sent and answered inside the window, errors by Class.
package load

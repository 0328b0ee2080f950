// Package loadgencmp measures tfbench's load generator against wrk side by
// side for tools/loadgen-compare, the check that the generator is not the
// bottleneck it measures (docs/load-generator.md, Measured against wrk): Cells on fixed-response
// servers (Serve) and real adapters, generators pinned apart from servers,
// interleaved rounds after a warmup, medians and ranges of each generator's
// own RPS and rusage CPU per 100,000 responses. A cell meets its Target
// (FixedTarget, AdapterTarget) by the tfbench/wrk ratios of the medians and
// misses on any failed request, and on a fixed-response server on any round
// that breaks CountRule: the server counts the responses it writes, and
// tfbench must count no more, and at most connections × depth fewer.
package loadgencmp

// tfbench event-loop preload: loaded into every Node process of a server the
// harness starts (NODE_OPTIONS=--require <this file>, harness/eventloop). It
// keeps a perf_hooks.monitorEventLoopDelay histogram from process start and
// answers one command per connection on the Unix socket
// $TFBENCH_EVENTLOOP_DIR/<pid>.sock:
//
//   reset\n  histogram.reset(), memory baseline (memReset); answers ok\n
//   read\n   answers {"pid":…,"runtime":"node","p50_ms":…,"p99_ms":…,"max_ms":…,
//            "count":…,"memory":{…}|null}\n (memory: memRead, since the reset)
//
// It writes nothing to stdout or stderr, never keeps the process alive
// (socket and timers unref'd), removes its socket on exit and does nothing at
// all when the folder is unset or the socket cannot be made.
//
// When the server is profiled (TFBENCH_CPU_PROFILE_DIR set beside
// NODE_OPTIONS=--cpu-prof, eventloop.ProfileEnv), it also makes the
// harness's SIGTERM a normal exit, the only one on which Node writes the
// profile: process.exit at once if the app has no SIGTERM listener of its
// own, else 3 s later if the app's own shutdown has not exited by then.
'use strict';

(function tfbenchCpuProfile() {
  try {
    if (!process.env.TFBENCH_CPU_PROFILE_DIR) return;
    // Signals reach the main thread; a worker's profile is written when
    // the process exits.
    if (!require('node:worker_threads').isMainThread) return;
    const APP_GRACE_MS = 3000;
    process.on('SIGTERM', function tfbenchProfileExit() {
      if (process.listenerCount('SIGTERM') <= 1) {
        process.exit(128 + 15);
      }
      setTimeout(() => process.exit(128 + 15), APP_GRACE_MS).unref();
    });
  } catch {
    // Profiling is a measurement aid: a server runs the same without it.
  }
})();

(function tfbenchEventLoop() {
  try {
    const dir = process.env.TFBENCH_EVENTLOOP_DIR;
    if (!dir) return;
    // Worker threads share the pid and run preloads too; the main thread
    // speaks for the process (its loop is the one requests wait on).
    if (!require('node:worker_threads').isMainThread) return;
    const { monitorEventLoopDelay } = require('node:perf_hooks');
    const net = require('node:net');
    const fs = require('node:fs');
    const path = require('node:path');

    // The histogram samples with a libuv timer every RESOLUTION ms; each
    // sample is the time since the previous one, in ns (an idle loop reads
    // about RESOLUTION). Finer costs a timer wake-up per ms on the server's
    // CPU; 10 ms is Node's own default and what published figures use.
    const RESOLUTION = 10;
    const h = monitorEventLoopDelay({ resolution: RESOLUTION });
    h.enable();

    const sock = path.join(dir, process.pid + '.sock');
    // A socket named by this pid is a dead process's: pids are unique
    // among live processes.
    try {
      fs.unlinkSync(sock);
    } catch {}

    const ms = (ns) => Math.round(ns / 1e3) / 1e3;
    const snapshot = (mem) => {
      const n = h.count;
      return JSON.stringify({
        pid: process.pid,
        runtime: 'node',
        p50_ms: n > 0 ? ms(h.percentile(50)) : 0,
        p99_ms: n > 0 ? ms(h.percentile(99)) : 0,
        max_ms: n > 0 ? ms(h.max) : 0,
        count: n,
        memory: mem,
      });
    };

    // Memory and GC since the last reset, from V8's own accounting
    // (docs/ssr.md, Memory and GC per request). V8 keeps no cumulative
    // allocation counter, so a v8.GCProfiler runs from reset to read: every
    // GC's used heap before minus after is what it freed, and
    //   allocated = used heap at read - used heap at reset + Σ freed.
    // It counts the JS heap only (not Buffers' or ArrayBuffers' external
    // memory), on the main thread's isolate (not worker threads'); a GC's
    // cost (µs, prologue to epilogue) is the main thread's pause.
    const v8 = require('node:v8');
    let prof = null;
    let base = null;
    const memNow = () => ({ heap: v8.getHeapStatistics().used_heap_size, rss: process.memoryUsage.rss() });
    const memReset = () => {
      try {
        if (prof) prof.stop();
        prof = null;
        base = memNow();
        prof = new v8.GCProfiler();
        prof.start();
      } catch {
        prof = null;
      }
    };
    // memRead is null without a reset before it (or when V8 would not tell).
    const memRead = () => {
      if (!prof) return null;
      try {
        const end = memNow(); // before stop(), whose result is allocated on the heap
        const stats = prof.stop().statistics;
        prof = null;
        let freed = 0;
        let pauseUs = 0;
        const pauses = [];
        for (const g of stats) {
          freed += g.beforeGC.heapStatistics.usedHeapSize - g.afterGC.heapStatistics.usedHeapSize;
          pauseUs += g.cost;
          pauses.push(g.cost);
        }
        pauses.sort((a, b) => a - b);
        // Nearest rank: the smallest pause with at least 99% of them at or below it.
        const p99 = pauses.length > 0 ? pauses[Math.ceil(0.99 * pauses.length) - 1] : 0;
        const us = (v) => Math.round(v) / 1e3;
        return {
          threads: 1,
          alloc_bytes: end.heap - base.heap + freed,
          gc_count: stats.length,
          gc_ms: us(pauseUs),
          pause_p99_ms: us(p99),
          pause_max_ms: pauses.length > 0 ? us(pauses[pauses.length - 1]) : 0,
          heap_before: base.heap,
          heap_after: end.heap,
          rss_before: base.rss,
          rss_after: end.rss,
        };
      } catch {
        prof = null;
        return null;
      }
    };
    // Both commands answer one timer tick later: reset() drops the
    // interval in progress (the first sample after it starts a new one),
    // so the reply waits until the histogram records again, and a read
    // sees a sample taken after whatever the loop ran before it.
    const later = (fn) => setTimeout(fn, RESOLUTION + 1).unref();

    const server = net.createServer((c) => {
      c.unref();
      c.on('error', () => {});
      c.setEncoding('utf8');
      let buf = '';
      c.on('data', (chunk) => {
        buf += chunk;
        const nl = buf.indexOf('\n');
        if (nl === -1) {
          if (buf.length > 64) c.destroy();
          return;
        }
        const cmd = buf.slice(0, nl).trim();
        c.removeAllListeners('data');
        if (cmd === 'reset') {
          h.reset();
          memReset();
          later(() => c.end('ok\n'));
        } else if (cmd === 'read') {
          const mem = memRead(); // at once: the window has just ended
          later(() => c.end(snapshot(mem) + '\n'));
        } else {
          c.end('error unknown command\n');
        }
      });
    });
    server.on('error', () => {
      try {
        server.close();
      } catch {}
    });
    process.on('exit', () => {
      if (!server.listening) return;
      try {
        fs.unlinkSync(sock);
      } catch {}
    });
    server.listen(sock);
    server.unref();
  } catch {
    // The monitor is a measurement aid: a server runs the same without it.
  }
})();

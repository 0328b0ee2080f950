// tfbench event-loop preload: loaded into every Node process of a server the
// harness starts (NODE_OPTIONS=--require <this file>, harness/eventloop). It
// keeps a perf_hooks.monitorEventLoopDelay histogram from process start and
// answers one command per connection on the Unix socket
// $TFBENCH_EVENTLOOP_DIR/<pid>.sock:
//
//   reset\n  histogram.reset(); answers ok\n
//   read\n   answers {"pid":…,"p50_ms":…,"p99_ms":…,"max_ms":…,"count":…}\n
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
    const snapshot = () => {
      const n = h.count;
      return JSON.stringify({
        pid: process.pid,
        p50_ms: n > 0 ? ms(h.percentile(50)) : 0,
        p99_ms: n > 0 ? ms(h.percentile(99)) : 0,
        max_ms: n > 0 ? ms(h.max) : 0,
        count: n,
      });
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
          later(() => c.end('ok\n'));
        } else if (cmd === 'read') {
          later(() => c.end(snapshot() + '\n'));
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

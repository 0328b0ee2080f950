// The fast-webstreams variant's one change (instrumentation.js calls it at
// server start when TFBENCH_FAST_WEBSTREAMS=1): experimental-fast-webstreams'
// patchGlobalWebStreams(), no options, so globalThis.ReadableStream,
// WritableStream and TransformStream are the package's userland classes (and
// native ReadableStream.prototype.pipeThrough/pipeTo route to them when the
// other end is a Fast stream) for every render after it.
//
// It then checks that the globals are the package's classes and says so once
// on stderr (the run's server log), or throws, so the server never starts as
// the variant with native streams.
//
// `kill -USR2 PID` (the pid of that line) makes the server write the
// package's own path counters (_debugStats(): streams created, pipelines,
// readers, fallbacks to native) to stderr, to see that renders go through
// the package's classes; nothing else reads them.

export async function patchWebStreams() {
  const fws = await import('experimental-fast-webstreams');
  fws.patchGlobalWebStreams();

  // The patched global ReadableStream is a wrapper constructor whose
  // prototype is FastReadableStream's (byte streams with pull stay native
  // inside it); WritableStream and TransformStream are the classes
  // themselves.
  const checks = {
    ReadableStream:
      globalThis.ReadableStream.prototype === fws.FastReadableStream.prototype &&
      new globalThis.ReadableStream() instanceof fws.FastReadableStream,
    WritableStream: globalThis.WritableStream === fws.FastWritableStream,
    TransformStream: globalThis.TransformStream === fws.FastTransformStream,
  };
  const failed = Object.keys(checks).filter((k) => !checks[k]);
  if (failed.length > 0) {
    throw new Error(`experimental-fast-webstreams: patchGlobalWebStreams() left ${failed.join(', ')} native`);
  }
  process.stderr.write(
    'tfbench: experimental-fast-webstreams patchGlobalWebStreams(): globalThis.ReadableStream, ' +
      'WritableStream, TransformStream are FastReadableStream, FastWritableStream, FastTransformStream ' +
      `(pid ${process.pid})\n`,
  );
  process.on('SIGUSR2', () => {
    process.stderr.write(`tfbench: experimental-fast-webstreams _debugStats(): ${JSON.stringify(fws._debugStats())}\n`);
  });
}

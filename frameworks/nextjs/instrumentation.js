// Next.js instrumentation hook (instrumentation.js at the app root; Next
// calls register() once per server process, before it handles a request;
// stable since Next 15, no config flag).
//
// The fast-webstreams variant (framework.yaml: TFBENCH_FAST_WEBSTREAMS=1)
// replaces the global WHATWG stream constructors with those of
// experimental-fast-webstreams before the first render (lib/fast-webstreams.js);
// every other start (the default variant) does nothing here. Both variants
// run the same build: the variable is read when the server starts, not when
// it is built. The Node-only code is imported only for the nodejs runtime
// (NEXT_RUNTIME is replaced at build time, so the edge compilation of this
// file drops the import), as Next's instrumentation guide does.

export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs' && process.env.TFBENCH_FAST_WEBSTREAMS === '1') {
    const { patchWebStreams } = await import('./lib/fast-webstreams.js');
    await patchWebStreams();
  }
}

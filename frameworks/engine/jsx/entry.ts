// The bundle's entry: bundle.Build generates a module that imports every route and calls start() with them, which
// defines globalThis.__engine for the Go runtime (runtime/doc.go).

import { resetPending } from "./jsx";

/** One route as bundle.Build generates it: URL path, source file (relative to the app's parent dir), module. */
export interface RouteModule {
  path: string;
  file: string;
  mod: { default?: unknown; revalidate?: unknown; stream?: unknown };
}

/** What the Go runtime calls, on globalThis.__engine. */
export interface Engine {
  /**
   * JSON [{"path","file","revalidate","stream"}] in route order; revalidate in seconds, 0 = render on every request;
   * "stream": true only for a route that writes its page in parts (host.ts, htmlStream).
   */
  meta(): string;
  /** Renders route i: the frame "<status>\n<content-type>\n<body>", or a Promise of it for an async route. */
  render(i: number): string | Promise<string>;
}

declare global {
  var __engine: Engine;
}

/**
 * Checks every route module (a default export that is a function; revalidate, if exported, a finite number of
 * seconds >= 0; stream, if exported, a boolean, and not with revalidate) and defines globalThis.__engine. Throws a TypeError naming the file when a module is invalid.
 */
export function start(routes: RouteModule[]): void {
  const handlers: Array<() => unknown> = [];
  const meta: Array<{ path: string; file: string; revalidate: number; stream?: true }> = [];
  for (const r of routes) {
    const fn = r.mod.default;
    if (typeof fn !== "function") throw new TypeError(`${r.file}: the default export must be a function returning a frame`);
    const rv = r.mod.revalidate ?? 0;
    if (typeof rv !== "number" || !Number.isFinite(rv) || rv < 0) {
      throw new TypeError(`${r.file}: revalidate must be a number of seconds >= 0, got ${String(rv)}`);
    }
    const st = r.mod.stream ?? false;
    if (typeof st !== "boolean") throw new TypeError(`${r.file}: stream must be true or false, got ${String(st)}`);
    if (st && rv !== 0) throw new TypeError(`${r.file}: a streamed route cannot revalidate (ISR keeps whole pages)`);
    handlers.push(fn as () => unknown);
    meta.push(st ? { path: r.path, file: r.file, revalidate: rv, stream: true } : { path: r.path, file: r.file, revalidate: rv });
  }
  const metaJSON = JSON.stringify(meta);
  globalThis.__engine = {
    meta: () => metaJSON,
    render(i: number): string | Promise<string> {
      resetPending();
      const fn = handlers[i];
      if (fn === undefined) throw new RangeError(`route index ${i}: the app has ${handlers.length} routes`);
      const r = fn();
      if (typeof r === "string") return r;
      return settle(r, meta[i].file);
    },
  };
}

// A non-string result: await it if it is a Promise, and require a frame string.
async function settle(r: unknown, file: string): Promise<string> {
  const v = await r;
  if (typeof v !== "string") {
    throw new TypeError(`${file}: the default export returned ${typeof v}, want a frame (use json, text or html)`);
  }
  return v;
}

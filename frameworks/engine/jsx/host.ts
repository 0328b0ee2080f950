// Host API for routes: the request, SQLite and the response frames, over the __host functions that the Go runtime
// installs (runtime/doc.go, the contract). Every call crosses into Go once; only strings and
// numbers cross.

import { Markup, raw, renderChild, settle, type Child } from "./jsx";

/** The functions the Go runtime puts on globalThis.__host. A failure is returned as "\u0000ERR:" + message. */
interface Host {
  method(): string;
  path(): string;
  query(name: string): string;
  header(name: string): string;
  all(sql: string, paramsJSON: string): string;
  get(sql: string, paramsJSON: string): string;
  run(sql: string, paramsJSON: string): number | string;
  batch(sql: string, paramsListJSON: string): string;
  tx(sql: string, paramsListJSON: string): number | string;
  write(chunk: string, bytes: string): string;
}

declare const __host: Host;

/** A positional SQL parameter (bound as INTEGER/REAL or TEXT). */
export type Param = number | string;

/** A response frame: "<status>\n<content-type>\n<body>" (the contract's wire form; build it with json/text/html). */
export type Frame = string;

const ERR = "\u0000ERR:";

// Turns a host error string into a thrown Error (at the caller's line, so the source map points at the route).
function fail(r: string): never {
  throw new Error(r.slice(ERR.length));
}

function str(r: string): string {
  if (r.charCodeAt(0) === 0 && r.startsWith(ERR)) fail(r);
  return r;
}

function num(r: number | string): number {
  if (typeof r === "string") fail(str(r));
  return r;
}

function params(ps: Param[]): string {
  return ps.length === 0 ? "[]" : JSON.stringify(ps);
}

/**
 * The current request, read lazily from Go: each property read or call crosses into Go once, so keep a value in a
 * local when it is used twice. Throws an Error when the runtime reports a failure (no current request).
 */
export const request = {
  /** The HTTP method, e.g. "GET". */
  get method(): string {
    return str(__host.method());
  },
  /** The URL path without the query, e.g. "/queries". */
  get path(): string {
    return str(__host.path());
  },
  /** The first value of query parameter name, "" when absent. */
  query(name: string): string {
    return str(__host.query(name));
  },
  /** The request header name (canonical lookup, case-insensitive), "" when absent. */
  header(name: string): string {
    return str(__host.header(name));
  },
};

/**
 * SQLite through the host: statements are prepared once per connection and cached by SQL text; params are
 * positional (?). Every function throws an Error carrying the host's message (it names the SQL) on failure.
 */
export const db = {
  /** All rows of sql as objects keyed by column name. */
  all<T = Record<string, unknown>>(sql: string, ...ps: Param[]): T[] {
    return rows(JSON.parse(str(__host.all(sql, params(ps))))) as T[];
  },
  /** The first row of sql, or null when there is none. */
  get<T = Record<string, unknown>>(sql: string, ...ps: Param[]): T | null {
    return JSON.parse(str(__host.get(sql, params(ps))));
  },
  /** Runs sql once; returns the number of rows changed. */
  run(sql: string, ...ps: Param[]): number {
    return num(__host.run(sql, params(ps)));
  },
  /**
   * Runs the prepared sql once per params list, each its own execution (TFB queries test: one query per row),
   * in one crossing; returns the first row of each execution, or null where it had none.
   */
  batch<T = Record<string, unknown>>(sql: string, paramsList: Param[][]): (T | null)[] {
    return JSON.parse(str(__host.batch(sql, JSON.stringify(paramsList))));
  },
  /**
   * Runs sql once per params list inside one BEGIN IMMEDIATE ... COMMIT transaction (ROLLBACK and throw on any
   * error); returns the total number of rows changed.
   */
  tx(sql: string, paramsList: Param[][]): number {
    return num(__host.tx(sql, JSON.stringify(paramsList)));
  },
};

// Row makers by column list: a function (values, start) => the row object, compiled once per list of names, so
// every row of a result is a literal of one shape (what JSON.parse of objects would make, ~5 times faster).
const makers = new Map<string, (a: unknown[], j: number) => Record<string, unknown>>();

function maker(names: string[]): (a: unknown[], j: number) => Record<string, unknown> {
  const key = names.join("\u0000");
  let m = makers.get(key);
  if (m === undefined) {
    // Each name is a quoted key, or a computed one for __proto__ (a literal would set the prototype). A repeated
    // name keeps its last value, as JSON.parse does.
    const fields = names.map((n, k) => (n === "__proto__" ? `["__proto__"]` : JSON.stringify(n)) + ": a[j + " + k + "]");
    m = new Function("a", "j", "return {" + fields.join(", ") + "};") as (a: unknown[], j: number) => Record<string, unknown>;
    if (makers.size < 1024) makers.set(key, m);
  }
  return m;
}

// rows turns __host.all's flat array, [names, ...values row by row], into row objects.
function rows(a: unknown[]): Record<string, unknown>[] {
  const names = a[0] as string[];
  const n = names.length;
  if (n === 0) return [];
  const make = maker(names);
  const out = new Array((a.length - 1) / n);
  for (let i = 0, j = 1; i < out.length; i++, j += n) out[i] = make(a, j);
  return out;
}

function status(code: number): string {
  if (code === 200) return "200\n";
  if (!Number.isInteger(code) || code < 100 || code > 599) throw new RangeError(`HTTP status ${code}: want 100..599`);
  return code + "\n";
}

/** A JSON response: value serialized once with JSON.stringify, Content-Type application/json. */
export function json(value: unknown, code = 200): Frame {
  return status(code) + "application/json\n" + JSON.stringify(value);
}

/** A plain-text response of s, Content-Type text/plain; charset=utf-8. */
export function text(s: string, code = 200): Frame {
  return status(code) + "text/plain; charset=utf-8\n" + s;
}

/**
 * An HTML response, Content-Type text/html; charset=utf-8. page is a JSX node (rendered with escaping; a Promise
 * frame when it holds async components) or a string of trusted HTML used as is. "<!DOCTYPE html>" is put in
 * front when the page's root element is <html>.
 */
export function html(page: Child, code = 200): Frame | Promise<Frame> {
  // "~" after the status: the body is a byte string (jsx.ts, Pages are byte strings).
  const head = (ENGINE_BYTE_PAGES ? status(code).slice(0, -1) + "~\n" : status(code)) + "text/html; charset=utf-8\n";
  const r = typeof page === "string" ? raw(page).html : renderChild(page);
  const body = typeof r === "string" ? settle(r) : r.then(settle);
  if (typeof body === "string") {
    // A page made by an element says whether it is <html> (Markup.doc): its text is not read, which would flatten it.
    const doc = page instanceof Markup ? page.doc : -1;
    return head + (doc === 1 ? DOCTYPE + body : doc === 0 ? body : doctype(body));
  }
  return body.then((b) => head + doctype(b));
}

declare const ENGINE_BYTE_PAGES: boolean; // bundle.Options.TwoBytePages: false

/** Where htmlStream() puts the parts in its page: a marker no escaped text can hold (NUL is never in markup). */
const SLOT = "\u0000engine:slot\u0000";

/**
 * A streamed HTML page, for a route that exports `stream = true` (the server answers it 200, text/html;
 * charset=utf-8, chunked): page(slot) is rendered with slot where the parts go; its HTML up to the slot is written
 * at once ("<!DOCTYPE html>" in front as html() puts it), then each part in order, each written as soon as its
 * function returned it (the function reads its own data), then the rest of the page is the frame's body. Every
 * write is one chunk the server flushes before the render goes on; a render that is not streamed (tests,
 * benchmarks) gets the whole page in its frame. The page and the parts must render synchronously (no async
 * components: there is no event loop to wait on). Throws when the page has no slot, or when a write fails (the
 * client went away).
 */
export function htmlStream(page: (slot: Child) => Child, parts: Array<() => Child>): Frame {
  const whole = sync(renderChild(page(new Markup(SLOT))), "the page");
  const at = whole.indexOf(SLOT);
  if (at < 0) throw new Error("stream: the page did not render its slot");
  const flag = ENGINE_BYTE_PAGES ? "1" : "";
  write(doctype(whole.slice(0, at)), flag);
  for (let k = 0; k < parts.length; k++) write(sync(renderChild(parts[k]()), `part ${k}`), flag);
  const head = (ENGINE_BYTE_PAGES ? "200~\n" : "200\n") + "text/html; charset=utf-8\n";
  return head + whole.slice(at + SLOT.length);
}

// sync requires a synchronous render of what (with no pending markers) and returns its HTML.
function sync(r: string | Promise<string>, what: string): string {
  const s = typeof r === "string" ? settle(r) : r;
  if (typeof s !== "string") throw new Error(`stream: ${what} rendered asynchronously; a streamed part must render synchronously`);
  return s;
}

// write hands one chunk to the server (flushed to the client on a streamed response).
function write(chunk: string, bytes: string): void {
  str(__host.write(chunk, bytes));
}

const DOCTYPE = "<!DOCTYPE html>";

function doctype(b: string): string {
  if (b.startsWith("<html")) {
    const c = b.charCodeAt(5);
    if (c === 62 || c === 32) return DOCTYPE + b; // "<html>" or "<html ..."
  }
  return b;
}

// The engine's JSX runtime: h/Fragment render eagerly to HTML strings, no DOM, no hydration markup.
//
// h() renders its element at once and returns a Markup (HTML that is already escaped), so a page is built bottom-up
// by string concatenation (V8 ropes) with one small object per element. Text children and attribute values are
// escaped (& < > " '); null, undefined, true and false children render nothing; arrays are flattened. A component
// (or a child) that is a Promise makes its ancestors Promises too: the sync path never allocates a Promise.

/**
 * Rendered, escaped HTML as a byte string (each character one byte of its UTF-8). Only the JSX functions, Fragment
 * and raw() make one; any other string child is text and is escaped.
 */
export class Markup {
  /** The HTML text. */
  readonly html: string;
  /**
   * What html() puts in front of a page made of it, known without reading the text (reading the start of a long
   * rope flattens all of it): 1 an <html> element (the doctype), 0 another element (nothing), -1 not known.
   */
  readonly doc: number;
  constructor(html: string, doc = -1) {
    this.html = html;
    this.doc = doc;
  }
  toString(): string {
    return this.html;
  }
}

/** What may appear as a JSX child: text, numbers, markup, nothing (null/undefined/booleans), arrays, promises. */
export type Child = Markup | string | number | bigint | boolean | null | undefined | Child[] | PromiseLike<Child>;

/** What a component or h() returns: markup, or a Promise of it when something below was async. */
export type Node = Markup | Promise<Markup>;

/** A function component: receives its props with `children` (one child unwrapped, several as an array). */
export type Component<P = any> = (props: P & { children?: Child }) => Child;

declare global {
  // Types for editors only (esbuild does not type-check): any intrinsic element with any attributes.
  namespace JSX {
    type Element = Node;
    interface IntrinsicElements {
      [tag: string]: any;
    }
    interface ElementChildrenAttribute {
      children: {};
    }
  }
}

const ESCAPE_RE = /[&<>"']/;

// ESCAPES[c] is the entity of char code c when c needs escaping (& < > " '), else undefined; codes above 62 never do.
const ESCAPES: Array<string | undefined> = [];
ESCAPES[38] = "&amp;";
ESCAPES[60] = "&lt;";
ESCAPES[62] = "&gt;";
ESCAPES[34] = "&quot;";
ESCAPES[39] = "&apos;";

/**
 * HTML-escapes & < > " ' in s as &amp; &lt; &gt; &quot; &apos; (the forms of TFB's fortunes-expected.html), for
 * text and for double-quoted attribute values. Returns s itself when nothing needs escaping.
 */
export function escapeHTML(s: string): string {
  const n = s.length;
  let i = 0;
  if (n <= 32) {
    // Short strings (numbers, class names, most text cells): a char loop beats a RegExp call.
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c <= 62 && ESCAPES[c] !== undefined) break;
    }
    if (i === n) return s;
  } else {
    const m = ESCAPE_RE.exec(s);
    if (m === null) return s;
    i = m.index;
  }
  let out = i === 0 ? "" : s.slice(0, i);
  let last = i;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    const rep = c <= 62 ? ESCAPES[c] : undefined;
    if (rep === undefined) continue;
    if (last !== i) out += s.slice(last, i);
    out += rep;
    last = i + 1;
  }
  return last === n ? out : out + s.slice(last);
}

// Pages are byte strings (frameworks/engine/README.md, Pages as byte strings): every character of a Markup's html is one byte of the page's UTF-8,
// so text with characters above U+007F is stored as its UTF-8 bytes, one Latin-1 character each. A page then stays
// a one-byte V8 string however many non-Latin-1 messages it holds (one such message used to make the whole page a
// two-byte string, converted from UTF-16 on its way out), and the Go runtime takes the bytes back from the frame
// (a status line ending in "~", runtime.parseFrame).
declare const ENGINE_BYTE_PAGES: boolean; // bundle.Options.TwoBytePages: false
const HIGH_RE = /[\u0080-\uffff]/;

/** The UTF-8 bytes of s, one character each (lone surrogates become U+FFFD). */
export function utf8Bytes(s: string): string {
  const m = HIGH_RE.exec(s);
  return m === null ? s : bytesFrom(s, m.index);
}

// bytesFrom is utf8Bytes of s whose first character above U+007F is at i. It builds the result from char codes:
// a slice of s would be a two-byte string again (V8 keeps a substring in its parent's width), and so would
// everything it is concatenated with.
function bytesFrom(s: string, i: number): string {
  const n = s.length;
  const codes: number[] = [];
  for (let k = 0; k < i; k++) codes.push(s.charCodeAt(k));
  for (; i < n; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      codes.push(c);
    } else if (c < 0x800) {
      codes.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    } else {
      if (c >= 0xd800 && c < 0xe000) {
        const d = i + 1 < n ? s.charCodeAt(i + 1) : 0;
        if (c < 0xdc00 && d >= 0xdc00 && d < 0xe000) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
          codes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
          continue;
        }
        c = 0xfffd;
      }
      codes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
  }
  let out = "";
  for (let k = 0; k < codes.length; k += 8192) out += String.fromCharCode.apply(null, codes.slice(k, k + 8192));
  return out;
}

/** The text of a byte string (utf8Bytes reversed): itself when it is ASCII. */
export function fromBytes(s: string): string {
  return HIGH_RE.test(s) ? decodeURIComponent(escape(s)) : s;
}

/** Text as page bytes: HTML-escaped (escapeHTML), characters above U+007F as their UTF-8 bytes. */
export function text(s: string): string {
  if (!ENGINE_BYTE_PAGES) return escapeHTML(s);
  const n = s.length;
  if (n > 32) {
    // Long text: two RegExp scans (native) beat a loop of charCodeAt; most text needs neither.
    const h = HIGH_RE.exec(s);
    if (h === null) return ESCAPE_RE.test(s) ? escapeHTML(s) : s;
    const e = ESCAPE_RE.test(s) ? escapeHTML(s) : s;
    return bytesFrom(e, e === s ? h.index : HIGH_RE.exec(e)!.index);
  }
  let esc = false;
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128) break;
    if (c <= 62 && ESCAPES[c] !== undefined) esc = true;
  }
  if (i === n) return esc ? escapeHTML(s) : s;
  const e = escapeHTML(s);
  return bytesFrom(e, HIGH_RE.exec(e)!.index);
}

/**
 * Marks s as trusted HTML: it is inserted as is, never escaped (characters above U+007F become the page's UTF-8
 * bytes). Never pass request or database text to it.
 */
export function raw(s: string): Markup {
  return new Markup(ENGINE_BYTE_PAGES && HIGH_RE.test(s) ? utf8Bytes(s) : s);
}

/** The fragment `<>...</>`: renders its children with no element around them. */
export function Fragment(props: { children?: Child }): Node {
  return toMarkup(renderChild(props.children));
}

// HTML void elements (HTML Living Standard, 13.1.2): rendered as <br>, never closed, no children.
const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);

/** A tag name's rendering: "<tag" and "</tag>", and whether it is a void element. */
interface Tag {
  open: string;
  close: string;
  isVoid: boolean;
}

// Tag name -> its Tag, filled on first use after validating the name. Attribute name -> ' name="'.
const tags = new Map<string, Tag>();
const attrs = new Map<string, string>();
const CACHE_MAX = 4096; // entries per cache; names beyond it are validated on every use

const TAG_RE = /^[a-zA-Z][a-zA-Z0-9-]*$/;
// HTML attribute names: no whitespace, controls, " ' > / = (HTML Living Standard, 13.1.2.3).
const ATTR_RE = /^[^\s\u0000-\u001f\u007f"'>\/=]+$/;

function tagOf(tag: string): Tag {
  let t = tags.get(tag);
  if (t !== undefined) return t;
  if (!TAG_RE.test(tag)) throw new TypeError(`invalid element name ${JSON.stringify(tag)}`);
  t = { open: "<" + tag, close: "</" + tag + ">", isVoid: VOID.has(tag.toLowerCase()) };
  if (tags.size < CACHE_MAX) tags.set(tag, t);
  return t;
}

function attrPrefix(name: string): string {
  let p = attrs.get(name);
  if (p !== undefined) return p;
  if (!ATTR_RE.test(name)) throw new TypeError(`invalid attribute name ${JSON.stringify(name)}`);
  p = " " + (name === "className" ? "class" : name === "htmlFor" ? "for" : name) + '="';
  if (ENGINE_BYTE_PAGES && HIGH_RE.test(p)) p = utf8Bytes(p);
  if (attrs.size < CACHE_MAX) attrs.set(name, p);
  return p;
}

/**
 * One attribute as it renders: ' name="value"' for a string (escaped) or number, ' name' for true, "" for false,
 * null, undefined and functions (event handlers mean nothing without a DOM). Throws a TypeError for an object.
 */
function attribute(type: string, k: string, v: unknown): string {
  switch (typeof v) {
    case "string":
      return attrPrefix(k) + text(v) + '"';
    case "number":
    case "bigint":
      return attrPrefix(k) + v + '"';
    case "boolean":
      return v ? attrPrefix(k).slice(0, -2) : "";
    case "undefined":
    case "function":
      return "";
  }
  if (v === null) return "";
  if (v instanceof Markup) return attrPrefix(k) + escapeHTML(v.html) + '"';
  throw new TypeError(`<${type}> attribute ${k}: ${typeof v} value (want string, number or boolean)`);
}

/**
 * The JSX factory of the classic transform (jsxFactory "h", and createElement). For an element tag it returns the
 * rendered element; for a component it calls the component with props plus `children` (set on the props object
 * itself, which JSX creates fresh for every call) and returns what the component returns. Attributes: strings
 * and numbers are escaped into name="value"; true renders the bare name; false, null, undefined and functions
 * are left out; `key` and `children` are not attributes; className and htmlFor become class and for. Throws a
 * TypeError for an invalid tag or attribute name, children on a void element, or an attribute value that is an
 * object.
 */
export function h(type: string | Component, props: Record<string, any> | null, ...children: Child[]): any {
  const n = children.length;
  if (typeof type === "function") {
    if (type === Fragment && n !== 0) return toMarkup(renderChildren(children));
    // props is the fresh object literal of the JSX call site, so children are added to it in place (copying
    // with {...props} made a component call ~8x slower in V8 13).
    if (props === null) props = {};
    if (n !== 0) props.children = n === 1 ? children[0] : children;
    return type(props);
  }
  if (n === 0) return element(type, props, props === null ? undefined : props.children);
  return element(type, props, n === 1 ? children[0] : children, true);
}

/** Renders the element type with props' attributes and inner (props.children, or the classic children). */
function element(type: string, props: Record<string, any> | null, inner: unknown, childArgs = false): Node {
  const t = tagOf(type);
  let s = t.open;
  if (props !== null) {
    for (const k in props) {
      if (k === "children" || k === "key") continue;
      const v = props[k];
      if (v !== undefined && v !== null && v !== false) s += attribute(type, k, v);
    }
  }
  if (t.isVoid) {
    if (childArgs || inner != null) throw new TypeError(`<${type}> is a void element and cannot have children`);
    return new Markup(s + ">", 0);
  }
  const doc = type === "html" ? 1 : 0;
  const body = renderChild(inner);
  if (typeof body === "string") return new Markup(s + ">" + body + t.close, doc);
  const open = s + ">";
  return body.then((b) => new Markup(open + b + t.close, doc));
}

/**
 * The automatic runtime's factory (esbuild jsx "automatic", import source "engine": engine/jsx-runtime): children
 * come in props.children and the key apart. Renders as h does.
 */
export function jsx(type: string | Component, props: Record<string, any>, _key?: unknown): any {
  if (typeof type === "function") return type(props);
  return element(type, props, props.children);
}

function toMarkup(r: string | Promise<string>): Node {
  return typeof r === "string" ? new Markup(r) : r.then((s) => new Markup(s));
}

/**
 * Renders any child to HTML: a string (escaped text), or a Promise of one when the child or something inside it is
 * a Promise. Throws a TypeError for a child that is a function, symbol or a plain object.
 */
export function renderChild(c: unknown): string | Promise<string> {
  switch (typeof c) {
    case "string":
      return text(c);
    case "number":
    case "bigint":
      return "" + c;
    case "boolean":
    case "undefined":
      return "";
    case "object":
      if (c === null) return "";
      if (c instanceof Markup) return c.html;
      if (Array.isArray(c)) return renderChildren(c);
      if (typeof (c as PromiseLike<unknown>).then === "function") {
        return Promise.resolve(c as PromiseLike<unknown>).then(renderChild);
      }
  }
  throw new TypeError(`cannot render a ${typeof c} as a JSX child (${Object.prototype.toString.call(c)})`);
}

function renderChildren(cs: readonly unknown[]): string | Promise<string> {
  let s = "";
  for (let i = 0; i < cs.length; i++) {
    const r = renderChild(cs[i]);
    if (typeof r !== "string") return renderRest(s, r, cs, i + 1);
    s += r;
  }
  return s;
}

// The async tail of renderChildren: the children from i on, after the first pending one.
async function renderRest(s: string, pending: Promise<string>, cs: readonly unknown[], i: number): Promise<string> {
  s += await pending;
  for (; i < cs.length; i++) {
    const r = renderChild(cs[i]);
    s += typeof r === "string" ? r : await r;
  }
  return s;
}

/**
 * Renders a JSX node (or any child) to an HTML string, or to a Promise of one when an async component was met.
 */
export function renderToString(node: Child): string | Promise<string> {
  const r = renderChild(node);
  const s = typeof r === "string" ? settle(r) : r.then(settle);
  if (!ENGINE_BYTE_PAGES) return s;
  return typeof s === "string" ? fromBytes(s) : s.then(fromBytes);
}

// Precompiled elements (bundle/precompile.go) are string concatenations, which cannot wait for a Promise: a child
// that renders to one is stood in for by a marker, NUL + nonce + ":" + id + NUL, its Promise kept in waiting.
// settle, at the end of the render (html(), renderToString), awaits them and puts their HTML in the markers' place.
const NONCE = Math.random().toString(36).slice(2, 10);
const MARKER = "\u0000" + NONCE + ":";
const MARKER_RE = new RegExp("\u0000" + NONCE + ":(\\d+)\u0000", "g");
const waiting = new Map<number, Promise<string>>();
let nextID = 0;

/** Forgets the markers of an earlier render (entry.ts calls it before every render). */
export function resetPending(): void {
  if (waiting.size !== 0) waiting.clear();
  nextID = 0;
}

/** The HTML of s with every marker replaced by its Promise's HTML: s itself when none is waiting. */
export function settle(s: string): string | Promise<string> {
  if (waiting.size === 0) return s;
  return settleAsync(s);
}

async function settleAsync(s: string): Promise<string> {
  // A Promise's HTML may hold markers of its own: replace until none is left.
  while (s.indexOf(MARKER) !== -1) {
    const ids = [...s.matchAll(MARKER_RE)].map((m) => +m[1]);
    const html = await Promise.all(ids.map((id) => waiting.get(id) ?? Promise.resolve("")));
    const byID = new Map(ids.map((id, k) => [id, html[k]]));
    s = s.replace(MARKER_RE, (_m, id) => byID.get(+id) ?? "");
  }
  waiting.clear();
  return s;
}

/** A precompiled element's HTML as markup (bundle/precompile.go); doc is 1 for an <html> element. */
export function jsxMarkup(html: string, doc?: number): Markup {
  return new Markup(html, doc === 1 ? 1 : 0);
}

/**
 * A precompiled element's attribute whose value is not a literal: prefix is ' name="', at is "tag key" for the
 * error message. Renders as the runtime's attributes do.
 */
export function jsxAttr(prefix: string, v: unknown, at: string): string {
  switch (typeof v) {
    case "string":
      return prefix + text(v) + '"';
    case "number":
    case "bigint":
      return prefix + v + '"';
    case "boolean":
      return v ? prefix.slice(0, -2) : "";
    case "undefined":
    case "function":
      return "";
  }
  if (v === null) return "";
  if (v instanceof Markup) return prefix + escapeHTML(v.html) + '"';
  const sp = at.indexOf(" ");
  throw new TypeError(`<${at.slice(0, sp)}> attribute ${at.slice(sp + 1)}: ${typeof v} value (want string, number or boolean)`);
}

/** A precompiled element's child that is not a literal: its HTML, or a marker when it renders to a Promise. */
export function jsxChild(c: unknown): string {
  const r = renderChild(c);
  if (typeof r === "string") return r;
  const id = nextID++;
  waiting.set(id, r);
  return MARKER + id + "\u0000";
}

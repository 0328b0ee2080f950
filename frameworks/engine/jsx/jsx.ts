// The engine's JSX runtime: h/Fragment render eagerly to HTML strings, no DOM, no hydration markup.
//
// h() renders its element at once and returns a Markup (HTML that is already escaped), so a page is built bottom-up
// by string concatenation (V8 ropes) with one small object per element. Text children and attribute values are
// escaped (& < > " '); null, undefined, true and false children render nothing; arrays are flattened. A component
// (or a child) that is a Promise makes its ancestors Promises too: the sync path never allocates a Promise.

/** Rendered, escaped HTML. Only h(), Fragment and raw() make one; any other string child is text and is escaped. */
export class Markup {
  /** The HTML text. */
  readonly html: string;
  constructor(html: string) {
    this.html = html;
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

/**
 * HTML-escapes & < > " ' in s as &amp; &lt; &gt; &quot; &apos; (the forms of TFB's fortunes-expected.html), for
 * text and for double-quoted attribute values. Returns s itself when nothing needs escaping.
 */
export function escapeHTML(s: string): string {
  const m = ESCAPE_RE.exec(s);
  if (m === null) return s;
  let out = "";
  let last = 0;
  for (let i = m.index; i < s.length; i++) {
    let rep: string;
    switch (s.charCodeAt(i)) {
      case 38: rep = "&amp;"; break;
      case 60: rep = "&lt;"; break;
      case 62: rep = "&gt;"; break;
      case 34: rep = "&quot;"; break;
      case 39: rep = "&apos;"; break;
      default: continue;
    }
    if (last !== i) out += s.slice(last, i);
    out += rep;
    last = i + 1;
  }
  return last === s.length ? out : out + s.slice(last);
}

/** Marks s as trusted HTML: it is inserted as is, never escaped. Never pass request or database text to it. */
export function raw(s: string): Markup {
  return new Markup(s);
}

/** The fragment `<>...</>`: renders its children with no element around them. */
export function Fragment(props: { children?: Child }): Node {
  return toMarkup(renderChild(props.children));
}

// HTML void elements (HTML Living Standard, 13.1.2): rendered as <br>, never closed, no children.
const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);

// Tag name -> 1 void, 0 normal; filled on first use after validating the name. Attribute name -> ' name="'.
const tags = new Map<string, number>();
const attrs = new Map<string, string>();
const CACHE_MAX = 4096; // entries per cache; names beyond it are validated on every use

const TAG_RE = /^[a-zA-Z][a-zA-Z0-9-]*$/;
// HTML attribute names: no whitespace, controls, " ' > / = (HTML Living Standard, 13.1.2.3).
const ATTR_RE = /^[^\s\u0000-\u001f\u007f"'>\/=]+$/;

function tagKind(tag: string): number {
  let k = tags.get(tag);
  if (k !== undefined) return k;
  if (!TAG_RE.test(tag)) throw new TypeError(`invalid element name ${JSON.stringify(tag)}`);
  k = VOID.has(tag.toLowerCase()) ? 1 : 0;
  if (tags.size < CACHE_MAX) tags.set(tag, k);
  return k;
}

function attrPrefix(name: string): string {
  let p = attrs.get(name);
  if (p !== undefined) return p;
  if (!ATTR_RE.test(name)) throw new TypeError(`invalid attribute name ${JSON.stringify(name)}`);
  p = " " + (name === "className" ? "class" : name === "htmlFor" ? "for" : name) + '="';
  if (attrs.size < CACHE_MAX) attrs.set(name, p);
  return p;
}

/**
 * The JSX factory (esbuild jsxFactory "h"). For an element tag it returns the rendered element; for a component
 * it calls the component with props plus `children` (set on the props object itself, which JSX creates fresh for
 * every call) and returns what the component returns. Attributes: strings
 * and numbers are escaped into name="value"; true renders the bare name; false, null, undefined and functions
 * (event handlers mean nothing without a DOM) are left out; `key` and `children` are not attributes; className
 * and htmlFor become class and for. Throws a TypeError for an invalid tag or attribute name, children on a void
 * element, or an attribute value that is an object.
 */
export function h(type: string | Component, props: Record<string, any> | null, ...children: Child[]): any {
  if (typeof type === "function") {
    const n = children.length;
    if (type === Fragment && n !== 0) return toMarkup(renderChildren(children));
    // props is the fresh object literal of the JSX call site, so children are added to it in place (copying
    // with {...props} made a component call ~8x slower in V8 13).
    if (props === null) props = {};
    if (n !== 0) props.children = n === 1 ? children[0] : children;
    return type(props);
  }
  const isVoid = tagKind(type);
  let s = "<" + type;
  let inner: Child = children;
  if (props !== null) {
    for (const k in props) {
      const v = props[k];
      if (k === "children") {
        if (children.length === 0) inner = v;
        continue;
      }
      if (v === null || v === undefined || v === false || k === "key") continue;
      switch (typeof v) {
        case "string":
          s += attrPrefix(k) + escapeHTML(v) + '"';
          break;
        case "number":
        case "bigint":
          s += attrPrefix(k) + v + '"';
          break;
        case "boolean":
          s += attrPrefix(k).slice(0, -2);
          break;
        case "function":
          break;
        default:
          if (v instanceof Markup) s += attrPrefix(k) + escapeHTML(v.html) + '"';
          else throw new TypeError(`<${type}> attribute ${k}: ${typeof v} value (want string, number or boolean)`);
      }
    }
  }
  if (isVoid === 1) {
    if (children.length !== 0 || (inner !== children && inner != null)) {
      throw new TypeError(`<${type}> is a void element and cannot have children`);
    }
    return new Markup(s + ">");
  }
  const body = inner === children ? renderChildren(children) : renderChild(inner);
  if (typeof body === "string") return new Markup(s + ">" + body + "</" + type + ">");
  const open = s + ">";
  return body.then((b) => new Markup(open + b + "</" + type + ">"));
}

function toMarkup(r: string | Promise<string>): Node {
  return typeof r === "string" ? new Markup(r) : r.then((s) => new Markup(s));
}

/**
 * Renders any child to HTML: a string (escaped text), or a Promise of one when the child or something inside it is
 * a Promise. Throws a TypeError for a child that is a function, symbol or a plain object.
 */
export function renderChild(c: unknown): string | Promise<string> {
  if (c instanceof Markup) return c.html;
  switch (typeof c) {
    case "string":
      return escapeHTML(c);
    case "number":
    case "bigint":
      return "" + c;
    case "boolean":
    case "undefined":
      return "";
    case "object":
      if (c === null) return "";
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
  return renderChild(node);
}

// The "engine" module that routes import: import { h, Fragment, json, text, html, db, request } from "engine".
// bundle.Build resolves the specifier "engine" to this file. createElement is what esbuild's automatic runtime
// calls for a key after a spread (<a {...p} key="k" />).

export { h, h as createElement, Fragment, Markup, raw, escapeHTML, renderToString } from "./jsx";
export type { Child, Component, Node } from "./jsx";
export { request, db, json, text, html, htmlStream } from "./host";
export type { Frame, Param } from "./host";

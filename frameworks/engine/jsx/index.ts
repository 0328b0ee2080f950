// The "engine" module that routes import: import { h, Fragment, json, text, html, db, request } from "engine".
// bundle.Build resolves the specifier "engine" to this file.

export { h, Fragment, Markup, raw, escapeHTML, renderToString } from "./jsx";
export type { Child, Component, Node } from "./jsx";
export { request, db, json, text, html } from "./host";
export type { Frame, Param } from "./host";

// The automatic JSX runtime (esbuild jsx "automatic", import source "engine"): bundle.Build resolves the specifier
// "engine/jsx-runtime" to this file, and esbuild calls jsx/jsxs with children inside props.
// jsxMarkup, jsxAttr and jsxChild are what precompiled elements call (bundle/precompile.go).
export { jsx, jsx as jsxs, Fragment, jsxMarkup, jsxAttr, jsxChild } from "./jsx";

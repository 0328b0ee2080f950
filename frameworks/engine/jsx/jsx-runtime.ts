// The automatic JSX runtime (esbuild jsx "automatic", import source "engine"): bundle.Build resolves the specifier
// "engine/jsx-runtime" to this file, and esbuild calls jsx/jsxs with children inside props.
export { jsx, jsx as jsxs, Fragment } from "./jsx";

// Package jsx embeds the render engine's TypeScript library: the JSX runtime (h, Fragment, string rendering with
// HTML escaping, async components), the host API wrappers and response helpers that routes import from "engine",
// and the bundle entry that defines globalThis.__engine (runtime/doc.go). bundle.Build compiles it into
// every app bundle; this package holds no Go logic.
package jsx

import "embed"

// FS holds index.ts (the "engine" module), jsx.ts, jsx-runtime.ts ("engine/jsx-runtime"), host.ts and entry.ts at
// its root.
//
//go:embed index.ts jsx.ts jsx-runtime.ts host.ts entry.ts
var FS embed.FS

// Index is the file in FS that the import specifier "engine" resolves to.
const Index = "index.ts"

// Runtime is the file in FS that "engine/jsx-runtime", the automatic JSX runtime, resolves to.
const Runtime = "jsx-runtime.ts"

// Entry is the file in FS whose start(routes) defines globalThis.__engine; bundle.Build's generated entry imports it.
const Entry = "entry.ts"

// Package runtime is the render engine's pool of V8 isolates
// (github.com/tommie/v8go): it runs the bundled TSX app, one long-lived
// context per isolate, and gives it C SQLite through host functions
// (docs/design.md, The render engine; frameworks/engine/README.md).
//
// The bundle (Config.Script) must define globalThis.__engine with meta()
// (a JSON route table: path, file, revalidate seconds, stream) and render(i) (a frame string
// "<status>\n<content-type>\n<body>", or a Promise of one; a status
// followed by "~", "200~", marks a body whose characters are each one byte
// of its UTF-8, as the engine library writes HTML pages). This comment is
// that contract. Each context has a global __host object whose functions
// take and return strings or numbers only:
//
//	__host.method(), __host.path()      the current request ("" outside a render)
//	__host.query(name)                  first query value or ""
//	__host.header(name)                 header value (canonical lookup) or ""
//	__host.all(sql, paramsJSON)         one flat JSON array: the column names,
//	                                    then the rows' values in column order
//	                                    ([["id","n"],1,7,2,9]: rows {id:1,n:7}, {id:2,n:9})
//	__host.get(sql, paramsJSON)         first row as a JSON object, or "null"
//	__host.run(sql, paramsJSON)         number of changed rows
//	__host.batch(sql, paramsListJSON)   JSON array, one result per params list, each
//	                                    its own execution: row object or null (for a
//	                                    statement without result columns, its changes)
//	__host.tx(sql, paramsListJSON)      BEGIN IMMEDIATE, one execution per params
//	                                    list, COMMIT (ROLLBACK on error); total changes
//	__host.log(level, text)             a line to Config.Log with the route's path
//	                                    (globalThis.console, defined before the bundle)
//	__host.write(chunk, bytes)          one chunk of a streamed page (bytes "1": a byte
//	                                    string), sent through Request.Write before
//	                                    it returns, or kept for the frame's body
//
// Every JSON result is ASCII: other characters come as \u escapes, so V8
// keeps the text and the strings JSON.parse makes of it one-byte where
// they can be. paramsJSON is a JSON array of positional params (numbers, strings,
// booleans, null; integral numbers bind as INTEGER); "" or undefined means
// none. The number of params must equal the statement's. Statements are
// prepared once per connection and cached by SQL text. A failing host
// function never throws: it returns "\u0000ERR:" followed by
// "__host.<name>: <message>", and the JS wrapper throws it as an Error.
//
// A Promise result is settled with a microtask checkpoint, so an async
// render may await promises and host calls but nothing that needs an event
// loop (there are no timers). A render running past Config.RenderTimeout
// is terminated (TimeoutError) and its isolate serves the next one. Every
// v8go value a render creates is released when it ends; Pool.Retained stays
// constant.
package runtime

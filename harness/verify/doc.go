// Package verify checks a running framework server against the rules of the
// six TechEmpower tests (json, plaintext, db, queries, fortunes, updates) as
// docs/tfb-rules.md states them, and of tfbench's page test, before any load is
// applied, and checks single responses under load with the same
// per-response rules.
//
// Every check ends in a verdict, pass, warn or fail, with human-readable
// reasons that name the request ("GET /queries?queries=0: ...") and the rule
// they come from ("(TFB rules, queries: clamp to 1..500)"). A failed test is
// not measured; a warned test is measured and the report shows the warning.
//
// Verdict policy, in one line: where TFB's own verifier fails a response,
// tfbench fails it too; where tfbench is stricter than TFB (integer types,
// exact key and value spelling, the RFC 7231 Date form), it warns, so the test
// is still measured and the reader sees why it was flagged. The one deliberate
// exception is markup around a correct fortunes table (a React root <div>,
// Astro or Qwik wrappers): TFB fails it, tfbench warns and reports the page's
// size in bytes (Result.PageBytes).
//
// Beyond TFB, verification closes two loopholes on the framework's own
// database copy (Target.DatabasePath, SQLite in WAL mode): the updates test
// must change the World rows it returns, and the fortunes test must show a
// Fortune row inserted just before the request (a cached page fails).
//
// The page test (tfbench's SSR page, /ssr?rows=N) is not TFB's: its first
// <table> must hold World rows 1..N as the copy holds them (PageResponse,
// PageChecker under load, against ReadWorld), and a World row changed just
// before a request must show its new value (docs/tfb-rules.md, page).
package verify

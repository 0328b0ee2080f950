// Package verify checks a running framework server against the rules of the
// six TechEmpower tests and tfbench's page test (docs/tfb-rules.md) before
// any load, and every response under load (LoadChecker) by the same rules,
// fitted per test type.
//
// Each check ends in pass, warn or fail, with reasons naming the request and
// rule (docs/verification.md): where TFB's verifier fails, tfbench fails;
// where tfbench is stricter (or markup wraps a correct fortunes table) it
// warns. Rows changed in the server's database copy must show (no caching).
package verify

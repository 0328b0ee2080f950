// The stream page's parameters (tfbench stream contract, docs/ssr.md),
// shared by server and client (no database import): rows as the page
// test's pageRows, parts missing or non-numeric → 4, clamped to 1..16 and
// to rows; part k holds World ids floor(k*N/K)+1 .. floor((k+1)*N/K).

/** Upper clamp of the rows parameter (as /ssr). */
const MAX_ROWS = 10000;

/** Upper clamp and default of the parts parameter. */
const MAX_PARTS = 16;
const DEFAULT_PARTS = 4;

/** The first value of a router search param (a repeated one is an array). */
function first(raw) {
  return Array.isArray(raw) ? raw[0] : raw;
}

/** An integer from a raw search param (optional sign and digits), or fallback. */
function integer(raw, fallback) {
  raw = first(raw);
  if (typeof raw !== 'string' || !/^[+-]?\d+$/.test(raw)) return fallback;
  return Number(raw);
}

/** [{part, first, last}] for the raw rows and parts search params. */
export function streamParts(rawRows, rawParts) {
  const n = Math.min(Math.max(integer(rawRows, 1), 1), MAX_ROWS);
  const k = Math.min(Math.max(integer(rawParts, DEFAULT_PARTS), 1), MAX_PARTS, n);
  const parts = [];
  for (let i = 0; i < k; i++) {
    parts.push({ part: i, first: Math.floor((i * n) / k) + 1, last: Math.floor(((i + 1) * n) / k) });
  }
  return parts;
}

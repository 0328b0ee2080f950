/**
 * The stream page's parts (docs/ssr.md, The streamed page), with no database
 * import so the page component can use it: rows from ?rows= as the page
 * test's rowCount (missing or non-numeric 1, clamped to 1..10000), parts
 * from ?parts= (missing or non-numeric 4, clamped to 1..16 and to rows);
 * part k holds World ids floor(k*N/K)+1 .. floor((k+1)*N/K).
 */

/** Upper clamp of ?rows= (as /ssr). */
const MAX_ROWS = 10000;

/** Upper clamp and default of ?parts=. */
const MAX_PARTS = 16;
const DEFAULT_PARTS = 4;

/** One part: its index and its World ids first..last. */
export interface Part {
  part: number;
  first: number;
  last: number;
}

/** An integer from a query value (optional sign and digits), or fallback. */
function integer(raw: string | null, fallback: number): number {
  return raw === null || !/^[+-]?\d+$/.test(raw) ? fallback : Number(raw);
}

/** The parts of the stream page for the request's query. */
export function streamParts(query: URLSearchParams): Part[] {
  const n = Math.min(Math.max(integer(query.get('rows'), 1), 1), MAX_ROWS);
  const k = Math.min(Math.max(integer(query.get('parts'), DEFAULT_PARTS), 1), MAX_PARTS, n);
  const parts: Part[] = [];
  for (let i = 0; i < k; i++) parts.push({ part: i, first: Math.floor((i * n) / k) + 1, last: Math.floor(((i + 1) * n) / k) });
  return parts;
}

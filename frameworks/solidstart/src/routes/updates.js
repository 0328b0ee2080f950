// TFB updates test (an API route): N rows read, given new randomNumbers, written back.
import { queryCount, updateWorlds } from '~/lib/db.js';

/** GET /updates?queries=N: a JSON array of N (clamped to 1..500) updated World rows. */
export function GET(event) {
  const n = queryCount(new URL(event.request.url).searchParams);
  return new Response(JSON.stringify(updateWorlds(n)), {
    headers: { 'Content-Type': 'application/json' },
  });
}

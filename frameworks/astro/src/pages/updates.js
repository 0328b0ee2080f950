// TFB updates test: N rows read, given new randomNumbers, written back.
import { queryCount, updateWorlds } from '../lib/db.js';

/** GET /updates?queries=N: a JSON array of N (clamped to 1..500) updated World rows. */
export function GET({ url }) {
  return new Response(JSON.stringify(updateWorlds(queryCount(url.searchParams))), {
    headers: { 'Content-Type': 'application/json' },
  });
}

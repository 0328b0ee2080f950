// TFB queries test: N rows, each by its own query.
import { queryCount, randomWorlds } from '../lib/db.js';

/** GET /queries?queries=N: a JSON array of N (clamped to 1..500) World rows. */
export function GET({ url }) {
  return new Response(JSON.stringify(randomWorlds(queryCount(url.searchParams))), {
    headers: { 'Content-Type': 'application/json' },
  });
}

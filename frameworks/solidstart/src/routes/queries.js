// TFB queries test (an API route): N rows, each by its own query.
import { queryCount, randomWorlds } from '~/lib/db.js';

/** GET /queries?queries=N: a JSON array of N (clamped to 1..500) World rows. */
export function GET(event) {
  const n = queryCount(new URL(event.request.url).searchParams);
  return new Response(JSON.stringify(randomWorlds(n)), {
    headers: { 'Content-Type': 'application/json' },
  });
}

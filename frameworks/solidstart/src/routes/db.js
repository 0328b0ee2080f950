// TFB db test (an API route): one random World row.
import { randomWorld } from '~/lib/db.js';

/** GET /db: {"id":N,"randomNumber":M} as application/json. */
export function GET() {
  return new Response(JSON.stringify(randomWorld()), {
    headers: { 'Content-Type': 'application/json' },
  });
}

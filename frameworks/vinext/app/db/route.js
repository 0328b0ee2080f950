// TFB db test: one random World row.

import { randomWorld } from '../../lib/db.js';

export const dynamic = 'force-dynamic';

export function GET() {
  return Response.json(randomWorld());
}

// TFB queries test: N random World rows, each by its own query; N from
// ?queries=, clamped to 1..500, a bad value means 1.

import { queryCount, randomWorlds } from '../../lib/db.js';

export const dynamic = 'force-dynamic';

export function GET(request) {
  return Response.json(randomWorlds(queryCount(request.nextUrl.searchParams.get('queries'))));
}

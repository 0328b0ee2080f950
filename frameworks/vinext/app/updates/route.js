// TFB updates test: N random World rows, each given a new randomNumber that
// is written back before the response; N as in the queries test.

import { queryCount, updateWorlds } from '../../lib/db.js';

export const dynamic = 'force-dynamic';

export function GET(request) {
  return Response.json(updateWorlds(queryCount(request.nextUrl.searchParams.get('queries'))));
}

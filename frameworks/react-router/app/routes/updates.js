// TFB updates test: a resource route.
import { queryCount, updateWorlds } from '../db.server.js';

/**
 * GET /updates?queries=N: N random World rows (N clamped to 1..500), each
 * given a new randomNumber written back before the response.
 */
export function loader({ request }) {
  return Response.json(updateWorlds(queryCount(request)));
}

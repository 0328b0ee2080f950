// TFB queries test: a resource route.
import { queryCount, randomWorlds } from '../db.server.js';

/** GET /queries?queries=N: N random World rows (N clamped to 1..500), each by its own query. */
export function loader({ request }) {
  return Response.json(randomWorlds(queryCount(request)));
}

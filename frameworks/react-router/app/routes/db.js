// TFB db test: a resource route.
import { randomWorld } from '../db.server.js';

/** GET /db: one random World row as {"id":N,"randomNumber":M}. */
export function loader() {
  return Response.json(randomWorld());
}

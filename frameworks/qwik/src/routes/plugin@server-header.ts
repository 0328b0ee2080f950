/**
 * Qwik City plugin (runs before every route's handlers, pages and endpoints):
 * sets the Server header docs/tfb-rules.md requires on every response. Node's
 * http module adds Date.
 */
import type { RequestHandler } from '@builder.io/qwik-city';

/** Value of the Server header on every response: the adapter's name. */
const SERVER_NAME = 'qwik';

export const onRequest: RequestHandler = ({ headers }) => {
  headers.set('Server', SERVER_NAME);
};

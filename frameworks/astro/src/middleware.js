// Astro middleware of the tfbench astro adapter: every rendered response
// (pages, endpoints, Astro's 404) gets the Server header; Node's http
// module adds Date.
import { defineMiddleware } from 'astro:middleware';

/** Value of the Server header on every response. */
const SERVER_NAME = 'astro';

/** Sets Server on the response next() produced. */
export const onRequest = defineMiddleware(async (_context, next) => {
  const response = await next();
  response.headers.set('Server', SERVER_NAME);
  return response;
});

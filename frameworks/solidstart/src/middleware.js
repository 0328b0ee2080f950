// Request middleware of the tfbench solidstart adapter (h3 middleware,
// solidStart({ middleware }) in vite.config.js). Every response (API routes,
// pages, server functions, 404s) gets the Server header; srvx's Node server
// adds Date. SolidStart labels pages plain "text/html"; the fortunes and
// page tests require the charset, so a page's type becomes
// "text/html; charset=utf-8". Headers set on event.res override those of a
// Response an API route returns, so only that exact page type is touched.
import { createMiddleware } from '@solidjs/start/middleware';

/** Value of the Server header on every response. */
const SERVER_NAME = 'solidstart';

export default createMiddleware([
  async (event, next) => {
    event.res.headers.set('Server', SERVER_NAME);
    const body = await next();
    if (event.res.headers.get('Content-Type') === 'text/html') {
      event.res.headers.set('Content-Type', 'text/html; charset=utf-8');
    }
    return body;
  },
]);

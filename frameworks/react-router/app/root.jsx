// The root route: the HTML document around every page and the middleware
// that names the server on every response.
import { Links, Meta, Outlet, Scripts } from 'react-router';

import { SERVER_NAME } from './server-name.js';

/**
 * Server middleware runs for every request that matches a route, document
 * and resource routes alike (React Router docs, Middleware), so this one
 * place sets the Server header on the six tests' responses (entry.server.jsx
 * also sets it, for documents no route matched).
 */
async function serverHeader(_, next) {
  const response = await next();
  response.headers.set('Server', SERVER_NAME);
  return response;
}

export const middleware = [serverHeader];

/** The document: head from the routes' meta and links, then the page and the hydration scripts. */
export function Layout({ children }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}
